// Every verifier rule of the tile-level ops, each with its message.
// RUN: tc-opt %s -split-input-file -verify-diagnostics

func.func @array_lengths() {
  // expected-error @+2 {{#tc.layout: 2 extents but 1 grid dims, 2 skews, 2 splits, 2 cyclic sizes and 2 file dims}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0] skew [-1, -1]>>
  return
}

// -----

func.func @array_kind() {
  // expected-error @+3 {{expected one of [distributed, replicated, slab, gathered] for array kind, got: cyclic}}
  // expected-error @+2 {{failed to parse TC_ArrayLayoutAttr parameter 'kind'}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout'}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<cyclic [4] on [2] dims [0] skew [-1]>>
  return
}

// -----

func.func @array_init() {
  // expected-error @+2 {{expected one of [input, zero, root_input, ones] for array initial value, got: twos}}
  // expected-error @+1 {{failed to parse TC_ArrayInitKindAttr parameter 'value'}}
  %A = tc.array "A" init twos : !tc.array<f64, #tc.layout<distributed [4] on [2] dims [0] skew [-1]>>
  return
}

// -----

func.func @array_grid_dim() {
  // expected-error @+2 {{#tc.layout: dimension 0 is split along grid dimension 1 of a 1-d grid}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4] on [2] dims [1] skew [-1]>>
  return
}

// -----

func.func @array_grid_twice() {
  // expected-error @+2 {{#tc.layout: grid dimension 0 splits two dimensions}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, 0] skew [-1, -1]>>
  return
}

// -----

func.func @array_replicated_split() {
  // expected-error @+2 {{#tc.layout: a replicated array splits no dimension along the grid, but dimension 0 is split}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<replicated [4] on [2] dims [0] skew [-1]>>
  return
}

// -----

func.func @array_skew() {
  // expected-error @+2 {{#tc.layout: dimension 0 is skewed by grid dimension 0; a skew needs a split dimension and another grid dimension}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, 1] skew [0, -1]>>
  return
}

// -----

func.func @array_extent() {
  // expected-error @+2 {{#tc.layout: dimension 0 has extent 0}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [0] on [2] dims [-1] skew [-1]>>
  return
}

// -----

func.func @read_offsets(%i: index) {
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.read_tile' op has 1 offsets for the buffer of rank 2}}
  tc.read_tile %A[%i] into %b : !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>, memref<4x4xf64>
  return
}

// -----

func.func @write_dynamic(%i: index, %b: memref<?xf64>) {
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>
  // expected-error @+1 {{'tc.write_tile' op the buffer must be a statically shaped memref with the identity layout, got 'memref<?xf64>'}}
  tc.write_tile %b into %A[%i] : memref<?xf64>, !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>
  return
}

// -----

func.func @shift_sizes(%i: index) {
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.shift_tile' op sub-tile size 5 of dimension 0 is outside 1..4}}
  tc.shift_tile %b[%i] sizes [5] along 0 of %A : memref<4xf64>, !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>
  return
}

// -----

func.func @contract_result_only(%i: index) {
  %b = memref.alloc() : memref<4xf64>
  %s = memref.alloc() : memref<f64>
  // expected-error @+1 {{'tc.tile_contract' op label 'i' of operand c is in neither input}}
  tc.tile_contract %b[%i] ["i"] += %s[] [] * %s[] [] extents {i = 4 : i64}
      : memref<f64>, memref<f64> -> memref<4xf64>
  return
}

// -----

func.func @contract_extent(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.tile_contract' op label 'k' has extent 8 but dimension 1 of operand a has size 4}}
  tc.tile_contract %b[%i, %i] ["i", "j"] += %b[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 4 : i64, k = 8 : i64}
      : memref<4x4xf64>, memref<4x4xf64> -> memref<4x4xf64>
  return
}

// -----

// A stepped sub-tile spans (extent - 1) * step + 1 elements of its dimension.
func.func @contract_step_span(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  %c = memref.alloc() : memref<8x4xf64>
  // expected-error @+1 {{'tc.tile_contract' op label 'i' has extent 4 with step 3 but dimension 0 of operand c has size 8}}
  tc.tile_contract %c[%i, %i] ["i", "j"] += %b[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 4 : i64, k = 4 : i64} {c_steps = array<i64: 3, 1>}
      : memref<4x4xf64>, memref<4x4xf64> -> memref<8x4xf64>
  return
}

