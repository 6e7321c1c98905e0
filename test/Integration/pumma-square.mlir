// PUMMA (Choi, Dongarra, Walker; forced by a hand-written plan, the planner
// choosing grid, rolled input, variant and LCM blocks) on every process count
// from 1 to 7, primes included (a 1 x p grid), with extents no grid divides:
// results against numpy einsum within 1e-12 and every rank's measured bytes
// sent and received equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 1 2 3 4 5 6 7; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 64MB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=61,j=37,k=53 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-7: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @square(%A: tensor<61x53xf64>, %B: tensor<53x37xf64>, %C: tensor<61x37xf64>) -> tensor<61x37xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<algorithm = pumma>}
           : tensor<61x53xf64>, tensor<53x37xf64> -> tensor<61x37xf64>
    return %r : tensor<61x37xf64>
  }
}
