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
