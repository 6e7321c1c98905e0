// RUN: tc-opt %s --tc-split-program --split-input-file | FileCheck %s

// A DAG: X = A * B read twice (an intermediate), S = X * C (a tree with X as
// a leaf), R = X * D accumulated twice; two results. One function per
// statement in program order, named tensors crossing the cuts, the
// accumulations chained under one name, outputs without tc.intermediate. The
// intermediates (X, 192 B, and R's first value, 192 B) fit in a quarter of
// each process's 1 MB: every rank keeps them in memory (tc.in_memory), and
// every statement is planned with the 384 B they take left out.
// CHECK-LABEL: func.func @prog_s1(
// CHECK-SAME: %arg0: tensor<4x5xf64> {tc.name = "A"}, %arg1: tensor<5x6xf64> {tc.name = "B"}) -> (tensor<4x6xf64> {tc.name = "X"})
// CHECK-SAME: attributes {tc.in_memory, tc.intermediate, tc.machine = #tc.machine<procs = 2, mem = 999616, {{.*}}>, tc.statement = "X ({{.*}}split-program.mlir:{{[0-9]+}})"}
// CHECK-NEXT: tc.contract [i, j] = %arg0[i, k] * %arg1[k, j]
// CHECK-LABEL: func.func @prog_s2(
// CHECK-SAME: %arg0: tensor<4x6xf64> {tc.name = "X"}, %arg1: tensor<6x3xf64> {tc.name = "C"}, %arg2: tensor<3x2xf64> {tc.name = "E"}) -> (tensor<4x2xf64> {tc.name = "S"})
// CHECK-SAME: attributes {tc.machine
// CHECK-NOT: tc.intermediate
// CHECK: tc.contract [i, m] = %arg0[i, j] * %arg1[j, m]
// CHECK-NEXT: tc.contract [i, n] = {{.*}} * %arg2[m, n]
// CHECK-LABEL: func.func @prog_s3(
// CHECK-SAME: {tc.name = "D"}, %{{.*}}: tensor<f64> {tc.name = "ones", tc.ones}) -> (tensor<4x6xf64> {tc.name = "R"})
// CHECK-SAME: tc.in_memory, tc.intermediate
// CHECK-NEXT: tc.contract [i, j] = 2.000000e+00 * %arg0[i, j] * %arg1[]
// CHECK-LABEL: func.func @prog_s4(
// CHECK-SAME: {tc.name = "X"}, %{{.*}}: tensor<6x6xf64> {tc.name = "Y"}, %{{.*}}: tensor<4x6xf64> {tc.name = "R"}) -> (tensor<4x6xf64> {tc.name = "R"})
// CHECK-NOT: tc.intermediate
// CHECK: tc.contract %arg2[i, j] += 5.000000e-01 * %arg0[i, k] * %arg1[k, j]
// CHECK-NOT: func.func @prog(
func.func @prog(%A: tensor<4x5xf64> {tc.name = "A"}, %B: tensor<5x6xf64> {tc.name = "B"},
                %C: tensor<6x3xf64> {tc.name = "C"}, %E: tensor<3x2xf64> {tc.name = "E"},
                %D: tensor<4x6xf64> {tc.name = "D"}, %Y: tensor<6x6xf64> {tc.name = "Y"})
    -> (tensor<4x2xf64> {tc.name = "S"}, tensor<4x6xf64> {tc.name = "R"})
    attributes {tc.machine = #tc.machine<procs = 2, mem = 1000000, net_bw = 1.0e9, disk_bw = 2.0e8, elem_bytes = 8, bcast_factor = 1.0, reduce_factor = 1.0>} {
  %one = arith.constant dense<1.0> : tensor<f64>
  %X = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.name = "X"} : tensor<4x5xf64>, tensor<5x6xf64> -> tensor<4x6xf64>
  %XC = tc.contract [i, m] = %X[i, j] * %C[j, m] : tensor<4x6xf64>, tensor<6x3xf64> -> tensor<4x3xf64>
  %S = tc.contract [i, n] = %XC[i, m] * %E[m, n] : tensor<4x3xf64>, tensor<3x2xf64> -> tensor<4x2xf64>
  %R1 = tc.contract [i, j] = 2.0 * %D[i, j] * %one[] {tc.name = "R"} : tensor<4x6xf64>, tensor<f64> -> tensor<4x6xf64>
  %R2 = tc.contract %R1[i, j] += 0.5 * %X[i, k] * %Y[k, j] {tc.name = "R"} : tensor<4x6xf64>, tensor<6x6xf64> -> tensor<4x6xf64>
  return %S, %R2 : tensor<4x2xf64>, tensor<4x6xf64>
}

