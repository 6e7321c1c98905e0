// An outer product (no summed label, K empty): Cannon's rotation has no
// contracted block to shift, so the planner skips it with a remark instead of
// choosing a plan the lowering refuses. In core and out of core, 1, 2 and 4
// processes: results against numpy einsum and every rank's measured bytes equal
// to the prediction.
// RUN: tc-opt %s --tc-plan="procs=1 mem=4096B" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: rotation skipped: no index of K to shift
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in 1:4096B 2:4096B 4:64MB; do \
// RUN:   np=${cfg%%:*}; mem=${cfg#*:}; \
// RUN:   tcc %s -o %t.d/np$np --procs $np --mem $mem 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/np$np --np $np --spec "C[j,i] = A[j] * B[i]" --extents i=12,j=8 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-3: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @outer(%A: tensor<8xf64>, %B: tensor<12xf64>) -> tensor<8x12xf64> {
    %r = tc.contract [j, i] = %A[j] * %B[i] : tensor<8xf64>, tensor<12xf64> -> tensor<8x12xf64>
    return %r : tensor<8x12xf64>
  }
}
