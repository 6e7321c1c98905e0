// COSMA's tile-level ops and split arrays print and parse back.
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @cosma_tiles
func.func @cosma_tiles(%k: index) {
  // CHECK: %[[A:.*]] = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1]>>
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1]>>
  %C = tc.array "C" init zero : !tc.array<f64, #tc.layout<distributed [64, 40] on [2, 2, 1] dims [0, 1] skew [-1, -1] split [2, -1]>>
  %a0 = memref.alloc() : memref<32x24xf64>
  %c = memref.alloc() : memref<32x20xf64>
  %s = memref.alloc() : memref<16x48xf64>
  // A split array's storage is its padded sub-block: 64/2 rows, then /2 again.
  // CHECK: tc.array "S" init zero storage {{.*}} split [1, -1]>>
  %S = tc.array "S" init zero storage %s : memref<16x48xf64> : !tc.array<f64, #tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, -1] skew [-1, -1] split [1, -1]>>
  // CHECK: tc.gather_tile %[[A]][%{{.*}}, %{{.*}}] into %{{.*}} : !tc.array<f64, #tc.layout<{{.*}}>>, memref<32x24xf64>
  tc.gather_tile %A[%k, %k] into %a0 : !tc.array<f64, #tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1]>>, memref<32x24xf64>
  // CHECK: %[[T:.*]] = tc.gather_tile_start %[[A]][%{{.*}}, %{{.*}}] into %{{.*}} : !tc.array<f64, #tc.layout<{{.*}}>>, memref<32x24xf64> -> !tc.transfer
  %t = tc.gather_tile_start %A[%k, %k] into %a0 : !tc.array<f64, #tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1]>>, memref<32x24xf64> -> !tc.transfer
  // CHECK: tc.wait %[[T]]
  tc.wait %t
  // CHECK: tc.reduce_scatter_tile %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x20xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.reduce_scatter_tile %c into %C[%k, %k] : memref<32x20xf64>, !tc.array<f64, #tc.layout<distributed [64, 40] on [2, 2, 1] dims [0, 1] skew [-1, -1] split [2, -1]>>
  return
}
