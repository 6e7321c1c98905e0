// RUN: tc-opt %s --tc-outline-loops | FileCheck %s

// A program of two loops (test/Frontend/import-tce-loops.tce, imported) becomes
// its parts: the statement before the first loop stores T, the loop's start,
// under the name the loop carries it by; each loop's body loads what it
// carries and reads, and stores its results (tc.keep) every iteration; the
// second loop starts from the input G, which nothing reads once it began;
// the last part reads what the loops left and writes the outputs (copies of
// T and E, which the first loop left, and S).
// CHECK-LABEL: func.func @loops.0(
// CHECK-SAME: %arg0: tensor<5x3xf64> {tc.name = "V"}) -> (tensor<5x3xf64> {tc.keep, tc.name = "T"}) attributes {tc.part_of = "loops"}
// CHECK-LABEL: func.func @loops.loop1(
// CHECK-SAME: %arg0: tensor<5x3xf64> {tc.name = "T"}, %arg1: tensor<5x5xf64> {tc.name = "W"}, %arg2: tensor<5x3xf64> {tc.name = "V"}, %arg3: tensor<5x3xf64> {tc.name = "G"})
// CHECK-SAME: -> (tensor<5x3xf64> {tc.keep, tc.name = "T"}, tensor<f64> {tc.keep, tc.name = "E"}, tensor<5x3xf64> {tc.keep, tc.name = "Z"})
// CHECK-SAME: attributes {tc.loop = #tc.loop<label = "{{.*}}import-tce-loops.tce:18", max = 20, converge = "E", tolerance = 1.000000e-08 : f64, carried = ["T"]>, tc.part_of = "loops"}
// CHECK: tc.contract [a, i] = %arg1[a, b] * %arg0[b, i] {tc.name = "Y"}
// CHECK-LABEL: func.func @loops.loop3(
// CHECK-SAME: %arg0: tensor<5x3xf64> {tc.name = "G"}, %arg1: tensor<5x3xf64> {tc.name = "Z"}) -> (tensor<5x3xf64> {tc.keep, tc.name = "G"})
// CHECK-SAME: attributes {tc.loop = #tc.loop<label = "{{.*}}import-tce-loops.tce:29", max = 2, carried = ["G"]>, tc.part_of = "loops"}
// CHECK-LABEL: func.func @loops.4(
// CHECK-SAME: %arg0: tensor<5x3xf64> {tc.name = "T"}, %arg1: tensor<5x3xf64> {tc.name = "G"}, %arg2: tensor<f64> {tc.name = "E"})
// CHECK-SAME: -> (tensor<5x3xf64> {tc.name = "T"}, tensor<f64> {tc.name = "E"}, tensor<3x3xf64> {tc.name = "S"})
// CHECK: %[[S:.*]] = tc.contract [i, j] = %arg0[a, i] * %arg1[a, j] {tc.name = "S"}
// CHECK: %[[T:.*]] = tc.contract [d0, d1] = %arg0[d0, d1] * %{{.*}}[] {tc.name = "T"}
// CHECK: %[[E:.*]] = tc.contract [] = %arg2[] * %{{.*}}[] {tc.name = "E"}
// CHECK: return %[[T]], %[[E]], %[[S]]
// CHECK-NOT: func.func @loops(
module {
  func.func @loops(%arg0: tensor<5x3xf64> {tc.name = "V"} loc("import-tce-loops.tce":13:7), %arg1: tensor<5x5xf64> {tc.name = "W"} loc("import-tce-loops.tce":13:15), %arg2: tensor<5x3xf64> {tc.name = "G"} loc("import-tce-loops.tce":13:23)) -> (tensor<5x3xf64> {tc.name = "T"}, tensor<f64> {tc.name = "E"}, tensor<3x3xf64> {tc.name = "S"}) {
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