// RUN: tc-opt %s --tc-check-rewrites --verify-diagnostics
// tc-check-rewrites evaluates programs of tc ops and splat constants; another
// constant is named, not guessed at.
func.func @table(%A: tensor<2x3xf64>) -> tensor<2xf64> {
  // expected-error @+1 {{is not a splat float constant tc-check-rewrites evaluates}}
  %w = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %r = tc.contract [i] = %A[i, k] * %w[k] : tensor<2x3xf64>, tensor<3xf64> -> tensor<2xf64>
  return %r : tensor<2xf64>
}
