// The program of fused-cociorva.mlir at tiny extents: its fixed memory overhead.
func.func @cociorva(%A: tensor<8x8x2x2xf64>, %B: tensor<8x4x4x2xf64>,
                    %C: tensor<8x4x2x2xf64>, %D: tensor<8x8x4x2xf64>)
    -> (tensor<8x8x2x2xf64> {tc.name = "S"}) {
  %T1 = tc.contract [b, c, d, f] = %B[b, e, f, l] * %D[c, d, e, l]
          : tensor<8x4x4x2xf64>, tensor<8x8x4x2xf64> -> tensor<8x8x8x4xf64>
  %T2 = tc.contract [b, c, j, k] = %T1[b, c, d, f] * %C[d, f, j, k]
          : tensor<8x8x8x4xf64>, tensor<8x4x2x2xf64> -> tensor<8x8x2x2xf64>
  %S = tc.contract [a, b, i, j] = %T2[b, c, j, k] * %A[a, c, i, k]
          : tensor<8x8x2x2xf64>, tensor<8x8x2x2xf64> -> tensor<8x8x2x2xf64>
  return %S : tensor<8x8x2x2xf64>
}
