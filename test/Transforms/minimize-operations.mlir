// tc-minimize-operations factors each tc.multi_contract into its cheapest
// tree of binary tc.contracts (docs/Derivations.md D34).
// RUN: tc-opt %s --split-input-file --tc-minimize-operations --verify-diagnostics | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-minimize-operations="tolerance=0.05" --verify-diagnostics | FileCheck %s --check-prefix=LENIENT

// Cociorva et al.'s running example, every extent 10: 4e10 flops as one loop
// nest, 6e6 as B*D, then *C, then *A (three products of 2 N^6).
// CHECK-LABEL: func.func @cociorva
// CHECK: %[[T1:.*]] = tc.contract [c, b, f, d] = %arg3[c, d, e, l] * %arg1[b, e, f, l] : tensor<10x10x10x10xf64>, tensor<10x10x10x10xf64> -> tensor<10x10x10x10xf64>
// CHECK: %[[T2:.*]] = tc.contract [c, k, b, j] = %[[T1]][c, b, f, d] * %arg2[d, f, j, k]
// CHECK: %[[S:.*]] = tc.contract [a, b, i, j] = %[[T2]][c, k, b, j] * %arg0[a, c, i, k] {tc.flops = {after = 6.000000e+06 : f64, before = 4.000000e+10 : f64}}
// CHECK: return %[[S]]
// CHECK-NOT: tc.multi_contract
func.func @cociorva(%A: tensor<10x10x10x10xf64>, %B: tensor<10x10x10x10xf64>, %C: tensor<10x10x10x10xf64>, %D: tensor<10x10x10x10xf64>) -> tensor<10x10x10x10xf64> {
  %S = tc.multi_contract [a, b, i, j] = %A[a, c, i, k] * %B[b, e, f, l] * %C[d, f, j, k] * %D[c, d, e, l]
         : tensor<10x10x10x10xf64>, tensor<10x10x10x10xf64>, tensor<10x10x10x10xf64>, tensor<10x10x10x10xf64> -> tensor<10x10x10x10xf64>
  return %S : tensor<10x10x10x10xf64>
}

// -----

// Accumulating (+=) into R: the last contraction accumulates; a near tie in
// flops (280 vs 288) goes to the smaller intermediate only within the
// tolerance: (AB)C by default, A(BC) with tolerance 0.05.
// CHECK-LABEL: func.func @chain
// CHECK: %[[AB:.*]] = tc.contract [i, k] = %arg2[j, k] * %arg1[i, j] : tensor<3x10xf32>, tensor<2x3xf32> -> tensor<2x10xf32>
// CHECK: tc.contract %arg0[i, l] += %arg3[k, l] * %[[AB]][i, k] {tc.flops = {after = 2.800000e+02 : f64, before = 7.200000e+02 : f64}}
// LENIENT-LABEL: func.func @chain
// LENIENT: %[[BC:.*]] = tc.contract [j, l] = %arg3[k, l] * %arg2[j, k] : tensor<10x4xf32>, tensor<3x10xf32> -> tensor<3x4xf32>
// LENIENT: tc.contract %arg0[i, l] += %[[BC]][j, l] * %arg1[i, j] {tc.flops = {after = 2.880000e+02 : f64, before = 7.200000e+02 : f64}}
func.func @chain(%R: tensor<2x4xf32>, %A: tensor<2x3xf32>, %B: tensor<3x10xf32>, %C: tensor<10x4xf32>) -> tensor<2x4xf32> {
  %r = tc.multi_contract %R[i, l] += %A[i, j] * %B[j, k] * %C[k, l]
         : tensor<2x3xf32>, tensor<3x10xf32>, tensor<10x4xf32> -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Block-sparse operands: each intermediate holds the blocks its factors can
// make non-zero. B[j,k] (XOR 0) meets C[k,l] (only block [0,0]) in k = 0,
// so B*C has only block [0,0], a list.
// CHECK-LABEL: func.func @blocks
// CHECK: %[[BC:.*]] = tc.contract [j, l] = %arg2[k, l] * %arg1[j, k] : {{.*}} -> tensor<4x4xf64, #tc.blocks<{{\[\[}}2, 2], [2, 2]], present = {{\[\[}}0, 0]]>>
// CHECK: tc.contract [i, l] = %[[BC]][j, l] * %arg0[i, j] {{.*}}: tensor<4x4xf64, #tc.blocks<{{\[\[}}2, 2], [2, 2]], present = {{\[\[}}0, 0]]>>, tensor<4x4xf64, #tc.blocks<{{\[\[}}2, 2], [2, 2]], symmetry = 1>> -> tensor<4x4xf64, #tc.blocks<{{\[\[}}2, 2], [2, 2]]>>
func.func @blocks(%A: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 1>>, %B: tensor<4x10xf64, #tc.blocks<[[2, 2], [5, 5]], symmetry = 0>>, %C: tensor<10x4xf64, #tc.blocks<[[5, 5], [2, 2]], present = [[0, 0]]>>) -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>> {
  %r = tc.multi_contract [i, l] = %A[i, j] * %B[j, k] * %C[k, l]
         : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 1>>, tensor<4x10xf64, #tc.blocks<[[2, 2], [5, 5]], symmetry = 0>>, tensor<10x4xf64, #tc.blocks<[[5, 5], [2, 2]], present = [[0, 0]]>> -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
  return %r : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
}
