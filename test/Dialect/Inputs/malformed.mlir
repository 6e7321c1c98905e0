// Input of exit-status.test: extents of 'k' conflict.
func.func @bad(%A: tensor<4x6xf64>, %B: tensor<5x3xf64>) -> tensor<4x3xf64> {
  // The next op is line 4.
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<5x3xf64> -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}
