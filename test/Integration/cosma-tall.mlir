// COSMA (forced by a hand-written plan) on a tall-and-skinny product (large k, COSMA section 9's largeK; its 750 to 1500 outer products per process run in rounds of at most 512), np = 2 3 4 5, memory 1MB per
// process: results against numpy einsum within 1e-12 and every rank's bytes
// sent and received equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 2 3 4 5; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 1MB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=24,j=20,k=1500 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-4: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @tall(%A: tensor<24x1500xf64>, %B: tensor<1500x20xf64>, %C: tensor<24x20xf64>) -> tensor<24x20xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<algorithm = cosma>}
           : tensor<24x1500xf64>, tensor<1500x20xf64> -> tensor<24x20xf64>
    return %r : tensor<24x20xf64>
  }
}
