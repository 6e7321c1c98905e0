// RUN: tc-opt %s --tc-share-products --split-input-file | FileCheck %s

// The same product (labels renamed, summed ones too) computed twice without
// an accumulator: computed once. An output is never replaced.
// CHECK-LABEL: func.func @fresh(
// CHECK: %[[X:.*]] = tc.contract [i, j] = %arg0[i, k] * %arg1[k, j]
// CHECK-NOT: tc.contract [a, b] = %arg0[a, c] * %arg1[c, b]
// CHECK: tc.contract [i, l] = %[[X]][i, j] * %arg2[j, l]
// CHECK: tc.contract [a, d] = %[[X]][a, b] * %arg2[b, d]
// A different product (another summed label): kept.
// CHECK: tc.contract [i, j] = %arg0[i, k] * %arg1[j, k]
func.func @fresh(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>, %C: tensor<4x4xf64>)
    -> (tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>) {
  %X = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %Y = tc.contract [a, b] = %A[a, c] * %B[c, b] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %S = tc.contract [i, l] = %X[i, j] * %C[j, l] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %T = tc.contract [a, d] = %Y[a, b] * %C[b, d] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %Z = tc.contract [i, j] = %A[i, k] * %B[j, k] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %S, %T, %Z : tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

// The same term accumulated twice into one tensor: once, coefficients added,
// across another term; not when something reads the tensor in between.
// CHECK-LABEL: func.func @terms(
// CHECK: %[[R1:.*]] = tc.contract %arg3[i, j] += 2.500000e-01 * %arg0[i, k] * %arg1[k, j]
// CHECK: %[[R2:.*]] = tc.contract %[[R1]][i, j] += %arg2[i, k] * %arg1[k, j]
// CHECK-NOT: 1.250000e-01
// CHECK: %[[S1:.*]] = tc.contract %arg3[i, j] += 1.250000e-01 * %arg0[i, k] * %arg1[k, j]
// CHECK: %[[READ:.*]] = tc.contract [i, j] = %[[S1]][i, k] * %arg2[k, j]
// CHECK: tc.contract %[[S1]][i, j] += 1.250000e-01 * %arg0[i, k] * %arg1[k, j]
func.func @terms(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>, %C: tensor<4x4xf64>, %R0: tensor<4x4xf64>)
    -> (tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>) {
  %R1 = tc.contract %R0[i, j] += 0.125 * %A[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %R2 = tc.contract %R1[i, j] += %C[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %R3 = tc.contract %R2[a, b] += 0.125 * %A[a, c] * %B[c, b] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %S1 = tc.contract %R0[i, j] += 0.125 * %A[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %Q = tc.contract [i, j] = %S1[i, k] * %C[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %S2 = tc.contract %S1[i, j] += 0.125 * %A[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %R3, %Q, %S2 : tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

// Block-sparse products are shared and folded alike (their types, blocks
// included, must match).
// CHECK-LABEL: func.func @blocks(
// CHECK: %[[X:.*]] = tc.contract [i, j] = %arg0[i, k] * %arg1[k, j]
// CHECK-NOT: tc.contract [a, b] = %arg0
// CHECK: tc.contract %arg2[i, j] += 5.000000e-01 * %arg0[i, k] * %arg1[k, j]
// CHECK-NOT: 2.500000e-01
// CHECK: tc.contract [i, j] = %[[X]][i, k]
// CHECK: tc.contract [i, j] = %[[X]][i, k]
!blocks = tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>
func.func @blocks(%A: !blocks, %B: !blocks, %R0: !blocks) -> (!blocks, !blocks, !blocks) {
  %X = tc.contract [i, j] = %A[i, k] * %B[k, j] : !blocks, !blocks -> !blocks
  %Y = tc.contract [a, b] = %A[a, c] * %B[c, b] : !blocks, !blocks -> !blocks
  %R1 = tc.contract %R0[i, j] += 0.25 * %A[i, k] * %B[k, j] : !blocks, !blocks -> !blocks
  %R2 = tc.contract %R1[i, j] += 0.25 * %A[i, k] * %B[k, j] : !blocks, !blocks -> !blocks
  %Z1 = tc.contract [i, j] = %X[i, k] * %R2[k, j] : !blocks, !blocks -> !blocks
  %Z2 = tc.contract [i, j] = %Y[i, k] * %R2[k, j] : !blocks, !blocks -> !blocks
  return %Z1, %Z2, %R2 : !blocks, !blocks, !blocks
}
