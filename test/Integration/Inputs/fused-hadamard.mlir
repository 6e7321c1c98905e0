// [C] 2's small example: T3 multiplies T1 and T2 element-wise over j and t.
func.func @sums(%A: tensor<64x32x128xf64>, %B: tensor<32x48x128xf64>) -> (tensor<128xf64> {tc.name = "S"}) {
  %T1 = tc.sum [j, t] = %A[i, j, t] : tensor<64x32x128xf64> -> tensor<32x128xf64>
  %T2 = tc.sum [j, t] = %B[j, k, t] : tensor<32x48x128xf64> -> tensor<32x128xf64>
  %T3 = tc.contract [j, t] = %T1[j, t] * %T2[j, t] : tensor<32x128xf64>, tensor<32x128xf64> -> tensor<32x128xf64>
  %S = tc.sum [t] = %T3[j, t] : tensor<32x128xf64> -> tensor<128xf64>
  return %S : tensor<128xf64>
}
