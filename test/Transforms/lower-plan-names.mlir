// Two arrays of a contraction share a name (an HDF5 dataset or group) only
// when they hold one tensor, or when one is an input and the other the result
// stored to the output file (an intermediate copied into the output reads and
// writes one name). A statement's intermediate result would be stored where an
// input of its name loads from: refused, naming the arrays.
// RUN: tc-opt %s --split-input-file --tc-plan --tc-lower-plan --verify-diagnostics=only-expected | FileCheck %s

// CHECK-LABEL: func.func @copy_out()
// CHECK: tc.array "R" init input
// CHECK: tc.array "R" init zero
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @copy_out(%R: tensor<4x4xf64> {tc.name = "R"}, %one: tensor<f64> {tc.name = "ones", tc.ones})
      -> (tensor<4x4xf64> {tc.name = "R"}) attributes {tc.statement = "R (output)"} {
    %C = tc.contract [i, j] = %R[i, j] * %one[] : tensor<4x4xf64>, tensor<f64> -> tensor<4x4xf64>
    return %C : tensor<4x4xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @intermediate(%X: tensor<4x4xf64> {tc.name = "X"}, %B: tensor<4x4xf64> {tc.name = "B"})
      -> (tensor<4x4xf64> {tc.name = "X"}) attributes {tc.intermediate, tc.statement = "X"} {
    // expected-error @+1 {{arrays need distinct names (tc.name), got 'X', 'B', 'X'}}
    %C = tc.contract [i, j] = %X[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    return %C : tensor<4x4xf64>
  }
}

// -----

!b = tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @blocks_intermediate(%X: !b {tc.name = "X"}, %B: !b {tc.name = "B"})
      -> (!b {tc.name = "X"}) attributes {tc.intermediate, tc.statement = "X"} {
    // expected-error @+1 {{arrays need distinct names (tc.name), got 'X', 'B', 'X'}}
    %C = tc.contract [i, j] = %X[i, k] * %B[k, j] : !b, !b -> !b
    return %C : !b
  }
}
