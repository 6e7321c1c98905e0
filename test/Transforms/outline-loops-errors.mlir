// Errors of tc-outline-loops.
// RUN: tc-opt %s --tc-outline-loops --split-input-file --verify-diagnostics

func.func @nested(%w: tensor<4x4xf64>) -> tensor<f64> {
  %r = tc.iterate 2 -> (tensor<f64>) {
    // expected-error @+1 {{is inside another tc.iterate; loops do not nest}}
    %s = tc.iterate 2 -> (tensor<f64>) {
      %e = tc.contract [] = %w[a, b] * %w[a, b] {tc.name = "E"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<f64>
      tc.yield %e : tensor<f64>
    }
    tc.yield %s : tensor<f64>
  }
  return %r : tensor<f64>
}

// -----

// Both loops leave a value under the name X; the first's is read after the
// second stored its own.
// expected-error @+1 {{reads 'X' in part 2 after part 1 stored another value under that name}}
func.func @overwritten(%w: tensor<4x4xf64> {tc.name = "W"}) -> tensor<f64> {
  %a = tc.iterate 2 -> (tensor<f64>) {
    %e = tc.contract [] = %w[a, b] * %w[a, b] {tc.name = "X"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<f64>
    tc.yield %e : tensor<f64>
  }
  %b = tc.iterate 2 -> (tensor<f64>) {
    %f = tc.contract [] = 2.0 * %w[a, b] * %w[a, b] {tc.name = "X"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<f64>
    tc.yield %f : tensor<f64>
  }
  %s = tc.contract [] = %a[] * %b[] {tc.name = "S"} : tensor<f64>, tensor<f64> -> tensor<f64>
  return %s : tensor<f64>
}
