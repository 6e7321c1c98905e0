// Every verifier rule of the tile-level ops, each with its message.
// RUN: tc-opt %s -split-input-file -verify-diagnostics

func.func @array_lengths() {
  // expected-error @+1 {{'tc.array' op array 'A' has 2 extents but 1 grid dims and 2 skews}}
  %A = tc.array distributed "A" [4, 4] on [2] dims [0] skew [-1, -1] init input : !tc.array<2 x f64 on 1>
  return
}

// -----

func.func @array_kind() {
  // expected-error @+2 {{expected one of [distributed, replicated, slab, gathered] for array kind, got: cyclic}}
  // expected-error @+1 {{failed to parse TC_ArrayKindAttr parameter 'value'}}
  %A = tc.array cyclic "A" [4] on [2] dims [0] skew [-1] init input : !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @array_init() {
  // expected-error @+2 {{expected one of [input, zero, root_input] for array initial value, got: ones}}
  // expected-error @+1 {{failed to parse TC_ArrayInitKindAttr parameter 'value'}}
  %A = tc.array distributed "A" [4] on [2] dims [0] skew [-1] init ones : !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @array_grid_dim() {
  // expected-error @+1 {{'tc.array' op dimension 0 is split along grid dimension 1 of a 1-d grid}}
  %A = tc.array distributed "A" [4] on [2] dims [1] skew [-1] init input : !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @array_grid_twice() {
  // expected-error @+1 {{'tc.array' op grid dimension 0 splits two dimensions}}
  %A = tc.array distributed "A" [4, 4] on [2] dims [0, 0] skew [-1, -1] init input : !tc.array<2 x f64 on 1>
  return
}

// -----

func.func @array_replicated_split() {
  // expected-error @+1 {{'tc.array' op a 'replicated' array splits no dimension along the grid, but dimension 0 is split}}
  %A = tc.array replicated "A" [4] on [2] dims [0] skew [-1] init input : !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @array_skew() {
  // expected-error @+1 {{'tc.array' op dimension 0 is skewed by grid dimension 0; a skew needs a split dimension and another grid dimension}}
  %A = tc.array distributed "A" [4, 4] on [2, 2] dims [0, 1] skew [0, -1] init input : !tc.array<2 x f64 on 2>
  return
}

// -----

func.func @array_extent() {
  // expected-error @+1 {{'tc.array' op dimension 0 has extent 0}}
  %A = tc.array distributed "A" [0] on [2] dims [-1] skew [-1] init input : !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @read_offsets(%i: index) {
  %A = tc.array distributed "A" [4, 4] on [1] dims [-1, -1] skew [-1, -1] init input : !tc.array<2 x f64 on 1>
  %b = memref.alloc() : memref<4x4xf64>
  // expected-error @+1 {{'tc.read_tile' op has 1 offsets for the buffer of rank 2}}
  tc.read_tile %A[%i] into %b : !tc.array<2 x f64 on 1>, memref<4x4xf64>
  return
}

// -----

func.func @write_dynamic(%i: index, %b: memref<?xf64>) {
  %A = tc.array distributed "A" [4] on [1] dims [-1] skew [-1] init input : !tc.array<1 x f64 on 1>
  // expected-error @+1 {{'tc.write_tile' op the buffer must be a statically shaped memref with the identity layout, got 'memref<?xf64>'}}
  tc.write_tile %b into %A[%i] : memref<?xf64>, !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @shift_sizes(%i: index) {
  %A = tc.array distributed "A" [4] on [1] dims [-1] skew [-1] init input : !tc.array<1 x f64 on 1>
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.shift_tile' op sub-tile size 5 of dimension 0 is outside 1..4}}
  tc.shift_tile %b[%i] sizes [5] along 0 of %A : memref<4xf64>, !tc.array<1 x f64 on 1>
  return
}

// -----

func.func @contract_batch(%i: index) {
  %b = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{'tc.tile_contract' op label 'i' appears in 3 operands; each label must appear in exactly two (no batch or single-operand labels)}}
  tc.tile_contract %b[%i] ["i"] += %b[%i] ["i"] * %b[%i] ["i"] extents {i = 4 : i64}
      : memref<4xf64>, memref<4xf64> -> memref<4xf64>
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
  %A = tc.array distributed "A" [4, 4] on [2] dims [0, -1] skew [-1, -1] init input storage %b : memref<4x4xf64> : !tc.array<2 x f64 on 1>
  return
}

// -----

func.func @array_storage_on_disk() {
  %b = memref.alloc() : memref<2x4xf64>
  // expected-error @+1 {{'tc.array' op an array on disk cannot live in a memory buffer}}
  %A = tc.array distributed "A" [4, 4] on [2] dims [0, -1] skew [-1, -1] init input storage %b : memref<2x4xf64> {on_disk} : !tc.array<2 x f64 on 1>
  return
}

// -----

func.func @array_file_dims() {
  // expected-error @+1 {{'tc.array' op file_dims must be a permutation of 0..1}}
  %A = tc.array distributed "A" [4, 4] on [1] dims [-1, -1] skew [-1, -1] init input {file_dims = array<i64: 1, 1>} : !tc.array<2 x f64 on 1>
  return
}
