// A contraction that was never planned and lowered has no runtime call: the
// error says which pass lowers it, and nothing is rewritten.
// RUN: tc-opt %s --tc-lower-to-runtime --split-input-file --verify-diagnostics

func.func @unplanned(%A: tensor<4x6xf64>, %B: tensor<6x5xf64>) -> tensor<4x5xf64> {
  // expected-error @+1 {{'tc.contract' op must be lowered by tc-lower-plan (or, in an operator tree, tc-lower-fused) before tc-lower-to-runtime}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

func.func @unlowered_sum(%A: tensor<4x6xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.sum' op must be lowered by tc-lower-plan}}
  %r = tc.sum [i] = %A[i, k] : tensor<4x6xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}
