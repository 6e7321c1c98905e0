// COSMA's tile-level ops and split arrays print and parse back.
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @cosma_tiles
func.func @cosma_tiles(%k: index) {
  // CHECK: %[[A:.*]] = tc.array distributed "A" [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1] init input : !tc.array<2 x f64 on 3>
  %A = tc.array distributed "A" [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1] init input : !tc.array<2 x f64 on 3>
  %C = tc.array distributed "C" [64, 40] on [2, 2, 1] dims [0, 1] skew [-1, -1] split [2, -1] init zero : !tc.array<2 x f64 on 3>
  %a0 = memref.alloc() : memref<32x24xf64>
  %c = memref.alloc() : memref<32x20xf64>
  %s = memref.alloc() : memref<16x48xf64>
  // A split array's storage is its padded sub-block: 64/2 rows, then /2 again.
  // CHECK: tc.array distributed "S" {{.*}} split [1, -1] init zero storage
  %S = tc.array distributed "S" [64, 48] on [2, 2, 1] dims [0, -1] skew [-1, -1] split [1, -1] init zero storage %s : memref<16x48xf64> : !tc.array<2 x f64 on 3>
  // CHECK: tc.gather_tile %[[A]][%{{.*}}, %{{.*}}] into %{{.*}} : !tc.array<2 x f64 on 3>, memref<32x24xf64>
  tc.gather_tile %A[%k, %k] into %a0 : !tc.array<2 x f64 on 3>, memref<32x24xf64>
  // CHECK: %[[T:.*]] = tc.gather_tile_start %[[A]][%{{.*}}, %{{.*}}] into %{{.*}} : !tc.array<2 x f64 on 3>, memref<32x24xf64> -> !tc.transfer
  %t = tc.gather_tile_start %A[%k, %k] into %a0 : !tc.array<2 x f64 on 3>, memref<32x24xf64> -> !tc.transfer
  // CHECK: tc.wait %[[T]]
  tc.wait %t
  // CHECK: tc.reduce_scatter_tile %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x20xf64>, !tc.array<2 x f64 on 3>
  tc.reduce_scatter_tile %c into %C[%k, %k] : memref<32x20xf64>, !tc.array<2 x f64 on 3>
  return
}
