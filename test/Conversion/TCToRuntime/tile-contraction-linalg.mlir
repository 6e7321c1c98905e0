// tc-lower-to-runtime{tile-contraction=linalg}: a local tile contraction is a
// linalg.generic on subviews of its buffers (offsets, the labels' extents,
// steps as strides) adding alpha times the product into C's sub-tile; a scalar
// operand is used whole. The other tile ops still call the runtime.
// RUN: tc-opt %s --tc-lower-to-runtime=tile-contraction=linalg | FileCheck %s
// RUN: not tc-opt %s --tc-lower-to-runtime=tile-contraction=fortran 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tile-contraction: 'fortran' is neither runtime nor linalg
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @kernels(
// CHECK-SAME: %[[I:.*]]: index, %[[K:.*]]: index
// CHECK: %[[SA:.*]] = memref.subview %{{.*}}[%[[I]], %[[K]]] [8, 4] [1, 2] : memref<16x16xf64> to memref<8x4xf64, strided<[16, 2], offset: ?>>
// CHECK: %[[SB:.*]] = memref.subview %{{.*}}[%[[K]], %{{.*}}] [4, 16] [1, 1]
// CHECK: %[[SC:.*]] = memref.subview %{{.*}}[%[[I]], %{{.*}}] [8, 16] [1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[SA]], %[[SB]] : {{.*}}) outs(%[[SC]] : {{.*}})
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: %[[Q:.*]] = arith.mulf %[[ALPHA]], %[[P]]
// CHECK: arith.addf %{{.*}}, %[[Q]]
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[S]], #[[Y]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : memref<4x8xf64, strided<[16, 1], offset: ?>>, memref<f64>)
// CHECK-NOT: tc_rt_tile_contract
// CHECK: call @tc_rt_store
func.func @kernels(%i: index, %k: index) {
  %a = memref.alloc() : memref<16x16xf64>
  %b = memref.alloc() : memref<16x16xf64>
  %c = memref.alloc() : memref<16x16xf64>
  %one = memref.alloc() : memref<f64>
  %z = arith.constant 0 : index
  tc.tile_contract %c[%i, %z] ["i", "j"] += %a[%i, %k] ["i", "k"] * %b[%k, %z] ["k", "j"]
      extents {i = 8 : i64, j = 16 : i64, k = 4 : i64} {a_steps = array<i64: 1, 2>, alpha = 5.000000e-01 : f64}
      : memref<16x16xf64>, memref<16x16xf64> -> memref<16x16xf64>
  // A transposing copy through a scalar of ones.
  tc.tile_contract %c[%z, %z] ["p", "q"] += %a[%z, %z] ["q", "p"] * %one[] []
      extents {p = 8 : i64, q = 4 : i64} : memref<16x16xf64>, memref<f64> -> memref<16x16xf64>
  %A = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, -1]>>
  tc.store %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, -1]>>
  return
}