// -----

func.func @contract_step_count(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.tile_contract' op operand a has 1 steps for rank 2}}
  tc.tile_contract %b[%i, %i] ["i", "j"] += %b[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 4 : i64, k = 4 : i64} {a_steps = array<i64: 1>}
      : memref<4x4xf64>, memref<4x4xf64> -> memref<4x4xf64>
  return
}

// -----

func.func @contract_step_positive(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.tile_contract' op operand b has step 0 in dimension 1; steps are positive}}
  tc.tile_contract %b[%i, %i] ["i", "j"] += %b[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 1 : i64, k = 4 : i64} {b_steps = array<i64: 1, 0>}
      : memref<4x4xf64>, memref<4x4xf64> -> memref<4x4xf64>
  return
}

// -----

// One element type: the kernel is one sgemm or dgemm.
func.func @contract_mixed_types(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  %s = memref.alloc() : memref<4x4xf32>
  // expected-error @+1 {{'tc.tile_contract' op operand a holds 'f32' but operand c holds 'f64'; the three buffers have one element type}}
  tc.tile_contract %b[%i, %i] ["i", "j"] += %s[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 4 : i64, k = 4 : i64}
      : memref<4x4xf32>, memref<4x4xf64> -> memref<4x4xf64>
  return
}

// -----

func.func @contract_labels(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.tile_contract' op operand c has 1 labels for rank 2}}
  tc.tile_contract %b[%i, %i] ["i"] += %b[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 4 : i64, k = 4 : i64}
      : memref<4x4xf64>, memref<4x4xf64> -> memref<4x4xf64>
  return
}

// -----

func.func @contract_missing_extent(%i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.tile_contract' op label 'k' has no integer extent}}
  tc.tile_contract %b[%i, %i] ["i", "j"] += %b[%i, %i] ["i", "k"] * %b[%i, %i] ["k", "j"]
      extents {i = 4 : i64, j = 4 : i64}
      : memref<4x4xf64>, memref<4x4xf64> -> memref<4x4xf64>
  return
}


// -----

func.func @array_storage_shape() {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.array' op storage buffer 'memref<4x4xf64>' does not have the shape of the padded block [2, 4]}}
  %A = tc.array "A" init input storage %b : memref<4x4xf64> : !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>
  return
}

// -----

func.func @array_storage_on_disk() {
  %b = memref.alloc() : memref<2x4xf64>
  // expected-error @+1 {{'tc.array' op an array on disk cannot live in a memory buffer}}
  %A = tc.array "A" init input storage %b : memref<2x4xf64> {on_disk} : !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>
  return
}

// -----

func.func @array_file_dims() {
  // expected-error @+2 {{#tc.layout: file dims must be a permutation of 0..1}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1] file_dims [1, 1]>>
  return
}

// -----

// expected-error @+2 {{#tc.layout: the grid has no dimension}}
// expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
func.func @array_type_grid(%a: !tc.array<f64, #tc.layout<distributed [4, 4] on [] dims [-1, -1] skew [-1, -1]>>) {
  return
}

// -----

// expected-error @+1 {{!tc.array holds f32 or f64 elements, got 'i32'}}
func.func @array_type_element(%a: !tc.array<i32, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>) {
  return
}

// -----

func.func @array_storage_element() {
  %b = memref.alloc() : memref<2x4xf64>
  // expected-error @+1 {{'tc.array' op storage buffer holds 'f64' but the array holds 'f32'}}
  %A = tc.array "A" init input storage %b : memref<2x4xf64> : !tc.array<f32, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>
  return
}

// -----

func.func @read_array_rank(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>, %i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.read_tile' op has 1 offsets but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>' has rank 2}}
  tc.read_tile %A[%i] into %b : !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>, memref<4xf64>
  return
}

// -----

func.func @read_element_type(%A: !tc.array<f32, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>, %i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.read_tile' op operand 'buffer' holds 'f64' but operand 'array' '!tc.array<f32, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>' holds 'f32'}}
  tc.read_tile %A[%i] into %b : !tc.array<f32, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>, memref<4xf64>
  return
}

// -----

