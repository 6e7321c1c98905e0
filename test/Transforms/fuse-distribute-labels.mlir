// RUN: tc-opt %s --tc-set-machine="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s" --tc-fuse-distribute | FileCheck %s
// A tree written formula by formula: X2's `i` is read as `j`, and the root sums
// another `i`. tc-fuse-distribute names each loop once ([C] 2) before it plans:
// the producer writes X2 as the root reads it (j), the root keeps its labels.
// Read as written, the tree joined the two i and computed a wrong O.

// CHECK-LABEL: func.func @three_statements
// CHECK: tc.contract [j] = %arg1[b, j] * %arg2[j]
// CHECK: tc.contract [a] = %arg0[a, j, i] * %{{.*}}[j]
func.func @three_statements(%B: tensor<6x6x6xf64> {tc.name = "B"}, %X1: tensor<6x6xf64> {tc.name = "X1"},
                            %A: tensor<6xf64> {tc.name = "A"}) -> (tensor<6xf64> {tc.name = "O"}) {
  %X2 = tc.contract [i] = %X1[b, i] * %A[i] : tensor<6x6xf64>, tensor<6xf64> -> tensor<6xf64>
  %O = tc.contract [a] = %B[a, j, i] * %X2[j] : tensor<6x6x6xf64>, tensor<6xf64> -> tensor<6xf64>
  return %O : tensor<6xf64>
}

// Two unrelated summed loops named k: the producer's becomes k2.
// CHECK-LABEL: func.func @two_k
// CHECK: tc.contract [i] = %arg0[i, k2] * %arg1[k2]
// CHECK: tc.contract [a] = %arg2[a, i, k] * %{{.*}}[i]
func.func @two_k(%A: tensor<4x5xf64>, %B: tensor<5xf64>, %C: tensor<3x4x5xf64>) -> tensor<3xf64> {
  %T = tc.contract [i] = %A[i, k] * %B[k] : tensor<4x5xf64>, tensor<5xf64> -> tensor<4xf64>
  %R = tc.contract [a] = %C[a, i, k] * %T[i] : tensor<3x4x5xf64>, tensor<4xf64> -> tensor<3xf64>
  return %R : tensor<3xf64>
}
