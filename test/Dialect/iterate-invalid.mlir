// Verifier errors of tc.iterate and #tc.loop.
// RUN: tc-opt %s --split-input-file --verify-diagnostics

func.func @scalar(%t0: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{converges on result 0, of type 'tensor<4xf64>'; a loop converges on a scalar (a tensor of rank 0)}}
  %r = tc.iterate max 5 until result 0 converges to 1.0e-3 with (%t = %t0) -> (tensor<4xf64>) {
    tc.yield %t : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// -----

func.func @index(%t0: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{converges on result 3 but has 1 results}}
  %r = tc.iterate max 5 until result 3 converges to 1.0e-3 with (%t = %t0) -> (tensor<f64>) {
    tc.yield %t : tensor<f64>
  }
  return %r : tensor<f64>
}

// -----

func.func @tolerance(%t0: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{tolerance must be positive}}
  %r = tc.iterate max 5 until result 0 converges to 0.0 with (%t = %t0) -> (tensor<f64>) {
    tc.yield %t : tensor<f64>
  }
  return %r : tensor<f64>
}

// -----

func.func @count(%t0: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{attribute 'max' failed to satisfy constraint}}
  %r = tc.iterate 0 with (%t = %t0) -> (tensor<f64>) {
    tc.yield %t : tensor<f64>
  }
  return %r : tensor<f64>
}

// -----

func.func @yield(%t0: tensor<f64>, %x: tensor<4xf64>) -> tensor<f64> {
  %r = tc.iterate 2 with (%t = %t0) -> (tensor<f64>) {
    // expected-error @+1 {{yields 'tensor<4xf64>' but the tc.iterate has results 'tensor<f64>'}}
    tc.yield %x : tensor<4xf64>
  }
  return %r : tensor<f64>
}

// -----

// expected-error @+1 {{#tc.loop takes 'converge' and 'tolerance' together}}
func.func @loop_attr() attributes {tc.loop = #tc.loop<label = "x", max = 3, converge = "E">}

// -----

// expected-error @+1 {{#tc.loop max = 0; a loop runs at least one iteration}}
func.func @loop_max() attributes {tc.loop = #tc.loop<label = "x", max = 0>}

// -----

// expected-error @+1 {{'tc.loop' belongs on a func.func, not on 'builtin.module'}}
module attributes {tc.loop = #tc.loop<label = "x", max = 3>} {}

// -----

func.func @diis_one(%t0: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{diis 1: extrapolation needs at least 2 iterations' values}}
  %r = tc.iterate 5 diis 1 with (%t = %t0) -> (tensor<f64>) {
    tc.yield %t : tensor<f64>
  }
  return %r : tensor<f64>
}

// -----

func.func @diis_nothing_carried(%w: tensor<4x4xf64>) -> tensor<f64> {
  // expected-error @+1 {{diis extrapolates the tensors a loop carries; this one carries none}}
  %r = tc.iterate 3 diis 4 -> (tensor<f64>) {
    %e = tc.contract [] = %w[a, b] * %w[a, b] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<f64>
    tc.yield %e : tensor<f64>
  }
  return %r : tensor<f64>
}

// -----

// expected-error @+1 {{#tc.loop diis = 3 needs the carried tensors}}
func.func @loop_diis() attributes {tc.loop = #tc.loop<label = "x", max = 3, diis = 3>}

// -----

// expected-error @+1 {{#tc.loop carried = ["T", "a,b"]; need tensor names (non-empty strings without ',')}}
func.func @loop_carried() attributes {tc.loop = #tc.loop<label = "x", max = 3, carried = ["T", "a,b"]>}
