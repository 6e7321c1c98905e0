// An outer product (K empty) in a module without a machine model.
module {
  func.func @outer(%A: tensor<8xf64>, %B: tensor<12xf64>) -> tensor<8x12xf64> {
    %r = tc.contract [j, i] = %A[j] * %B[i] : tensor<8xf64>, tensor<12xf64> -> tensor<8x12xf64>
    return %r : tensor<8x12xf64>
  }
}
