// tc.redistribute to the distribution it already has folds away (Redist(X,d,d) = 0).
// RUN: tc-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func @same_distribution
// CHECK-SAME: (%[[X:.*]]: tensor<8x8xf64>)
// CHECK-NOT: tc.redistribute
// CHECK: return %[[X]]
func.func @same_distribution(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[a, *]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// CHECK-LABEL: func @different_distribution
// CHECK: tc.redistribute %{{.*}} [a, b] on <[2, 2]> from <[a, *]> to <[*, b]>
func.func @different_distribution(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[*, b]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// Same entries but a different virtual partitioning is a real redistribution.
// CHECK-LABEL: func @different_virtual_factors
// CHECK: tc.redistribute
func.func @different_virtual_factors(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, b]> to <[a, b] virtual [2, 1]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}
