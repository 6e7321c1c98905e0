// RUN: tc-opt %s --tc-select-algorithm | FileCheck %s

// Batch labels (docs/Derivations.md D30): an element-wise product has no I, J
// or K to distribute; batch splits A, B and C along b and communicates nothing.
// Beside I, J and K, a batch label that splits evenly wins: no communication.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func.func @hadamard
  // CHECK: tc.plan = #tc.plan<in_core = true, algorithm = batch, grid = <[4]>, dist_a = <[b]>, dist_b = <[b]>, dist_c = <[b]>>}
  func.func @hadamard(%A: tensor<8x6xf64>, %B: tensor<6x8xf64>) -> tensor<8x6xf64> {
    %r = tc.contract [b, i] = %A[b, i] * %B[i, b] : tensor<8x6xf64>, tensor<6x8xf64> -> tensor<8x6xf64>
    return %r : tensor<8x6xf64>
  }
  // CHECK-LABEL: func.func @batched_matmul
  // CHECK: algorithm = batch, grid = <[4]>, dist_a = <[b]>, dist_b = <[b]>, dist_c = <[b]>
  func.func @batched_matmul(%A: tensor<8x16x12xf64>, %B: tensor<8x12x20xf64>) -> tensor<8x16x20xf64> {
    %r = tc.contract [b, i, j] = %A[b, i, k] * %B[b, k, j] : tensor<8x16x12xf64>, tensor<8x12x20xf64> -> tensor<8x16x20xf64>
    return %r : tensor<8x16x20xf64>
  }
}
