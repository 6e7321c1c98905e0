// A block-sparse contraction reading an operand with a pair symmetry
// (docs/BlockSparse.md, "Pair symmetries"): A is antisymmetric, so it stores
// blocks [0, 0], [0, 1], [1, 1] and a task needing A's block [1, 0] (C's
// block [1, 0] with k in segment 0, and C's [1, 1]) reads stored block 1
// ([0, 1]) with its two dimensions exchanged and the product negated: the
// stage's `reads` (task, A's dimensions, B's dimensions, sign).
// RUN: tc-opt %s --tc-plan-block-sparse --tc-lower-plan | FileCheck %s

// CHECK: tc.block_array "A" homes [0, 0, 0] init input
// CHECK: tc.block_stage %{{.*}} tasks [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 3, 1, 0, 0, 0, 1, 0, 2, 0, 0, 0, 2, 2, 2, 0, 0, 0, 1, 1, 3, 0, 0, 0, 2, 3, 3, 0, 0, 0] reads [4, 1, 0, 0, 1, -1, 6, 1, 0, 0, 1, -1] stages 1
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @pairs(%A: tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]], antisymmetric = [[0, 1]]>> {tc.name = "A"},
                   %B: tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]]>> {tc.name = "B"})
      -> tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]]>> {
    %C = tc.contract [i, j] = %A[i, k] * %B[k, j]
           : tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]], antisymmetric = [[0, 1]]>>, tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]]>>
          -> tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]]>>
    return %C : tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]]>>
  }
}
