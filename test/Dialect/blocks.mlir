// #tc.blocks, the block-sparse tensor encoding (Krishnamoorthy et al. section
// 2): segments per dimension and the blocks present (XOR symmetry, an explicit
// list, or all); printed as parsed, round-tripped, and a tc.contract over
// block-sparse operands whose labels agree in their segments.
// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @four_index
// CHECK-SAME: tensor<160x160x16xf64, #tc.blocks<{{\[}}[80, 40, 20, 20], [80, 40, 20, 20], [8, 4, 2, 2]], symmetry = 0>>
// CHECK-SAME: tensor<16x160x160xf64, #tc.blocks<{{\[}}[8, 4, 2, 2], [80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>>
// CHECK: tc.contract [a, b, c, d] = %{{.*}}[a, b, i] * %{{.*}}[i, c, d]
func.func @four_index(
    %A: tensor<160x160x16xf64, #tc.blocks<[[80, 40, 20, 20], [80, 40, 20, 20], [8, 4, 2, 2]], symmetry = 0>>,
    %B: tensor<16x160x160xf64, #tc.blocks<[[8, 4, 2, 2], [80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>>)
    -> tensor<160x160x160x160xf64, #tc.blocks<[[80, 40, 20, 20], [80, 40, 20, 20], [80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>> {
  %C = tc.contract [a, b, c, d] = %A[a, b, i] * %B[i, c, d]
         : tensor<160x160x16xf64, #tc.blocks<[[80, 40, 20, 20], [80, 40, 20, 20], [8, 4, 2, 2]], symmetry = 0>>,
           tensor<16x160x160xf64, #tc.blocks<[[8, 4, 2, 2], [80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>>
        -> tensor<160x160x160x160xf64, #tc.blocks<[[80, 40, 20, 20], [80, 40, 20, 20], [80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>>
  return %C : tensor<160x160x160x160xf64, #tc.blocks<[[80, 40, 20, 20], [80, 40, 20, 20], [80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>>
}

// CHECK-LABEL: func.func @listed_and_all
// CHECK-SAME: tensor<4x3xf64, #tc.blocks<{{\[}}[2, 2], [3]], present = {{\[}}[0, 0], [1, 0]]>>
// CHECK-SAME: tensor<3x8xf32, #tc.blocks<{{\[}}[3], [4, 4]]>>
// CHECK-SAME: tensor<4x4xf64, #tc.blocks<{{\[}}[1, 1, 1, 1], [4]], symmetry = 3>>
func.func @listed_and_all(%a: tensor<4x3xf64, #tc.blocks<[[2, 2], [3]], present = [[0, 0], [1, 0]]>>,
                          %b: tensor<3x8xf32, #tc.blocks<[[3], [4, 4]]>>,
                          %c: tensor<4x4xf64, #tc.blocks<[[1, 1, 1, 1], [4]], symmetry = 3>>) {
  return
}

// A block-sparse scalar: one block, no segment ids (the sum of a product over
// every label, or the ones of a one-tensor term).
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: tensor<f64, #tc.blocks<[]>>
// CHECK: tc.contract [] = %{{.*}}[i] * %{{.*}}[i]
// CHECK-SAME: -> tensor<f64, #tc.blocks<[]>>
func.func @scalar(%s: tensor<f64, #tc.blocks<[]>>, %v: tensor<4xf64, #tc.blocks<[[2, 2]], symmetry = 0>>) -> tensor<f64, #tc.blocks<[]>> {
  %e = tc.contract [] = %v[i] * %v[i] : tensor<4xf64, #tc.blocks<[[2, 2]], symmetry = 0>>, tensor<4xf64, #tc.blocks<[[2, 2]], symmetry = 0>> -> tensor<f64, #tc.blocks<[]>>
  return %e : tensor<f64, #tc.blocks<[]>>
}

// Spin restriction: each dimension's segment partners when every spin flips
// (alpha 0, 1 and beta 2, 3); a restricted product of restricted operands,
// and a scalar of ones (nothing to flip) beside them.
// CHECK-LABEL: func.func @restricted
// CHECK-SAME: tensor<8x8xf64, #tc.blocks<{{\[}}[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = {{\[}}[2, 3, 0, 1], [2, 3, 0, 1]]>>
// CHECK: tc.contract [a, c] = %{{.*}}[a, b] * %{{.*}}[b, c]
// CHECK: tc.contract [a, c] = %{{.*}}[a, c] * %{{.*}}[]
func.func @restricted(%x: tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>,
                      %ones: tensor<f64, #tc.blocks<[]>>)
    -> tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>> {
  %y = tc.contract [a, c] = %x[a, b] * %x[b, c]
         : tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>,
           tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>
        -> tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>
  %z = tc.contract [a, c] = %y[a, c] * %ones[]
         : tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>,
           tensor<f64, #tc.blocks<[]>>
        -> tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>
  return %z : tensor<8x8xf64, #tc.blocks<[[3, 1, 3, 1], [3, 1, 3, 1]], symmetry = 0, flip = [[2, 3, 0, 1], [2, 3, 0, 1]]>>
}

// Permutational symmetry: <ab||ef> antisymmetric in each pair, t2 too, and a
// symmetric pair; printed in the order parsed, antisymmetric pairs first.
// CHECK-LABEL: func.func @pairs
// CHECK-SAME: tensor<4x4x4x4xf64, #tc.blocks<{{\[}}[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = {{\[}}[0, 1], [2, 3]]>>
// CHECK-SAME: tensor<4x4xf64, #tc.blocks<{{\[}}[2, 2], [2, 2]], symmetric = {{\[}}[0, 1]]>>
// CHECK: tc.contract [a, b, i, j] = %{{.*}}[a, b, e, f] * %{{.*}}[e, f, i, j]
func.func @pairs(%v: tensor<4x4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = [[0, 1], [2, 3]]>>,
                 %f: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetric = [[0, 1]]>>)
    -> tensor<4x4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = [[0, 1], [2, 3]]>> {
  %r = tc.contract [a, b, i, j] = %v[a, b, e, f] * %v[e, f, i, j]
         : tensor<4x4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = [[0, 1], [2, 3]]>>,
           tensor<4x4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = [[0, 1], [2, 3]]>>
        -> tensor<4x4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = [[0, 1], [2, 3]]>>
  return %r : tensor<4x4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2], [2, 2]], symmetry = 0, antisymmetric = [[0, 1], [2, 3]]>>
}
