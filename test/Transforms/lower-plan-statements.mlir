// A program of several statements through tc-plan, tc-lower-plan and
// tc-lower-fused: one lowered function per statement, each starting with
// tc.begin_statement (intermediate unless its result is an output), the
// coefficient as every tile contraction's alpha, the one-tensor term's ones
// an array filled with ones, and tc_main calling the statements in program
// order (a fused tree's between single contractions).
// RUN: tc-opt %s --tc-plan="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s" --tc-lower-plan --tc-lower-fused | FileCheck %s
// CHECK-LABEL: func.func @prog_s1()
// CHECK-NEXT: tc.begin_statement "X ({{.*}}lower-plan-statements.mlir:{{[0-9]+}})" {in_memory, intermediate}
// CHECK: tc.array "ones" init ones {{.*}}#tc.layout<{{[a-z]+}} []
// CHECK: tc.tile_contract {{.*}} {alpha = 2.000000e+00 : f64}
// CHECK-LABEL: func.func @prog_s2()
// T is S's first value (S accumulates into it): it is stored under S's name.
// It keeps the input C, which S's accumulation loads again (D44).
// CHECK-NEXT: tc.begin_statement "S ({{.*}}:{{[0-9]+}})" {in_memory, intermediate, keep_inputs}
// CHECK-LABEL: func.func @prog_s3()
// CHECK-NEXT: tc.begin_statement "S ({{.*}}:{{[0-9]+}})"{{$}}
// CHECK: tc.tile_contract {{.*}} {alpha = -5.000000e-01 : f64}
// CHECK-LABEL: func.func @tc_main()
// CHECK-NEXT: call @prog_s1()
// CHECK-NEXT: call @prog_s2()
// CHECK-NEXT: call @prog_s3()
func.func @prog(%A: tensor<8x8xf64> {tc.name = "A"}, %B: tensor<8x8xf64> {tc.name = "B"},
                %C: tensor<8x8xf64> {tc.name = "C"})
    -> (tensor<8x8xf64> {tc.name = "S"}) {
  %one = arith.constant dense<1.0> : tensor<f64>
  // X = 2 A^T, read twice.
  %X = tc.contract [i, j] = 2.0 * %A[j, i] * %one[] {tc.name = "X"} : tensor<8x8xf64>, tensor<f64> -> tensor<8x8xf64>
  // T = (X B) C, an operator tree, read by S's accumulation.
  %XB = tc.contract [i, k] = %X[i, j] * %B[j, k] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %T = tc.contract [i, l] = %XB[i, k] * %C[k, l] {tc.name = "T"} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  %S = tc.contract %T[i, l] += -0.5 * %X[i, k] * %C[k, l] {tc.name = "S"} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  return %S : tensor<8x8xf64>
}
