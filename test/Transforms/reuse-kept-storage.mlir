// tc-reuse-kept-storage: a result loaded from its value and stored, with no
// other array of its name, takes its storage from tc.alloc_storage.
// RUN: tc-opt %s -tc-reuse-kept-storage -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @adds_a_term
func.func @adds_a_term() {
  // CHECK: %[[A:.*]] = memref.alloc() : memref<4x8xf64>
  // CHECK: %[[W:.*]] = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64>
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

// W += W * X: another array reads the value the result overwrites.
// CHECK-LABEL: func.func @read_twice
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

// An array loaded but not stored (an operand) keeps a buffer of its own.
// CHECK-LABEL: func.func @not_stored
// CHECK-NOT: tc.alloc_storage
func.func @not_stored() {
  %w = memref.alloc() : memref<4x8xf64>
  %W = tc.array "W" init input storage %w : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  memref.dealloc %w : memref<4x8xf64>
  return
}
