// Verifier errors of the block-sparse program ops and type.
// RUN: tc-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{!tc.block_array holds a block-sparse tensor (a #tc.blocks encoding), got 'tensor<4x4xf64>'}}
func.func @dense(%a: !tc.block_array<tensor<4x4xf64>>)

// -----

// expected-error @+1 {{!tc.block_array holds f32 or f64 elements, got 'i32'}}
func.func @int(%a: !tc.block_array<tensor<4xi32, #tc.blocks<[[2, 2]]>>>)

// -----

func.func @homes() {
  // expected-error @+1 {{block-sparse array 'A' has 2 stored blocks but 3 homes}}
  %a = tc.block_array "A" homes [0, 1, 0] init input : !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
  return
}

// -----

func.func @negative_home() {
  // expected-error @+1 {{block 1 of 'A' has home -1 (a process rank is at least 0)}}
  %a = tc.block_array "A" homes [0, -1] init input : !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
  return
}

// -----

func.func @root_input() {
  // expected-error @+1 {{a block-sparse array starts as its input, zeros or ones, not root_input}}
  %a = tc.block_array "A" homes [0, 0] init root_input : !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @labels(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{A has 2 dimensions but 3 labels}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2, 3] * %b[2, 1] tasks [] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
!N = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[1, 3], [2, 2]], symmetry = 0>>>
func.func @segments(%s: index, %a: !M, %b: !N, %c: !M) {
  // expected-error @+1 {{label 2 has other segments in B (dimension 0) than where it first appears}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [] stages 1 : !M, !N, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @fields(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{tasks hold six integers each (a, b, c, rank, stage, step), got 5}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @block(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{task 0 names block 2 of B, which has 2 present}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 2, 0, 0, 0, 0] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @stage(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{task 0 is in stage 1 of 1}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 1, 0] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @rank(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{task 0 runs on rank -1}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, -1, 0, 0] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @step(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{task 0 is in step -1}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0, -1] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @cached(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{cached read 0 (stage 0, tensor 2, block 0, rank 1) names no stage, input block or process}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [] cached [0, 2, 0, 1] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @read_width(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{reads hold 6 integers each (task, A's dimensions, B's dimensions, factor), got 5}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0, 0] reads [0, 1, 0, 0, 1] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @read_task(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{read 0 names task 1, which is not a task or has another read}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0, 0] reads [1, 1, 0, 0, 1, -1] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @read_permutation(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{read 0 of task 0 permutes B's dimensions as [1, 1], not a permutation}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0, 0] reads [0, 1, 0, 1, 1, -1] stages 1 : !M, !M, !M
  return
}

// -----

!M = !tc.block_array<tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>>
func.func @read_sign(%s: index, %a: !M, %b: !M, %c: !M) {
  // expected-error @+1 {{read 0 of task 0 has factor 3 (a power of 2, or its negative)}}
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 0, 0, 0] reads [0, 1, 0, 0, 1, 3] stages 1 : !M, !M, !M
  return
}
