// inside accumulation (Gao et al. section 2 with its per-array tiles, forced by a hand-written plan), out of core: the
// planner chooses read order and tiles under a 12 KB memory; np = 1, 2, 4.
// Results against numpy einsum within 1e-12 relative.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.np1 --procs 1 --mem 12KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np1 --np 1 --spec "C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]" --extents a=8,b=8,c=8,d=8,m=6,n=4 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np2 --procs 2 --mem 12KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np2 --np 2 --spec "C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]" --extents a=8,b=8,c=8,d=8,m=6,n=4 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np4 --procs 4 --mem 12KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np4 --np 4 --spec "C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]" --extents a=8,b=8,c=8,d=8,m=6,n=4 --scratch %t.d --check-bytes | FileCheck %s
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 4, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @permuted(%A: tensor<8x6x8x4xf64>, %B: tensor<4x8x6x8xf64>, %C: tensor<8x8x8x8xf64>) -> tensor<8x8x8x8xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, m, b, n] * %B[n, c, m, d]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = accumulation, memory = per_array>}
           : tensor<8x6x8x4xf64>, tensor<4x8x6x8xf64> -> tensor<8x8x8x8xf64>
    return %r : tensor<8x8x8x8xf64>
  }
}
