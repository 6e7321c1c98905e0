// The second statement of the CCD sub-computation (block-sparse-ccd.mlir).
module {
  func.func @ccd_i0(%i0: tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>> {tc.name = "i0"}, %t: tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>> {tc.name = "t"}, %i1: tensor<12x32x12x32xf64, #tc.blocks<[[4, 4, 2, 2], [10, 10, 6, 6], [4, 4, 2, 2], [10, 10, 6, 6]], symmetry = 0>> {tc.name = "i1"}) -> tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>> {
    %r = tc.contract %i0[p3, p4, h1, h2] += %t[p3, p5, h1, h6] * %i1[h6, p4, h2, p5]
           : tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>>, tensor<12x32x12x32xf64, #tc.blocks<[[4, 4, 2, 2], [10, 10, 6, 6], [4, 4, 2, 2], [10, 10, 6, 6]], symmetry = 0>> -> tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>>
    return %r : tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>>
  }
}
