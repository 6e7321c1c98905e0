// RUN: tc-opt %s --tc-outline-loops --tc-split-program --split-input-file | FileCheck %s

// Statements keep the inputs they load (tc.keep_inputs: the runtime keeps
// them where they were loaded, and later loads read them from there): the
// run reads W and V once. The budget of a quarter of 1 MB holds every
// intermediate (T, Y, Z, G, G~2, T~2: 120 B each; E, E~2: 8 B) and both
// inputs (W 200 B, V 120 B): every statement is planned with 1056 B left
// out. The statement before the loop keeps V, which the loop loads again,
// so the loop's statement loading V needs no mark; the loop's first keeps W;
// G, an input the second loop overwrites, is not an input to keep;
// statements reading only intermediates need no mark.
// CHECK-LABEL: func.func @loops.0_s1(
// CHECK-SAME: {tc.name = "V"}
// CHECK-SAME: tc.keep_inputs
// CHECK-SAME: mem = 998944,
// CHECK-LABEL: func.func @loops.loop1_s1(
// CHECK-SAME: {tc.name = "W"}
// CHECK-SAME: tc.keep_inputs
// CHECK-LABEL: func.func @loops.loop1_s2(
// CHECK-SAME: {tc.name = "V"}
// CHECK-NOT: tc.keep_inputs
// CHECK-LABEL: func.func @loops.loop1_s3(
// CHECK-NOT: tc.keep_inputs
// CHECK-LABEL: func.func @loops.loop1_s4(
// CHECK-SAME: {tc.name = "G"}
// CHECK-NOT: tc.keep_inputs
// CHECK-LABEL: func.func @loops.loop1_s5(
// CHECK-NOT: tc.keep_inputs
// CHECK-LABEL: func.func @loops.4_s3(
module {
  func.func @loops(%arg0: tensor<5x3xf64> {tc.name = "V"} loc("import-tce-loops.tce":13:7), %arg1: tensor<5x5xf64> {tc.name = "W"} loc("import-tce-loops.tce":13:15), %arg2: tensor<5x3xf64> {tc.name = "G"} loc("import-tce-loops.tce":13:23)) -> (tensor<5x3xf64> {tc.name = "T"}, tensor<f64> {tc.name = "E"}, tensor<3x3xf64> {tc.name = "S"}) attributes {tc.machine = #tc.machine<procs = 2, mem = 1000000, net_bw = 1.0e9, disk_bw = 2.0e8>} {
    %cst = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":16:10)
    %0 = tc.contract [a, i] = %arg0[a, i] * %cst[] {tc.name = "T"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":16:10)
    %1:3 = tc.iterate max 20 until result 1 converges to 1.000000e-08 with (%arg3 = %0) -> (tensor<5x3xf64>, tensor<f64>, tensor<5x3xf64>) {
      %4 = tc.contract [a, i] = %arg1[a, b] * %arg3[b, i] {tc.name = "Y"} : tensor<5x5xf64>, tensor<5x3xf64> -> tensor<5x3xf64> loc("import-tce-loops.tce":19:12)
      %cst_0 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":20:12)
      %5 = tc.contract [a, i] = %arg0[a, i] * %cst_0[] {tc.name = "T"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":20:12)
      %cst_1 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":20:21)
      %6 = tc.contract %5[a, i] += 1.000000e-01 * %4[a, i] * %cst_1[] {tc.name = "T"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":20:21)
      %7 = tc.contract [] = %6[a, i] * %arg2[a, i] {tc.name = "E"} : tensor<5x3xf64>, tensor<5x3xf64> -> tensor<f64> loc("import-tce-loops.tce":21:9)
      %cst_2 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":22:12)
      %8 = tc.contract [a, i] = 2.000000e+00 * %6[a, i] * %cst_2[] {tc.name = "Z"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":22:12)
      tc.yield %6, %7, %8 : tensor<5x3xf64>, tensor<f64>, tensor<5x3xf64> loc("import-tce-loops.tce":18:1)
    } loc("import-tce-loops.tce":18:1)
    %2 = tc.iterate 2 with (%arg3 = %arg2) -> (tensor<5x3xf64>) {
      %cst_0 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":30:12)
      %4 = tc.contract [a, i] = 5.000000e-01 * %arg3[a, i] * %cst_0[] {tc.name = "G"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":30:12)
      %cst_1 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":30:27)
      %5 = tc.contract %4[a, i] += %1#2[a, i] * %cst_1[] {tc.name = "G"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":30:27)
      tc.yield %5 : tensor<5x3xf64> loc("import-tce-loops.tce":29:1)
    } loc("import-tce-loops.tce":29:1)
    %3 = tc.contract [i, j] = %1#0[a, i] * %2[a, j] {tc.name = "S"} : tensor<5x3xf64>, tensor<5x3xf64> -> tensor<3x3xf64> loc("import-tce-loops.tce":35:10)
    return %1#0, %1#1, %3 : tensor<5x3xf64>, tensor<f64>, tensor<3x3xf64> loc("import-tce-loops.tce":1:1)
  } loc("import-tce-loops.tce":1:1)
} loc("import-tce-loops.tce":1:1)
// -----

// A quarter of 1000 B holds T, Y and E (248 B) but no input: the loop reads
// them every iteration.
// CHECK-LABEL: func.func @loops.0_s1(
// CHECK-SAME: mem = 752,
// CHECK-NOT: tc.keep_inputs
module {
  func.func @loops(%arg0: tensor<5x3xf64> {tc.name = "V"} loc("import-tce-loops.tce":13:7), %arg1: tensor<5x5xf64> {tc.name = "W"} loc("import-tce-loops.tce":13:15), %arg2: tensor<5x3xf64> {tc.name = "G"} loc("import-tce-loops.tce":13:23)) -> (tensor<5x3xf64> {tc.name = "T"}, tensor<f64> {tc.name = "E"}, tensor<3x3xf64> {tc.name = "S"}) attributes {tc.machine = #tc.machine<procs = 2, mem = 1000, net_bw = 1.0e9, disk_bw = 2.0e8>} {
    %cst = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":16:10)
    %0 = tc.contract [a, i] = %arg0[a, i] * %cst[] {tc.name = "T"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":16:10)
    %1:3 = tc.iterate max 20 until result 1 converges to 1.000000e-08 with (%arg3 = %0) -> (tensor<5x3xf64>, tensor<f64>, tensor<5x3xf64>) {
      %4 = tc.contract [a, i] = %arg1[a, b] * %arg3[b, i] {tc.name = "Y"} : tensor<5x5xf64>, tensor<5x3xf64> -> tensor<5x3xf64> loc("import-tce-loops.tce":19:12)
      %cst_0 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":20:12)
      %5 = tc.contract [a, i] = %arg0[a, i] * %cst_0[] {tc.name = "T"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":20:12)
      %cst_1 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":20:21)
      %6 = tc.contract %5[a, i] += 1.000000e-01 * %4[a, i] * %cst_1[] {tc.name = "T"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":20:21)
      %7 = tc.contract [] = %6[a, i] * %arg2[a, i] {tc.name = "E"} : tensor<5x3xf64>, tensor<5x3xf64> -> tensor<f64> loc("import-tce-loops.tce":21:9)
      %cst_2 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":22:12)
      %8 = tc.contract [a, i] = 2.000000e+00 * %6[a, i] * %cst_2[] {tc.name = "Z"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":22:12)
      tc.yield %6, %7, %8 : tensor<5x3xf64>, tensor<f64>, tensor<5x3xf64> loc("import-tce-loops.tce":18:1)
    } loc("import-tce-loops.tce":18:1)
    %2 = tc.iterate 2 with (%arg3 = %arg2) -> (tensor<5x3xf64>) {
      %cst_0 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":30:12)
      %4 = tc.contract [a, i] = 5.000000e-01 * %arg3[a, i] * %cst_0[] {tc.name = "G"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":30:12)
      %cst_1 = arith.constant dense<1.000000e+00> : tensor<f64> loc("import-tce-loops.tce":30:27)
      %5 = tc.contract %4[a, i] += %1#2[a, i] * %cst_1[] {tc.name = "G"} : tensor<5x3xf64>, tensor<f64> -> tensor<5x3xf64> loc("import-tce-loops.tce":30:27)
      tc.yield %5 : tensor<5x3xf64> loc("import-tce-loops.tce":29:1)
    } loc("import-tce-loops.tce":29:1)
    %3 = tc.contract [i, j] = %1#0[a, i] * %2[a, j] {tc.name = "S"} : tensor<5x3xf64>, tensor<5x3xf64> -> tensor<3x3xf64> loc("import-tce-loops.tce":35:10)
    return %1#0, %1#1, %3 : tensor<5x3xf64>, tensor<f64>, tensor<3x3xf64> loc("import-tce-loops.tce":1:1)
  } loc("import-tce-loops.tce":1:1)
} loc("import-tce-loops.tce":1:1)// -----

// Without a loop, a statement keeps an input a later statement loads too (V,
// 120 B) and not one no other statement loads (W): with the intermediate X
// (120 B), every statement is planned with 240 B left out. The second
// statement finds V kept and needs no mark.
// CHECK-LABEL: func.func @straight_s1(
// CHECK-SAME: tc.keep_inputs
// CHECK-SAME: mem = 999760,
// CHECK-LABEL: func.func @straight_s2(
// CHECK-NOT: tc.keep_inputs
// CHECK-SAME: mem = 999760,
module {
  func.func @straight(%V: tensor<5x3xf64> {tc.name = "V"}, %W: tensor<5x5xf64> {tc.name = "W"}) -> (tensor<f64> {tc.name = "E"}) attributes {tc.machine = #tc.machine<procs = 2, mem = 1000000, net_bw = 1.0e9, disk_bw = 2.0e8>} {
    %0 = tc.contract [a, i] = %W[a, b] * %V[b, i] {tc.name = "X"} : tensor<5x5xf64>, tensor<5x3xf64> -> tensor<5x3xf64>
    %1 = tc.contract [] = %V[a, i] * %0[a, i] {tc.name = "E"} : tensor<5x3xf64>, tensor<5x3xf64> -> tensor<f64>
    return %1 : tensor<f64>
  }
}
