// An element-wise (Hadamard) product C[b,i] = A[b,i] * B[i,b]: every label a
// batch label, nothing for Gao et al.'s algorithms to split; the batch
// algorithm splits b (docs/Derivations.md D30). 1 to 4 processes, in core and
// out of core: results against numpy einsum and every rank's measured bytes
// equal to the prediction (no communication at all).
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in 1:64MB 2:64MB 3:1KB 4:64MB 4:1KB; do \
// RUN:   np=${cfg%%:*}; mem=${cfg#*:}; \
// RUN:   tcc %s -o %t.d/p --procs $np --mem $mem 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/p --np $np --spec "C[b,i] = A[b,i] * B[i,b]" --extents b=12,i=6 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-5: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @hadamard(%A: tensor<12x6xf64>, %B: tensor<6x12xf64>) -> tensor<12x6xf64> {
    %r = tc.contract [b, i] = %A[b, i] * %B[i, b] : tensor<12x6xf64>, tensor<6x12xf64> -> tensor<12x6xf64>
    return %r : tensor<12x6xf64>
  }
}
