// Tile ops declare their memory effects (the tile buffer, the array, and tc's
// runtime: MPI and disk), so upstream passes move plain code around them but
// never hoist, merge or drop a tile op.
// RUN: tc-opt %s --loop-invariant-code-motion --cse --canonicalize | FileCheck %s
// Upstream buffer passes run around them and leave them in place.
// RUN: tc-opt %s --buffer-hoisting --buffer-loop-hoisting --promote-buffers-to-stack | FileCheck %s --check-prefix=BUFFERS

// CHECK-LABEL: func.func @around_tile_ops
func.func @around_tile_ops(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4x4xf64>
  // An array nobody reads still loads its input and takes part in collectives.
  // CHECK: tc.array "U"
  %U = tc.array "U" init input : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  // CHECK: %[[A:.*]] = tc.array "A"
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  // The loop-invariant arithmetic leaves the loop; the tile ops stay in it, in order.
  // CHECK: arith.muli
  // CHECK: scf.for
  // CHECK-NEXT: tc.read_tile %[[A]]
  // CHECK-NEXT: tc.allreduce_tile
  // CHECK-NEXT: tc.read_tile %[[A]]
  // CHECK-NEXT: tc.write_tile
  // CHECK-NEXT: tc.shift_array %[[A]]
  // BUFFERS: scf.for
  // BUFFERS-NEXT: arith.muli
  // BUFFERS-NEXT: tc.read_tile
  // BUFFERS-NEXT: tc.allreduce_tile
  // BUFFERS-NEXT: tc.read_tile
  // BUFFERS-NEXT: tc.write_tile
  // BUFFERS-NEXT: tc.shift_array
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.muli %n, %n : index
    tc.read_tile %A[%c0, %c0] into %buf : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>, memref<4x4xf64>
    tc.allreduce_tile %buf : memref<4x4xf64>
    tc.read_tile %A[%c0, %c0] into %buf : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>, memref<4x4xf64>
    tc.write_tile %buf into %A[%k, %c0] : memref<4x4xf64>, !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
    tc.shift_array %A along 0 : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
  }
  return
}
