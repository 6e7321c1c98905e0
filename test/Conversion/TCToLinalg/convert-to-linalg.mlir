// tc-convert-to-linalg: loops = labels (result first, then summed), maps follow labels.
// RUN: tc-opt %s --tc-convert-to-linalg | FileCheck %s
// Without use-contract there is no linalg.contract (use-contract.mlir has that form).
// RUN: tc-opt %s --tc-convert-to-linalg | FileCheck %s --check-prefix=NOCONTRACT
// NOCONTRACT-NOT: linalg.contract

// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d4, d1, d5)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d2, d4, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func @permuted_accumulate
// CHECK-SAME: (%[[AV:.*]]: tensor<2x4x3x5xf64>, %[[BV:.*]]: tensor<5x6x4x7xf64>, %[[CV:.*]]: tensor<2x3x6x7xf64>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[AV]], %[[BV]] : {{.*}}) outs(%[[CV]] : tensor<2x3x6x7xf64>)
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f64
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: return %[[R]]
func.func @permuted_accumulate(%A: tensor<2x4x3x5xf64>, %B: tensor<5x6x4x7xf64>,
                               %C: tensor<2x3x6x7xf64>) -> tensor<2x3x6x7xf64> {
  %r = tc.contract %C[a, b, c, d] += %A[a, m, b, n] * %B[n, c, m, d]
         : tensor<2x4x3x5xf64>, tensor<5x6x4x7xf64> -> tensor<2x3x6x7xf64>
  return %r : tensor<2x3x6x7xf64>
}

// `=` starts from zero.
// CHECK-LABEL: func @fresh_sum_f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<6xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]
// CHECK-SAME: outs(%[[F]] : tensor<6xf32>)
// CHECK: arith.addf
func.func @fresh_sum_f32(%X: tensor<4x5x6xf32>) -> tensor<6xf32> {
  %s = tc.sum [i] = %X[a, c, i] : tensor<4x5x6xf32> -> tensor<6xf32>
  return %s : tensor<6xf32>
}

// Products of n inputs multiply in input order.
// CHECK-LABEL: func @multi
// CHECK: ^bb0(%[[P0:.*]]: f64, %[[P1:.*]]: f64, %[[P2:.*]]: f64, %[[O:.*]]: f64):
// CHECK-NEXT: %[[M0:.*]] = arith.mulf %[[P0]], %[[P1]]
// CHECK-NEXT: %[[M1:.*]] = arith.mulf %[[M0]], %[[P2]]
// CHECK-NEXT: arith.addf %[[O]], %[[M1]]
func.func @multi(%x: tensor<3x4xf64>, %y: tensor<4x5xf64>, %z: tensor<5xf64>) -> tensor<3xf64> {
  %r = tc.multi_contract [i] = %x[i, j] * %y[j, k] * %z[k]
         : tensor<3x4xf64>, tensor<4x5xf64>, tensor<5xf64> -> tensor<3xf64>
  return %r : tensor<3xf64>
}

// On one process a redistribution is the identity.
// CHECK-LABEL: func @redistribute
// CHECK-SAME: (%[[V:.*]]: tensor<8x8xf64>)
// CHECK-NOT: tc.
// CHECK: return %[[V]]
func.func @redistribute(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[*, b]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// A coefficient multiplies the product inside the body.
// CHECK-LABEL: func @scaled
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant -2.500000e-01 : f32
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[K]], %[[P]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[Q]] : f32
func.func @scaled(%A: tensor<4x5xf32>, %B: tensor<5x6xf32>, %C: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = tc.contract %C[i, j] += -0.25 * %A[i, k] * %B[k, j] : tensor<4x5xf32>, tensor<5x6xf32> -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
