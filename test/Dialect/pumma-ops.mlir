// PUMMA's syntax round-trips: block-cyclic distributions, the pumma plan with
// its rolled input, block-cyclic arrays and the panel ops.
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK: to <[x, y] cyclic [5, 3]>
// CHECK: algorithm = #tc.pumma<roll = a>, grid = <[2, 3]>, dist_a = <[i, k] cyclic [5, 3]>, dist_b = <[k, j] cyclic [3, 0]>, dist_c = <[i, j]>
func.func @plan(%A: tensor<20x9xf64>, %B: tensor<9x12xf64>) -> tensor<20x12xf64> {
  %a = tc.redistribute %A [x, y] on <[2, 3]> from <[*, *]> to <[x, y] cyclic [5, 3]> : tensor<20x9xf64>
  %r = tc.contract [i, j] = %a[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = true, algorithm = #tc.pumma<roll = a>, grid = <[2, 3]>, dist_a = <[i, k] cyclic [5, 3]>, dist_b = <[k, j] cyclic [3, 0]>, dist_c = <[i, j]>>} : tensor<20x9xf64>, tensor<9x12xf64> -> tensor<20x12xf64>
  return %r : tensor<20x12xf64>
}

// CHECK-LABEL: func.func @ops
// CHECK: tc.array "B" init input {{.*}}#tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]
// CHECK: tc.grid_coord %{{.*}} along 1
// CHECK: tc.gather_cyclic %{{.*}} dim 0 residue %{{.*}} modulo 3 into %{{.*}} : !tc.array<f64, #tc.layout<{{.*}}>>, memref<6x4xf64>
// CHECK: tc.reduce_cyclic %{{.*}} into %{{.*}} dim 0 residue %{{.*}} modulo 3 : memref<6x4xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
func.func @ops(%panel: memref<6x4xf64>) {
  %B = tc.array "B" init input : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]>>
  %q = tc.grid_coord %B along 1 : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]>>
  tc.gather_cyclic %B dim 0 residue %q modulo 3 into %panel : !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]>>, memref<6x4xf64>
  tc.reduce_cyclic %panel into %B dim 0 residue %q modulo 3 : memref<6x4xf64>, !tc.array<f64, #tc.layout<distributed [9, 12] on [2, 3] dims [0, 1] skew [-1, -1] cyclic [3, 0]>>
  return
}