// -----

// One contraction or operator tree stays as it is.
// CHECK-LABEL: func.func @tree(
// CHECK-NOT: tc.statement
func.func @tree(%A: tensor<4x5xf64>, %B: tensor<5x6xf64>, %C: tensor<6x3xf64>) -> tensor<4x3xf64> {
  %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x5xf64>, tensor<5x6xf64> -> tensor<4x6xf64>
  %S = tc.contract [i, l] = %T[i, j] * %C[j, l] : tensor<4x6xf64>, tensor<6x3xf64> -> tensor<4x3xf64>
  return %S : tensor<4x3xf64>
}

// -----

// An output a later statement reads is an intermediate until the end, when a
// last statement copies it into the output file.
// CHECK-LABEL: func.func @reread_s1(
// CHECK-SAME: -> (tensor<4x4xf64> {tc.name = "R"}) attributes {tc.intermediate, tc.statement = "R
// CHECK-LABEL: func.func @reread_s2(
// CHECK-SAME: %arg0: tensor<4x4xf64> {tc.name = "R"}, %arg1: tensor<4x4xf64> {tc.name = "A"}) -> (tensor<4x4xf64> {tc.name = "S"})
// CHECK-NOT: tc.intermediate
// CHECK-LABEL: func.func @reread_R_out(
// CHECK-SAME: %arg0: tensor<4x4xf64> {tc.name = "R"}, %arg1: tensor<f64> {tc.name = "ones", tc.ones}) -> (tensor<4x4xf64> {tc.name = "R"})
// CHECK-SAME: attributes {tc.statement = "R (output)"}
// CHECK-NEXT: tc.contract [d0, d1] = %arg0[d0, d1] * %arg1[]
func.func @reread(%A: tensor<4x4xf64> {tc.name = "A"}) -> (tensor<4x4xf64> {tc.name = "R"}, tensor<4x4xf64> {tc.name = "S"}) {
  %R = tc.contract [i, j] = %A[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %S = tc.contract [i, j] = %R[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %R, %S : tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

// Block-sparse: the tree X = A * B; S = X * C (one fused statement were it
// dense) runs as two single contractions; X and S (an output read later)
// are kept in memory, each its present blocks (2 blocks of 2 x 2, 64 B), so
// 128 B are left out of the statements' memory; a one-tensor term multiplies
// a block-sparse one, and S is copied into the output by a product with the
// same block-sparse ones.
!b4 = tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>
!one = tensor<f64, #tc.blocks<[]>>
// CHECK-LABEL: func.func @blocks_s1(
// CHECK-SAME: -> (tensor<4x4xf64, #tc.blocks<{{\[\[}}2, 2], [2, 2]], symmetry = 0>> {tc.name = "X"})
// CHECK-SAME: tc.in_memory, tc.intermediate, tc.machine = #tc.machine<procs = 2, mem = 1048448,
// CHECK-NEXT: tc.contract [i, j] = %arg0[i, k] * %arg1[k, j]
// CHECK-LABEL: func.func @blocks_s2(
// CHECK-SAME: {tc.name = "X"}
// CHECK-SAME: tc.in_memory, tc.intermediate
// CHECK-NEXT: tc.contract [i, l] = %arg0[i, j] * %arg1[j, l]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @blocks_s3(
// CHECK-SAME: %{{.*}}: tensor<f64, #tc.blocks<[]>> {tc.name = "ones", tc.ones}
// CHECK-NEXT: tc.contract [i, j] = 3.000000e+00 * %arg0[j, i] * %arg1[]
// CHECK-LABEL: func.func @blocks_S_out(
// CHECK-SAME: %{{.*}}: tensor<f64, #tc.blocks<[]>> {tc.name = "ones", tc.ones}
func.func @blocks(%A: !b4 {tc.name = "A"}, %B: !b4 {tc.name = "B"}, %C: !b4 {tc.name = "C"})
    -> (!b4 {tc.name = "S"}, !b4 {tc.name = "T"})
    attributes {tc.machine = #tc.machine<procs = 2, mem = 1048576, net_bw = 1.0e9, disk_bw = 2.0e8>} {
  %one = arith.constant dense<1.0> : !one
  %X = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.name = "X"} : !b4, !b4 -> !b4
  %S = tc.contract [i, l] = %X[i, j] * %C[j, l] {tc.name = "S"} : !b4, !b4 -> !b4
  %T = tc.contract [i, j] = 3.0 * %S[j, i] * %one[] {tc.name = "T"} : !b4, !one -> !b4
  return %S, %T : !b4, !b4
}

// A value read after a later statement updated its tensor in place: the tree
// Y, S reads X1 as its copy X~2, made right after X1, and X2 as X.
// CHECK-LABEL: func.func @stale_s1
// CHECK-SAME: -> (tensor<4x4xf64> {tc.name = "X"})
// CHECK-LABEL: func.func @stale_s2(%arg0: tensor<4x4xf64> {tc.name = "X"}, %arg1: tensor<f64> {tc.name = "ones", tc.ones}) -> (tensor<4x4xf64> {tc.name = "X~2"})
// CHECK: tc.contract [d0, d1] = %arg0[d0, d1] * %arg1[]
// CHECK-LABEL: func.func @stale_s3
// CHECK-SAME: -> (tensor<4x4xf64> {tc.name = "X"})
// CHECK-LABEL: func.func @stale_s4(%arg0: tensor<4x4xf64> {tc.name = "X~2"}, %arg1: tensor<4x4xf64> {tc.name = "X"}, %arg2: tensor<4x4xf64> {tc.name = "A"})
// CHECK-SAME: -> (tensor<4x4xf64> {tc.name = "S"})
func.func @stale(%A: tensor<4x4xf64> {tc.name = "A"}, %B: tensor<4x4xf64> {tc.name = "B"}) -> (tensor<4x4xf64> {tc.name = "S"}) {
  %one = arith.constant dense<1.0> : tensor<f64>
  %X1 = tc.contract [i, j] = %A[i, j] * %one[] {tc.name = "X"} : tensor<4x4xf64>, tensor<f64> -> tensor<4x4xf64>
  %X2 = tc.contract %X1[i, j] += %B[i, k] * %B[k, j] {tc.name = "X"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %Y = tc.contract [i, j] = %X2[i, k] * %A[k, j] {tc.name = "Y"} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %S = tc.contract [i, j] = %X1[i, k] * %Y[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %S : tensor<4x4xf64>
}

// Two outputs that update one shared value (tc-share-products' A[i,j] * ones):
// Y's chain keeps it, X accumulates into a copy that takes X's name.
// CHECK-LABEL: func.func @branch_s1
// CHECK-SAME: -> (tensor<3x3xf64> {tc.name = "Y"})
// CHECK-LABEL: func.func @branch_s2
// CHECK-SAME: {tc.name = "Y"}
// CHECK-SAME: -> (tensor<3x3xf64> {tc.name = "X"})
// CHECK-LABEL: func.func @branch_s3
// CHECK-SAME: -> (tensor<3x3xf64> {tc.name = "X"})
// CHECK: tc.contract %arg2[i, j] +=
// CHECK-LABEL: func.func @branch_s4
// CHECK-SAME: -> (tensor<3x3xf64> {tc.name = "Y"})
// CHECK: tc.contract %arg2[i, j] += -1.000000e+00
func.func @branch(%A: tensor<3x3xf64> {tc.name = "A"}, %B: tensor<3x3xf64> {tc.name = "B"})
    -> (tensor<3x3xf64> {tc.name = "X"}, tensor<3x3xf64> {tc.name = "Y"}) {
  %one = arith.constant dense<1.0> : tensor<f64>
  %a = tc.contract [i, j] = %A[i, j] * %one[] {tc.name = "X"} : tensor<3x3xf64>, tensor<f64> -> tensor<3x3xf64>
  %x = tc.contract %a[i, j] += %B[i, j] * %one[] {tc.name = "X"} : tensor<3x3xf64>, tensor<f64> -> tensor<3x3xf64>
  %y = tc.contract %a[i, j] += -1.0 * %B[i, j] * %one[] {tc.name = "Y"} : tensor<3x3xf64>, tensor<f64> -> tensor<3x3xf64>
  return %x, %y : tensor<3x3xf64>, tensor<3x3xf64>
}
