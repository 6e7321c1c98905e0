// COSMA (forced by a hand-written plan) on a flat product (small k, m = n large: section 9's flat), np = 2 4 6 7, memory 64MB per
// process: results against numpy einsum within 1e-12 and every rank's bytes
// sent and received equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 2 4 6 7; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 64MB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=90,j=77,k=6 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-4: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @flat(%A: tensor<90x6xf64>, %B: tensor<6x77xf64>, %C: tensor<90x77xf64>) -> tensor<90x77xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<algorithm = cosma>}
           : tensor<90x6xf64>, tensor<6x77xf64> -> tensor<90x77xf64>
    return %r : tensor<90x77xf64>
  }
}