func.func @write_array_rank(%A: !tc.array<f64, #tc.layout<distributed [4, 4, 4] on [1] dims [-1, -1, -1] skew [-1, -1, -1]>>, %i: index) {
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.write_tile' op has 2 offsets but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4, 4] on [1] dims [-1, -1, -1] skew [-1, -1, -1]>>' has rank 3}}
  tc.write_tile %b into %A[%i, %i] : memref<4x4xf64>, !tc.array<f64, #tc.layout<distributed [4, 4, 4] on [1] dims [-1, -1, -1] skew [-1, -1, -1]>>
  return
}

// -----

func.func @write_element_type(%A: !tc.array<f32, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>, %i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.write_tile' op operand 'buffer' holds 'f64' but operand 'array' '!tc.array<f32, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>' holds 'f32'}}
  tc.write_tile %b into %A[%i] : memref<4xf64>, !tc.array<f32, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>
  return
}

// -----

func.func @broadcast_array_rank(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>, %i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.broadcast_tile' op has 1 offsets but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>' has rank 2}}
  tc.broadcast_tile %b from %A[%i] : memref<4xf64>, !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @shift_tile_array_rank(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>, %i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.shift_tile' op has 1 offsets but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>' has rank 2}}
  tc.shift_tile %b[%i] sizes [4] along 0 of %A : memref<4xf64>, !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @shift_tile_grid_dim(%A: !tc.array<f64, #tc.layout<distributed [4] on [1, 1] dims [-1] skew [-1]>>, %i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.shift_tile' op grid dimension 2 is outside the 2-d grid of operand 'array' '!tc.array<f64, #tc.layout<distributed [4] on [1, 1] dims [-1] skew [-1]>>'}}
  tc.shift_tile %b[%i] sizes [4] along 2 of %A : memref<4xf64>, !tc.array<f64, #tc.layout<distributed [4] on [1, 1] dims [-1] skew [-1]>>
  return
}

// -----

