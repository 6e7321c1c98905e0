// Round trip of every tc op in custom and generic form.
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// CHECK-LABEL: func @contract_accumulate
func.func @contract_accumulate(%A: tensor<8x6x4x5xf64>, %B: tensor<7x3x4x5xf64>,
                               %C: tensor<8x6x7x3xf64>) -> tensor<8x6x7x3xf64> {
  // CHECK: tc.contract %{{.*}}[a, b, c, d] += %{{.*}}[a, b, m, n] * %{{.*}}[c, d, m, n] : tensor<8x6x4x5xf64>, tensor<7x3x4x5xf64> -> tensor<8x6x7x3xf64>
  %r = tc.contract %C[a, b, c, d] += %A[a, b, m, n] * %B[c, d, m, n]
         : tensor<8x6x4x5xf64>, tensor<7x3x4x5xf64> -> tensor<8x6x7x3xf64>
  return %r : tensor<8x6x7x3xf64>
}

// CHECK-LABEL: func @contract_permuted_fresh
func.func @contract_permuted_fresh(%A: tensor<2x4x3x5xf32>, %B: tensor<5x6x4x7xf32>)
    -> tensor<2x3x6x7xf32> {
  // CHECK: tc.contract [a, b, c, d] = %{{.*}}[a, m, b, n] * %{{.*}}[n, c, m, d] : tensor<2x4x3x5xf32>, tensor<5x6x4x7xf32> -> tensor<2x3x6x7xf32>
  %r = tc.contract [a, b, c, d] = %A[a, m, b, n] * %B[n, c, m, d]
         : tensor<2x4x3x5xf32>, tensor<5x6x4x7xf32> -> tensor<2x3x6x7xf32>
  return %r : tensor<2x3x6x7xf32>
}

// Pure products (Cociorva's multiplication formula): outer and Hadamard.
// CHECK-LABEL: func @pure_products
func.func @pure_products(%x: tensor<3xf64>, %y: tensor<4xf64>, %m: tensor<3x4xf64>)
    -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  // CHECK: tc.contract [i, j] = %{{.*}}[i] * %{{.*}}[j]
  %outer = tc.contract [i, j] = %x[i] * %y[j] : tensor<3xf64>, tensor<4xf64> -> tensor<3x4xf64>
  // CHECK: tc.contract [i, j] = %{{.*}}[i, j] * %{{.*}}[i, j]
  %had = tc.contract [i, j] = %m[i, j] * %outer[i, j] : tensor<3x4xf64>, tensor<3x4xf64> -> tensor<3x4xf64>
  return %outer, %had : tensor<3x4xf64>, tensor<3x4xf64>
}

// Pure summation (Cociorva's summation formula), with accumulation and to a scalar.
// CHECK-LABEL: func @sums
func.func @sums(%X: tensor<4x5x6xf64>, %S: tensor<6x4xf64>) -> (tensor<6x4xf64>, tensor<f64>) {
  // CHECK: tc.sum %{{.*}}[i, a] += %{{.*}}[a, c, i] : tensor<4x5x6xf64> -> tensor<6x4xf64>
  %s = tc.sum %S[i, a] += %X[a, c, i] : tensor<4x5x6xf64> -> tensor<6x4xf64>
  // CHECK: tc.sum [] = %{{.*}}[a, c, i] : tensor<4x5x6xf64> -> tensor<f64>
  %t = tc.sum [] = %X[a, c, i] : tensor<4x5x6xf64> -> tensor<f64>
  return %s, %t : tensor<6x4xf64>, tensor<f64>
}

// The unfactored four-tensor expression of Cociorva et al.
// CHECK-LABEL: func @multi
func.func @multi(%A: tensor<6x5x2x3xf64>, %B: tensor<7x4x4x2xf64>, %C: tensor<5x4x2x3xf64>,
                 %D: tensor<5x5x4x2xf64>) -> tensor<6x7x2x2xf64> {
  // CHECK: tc.multi_contract [a, b, i, j] = %{{.*}}[a, c, i, k] * %{{.*}}[b, e, f, l] * %{{.*}}[d, f, j, k] * %{{.*}}[c, d, e, l]
  %S = tc.multi_contract [a, b, i, j] = %A[a, c, i, k] * %B[b, e, f, l] * %C[d, f, j, k] * %D[c, d, e, l]
         : tensor<6x5x2x3xf64>, tensor<7x4x4x2xf64>, tensor<5x4x2x3xf64>, tensor<5x5x4x2xf64> -> tensor<6x7x2x2xf64>
  return %S : tensor<6x7x2x2xf64>
}

// CHECK-LABEL: func @redistribute
func.func @redistribute(%x: tensor<8x8x4xf64>) -> tensor<8x8x4xf64> {
  // CHECK: tc.redistribute %{{.*}} [a, b, k] on <[4, 8]> from <[a, *]> to <[*, b] virtual [1, 2]> : tensor<8x8x4xf64>
  %y = tc.redistribute %x [a, b, k] on <[4, 8]> from <[a, *]> to <[*, b] virtual [1, 2]> : tensor<8x8x4xf64>
  // CHECK: tc.redistribute %{{.*}} [a, b, k] on <[2, 2, 8]> from <[1, k, *]> to <[b, a, 1]> : tensor<8x8x4xf64>
  %z = tc.redistribute %y [a, b, k] on <[2, 2, 8]> from <[1, k, *]> to <[b, a, 1]> : tensor<8x8x4xf64>
  return %z : tensor<8x8x4xf64>
}

// A plan written by hand round-trips; absent fields stay absent.
// CHECK-LABEL: func.func @planned
// CHECK: tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation, grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>, order = CAB, loops = [{i = 2 : i64, j = 2 : i64}, {k = 4 : i64}, {}, {}], seconds = 1.500000e+00 : f64>
func.func @planned(%A: tensor<8x4xf64>, %B: tensor<4x6xf64>) -> tensor<8x6xf64> {
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation, grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>, order = CAB, loops = [{i = 2, j = 2}, {k = 4}, {}, {}], seconds = 1.5>}
     : tensor<8x4xf64>, tensor<4x6xf64> -> tensor<8x6xf64>
  return %r : tensor<8x6xf64>
}
