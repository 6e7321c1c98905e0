// tc.iterate (a loop of statements until a scalar converges), #tc.loop and the
// entry's tc.begin_iteration / tc.end_iteration: printed as parsed and
// round-tripped.
// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @jacobi(
// CHECK: %[[R:.*]]:2 = tc.iterate max 50 until result 1 converges to 1.000000e-10 with (%[[T:.*]] = %arg0) -> (tensor<4x3xf64>, tensor<f64>) {
// CHECK: %[[N:.*]] = tc.contract [a, i] = %arg1[a, b] * %[[T]][b, i]
// CHECK: %[[E:.*]] = tc.contract [] = %[[N]][a, i] * %[[N]][a, i]
// CHECK: tc.yield %[[N]], %[[E]] : tensor<4x3xf64>, tensor<f64>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @jacobi(%t0: tensor<4x3xf64>, %w: tensor<4x4xf64>) -> (tensor<4x3xf64>, tensor<f64>) {
  %r:2 = tc.iterate max 50 until result 1 converges to 1.0e-10 with (%t = %t0) -> (tensor<4x3xf64>, tensor<f64>) {
    %n = tc.contract [a, i] = %w[a, b] * %t[b, i] : tensor<4x4xf64>, tensor<4x3xf64> -> tensor<4x3xf64>
    %e = tc.contract [] = %n[a, i] * %n[a, i] : tensor<4x3xf64>, tensor<4x3xf64> -> tensor<f64>
    tc.yield %n, %e : tensor<4x3xf64>, tensor<f64>
  }
  return %r#0, %r#1 : tensor<4x3xf64>, tensor<f64>
}

// DIIS over the carried tensor: after the count or tolerance.
// CHECK-LABEL: func.func @diis(
// CHECK: tc.iterate max 50 until result 1 converges to 1.000000e-10 diis 6 with (%{{.*}} = %arg0) -> (tensor<4x3xf64>, tensor<f64>) {
// CHECK: tc.iterate 7 diis 2 with
func.func @diis(%t0: tensor<4x3xf64>, %w: tensor<4x4xf64>) -> (tensor<4x3xf64>, tensor<f64>) {
  %r:2 = tc.iterate max 50 until result 1 converges to 1.0e-10 diis 6 with (%t = %t0) -> (tensor<4x3xf64>, tensor<f64>) {
    %n = tc.contract [a, i] = %w[a, b] * %t[b, i] : tensor<4x4xf64>, tensor<4x3xf64> -> tensor<4x3xf64>
    %e = tc.contract [] = %n[a, i] * %n[a, i] : tensor<4x3xf64>, tensor<4x3xf64> -> tensor<f64>
    tc.yield %n, %e : tensor<4x3xf64>, tensor<f64>
  }
  %s = tc.iterate 7 diis 2 with (%t = %r#0) -> (tensor<4x3xf64>) {
    %n = tc.contract [a, i] = %w[a, b] * %t[b, i] : tensor<4x4xf64>, tensor<4x3xf64> -> tensor<4x3xf64>
    tc.yield %n : tensor<4x3xf64>
  }
  return %s, %r#1 : tensor<4x3xf64>, tensor<f64>
}

// A fixed count, nothing carried: the last iteration's value.
// CHECK-LABEL: func.func @fixed(
// CHECK: tc.iterate 3 -> (tensor<f64>) {
func.func @fixed(%w: tensor<4x4xf64>) -> tensor<f64> {
  %r = tc.iterate 3 -> (tensor<f64>) {
    %e = tc.contract [] = %w[a, b] * %w[a, b] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<f64>
    tc.yield %e : tensor<f64>
  }
  return %r : tensor<f64>
}

// CHECK-LABEL: func.func @entry(
// CHECK: tc.begin_iteration #tc.loop<label = "x.tce:3", max = 50, converge = "E", tolerance = 1.000000e-10 : f64>
// CHECK: %{{.*}} = tc.end_iteration #tc.loop<label = "x.tce:3", max = 50, converge = "E", tolerance = 1.000000e-10 : f64>
// CHECK: tc.end_iteration #tc.loop<label = "y.tce:9", max = 4>
// CHECK: tc.begin_iteration #tc.loop<label = "z.tce:2", max = 9, carried = ["T1", "T2"], diis = 6>
func.func @entry() -> (i1, i1) {
  tc.begin_iteration #tc.loop<label = "x.tce:3", max = 50, converge = "E", tolerance = 1.0e-10 : f64>
  %a = tc.end_iteration #tc.loop<label = "x.tce:3", max = 50, converge = "E", tolerance = 1.0e-10 : f64>
  %b = tc.end_iteration #tc.loop<label = "y.tce:9", max = 4>
  tc.begin_iteration #tc.loop<label = "z.tce:2", max = 9, carried = ["T1", "T2"], diis = 6>
  return %a, %b : i1, i1
}