func.func @shift_array_grid_dim(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>) {
  // expected-error @+1 {{'tc.shift_array' op grid dimension -1 is outside the 2-d grid of operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>'}}
  tc.shift_array %A along -1 : !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @combine_grid_dims(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>) {
  // expected-error @+1 {{'tc.combine_partial' op grid dimension 2 is outside the 2-d grid of operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>'}}
  tc.combine_partial %A along [1, 2] : !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @combine_order(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>) {
  // expected-error @+1 {{'tc.combine_partial' op grid dimensions must be increasing and distinct}}
  tc.combine_partial %A along [1, 0] : !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @load_slice_rank(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>, %i: index) {
  // expected-error @+1 {{'tc.load_slice' op has 3 tensor extents but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>' has rank 2}}
  tc.load_slice %A [8, 8, 8] at [%i, %i, %i] : !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @store_slice_rank(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>, %i: index) {
  // expected-error @+1 {{'tc.store_slice' op has 1 tensor extents but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>' has rank 2}}
  tc.store_slice %A [8] at [%i] : !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @slice_shifts(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>, %i: index) {
  // expected-error @+1 {{'tc.load_slice' op has 1 shifts for a tensor of 2 dimensions}}
  tc.load_slice %A [8, 8] at [%i] : !tc.array<f64, #tc.layout<distributed [4, 4] on [1, 1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @redistribute_types(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>, %B: !tc.array<f64, #tc.layout<distributed [4, 8] on [2] dims [-1, 0] skew [-1, -1]>>) {
  // expected-error @+1 {{'tc.redistribute_array' op operand 'source' '!tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>' and operand 'destination' '!tc.array<f64, #tc.layout<distributed [4, 8] on [2] dims [-1, 0] skew [-1, -1]>>' must hold one tensor (element type and extents) on grids of as many processes}}
  tc.redistribute_array %A into %B : !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>, !tc.array<f64, #tc.layout<distributed [4, 8] on [2] dims [-1, 0] skew [-1, -1]>>
  return
}

// -----

func.func @redistribute_processes(%A: !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>, %B: !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, 1] skew [-1, -1]>>) {
  // expected-error @+1 {{must hold one tensor (element type and extents) on grids of as many processes}}
  tc.redistribute_array %A into %B : !tc.array<f64, #tc.layout<distributed [4, 4] on [2] dims [0, -1] skew [-1, -1]>>, !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, 1] skew [-1, -1]>>
  return
}

// -----

// The runtime receives the storage buffer's aligned pointer: no offset, no strides.
func.func @array_storage_layout(%m: memref<4x8xf64>) {
  %b = memref.subview %m[1, 0] [2, 4] [1, 1] : memref<4x8xf64> to memref<2x4xf64, strided<[8, 1], offset: 8>>
  // expected-error @+1 {{expected attribute value}}
  %A = tc.array distributed "A" [4, 4] on [2] dims [0, -1] skew [-1, -1] init input storage %b : memref<2x4xf64, strided<[8, 1], offset: 8>> : !tc.array<f64, #tc.layout<distributed [4, 4] on [1] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

// An all-reduce sums the buffer the runtime sees from its aligned pointer.
func.func @allreduce_strided(%m: memref<4x8xf64>) {
  %b = memref.subview %m[1, 0] [2, 4] [1, 1] : memref<4x8xf64> to memref<2x4xf64, strided<[8, 1], offset: 8>>
  // expected-error @+1 {{'tc.allreduce_tile' op the buffer must be a statically shaped memref with the identity layout, got 'memref<2x4xf64, strided<[8, 1], offset: 8>>'}}
  tc.allreduce_tile %b : memref<2x4xf64, strided<[8, 1], offset: 8>>
  return
}

// -----

func.func @split_length() {
  // expected-error @+2 {{#tc.layout: 2 extents but 2 grid dims, 2 skews, 1 splits, 2 cyclic sizes and 2 file dims}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1]>>
  return
}

// -----

func.func @split_undistributed() {
  // expected-error @+2 {{#tc.layout: dimension 1 is split again along grid dimension 1; a split needs a distributed dimension and a grid dimension no dimension is distributed along}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [-1, 1]>>
  return
}

// -----

func.func @split_used_grid_dim() {
  // expected-error @+2 {{#tc.layout: dimension 0 is split again along grid dimension 1; a split needs a distributed dimension and a grid dimension no dimension is distributed along}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, 1] skew [-1, -1] split [1, -1]>>
  return
}

// -----

func.func @split_twice() {
  // expected-error @+2 {{#tc.layout: more than one dimension is split again}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2, 2] dims [0, 1] skew [-1, -1] split [2, 2]>>
  return
}

// -----

func.func @split_storage_shape(%s: memref<2x4xf64>) {
  // expected-error @+1 {{'tc.array' op storage buffer 'memref<2x4xf64>' does not have the shape of the padded block [1, 4]}}
  %A = tc.array "A" init input storage %s : memref<2x4xf64> : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>
  return
}

// -----

func.func @gather_rank(%i: index) {
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>
  %b = memref.alloc() : memref<2x4xf64>
  // expected-error @+1 {{'tc.gather_tile' op has 1 offsets for the buffer of rank 2}}
  tc.gather_tile %A[%i] into %b : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>, memref<2x4xf64>
  return
}

// -----

func.func @gather_start_element(%i: index) {
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>
  %b = memref.alloc() : memref<2x4xf32>
  // expected-error @+1 {{'tc.gather_tile_start' op operand 'buffer' holds 'f32' but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>' holds 'f64'}}
  %t = tc.gather_tile_start %A[%i, %i] into %b : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>, memref<2x4xf32> -> !tc.transfer
  return
}

// -----

func.func @reduce_scatter_rank(%i: index) {
  %C = tc.array "C" init input : !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.reduce_scatter_tile' op has 1 offsets but operand 'array' '!tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>' has rank 2}}
  tc.reduce_scatter_tile %b into %C[%i] : memref<4xf64>, !tc.array<f64, #tc.layout<distributed [4, 4] on [2, 2] dims [0, -1] skew [-1, -1] split [1, -1]>>
  return
}

// -----

func.func @cyclic_not_distributed() {
  // expected-error @+2 {{dimension 1 has block-cyclic block size 4; a block-cyclic dimension is distributed, its block size > 0}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %B = tc.array "B" init input : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, -1] skew [-1, -1] cyclic [3, 4]>>
  return
}

// -----

func.func @panel_too_small(%panel: memref<2x4xf64>, %r: index) {
  %B = tc.array "B" init input : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]>>
  // expected-error @+1 {{the panel buffer 'memref<2x4xf64>' holds 2 rows of dim 0, the panel has 3}}
  tc.gather_cyclic %B dim 0 residue %r modulo 3 into %panel : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]>>, memref<2x4xf64>
  return
}

// -----

func.func @panel_not_cyclic(%panel: memref<6x4xf64>, %r: index) {
  %B = tc.array "B" init input : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1]>>
  // expected-error @+1 {{'tc.reduce_cyclic' op dim 0 of the array is not block-cyclic}}
  tc.reduce_cyclic %panel into %B dim 0 residue %r modulo 3 : memref<6x4xf64>, !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1]>>
  return
}

// -----

func.func @array_summed_extents() {
  // expected-error @+2 {{#tc.layout: one extent per summed file dimension is needed}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [6] on [2] dims [0] skew [-1] file_dims [1] summed_file_dims [0, 2] summed_extents [3]>>
  return
}

// -----

func.func @array_summed_dims() {
  // expected-error @+2 {{#tc.layout: file dims and summed file dims must be a permutation of 0..2}}
  // expected-error @+1 {{failed to parse TC_ArrayType parameter 'layout' which is to be a `::mlir::tc::ArrayLayoutAttr`}}
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [6] on [2] dims [0] skew [-1] summed_file_dims [0, 2] summed_extents [3, 5]>>
  return
}

// -----

func.func @array_summed_zero() {
  // expected-error @+1 {{'tc.array' op array 'A' sums dimensions of its input but is not loaded from one (init zero)}}
  %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [6] on [2] dims [0] skew [-1] summed_file_dims [1] summed_extents [3]>>
  return
}

// -----

// A store ends the use of the array's storage: the runtime may keep that
// buffer as the stored value.
func.func @write_after_store(%x: f64) {
  %buf = memref.alloc() : memref<4xf64>
  %C = tc.array "C" init zero storage %buf : memref<4xf64> : !tc.array<f64, #tc.layout<replicated [4] on [1] dims [-1] skew [-1]>>
  // expected-error @+1 {{'tc.store' op ends the use of array 'C' and its storage, but 'memref.store' uses the storage after it (only memref.dealloc may)}}
  tc.store %C : !tc.array<f64, #tc.layout<replicated [4] on [1] dims [-1] skew [-1]>>
  %c0 = arith.constant 0 : index
  memref.store %x, %buf[%c0] : memref<4xf64>
  memref.dealloc %buf : memref<4xf64>
  return
}

// -----

func.func @alloc_storage_shape() {
  // expected-error @+1 {{'tc.alloc_storage' op buffer 'memref<8x8xf64>' does not have the shape of array 'W''s padded block [4, 8]}}
  %w = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<8x8xf64>
  return
}

// -----

func.func @alloc_storage_element() {
  // expected-error @+1 {{'tc.alloc_storage' op buffer holds 'f32' but array 'W' holds 'f64'}}
  %w = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf32>
  return
}

// -----

func.func @reduce_scatter_unsplit(%i: index) {
  %C = tc.array "C" init input : !tc.array<f64, #tc.layout<replicated [4, 4] on [2] dims [-1, -1] skew [-1, -1]>>
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.reduce_scatter_tile' op operand 'array' '!tc.array<f64, #tc.layout<replicated [4, 4] on [2] dims [-1, -1] skew [-1, -1]>>' has no split dimension and is no slab array on a 1-d grid: its tiles have no parts to reduce onto}}
  tc.reduce_scatter_tile %b into %C[%i, %i] : memref<4x4xf64>, !tc.array<f64, #tc.layout<replicated [4, 4] on [2] dims [-1, -1] skew [-1, -1]>>
  return
}

// -----

func.func @reduce_scatter_slab_2d(%i: index) {
  %C = tc.array "C" init input : !tc.array<f64, #tc.layout<slab [4, 4] on [2, 2] dims [-1, -1] skew [-1, -1]>>
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{has no split dimension and is no slab array on a 1-d grid}}
  tc.reduce_scatter_tile %b into %C[%i, %i] : memref<4x4xf64>, !tc.array<f64, #tc.layout<slab [4, 4] on [2, 2] dims [-1, -1] skew [-1, -1]>>
  return
}
