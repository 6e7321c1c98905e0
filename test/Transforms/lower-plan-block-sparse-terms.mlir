// A term of a block-sparse program: C[i,j] = -0.5 * A[j,i], a product with a
// block-sparse scalar of ones (tc.ones, docs/TCELanguage.md). Planned out of
// core on one process (80 B, less than its 88 B of bricks) and lowered: the
// ones are made in memory (init ones, never on disk, no disk bytes predicted
// for them: A's 40 B are read and C's 40 B written), A and C stay on disk,
// and every task is scaled by the coefficient (alpha).
// RUN: tc-opt %s --tc-plan-block-sparse --tc-lower-plan | FileCheck %s
// RUN: tc-opt %s --tc-plan-block-sparse --tc-lower-plan --tc-lower-to-runtime | FileCheck %s --check-prefix=CALLS

// CHECK-LABEL: func.func @term()
// CHECK: tc.predicted_volumes {{{.*}}disk_per_rank = array<f64: 8.000000e+01>
// CHECK: %[[A:.*]] = tc.block_array "A" homes [{{.*}}] init input {on_disk}
// CHECK: %[[ONE:.*]] = tc.block_array "ones" homes [{{[01]}}] init ones :
// CHECK: %[[C:.*]] = tc.block_array "C" homes [{{.*}}] init zero {on_disk}
// CHECK: tc.block_stage %{{.*}}, %[[C]][0, 1] += %[[A]][1, 0] * %[[ONE]][] tasks [{{.*}}] alpha -5.000000e-01 stages
// CHECK: tc.block_store %[[C]]
// The schedule's description carries alpha's bits (-0.5) after the counts.
// CALLS: -4620693217682128896
module attributes {tc.machine = #tc.machine<procs = 1, mem = "80B", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @term(%A: tensor<3x3xf64, #tc.blocks<[[2, 1], [2, 1]], symmetry = 0>> {tc.name = "A"},
                  %one: tensor<f64, #tc.blocks<[]>> {tc.name = "ones", tc.ones})
      -> (tensor<3x3xf64, #tc.blocks<[[2, 1], [2, 1]], symmetry = 0>> {tc.name = "C"}) {
    %C = tc.contract [i, j] = -0.5 * %A[j, i] * %one[]
           : tensor<3x3xf64, #tc.blocks<[[2, 1], [2, 1]], symmetry = 0>>, tensor<f64, #tc.blocks<[]>>
          -> tensor<3x3xf64, #tc.blocks<[[2, 1], [2, 1]], symmetry = 0>>
    return %C : tensor<3x3xf64, #tc.blocks<[[2, 1], [2, 1]], symmetry = 0>>
  }
}
