// RUN: tc-opt %s --tc-share-permuted-products --split-input-file | FileCheck %s
// RUN: tc-opt %s --tc-share-permuted-products=min-summed-volume=6 --split-input-file \
// RUN:   | FileCheck %s --check-prefix=LOW

// P(ij) P(ab) T[a,c,i,k] * W[k,b,c,j]: four copies of one product in four
// orders of its dimensions, summing 8 x 4 terms. The product is computed once (unscaled, before
// the first copy); each copy adds it in its order with its own coefficient,
// accumulator and name.
// CHECK-LABEL: func.func @antisymmetrized(
// CHECK: %[[X:.*]] = tc.contract [a, b, i, j] = %arg0[a, c, i, k] * %arg1[k, b, c, j] :
// CHECK: %[[R0:.*]] = tc.contract [a, b, i, j] = %[[X]][a, b, i, j] * %{{.*}}[] {tc.name = "R"}
// CHECK: %[[R1:.*]] = tc.contract %[[R0]][a, b, i, j] += -1.000000e+00 * %[[X]][a, b, j, i] * %{{.*}}[] {tc.name = "R"}
// CHECK: %[[R2:.*]] = tc.contract %[[R1]][a, b, i, j] += -1.000000e+00 * %[[X]][b, a, i, j] * %{{.*}}[] {tc.name = "R"}
// CHECK: %[[R3:.*]] = tc.contract %[[R2]][a, b, i, j] += 5.000000e-01 * %[[X]][b, a, j, i] * %{{.*}}[] {tc.name = "R"}
// CHECK-NOT: %arg0[
// CHECK: return %[[R3]]
func.func @antisymmetrized(%T: tensor<8x8x4x4xf64>, %W: tensor<4x8x8x4xf64>) -> (tensor<8x8x4x4xf64> {tc.name = "R"}) {
  %0 = tc.contract [a, b, i, j] = %T[a, c, i, k] * %W[k, b, c, j] {tc.name = "R"} : tensor<8x8x4x4xf64>, tensor<4x8x8x4xf64> -> tensor<8x8x4x4xf64>
  %1 = tc.contract %0[a, b, i, j] += -1.0 * %T[a, c, j, k] * %W[k, b, c, i] {tc.name = "R"} : tensor<8x8x4x4xf64>, tensor<4x8x8x4xf64> -> tensor<8x8x4x4xf64>
  %2 = tc.contract %1[a, b, i, j] += -1.0 * %T[b, c, i, k] * %W[k, a, c, j] {tc.name = "R"} : tensor<8x8x4x4xf64>, tensor<4x8x8x4xf64> -> tensor<8x8x4x4xf64>
  %3 = tc.contract %2[a, b, i, j] += 0.5 * %T[b, c, j, k] * %W[k, a, c, i] {tc.name = "R"} : tensor<8x8x4x4xf64>, tensor<4x8x8x4xf64> -> tensor<8x8x4x4xf64>
  return %3 : tensor<8x8x4x4xf64>
}

// -----

