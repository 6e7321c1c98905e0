// RUN: tc-opt %s --tc-set-machine="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s" --tc-check-rewrites | FileCheck %s
// RUN: tc-opt %s --tc-plan="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s check-rewrites=true" | FileCheck %s --check-prefix=PLAN
// tc-check-rewrites evaluates the program on random arrays of extents at most 3
// before and after tc-minimize-operations, tc-share-products and
// tc-split-program (run on a copy) and leaves the module as it was when every
// value is kept. (The unit tests show its evaluation of statements telling an
// in-place overwrite apart; a rewrite made wrong on purpose fails it with
// "tc-share-products changed result 'R'".)

// A product of three tensors, the same product in two statements, a term
// accumulated twice, an update that reads its own old value twice, and two
// outputs that begin with the same term.
// CHECK-LABEL: func.func @program
// CHECK: tc.multi_contract
// CHECK-NOT: tc.statement
// PLAN: tc.statement = "X
// PLAN: tc.statement = "Y
func.func @program(%A: tensor<5x6xf64> {tc.name = "A"}, %B: tensor<6x7xf64> {tc.name = "B"},
                   %C: tensor<7x5xf64> {tc.name = "C"}, %D: tensor<5x5xf64> {tc.name = "D"})
    -> (tensor<5x5xf64> {tc.name = "X"}, tensor<5x5xf64> {tc.name = "Y"}) {
  %one = arith.constant dense<1.0> : tensor<f64>
  %p = tc.multi_contract [i, l] = %A[i, j] * %B[j, k] * %C[k, l] {tc.name = "X"} : tensor<5x6xf64>, tensor<6x7xf64>, tensor<7x5xf64> -> tensor<5x5xf64>
  %x1 = tc.contract %p[i, l] += 0.5 * %D[i, l] * %one[] {tc.name = "X"} : tensor<5x5xf64>, tensor<f64> -> tensor<5x5xf64>
  %x2 = tc.contract %x1[i, l] += 0.25 * %D[i, l] * %one[] {tc.name = "X"} : tensor<5x5xf64>, tensor<f64> -> tensor<5x5xf64>
  %x3 = tc.contract %x2[i, l] += %p[l, i] * %D[i, l] {tc.name = "X"} : tensor<5x5xf64>, tensor<5x5xf64> -> tensor<5x5xf64>
  %q = tc.multi_contract [i, l] = %A[i, j] * %B[j, k] * %C[k, l] {tc.name = "Y"} : tensor<5x6xf64>, tensor<6x7xf64>, tensor<7x5xf64> -> tensor<5x5xf64>
  %y1 = tc.contract %q[i, l] += -1.0 * %D[i, l] * %one[] {tc.name = "Y"} : tensor<5x5xf64>, tensor<f64> -> tensor<5x5xf64>
  return %x3, %y1 : tensor<5x5xf64>, tensor<5x5xf64>
}
