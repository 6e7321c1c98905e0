// The tile-level ops print and parse back.
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @tiles
func.func @tiles(%i: index, %k: index) {
  // CHECK: tc.predicted_volumes {chunk_bytes = 4096 : i64, comm_bytes = 1.000000e+03 : f64, disk_bytes = 2.000000e+03 : f64, flops = 3.000000e+03 : f64}
  tc.predicted_volumes {chunk_bytes = 4096 : i64, comm_bytes = 1.0e3 : f64, disk_bytes = 2.0e3 : f64, flops = 3.0e3 : f64}
  // CHECK: %[[A:.*]] = tc.array "A" init input {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  %A = tc.array "A" init input {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  %C = tc.array "C" init root_input : !tc.array<f64, #tc.layout<replicated [64, 64] on [4] dims [-1, -1] skew [-1, -1]>>
  %a = memref.alloc() : memref<16x32xf64>
  %c = memref.alloc() : memref<16x16xf64>
  // CHECK: tc.read_tile %[[A]][%{{.*}}, %{{.*}}] into %{{.*}} {root_only} : !tc.array<f64, #tc.layout<{{.*}}>>, memref<16x32xf64>
  tc.read_tile %A[%i, %k] into %a {root_only} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>, memref<16x32xf64>
  // CHECK: tc.broadcast_tile %{{.*}} from %[[A]][%{{.*}}, %{{.*}}] : memref<16x32xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.broadcast_tile %a from %A[%i, %k] : memref<16x32xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: tc.shift_tile %{{.*}}[%{{.*}}, %{{.*}}] sizes [16, 16] along 1 of %[[A]] : memref<16x32xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.shift_tile %a[%i, %k] sizes [16, 16] along 1 of %A : memref<16x32xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: tc.tile_contract %{{.*}}[%{{.*}}, %{{.*}}] ["i", "j"] += %{{.*}}[%{{.*}}, %{{.*}}] ["i", "k"] * %{{.*}}[%{{.*}}, %{{.*}}] ["j", "k"] extents {i = 16 : i64, j = 16 : i64, k = 16 : i64} : memref<16x32xf64>, memref<16x32xf64> -> memref<16x16xf64>
  tc.tile_contract %c[%i, %i] ["i", "j"] += %a[%i, %k] ["i", "k"] * %a[%i, %k] ["j", "k"]
      extents {i = 16 : i64, j = 16 : i64, k = 16 : i64}
      : memref<16x32xf64>, memref<16x32xf64> -> memref<16x16xf64>
  // CHECK: tc.allreduce_tile %{{.*}} : memref<16x16xf64>
  tc.allreduce_tile %c : memref<16x16xf64>
  // CHECK: tc.write_tile %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.write_tile %c into %C[%i, %i] : memref<16x16xf64>, !tc.array<f64, #tc.layout<replicated [64, 64] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.shift_array %[[A]] along 1 : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.shift_array %A along 1 : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: tc.allgather_array %[[A]] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.allgather_array %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: tc.allreduce_array
  tc.allreduce_array %C : !tc.array<f64, #tc.layout<replicated [64, 64] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64>
  %w = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64>
  // CHECK: tc.store
  tc.store %C : !tc.array<f64, #tc.layout<replicated [64, 64] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.begin_statement "prog_s2" {intermediate}
  tc.begin_statement "prog_s2" {intermediate}
  // CHECK: tc.begin_statement "prog_s3"{{$}}
  tc.begin_statement "prog_s3"
  return
}

// Scalars (rank 0) and the label roles beyond I, J and K: a batch label b in
// all three operands, s summed out of a alone.
// CHECK-LABEL: func @scalar_and_batch
func.func @scalar_and_batch() {
  %e = memref.alloc() : memref<f64>
  %a = memref.alloc() : memref<4x3xf64>
  %b = memref.alloc() : memref<4xf64>
  %i = arith.constant 0 : index
  // CHECK: tc.array "E" init zero : !tc.array<f64, #tc.layout<replicated [] on [2] dims [] skew []>>
  %E = tc.array "E" init zero : !tc.array<f64, #tc.layout<replicated [] on [2] dims [] skew []>>
  // A[s, i, t] loaded summed over s and t (labels of A alone).
  // CHECK: tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [6] on [2] dims [0] skew [-1] file_dims [1] summed_file_dims [0, 2] summed_extents [3, 5]>>
  %S = tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [6] on [2] dims [0] skew [-1] file_dims [1] summed_file_dims [0, 2] summed_extents [3, 5]>>
  // CHECK: tc.tile_contract %{{.*}}[] [] += %{{.*}}[%{{.*}}, %{{.*}}] ["b", "s"] * %{{.*}}[%{{.*}}] ["b"]
  tc.tile_contract %e[] [] += %a[%i, %i] ["b", "s"] * %b[%i] ["b"] extents {b = 4 : i64, s = 3 : i64}
      : memref<4x3xf64>, memref<4xf64> -> memref<f64>
  // CHECK: tc.tile_contract %{{.*}}[%{{.*}}] ["b"] += %{{.*}}[%{{.*}}, %{{.*}}] ["b", "s"] * %{{.*}}[%{{.*}}] ["b"]
  tc.tile_contract %b[%i] ["b"] += %a[%i, %i] ["b", "s"] * %b[%i] ["b"] extents {b = 4 : i64, s = 3 : i64}
      : memref<4x3xf64>, memref<4xf64> -> memref<4xf64>
  tc.store %E : !tc.array<f64, #tc.layout<replicated [] on [2] dims [] skew []>>
  return
}
