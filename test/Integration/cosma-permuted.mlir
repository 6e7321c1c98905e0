// COSMA (forced by a hand-written plan) on a 4-index contraction with permuted labels (several labels per macro-index, rounds over two K labels), np = 1 4 6, memory 96KB per
// process: results against numpy einsum within 1e-12 and every rank's bytes
// sent and received equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 1 4 6; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 96KB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]" --extents a=9,b=8,c=7,d=6,m=10,n=12 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-3: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "96KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @permuted(%A: tensor<9x10x8x12xf64>, %B: tensor<12x7x10x6xf64>, %C: tensor<9x8x7x6xf64>) -> tensor<9x8x7x6xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, m, b, n] * %B[n, c, m, d]
           {tc.plan = #tc.plan<algorithm = cosma>}
           : tensor<9x10x8x12xf64>, tensor<12x7x10x6xf64> -> tensor<9x8x7x6xf64>
    return %r : tensor<9x8x7x6xf64>
  }
}
