// COSMA (forced by a hand-written plan) on a product with m much larger than n = k (section 9's largeM), np = 3 4 5, memory 64MB per
// process: results against numpy einsum within 1e-12 and every rank's bytes
// sent and received equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 3 4 5; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 64MB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=700,j=9,k=11 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-3: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @largem(%A: tensor<700x11xf64>, %B: tensor<11x9xf64>, %C: tensor<700x9xf64>) -> tensor<700x9xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<algorithm = cosma>}
           : tensor<700x11xf64>, tensor<11x9xf64> -> tensor<700x9xf64>
    return %r : tensor<700x9xf64>
  }
}
