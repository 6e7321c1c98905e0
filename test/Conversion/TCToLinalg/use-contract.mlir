// tc-convert-to-linalg use-contract=true: a binary tc.contract that linalg.contract can
// express becomes one, with the maps of the default linalg.generic; everything else is
// lowered as without the option.
// RUN: tc-opt %s --tc-convert-to-linalg=use-contract=true | FileCheck %s

// Same meaning: with the named ops generalized (linalg.fill too), both forms are the
// same IR.
// RUN: tc-opt %s --tc-convert-to-linalg --linalg-generalize-named-ops > %t.generic.mlir
// RUN: tc-opt %s --tc-convert-to-linalg=use-contract=true --linalg-generalize-named-ops > %t.contract.mlir
// RUN: diff %t.generic.mlir %t.contract.mlir

// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d1, d5)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d2, d4, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[BA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BB:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// CHECK-LABEL: func @permuted_accumulate
// CHECK-SAME: (%[[AV:.*]]: tensor<2x4x3x5xf64>, %[[BV:.*]]: tensor<5x6x4x7xf64>, %[[CV:.*]]: tensor<2x3x6x7xf64>)
// CHECK: %[[R:.*]] = linalg.contract indexing_maps = [#[[A]], #[[B]], #[[C]]]
// CHECK-SAME: ins(%[[AV]], %[[BV]] : tensor<2x4x3x5xf64>, tensor<5x6x4x7xf64>) outs(%[[CV]] : tensor<2x3x6x7xf64>) -> tensor<2x3x6x7xf64>
// CHECK: return %[[R]]
func.func @permuted_accumulate(%A: tensor<2x4x3x5xf64>, %B: tensor<5x6x4x7xf64>,
                               %C: tensor<2x3x6x7xf64>) -> tensor<2x3x6x7xf64> {
  %r = tc.contract %C[a, b, c, d] += %A[a, m, b, n] * %B[n, c, m, d]
         : tensor<2x4x3x5xf64>, tensor<5x6x4x7xf64> -> tensor<2x3x6x7xf64>
  return %r : tensor<2x3x6x7xf64>
}

// `=` accumulates into zeros; a batch label (in A, B and C) is parallel.
// CHECK-LABEL: func @fresh_batched_f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x5xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x3x5xf32>)
// CHECK: linalg.contract indexing_maps = [#[[BA]], #[[BB]], #[[BC]]]
// CHECK-SAME: outs(%[[F]] : tensor<2x3x5xf32>)
func.func @fresh_batched_f32(%X: tensor<2x3x4xf32>, %Y: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %r = tc.contract [b, i, j] = %X[b, i, k] * %Y[b, k, j]
         : tensor<2x3x4xf32>, tensor<2x4x5xf32> -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// Every label contracted: a dot product into a 0-d tensor.
// CHECK-LABEL: func @dot
// CHECK: linalg.contract indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}]
// CHECK-SAME: -> tensor<f64>
func.func @dot(%x: tensor<6xf64>, %y: tensor<6xf64>) -> tensor<f64> {
  %r = tc.contract [] = %x[k] * %y[k] : tensor<6xf64>, tensor<6xf64> -> tensor<f64>
  return %r : tensor<f64>
}

// No contracted label (an outer product): linalg.contract cannot express it.
// CHECK-LABEL: func @outer
// CHECK-NOT: linalg.contract
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @outer(%x: tensor<3xf64>, %y: tensor<4xf64>) -> tensor<3x4xf64> {
  %r = tc.contract [i, j] = %x[i] * %y[j] : tensor<3xf64>, tensor<4xf64> -> tensor<3x4xf64>
  return %r : tensor<3x4xf64>
}

// `m` is summed over A alone: neither contracted nor parallel for linalg.contract.
// CHECK-LABEL: func @one_sided_sum
// CHECK-NOT: linalg.contract
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]
func.func @one_sided_sum(%x: tensor<3x4x5xf64>, %y: tensor<4xf64>) -> tensor<3xf64> {
  %r = tc.contract [i] = %x[i, k, m] * %y[k] : tensor<3x4x5xf64>, tensor<4xf64> -> tensor<3xf64>
  return %r : tensor<3xf64>
}

// tc.sum, tc.multi_contract and tc.redistribute do not depend on the option.
// CHECK-LABEL: func @others
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf64>, %[[Y:.*]]: tensor<4x5xf64>, %[[Z:.*]]: tensor<5xf64>)
// CHECK-NOT: linalg.contract
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]
// CHECK-SAME: ins(%[[X]], %[[Y]], %[[Z]] :
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[X]] :
// CHECK-NOT: tc.
// CHECK: return %[[S]]
func.func @others(%x: tensor<3x4xf64>, %y: tensor<4x5xf64>, %z: tensor<5xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %m = tc.multi_contract [i] = %x[i, j] * %y[j, k] * %z[k]
         : tensor<3x4xf64>, tensor<4x5xf64>, tensor<5xf64> -> tensor<3xf64>
  %xr = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[*, b]> : tensor<3x4xf64>
  %s = tc.sum [i] = %xr[i, j] : tensor<3x4xf64> -> tensor<3xf64>
  return %s, %m : tensor<3xf64>, tensor<3xf64>
}

// linalg.contract has no coefficient: a scaled contraction stays a generic.
// CHECK-LABEL: func @scaled_generic
// CHECK-NOT: linalg.contract
// CHECK: linalg.generic
func.func @scaled_generic(%A: tensor<4x5xf64>, %B: tensor<5x6xf64>, %C: tensor<4x6xf64>) -> tensor<4x6xf64> {
  %r = tc.contract %C[i, j] += 2.0 * %A[i, k] * %B[k, j] : tensor<4x5xf64>, tensor<5x6xf64> -> tensor<4x6xf64>
  return %r : tensor<4x6xf64>
}
