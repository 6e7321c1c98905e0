// Binary contractions for raise-linalg.mlir's round trip through linalg.
func.func @round_trip(%A: tensor<4x3x6xf64>, %B: tensor<6x5xf64>, %C: tensor<5x4x3xf64>) -> (tensor<5x4x3xf64>, tensor<3x4x5xf64>) {
  %acc = tc.contract %C[j, i, b] += %A[i, b, k] * %B[k, j] : tensor<4x3x6xf64>, tensor<6x5xf64> -> tensor<5x4x3xf64>
  %new = tc.contract [b, i, j] = %A[i, b, k] * %B[k, j] : tensor<4x3x6xf64>, tensor<6x5xf64> -> tensor<3x4x5xf64>
  return %acc, %new : tensor<5x4x3xf64>, tensor<3x4x5xf64>
}
