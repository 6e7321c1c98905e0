// A scalar result, the correlation-energy shape E[] = T[a,b,i,j] * V[a,b,i,j]
// (docs/Derivations.md D30): a rank-0 array, stored as a scalar HDF5 dataset.
// Also C[] = A[j] * B[i], the product of two full sums (labels of one input
// only), which nothing can split. 1, 2 and 4 processes, in core and out of
// core: results against numpy einsum and every rank's measured bytes equal to
// the prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in 1:64MB 1:1KB 2:64MB 2:1KB 4:64MB 4:1KB; do \
// RUN:   np=${cfg%%:*}; mem=${cfg#*:}; \
// RUN:   tcc %s -o %t.d/p --procs $np --mem $mem 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/p --np $np --spec "E[] = T[a,b,i,j] * V[a,b,i,j]" --extents a=8,b=4,i=4,j=2 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-6: OK
// RUN: for np in 1 2 4; do \
// RUN:   tcc %S/Inputs/full-sums.mlir -o %t.d/s --procs $np --mem 1KB 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/s --np $np --spec "C[] = A[j] * B[i]" --extents i=40,j=24 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUMS
// SUMS-COUNT-3: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @energy(%T: tensor<8x4x4x2xf64> {tc.name = "T"}, %V: tensor<8x4x4x2xf64> {tc.name = "V"}) -> (tensor<f64> {tc.name = "E"}) {
    %r = tc.contract [] = %T[a, b, i, j] * %V[a, b, i, j] : tensor<8x4x4x2xf64>, tensor<8x4x4x2xf64> -> tensor<f64>
    return %r : tensor<f64>
  }
}
