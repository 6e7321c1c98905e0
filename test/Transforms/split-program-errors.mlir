// RUN: tc-opt %s --tc-split-program --split-input-file -verify-diagnostics

// expected-error @+1 {{returns its input #1 unchanged; return computed values only}}
func.func @passthrough(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %R = tc.contract [i, j] = %A[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %R, %B : tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

func.func @other(%A: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %R = tc.contract [i, j] = %A[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  // expected-error @+1 {{cannot be part of a program tc-split-program splits}}
  %S = arith.addf %R, %A : tensor<4x4xf64>
  %T = tc.contract [i, j] = %S[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %T : tensor<4x4xf64>
}
