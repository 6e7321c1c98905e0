// tc-raise-linalg turns contraction-shaped linalg ops on static f32/f64
// tensors into tc.contract (one label per loop), `=` when the init is a
// zero fill; other ops are left alone.
// RUN: tc-opt %s --split-input-file --tc-raise-linalg | FileCheck %s
// tc's serial meaning and the raising are inverses on binary contractions (up
// to the labels' names):
// RUN: tc-opt %S/Inputs/round-trip.mlir --tc-convert-to-linalg --tc-raise-linalg | FileCheck %s --check-prefix=ROUND
// ROUND: %[[ACC:.*]] = tc.contract %arg2[{{d[0-9]}}, {{d[0-9]}}, {{d[0-9]}}] += %arg0[{{.*}}] * %arg1[{{.*}}] : tensor<4x3x6xf64>, tensor<6x5xf64> -> tensor<5x4x3xf64>
// ROUND: %[[NEW:.*]] = tc.contract [{{.*}}] = %arg0[{{.*}}] * %arg1[{{.*}}] : tensor<4x3x6xf64>, tensor<6x5xf64> -> tensor<3x4x5xf64>
// ROUND-NOT: linalg
// ROUND: return %[[ACC]], %[[NEW]]

// CHECK-LABEL: func.func @matmul
// CHECK: %[[R:.*]] = tc.contract %arg2[d0, d1] += %arg0[d0, d2] * %arg1[d2, d1] : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<4x6xf64>, %b: tensor<6x5xf64>, %c: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<4x6xf64>, tensor<6x5xf64>) outs(%c : tensor<4x5xf64>) -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

// A fresh result (a zero-filled init): the `=` form; the fill goes away.
// CHECK-LABEL: func.func @fresh
// CHECK-NOT: linalg.fill
// CHECK: tc.contract [d0, d1, d2] = %arg0[d0, d1, d3] * %arg1[d0, d3, d2] : tensor<2x4x6xf32>, tensor<2x6x5xf32> -> tensor<2x4x5xf32>
func.func @fresh(%a: tensor<2x4x6xf32>, %b: tensor<2x6x5xf32>) -> tensor<2x4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x6xf32>, tensor<2x6x5xf32>) outs(%c : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %r : tensor<2x4x5xf32>
}

// -----

// linalg.contract with a transposed B, and a contraction-shaped generic with
// permuted operands (C[i,j] += A[k,i] * B[j,k]).
// CHECK-LABEL: func.func @contract
// CHECK: tc.contract %arg2[d0, d1] += %arg0[d0, d2] * %arg1[d1, d2]
// CHECK-LABEL: func.func @generic
// CHECK: tc.contract %arg2[d0, d1] += %arg0[d2, d0] * %arg1[d1, d2]
#mA = affine_map<(i, j, k) -> (i, k)>
#mBt = affine_map<(i, j, k) -> (j, k)>
#mC = affine_map<(i, j, k) -> (i, j)>
func.func @contract(%a: tensor<4x6xf64>, %b: tensor<5x6xf64>, %c: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %r = linalg.contract indexing_maps = [#mA, #mBt, #mC]
         ins(%a, %b : tensor<4x6xf64>, tensor<5x6xf64>) outs(%c : tensor<4x5xf64>) -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}
#gA = affine_map<(i, j, k) -> (k, i)>
func.func @generic(%a: tensor<6x4xf64>, %b: tensor<5x6xf64>, %c: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %r = linalg.generic {indexing_maps = [#gA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%a, %b : tensor<6x4xf64>, tensor<5x6xf64>) outs(%c : tensor<4x5xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  } -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

// Left alone: an element-wise generic (no reduction), a matmul on buffers,
// one on integers and one with dynamic sizes.
// CHECK-LABEL: func.func @others
// CHECK-NOT: tc.contract
// CHECK: linalg.generic
// CHECK: linalg.matmul
// CHECK: linalg.matmul
// CHECK: linalg.matmul
#id = affine_map<(i, j) -> (i, j)>
func.func @others(%x: tensor<4x5xf64>, %y: tensor<4x5xf64>, %ma: memref<4x6xf64>, %mb: memref<6x5xf64>, %mc: memref<4x5xf64>,
                  %ia: tensor<4x6xi32>, %ib: tensor<6x5xi32>, %ic: tensor<4x5xi32>,
                  %da: tensor<?x6xf64>, %db: tensor<6x5xf64>, %dc: tensor<?x5xf64>) -> (tensor<4x5xf64>, tensor<4x5xi32>, tensor<?x5xf64>) {
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %y : tensor<4x5xf64>, tensor<4x5xf64>) outs(%x : tensor<4x5xf64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %m = arith.mulf %p, %q : f64
    linalg.yield %m : f64
  } -> tensor<4x5xf64>
  linalg.matmul ins(%ma, %mb : memref<4x6xf64>, memref<6x5xf64>) outs(%mc : memref<4x5xf64>)
  %i = linalg.matmul ins(%ia, %ib : tensor<4x6xi32>, tensor<6x5xi32>) outs(%ic : tensor<4x5xi32>) -> tensor<4x5xi32>
  %d = linalg.matmul ins(%da, %db : tensor<?x6xf64>, tensor<6x5xf64>) outs(%dc : tensor<?x5xf64>) -> tensor<?x5xf64>
  return %s, %i, %d : tensor<4x5xf64>, tensor<4x5xi32>, tensor<?x5xf64>
}
