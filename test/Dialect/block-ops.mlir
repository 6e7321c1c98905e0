// The block-sparse program ops (docs/BlockSparse.md) print and parse back:
// block arrays with their blocks' homes, a stage of a schedule, the store.
// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

!A = !tc.block_array<tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>>
!B = !tc.block_array<tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>>
!C = !tc.block_array<tensor<3x3xf32, #tc.blocks<[[2, 1], [1, 2]], present = [[0, 0], [1, 1], [1, 0]]>>>

// CHECK-LABEL: func.func @program
// CHECK: %[[A:.*]] = tc.block_array "A" homes [0, 1] init input {on_disk} : !tc.block_array<tensor<3x4xf64, #tc.blocks<{{\[\[}}2, 1], [2, 2]], symmetry = 0>>>
// CHECK: %[[B:.*]] = tc.block_array "B" homes [1, 0] init input : !tc.block_array<tensor<4x3xf64
// CHECK: %[[C:.*]] = tc.block_array "C" homes [0, 0, 1] init zero : !tc.block_array<tensor<3x3xf32, #tc.blocks<{{\[\[}}2, 1], [1, 2]], present = {{\[\[}}0, 0], [1, 1], [1, 0]]>>>
// CHECK: tc.block_stage %{{.*}}, %[[C]][0, 1] += %[[A]][0, 2] * %[[B]][2, 1] tasks [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2] stages 2 :
// CHECK: tc.block_store %[[C]]
func.func @program(%s: index) {
  %a = tc.block_array "A" homes [0, 1] init input {on_disk} : !A
  %b = tc.block_array "B" homes [1, 0] init input : !B
  %c = tc.block_array "C" homes [0, 0, 1] init zero : !C
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2] stages 2
    : !A, !B, !C
  tc.block_store %c : !C
  return
}
