// COSMA (forced by a hand-written plan) on a 4-index contraction with permuted labels (several labels per macro-index, 720 outer products in rounds over the two K labels), np = 1 4 6, memory 4MB per
// process: results against numpy einsum within 1e-12 and every rank's bytes
// sent and received equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 1 4 6; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 4MB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]" --extents a=5,b=4,c=3,d=6,m=24,n=30 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-3: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "4MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @permuted(%A: tensor<5x24x4x30xf64>, %B: tensor<30x3x24x6xf64>, %C: tensor<5x4x3x6xf64>) -> tensor<5x4x3x6xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, m, b, n] * %B[n, c, m, d]
           {tc.plan = #tc.plan<algorithm = cosma>}
           : tensor<5x24x4x30xf64>, tensor<30x3x24x6xf64> -> tensor<5x4x3x6xf64>
    return %r : tensor<5x4x3x6xf64>
  }
}
