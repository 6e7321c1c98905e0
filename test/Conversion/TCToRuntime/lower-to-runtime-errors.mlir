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

// -----

// The runtime computes in f64: an f32 array is refused, not lowered as f64.
func.func @single_precision() {
  // expected-error @+1 {{'tc.array' op holds 'f32' elements; tc's runtime computes in f64 only}}
  %A = tc.array distributed "A" [8] on [2] dims [0] skew [-1] init zero : !tc.array<1 x f32 on 1>
  return
}
