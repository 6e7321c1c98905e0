// tc-reuse-kept-storage: an array loaded from its value takes its storage
// from tc.alloc_storage when it is the statement's stored result with no
// other array of its name, or (read_only) when nothing writes it.
// RUN: tc-opt %s -tc-reuse-kept-storage -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @adds_a_term
func.func @adds_a_term() {
  // CHECK: %[[A:.*]] = tc.alloc_storage "A" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64> {read_only}
  // CHECK: %[[W:.*]] = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64>{{$}}
  // CHECK: tc.array "A" init input storage %[[A]]
  // CHECK: tc.array "W" init input storage %[[W]]
  // CHECK: memref.dealloc %[[W]]
  %a = memref.alloc() : memref<4x8xf64>
  %w = memref.alloc() : memref<4x8xf64>
  %A = tc.array "A" init input storage %a : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  %W = tc.array "W" init input storage %w : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  tc.store %W : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  memref.dealloc %a : memref<4x8xf64>
  memref.dealloc %w : memref<4x8xf64>
  return
}

// -----

// A result that starts at zero has no value to take over.
// CHECK-LABEL: func.func @starts_at_zero
// CHECK-NOT: tc.alloc_storage
func.func @starts_at_zero() {
  %w = memref.alloc() : memref<4x8xf64>
  %W = tc.array "W" init zero storage %w : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  tc.store %W : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  memref.dealloc %w : memref<4x8xf64>
  return
}

// -----

// W += W * X: the result overwrites a value another array reads, so it gets
// a buffer of its own; the operand, which nothing writes, may share.
// CHECK-LABEL: func.func @read_twice
// CHECK: %[[R:.*]] = tc.alloc_storage "W" {{.*}} -> memref<8x8xf64> {read_only}
// CHECK: %[[W:.*]] = memref.alloc() : memref<4x8xf64>
// CHECK-NOT: tc.alloc_storage
func.func @read_twice() {
  %r = memref.alloc() : memref<8x8xf64>
  %w = memref.alloc() : memref<4x8xf64>
  %R = tc.array "W" init input storage %r : memref<8x8xf64> : !tc.array<f64, #tc.layout<replicated [8, 8] on [2] dims [-1, -1] skew [-1, -1]>>
  %W = tc.array "W" init input storage %w : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  tc.store %W : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  memref.dealloc %r : memref<8x8xf64>
  memref.dealloc %w : memref<4x8xf64>
  return
}

// -----

// An operand that the contraction only reads (from the array into its own
// storage, then as a contraction input).
// CHECK-LABEL: func.func @read_only_operand
// CHECK: %[[A:.*]] = tc.alloc_storage "A" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64> {read_only}
// CHECK: %[[C:.*]] = memref.alloc() : memref<4x4xf64>
// CHECK: tc.array "A" init input storage %[[A]]
func.func @read_only_operand(%i: index) {
  %a = memref.alloc() : memref<4x8xf64>
  %c = memref.alloc() : memref<4x4xf64>
  %A = tc.array "A" init input storage %a : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  tc.read_tile %A[%i, %i] into %a : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>, memref<4x8xf64>
  tc.tile_contract %c[%i, %i] ["i", "j"] += %a[%i, %i] ["i", "k"] * %a[%i, %i] ["j", "k"]
      extents {i = 4 : i64, j = 4 : i64, k = 8 : i64}
      : memref<4x8xf64>, memref<4x8xf64> -> memref<4x4xf64>
  memref.dealloc %a : memref<4x8xf64>
  memref.dealloc %c : memref<4x4xf64>
  return
}

// -----

// Arrays the algorithm rotates in place (tc.shift_array) or adds into (a
// contraction's result buffer, not stored) are written: buffers of their own.
// CHECK-LABEL: func.func @written_operands
// CHECK-NOT: tc.alloc_storage
func.func @written_operands(%i: index) {
  %a = memref.alloc() : memref<4x8xf64>
  %c = memref.alloc() : memref<4x4xf64>
  %A = tc.array "A" init input storage %a : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  %C = tc.array "C" init input storage %c : memref<4x4xf64> : !tc.array<f64, #tc.layout<distributed [8, 4] on [2] dims [0, -1] skew [-1, -1]>>
  tc.shift_array %A along 0 : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  tc.tile_contract %c[%i, %i] ["i", "j"] += %a[%i, %i] ["i", "k"] * %a[%i, %i] ["j", "k"]
      extents {i = 4 : i64, j = 4 : i64, k = 8 : i64}
      : memref<4x8xf64>, memref<4x8xf64> -> memref<4x4xf64>
  memref.dealloc %a : memref<4x8xf64>
  memref.dealloc %c : memref<4x4xf64>
  return
}

// -----

// A view of the storage could be written through: a buffer of its own.
// CHECK-LABEL: func.func @viewed_storage
// CHECK-NOT: tc.alloc_storage
func.func @viewed_storage() {
  %a = memref.alloc() : memref<4x8xf64>
  %A = tc.array "A" init input storage %a : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  %v = memref.subview %a[0, 0] [2, 8] [1, 1] : memref<4x8xf64> to memref<2x8xf64, strided<[8, 1]>>
  memref.dealloc %a : memref<4x8xf64>
  return
}
