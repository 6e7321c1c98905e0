// RUN: tc-opt %s --tc-split-program --split-input-file -verify-diagnostics

// expected-error @+1 {{returns its input #1 unchanged; return computed values only}}
func.func @passthrough(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %R = tc.contract [i, j] = %A[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %R, %B : tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

// A value read after a later statement stored a new value of its tensor.
func.func @stale(%A: tensor<4x4xf64> {tc.name = "A"}, %B: tensor<4x4xf64> {tc.name = "B"}) -> (tensor<4x4xf64> {tc.name = "S"}) {
  %one = arith.constant dense<1.0> : tensor<f64>
  %X1 = tc.contract [i, j] = %A[i, j] * %one[] {tc.name = "X"} : tensor<4x4xf64>, tensor<f64> -> tensor<4x4xf64>
  %X2 = tc.contract %X1[i, j] += %B[i, k] * %B[k, j] {tc.name = "X"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %Y = tc.contract [i, j] = %X2[i, k] * %A[k, j] {tc.name = "Y"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  // expected-error @+1 {{reads 'X' after a later statement stored a new value of it; give the two values different names (tc.name)}}
  %S = tc.contract [i, j] = %X1[i, k] * %Y[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %S : tensor<4x4xf64>
}

// -----

func.func @other(%A: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %R = tc.contract [i, j] = %A[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  // expected-error @+1 {{cannot be part of a program tc-split-program splits}}
  %S = arith.addf %R, %A : tensor<4x4xf64>
  %T = tc.contract [i, j] = %S[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %T : tensor<4x4xf64>
}
