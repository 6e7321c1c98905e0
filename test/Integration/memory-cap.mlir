// Memory honesty: out of core under mem = 8 MB (each process's data is 12 MB),
// every rank's peak RSS stays within 8 MB + one 4 MiB staging chunk of the fixed
// overhead (MPI, HDF5, OpenBLAS), measured as the peak RSS of the same program
// on 64 x 64 inputs.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: sed 's/1024/64/g' %s > %t.tiny.mlir
// RUN: tcc %t.tiny.mlir -o %t.tiny
// RUN: %python %tc_src/scripts/run-contraction.py %t.tiny --np 2 --spec "C[i,j] += A[i,k] * B[j,k]" --extents i=64,j=64,k=64 --save-report %t.d/tiny.json | FileCheck %s
// RUN: tcc %s -o %t.prog --plan-table - | FileCheck %s --check-prefix=PLAN
// RUN: %python %tc_src/scripts/run-contraction.py %t.prog --np 2 --spec "C[i,j] += A[i,k] * B[j,k]" --extents i=1024,j=1024,k=1024 --scratch %t.d --check-bytes --max-rss-over %t.d/tiny.json:12194304 | FileCheck %s --check-prefix=CAP
// CHECK: OK
// PLAN: {{^}}* {{ *}}{{inside|outside}}
// CAP: rank 0: peak RSS
// CAP: rank 1: peak RSS
// CAP: OK
module attributes {tc.machine = #tc.machine<procs = 2, mem = "8MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @mm(%A: tensor<1024x1024xf64>, %B: tensor<1024x1024xf64>, %C: tensor<1024x1024xf64>) -> tensor<1024x1024xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k]
           : tensor<1024x1024xf64>, tensor<1024x1024xf64> -> tensor<1024x1024xf64>
    return %r : tensor<1024x1024xf64>
  }
}
