// Batch labels (docs/Derivations.md D30): C[a,d] += A[c,a,d,b] * B[b,c,d],
// d in A, B and C. On 2 and 4 processes in core the batch algorithm splits d
// and communicates nothing; with 2 KB of memory the plans are out of core
// (d a loop around Gao et al.'s nest, or the batch algorithm's one-process
// nests). 1, 2 and 4 processes: results against numpy einsum and every
// rank's measured bytes equal to the prediction.
// latency=0: the papers' model, which these plans reproduce; tc's default
// latency would run contractions this small whole on every process (D58).
// RUN: tc-opt %s --tc-plan="procs=4 mem=64MB latency=0" | FileCheck %s --check-prefix=PLAN
// PLAN: algorithm = batch, grid = <[4]>, dist_a = <[d]>, dist_b = <[d]>, dist_c = <[d]>
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in 1:64MB 1:2KB 2:64MB 2:2KB 4:64MB 4:2KB; do \
// RUN:   np=${cfg%%:*}; mem=${cfg#*:}; \
// RUN:   tcc %s -o %t.d/p --procs $np --mem $mem --latency 0 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/p --np $np --spec "C[a,d] += A[c,a,d,b] * B[b,c,d]" --extents c=4,a=8,d=8,b=4 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-6: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @batched(%A: tensor<4x8x8x4xf64>, %B: tensor<4x4x8xf64>, %C: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %r = tc.contract %C[a, d] += %A[c, a, d, b] * %B[b, c, d] : tensor<4x8x8x4xf64>, tensor<4x4x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}
