// tc-lower-to-runtime's static descriptions, one per kind, as
// include/TC/Runtime/Descriptors.h lays them out (docs/RuntimeABI.md). The same
// int64 sequences are what the encoders give in
// unittests/Runtime/DescriptorsTest.cpp: compiler and runtime agree on them.
// RUN: tc-opt %s --tc-lower-to-runtime | FileCheck %s

// array: [rank, kind, init, on_disk, elem, first_slice, grid_rank, grid..., (extent, grid_dim, skew_dim, file_dim, split_dim, cyclic)..., summed]
// CHECK-DAG: = dense<[2, 0, 0, 1, 0, 0, 2, 2, 2, 64, 0, -1, 0, -1, 0, 64, 1, 0, 1, -1, 0, 0]>
// CHECK-DAG: = dense<[3, 1, 2, 0, 1, 0, 1, 4, 8, -1, -1, 2, -1, 0, 6, -1, -1, 0, -1, 0, 4, -1, -1, 1, -1, 0, 0]>
// the ones of a one-tensor term: a scalar filled with 1 (init 3)
// CHECK-DAG: = dense<[0, 1, 3, 0, 0, 0, 1, 1, 0]>
// held by the first slice of grid dimension 1 only (first_slice mask 2)
// CHECK-DAG: = dense<[1, 0, 1, 0, 0, 2, 2, 2, 2, 8, 0, -1, 0, -1, 0, 0]>
// tile: [rank, root_only, shape...]
// CHECK-DAG: = dense<[2, 1, 16, 32]>
// CHECK-DAG: = dense<[2, 0, 16, 16]>
// shift tile: [rank, grid_dim, shape..., subshape...]
// CHECK-DAG: = dense<[2, 1, 16, 32, 16, 16]>
// tile contraction: [ranks, elem, alpha (the bits of the double 0.5), shapes, labels, steps,
// num_labels, extents]
// CHECK-DAG: = dense<[3, 3, 2, 0, 4602678819172646912, 16, 32, 2, 8, 32, 2, 16, 8, 0, 2, 3, 1, 2, 3, 0, 1, 1, 2, 1, 1, 1, 1, 1, 1, 4, 16, 8, 4, 2]>
// all-reduce tile: [rank, elem, shape...]
// CHECK-DAG: = dense<[2, 1, 16, 8]>
// slice: [rank, extents...]
// CHECK-DAG: = dense<[3, 1000, 70, 40]>
// block array: [rank, init, on_disk, elem, num_blocks, restricted, num_pairs,
// segment counts..., segment lengths..., (segment ids..., home) per stored
// block, restricted only: each dimension's spin flip, (dimension, dimension,
// antisymmetric) per pair]
// CHECK-DAG: = dense<[2, 0, 1, 0, 2, 0, 0, 2, 2, 2, 1, 2, 2, 0, 0, 0, 1, 1, 1]>
// A restricted one: of the four blocks, [0, 0] ([1, 1] equal to it) and
// [0, 1] ([1, 0] equal to it) stored, then the flips [1, 0] and [1, 0].
// CHECK-DAG: = dense<[2, 1, 0, 0, 2, 1, 0, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0]>
// An antisymmetric one: blocks [0, 0], [0, 1], [1, 1] stored ([1, 0] is [0, 1]
// transposed, negated), then the pair (0, 1, antisymmetric).
// CHECK-DAG: = dense<[2, 1, 0, 0, 3, 0, 1, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1]>
// block schedule: [ranks, num_tasks, num_stages, num_cached, alpha (bits of
// 0.5), num_reads, labels..., (a, b, c, rank, stage, step) per task, (stage,
// tensor, block, rank) per cached read, (task, A's dimensions..., B's
// dimensions..., sign) per permuted read]
// CHECK-DAG: = dense<[2, 2, 2, 2, 2, 1, 4602678819172646912, 1, 0, 2, 2, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, -1]>
func.func @descriptions(%i: index, %k: index) {
  %A = tc.array "A" init input {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  %C = tc.array "C" init root_input : !tc.array<f32, #tc.layout<replicated [8, 6, 4] on [4] dims [-1, -1, -1] skew [-1, -1, -1] file_dims [2, 0, 1]>>
  %F = tc.array "F" init zero : !tc.array<f64, #tc.layout<distributed [8] on [2, 2] dims [0] skew [-1] first_slice [1]>>
  %O = tc.array "ones" init ones : !tc.array<f64, #tc.layout<replicated [] on [1] dims [] skew []>>
  %a = memref.alloc() : memref<16x32xf64>
  %a3 = memref.alloc() : memref<16x32x2xf64>
  %b = memref.alloc() : memref<8x32x2xf64>
  %c = memref.alloc() : memref<16x8xf64>
  %d = memref.alloc() : memref<16x16xf64>
  tc.read_tile %A[%i, %k] into %a {root_only} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>, memref<16x32xf64>
  tc.broadcast_tile %d from %A[%i, %k] : memref<16x16xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  tc.shift_tile %a[%i, %k] sizes [16, 16] along 1 of %A : memref<16x32xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  tc.tile_contract %c[%i, %i] ["i", "j"] += %a3[%i, %k, %k] ["i", "k", "l"] * %b[%i, %k, %k] ["j", "k", "l"]
      extents {i = 16 : i64, j = 8 : i64, k = 4 : i64, l = 2 : i64}
      {a_steps = array<i64: 1, 2, 1>, alpha = 5.000000e-01 : f64}
      : memref<16x32x2xf64>, memref<8x32x2xf64> -> memref<16x8xf64>
  %cs = memref.alloc() : memref<16x8xf32>
  tc.allreduce_tile %cs : memref<16x8xf32>
  tc.write_tile %d into %A[%i, %i] : memref<16x16xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  tc.load_slice %C [1000, 70, 40] at [%i, %i, %i] : !tc.array<f32, #tc.layout<replicated [8, 6, 4] on [4] dims [-1, -1, -1] skew [-1, -1, -1] file_dims [2, 0, 1]>>
  return
}

func.func @block_descriptions(%s: index) {
  %a = tc.block_array "A" homes [0, 1] init input {on_disk} : !tc.block_array<tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>>
  %b = tc.block_array "B" homes [0, 1] init input {on_disk} : !tc.block_array<tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>>
  %c = tc.block_array "C" homes [0, 1] init zero {on_disk} : !tc.block_array<tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>>
  %r = tc.block_array "R" homes [0, 1] init zero : !tc.block_array<tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]], flip = [[1, 0], [1, 0]]>>>
  %t = tc.block_array "T" homes [0, 0, 1] init zero : !tc.block_array<tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]], antisymmetric = [[0, 1]]>>>
  tc.block_stage %s, %c[0, 1] += %a[0, 2] * %b[2, 1] tasks [0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1] reads [1, 1, 0, 0, 1, -1] cached [1, 1, 0, 1] alpha 5.000000e-01 stages 2
    : !tc.block_array<tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>>,
      !tc.block_array<tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>>,
      !tc.block_array<tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>>
  return
}