// Left alone: a product summing fewer than 32 terms per element (c only:
// 6); labels exchanged between a result and a summed dimension (no
// reordering of one product); different inputs; an inner product of a tree
// (unnamed), which the tree keeps.
// With min-summed-volume=6 the first pair is shared too.
// LOW-LABEL: func.func @alone(
// LOW: %[[X:.*]] = tc.contract [a, b, i, j] = %arg0[a, c, i, j] * %arg2[c, b] :
// LOW: tc.contract [a, b, i, j] = %[[X]][a, b, i, j] * %{{.*}}[] {tc.name = "R"}
// LOW: tc.contract %{{.*}}[a, b, i, j] += -1.000000e+00 * %[[X]][b, a, i, j] * %{{.*}}[] {tc.name = "R"}
// CHECK-LABEL: func.func @alone(
// CHECK: tc.contract [a, b, i, j] = %arg0[a, c, i, j] * %arg2[c, b]
// CHECK: tc.contract %{{.*}}[a, b, i, j] += -1.000000e+00 * %arg0[b, c, i, j] * %arg2[c, a]
// CHECK: tc.contract [a, b] = %arg0[a, c, i, k] * %arg1[k, b, c, i]
// CHECK: tc.contract [a, c] = %arg0[a, c, i, k] * %arg1[k, b, c, i]
// CHECK: tc.contract [a, b, i, j] = %arg1[k, b, c, j] * %arg0[a, c, i, k]
// CHECK: %[[T:.*]] = tc.contract [k, b, c, j] = %arg1[k, b, c, j] * %arg3[]
// CHECK: tc.contract [a, b, i, j] = %arg0[a, c, i, k] * %[[T]][k, b, c, j]
// CHECK: tc.contract [a, b, i, j] = %arg0[a, c, j, k] * %[[T]][k, b, c, i]
// CHECK-NOT: tc.contract
func.func @alone(%T: tensor<6x6x4x4xf64>, %W: tensor<4x6x6x4xf64>, %F: tensor<6x6xf64>, %s: tensor<f64>)
    -> (tensor<6x6x4x4xf64>, tensor<6x6xf64>, tensor<6x6xf64>, tensor<6x6x4x4xf64>, tensor<6x6x4x4xf64>, tensor<6x6x4x4xf64>) {
  %0 = tc.contract [a, b, i, j] = %T[a, c, i, j] * %F[c, b] {tc.name = "R"} : tensor<6x6x4x4xf64>, tensor<6x6xf64> -> tensor<6x6x4x4xf64>
  %1 = tc.contract %0[a, b, i, j] += -1.0 * %T[b, c, i, j] * %F[c, a] {tc.name = "R"} : tensor<6x6x4x4xf64>, tensor<6x6xf64> -> tensor<6x6x4x4xf64>
  %2 = tc.contract [a, b] = %T[a, c, i, k] * %W[k, b, c, i] {tc.name = "S"} : tensor<6x6x4x4xf64>, tensor<4x6x6x4xf64> -> tensor<6x6xf64>
  %3 = tc.contract [a, c] = %T[a, c, i, k] * %W[k, b, c, i] {tc.name = "S2"} : tensor<6x6x4x4xf64>, tensor<4x6x6x4xf64> -> tensor<6x6xf64>
  %4 = tc.contract [a, b, i, j] = %W[k, b, c, j] * %T[a, c, i, k] {tc.name = "U"} : tensor<4x6x6x4xf64>, tensor<6x6x4x4xf64> -> tensor<6x6x4x4xf64>
  %t = tc.contract [k, b, c, j] = %W[k, b, c, j] * %s[] : tensor<4x6x6x4xf64>, tensor<f64> -> tensor<4x6x6x4xf64>
  %5 = tc.contract [a, b, i, j] = %T[a, c, i, k] * %t[k, b, c, j] {tc.name = "V"} : tensor<6x6x4x4xf64>, tensor<4x6x6x4xf64> -> tensor<6x6x4x4xf64>
  %6 = tc.contract [a, b, i, j] = %T[a, c, j, k] * %t[k, b, c, i] {tc.name = "V2"} : tensor<6x6x4x4xf64>, tensor<4x6x6x4xf64> -> tensor<6x6x4x4xf64>
  return %1, %2, %3, %4, %5, %6 : tensor<6x6x4x4xf64>, tensor<6x6xf64>, tensor<6x6xf64>, tensor<6x6x4x4xf64>, tensor<6x6x4x4xf64>, tensor<6x6x4x4xf64>
}

// -----

// Block-sparse (issue 36: the P(ab) of an equation computed once): the
// product keeps the result's blocks, and each copy adds it, permuted, times
// a block-sparse scalar of ones (c and k sum 8 x 4 terms) (its task pool reads each block of the
// product permuted).
// CHECK-LABEL: func.func @blocks(
// CHECK: %[[X:.*]] = tc.contract [a, b, i, j] = %arg0[a, c, i, k] * %arg1[k, b, c, j] : {{.*}} -> tensor<8x8x4x4xf64, #tc.blocks<{{.*}}symmetry = 0>>
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f64, #tc.blocks<[]>>
// CHECK: %[[R0:.*]] = tc.contract [a, b, i, j] = %[[X]][a, b, i, j] * %[[ONE]][] {tc.name = "R"}
// CHECK: tc.contract %[[R0]][a, b, i, j] += -1.000000e+00 * %[[X]][b, a, i, j] * %{{.*}}[] {tc.name = "R"} : tensor<8x8x4x4xf64, #tc.blocks<{{.*}}>>, tensor<f64, #tc.blocks<[]>>
// CHECK-NOT: %arg0[
func.func @blocks(%T: tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>>,
                  %W: tensor<4x8x8x4xf64, #tc.blocks<[[2, 2], [4, 4], [4, 4], [2, 2]], symmetry = 0>>)
    -> (tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>> {tc.name = "R"}) {
  %0 = tc.contract [a, b, i, j] = %T[a, c, i, k] * %W[k, b, c, j] {tc.name = "R"} : tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>>, tensor<4x8x8x4xf64, #tc.blocks<[[2, 2], [4, 4], [4, 4], [2, 2]], symmetry = 0>> -> tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>>
  %1 = tc.contract %0[a, b, i, j] += -1.0 * %T[b, c, i, k] * %W[k, a, c, j] {tc.name = "R"} : tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>>, tensor<4x8x8x4xf64, #tc.blocks<[[2, 2], [4, 4], [4, 4], [2, 2]], symmetry = 0>> -> tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>>
  return %1 : tensor<8x8x4x4xf64, #tc.blocks<[[4, 4], [4, 4], [2, 2], [2, 2]], symmetry = 0>>
}
