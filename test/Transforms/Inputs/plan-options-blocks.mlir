// A block-sparse contraction for plan_options.py: the options of
// tc-plan-block-sparse change its #tc.block_plan.
module attributes {tc.machine = #tc.machine<procs = 3, mem = "50KB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @four_index(
      %A: tensor<16x16x32xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [16, 8, 4, 4]], symmetry = 0>>,
      %B: tensor<32x16x16xf64, #tc.blocks<[[16, 8, 4, 4], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>)
      -> tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>> {
    %C = tc.contract [a, b, c, d] = %A[a, b, i] * %B[i, c, d]
           : tensor<16x16x32xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [16, 8, 4, 4]], symmetry = 0>>,
             tensor<32x16x16xf64, #tc.blocks<[[16, 8, 4, 4], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
          -> tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
    return %C : tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
  }
}
