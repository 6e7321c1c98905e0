func.func @chain(%A: tensor<64x48xf64>, %B: tensor<48x32xf64>, %C: tensor<32x40xf64>) -> tensor<64x40xf64> {
  %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<64x48xf64>, tensor<48x32xf64> -> tensor<64x32xf64>
  %R = tc.contract [i, l] = %T[i, j] * %C[j, l] : tensor<64x32xf64>, tensor<32x40xf64> -> tensor<64x40xf64>
  return %R : tensor<64x40xf64>
}
