// Round trip of every tc op in custom and generic form.
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// CHECK-LABEL: func @contract_accumulate
func.func @contract_accumulate(%A: tensor<8x6x4x5xf64>, %B: tensor<7x3x4x5xf64>,
                               %C: tensor<8x6x7x3xf64>) -> tensor<8x6x7x3xf64> {
  // CHECK: tc.contract %{{.*}}[a, b, c, d] += %{{.*}}[a, b, m, n] * %{{.*}}[c, d, m, n] : tensor<8x6x4x5xf64>, tensor<7x3x4x5xf64> -> tensor<8x6x7x3xf64>
  %r = tc.contract %C[a, b, c, d] += %A[a, b, m, n] * %B[c, d, m, n]
         : tensor<8x6x4x5xf64>, tensor<7x3x4x5xf64> -> tensor<8x6x7x3xf64>
  return %r : tensor<8x6x7x3xf64>
}

// CHECK-LABEL: func @contract_permuted_fresh
func.func @contract_permuted_fresh(%A: tensor<2x4x3x5xf32>, %B: tensor<5x6x4x7xf32>)
    -> tensor<2x3x6x7xf32> {
  // CHECK: tc.contract [a, b, c, d] = %{{.*}}[a, m, b, n] * %{{.*}}[n, c, m, d] : tensor<2x4x3x5xf32>, tensor<5x6x4x7xf32> -> tensor<2x3x6x7xf32>
  %r = tc.contract [a, b, c, d] = %A[a, m, b, n] * %B[n, c, m, d]
         : tensor<2x4x3x5xf32>, tensor<5x6x4x7xf32> -> tensor<2x3x6x7xf32>
  return %r : tensor<2x3x6x7xf32>
}

// Pure products (Cociorva's multiplication formula): outer and Hadamard.
// CHECK-LABEL: func @pure_products
func.func @pure_products(%x: tensor<3xf64>, %y: tensor<4xf64>, %m: tensor<3x4xf64>)
    -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  // CHECK: tc.contract [i, j] = %{{.*}}[i] * %{{.*}}[j]
  %outer = tc.contract [i, j] = %x[i] * %y[j] : tensor<3xf64>, tensor<4xf64> -> tensor<3x4xf64>
  // CHECK: tc.contract [i, j] = %{{.*}}[i, j] * %{{.*}}[i, j]
  %had = tc.contract [i, j] = %m[i, j] * %outer[i, j] : tensor<3x4xf64>, tensor<3x4xf64> -> tensor<3x4xf64>
  return %outer, %had : tensor<3x4xf64>, tensor<3x4xf64>
}

// Pure summation (Cociorva's summation formula), with accumulation and to a scalar.
// CHECK-LABEL: func @sums
func.func @sums(%X: tensor<4x5x6xf64>, %S: tensor<6x4xf64>) -> (tensor<6x4xf64>, tensor<f64>) {
  // CHECK: tc.sum %{{.*}}[i, a] += %{{.*}}[a, c, i] : tensor<4x5x6xf64> -> tensor<6x4xf64>
  %s = tc.sum %S[i, a] += %X[a, c, i] : tensor<4x5x6xf64> -> tensor<6x4xf64>
  // CHECK: tc.sum [] = %{{.*}}[a, c, i] : tensor<4x5x6xf64> -> tensor<f64>
  %t = tc.sum [] = %X[a, c, i] : tensor<4x5x6xf64> -> tensor<f64>
  return %s, %t : tensor<6x4xf64>, tensor<f64>
}

// The unfactored four-tensor expression of Cociorva et al.
// CHECK-LABEL: func @multi
func.func @multi(%A: tensor<6x5x2x3xf64>, %B: tensor<7x4x4x2xf64>, %C: tensor<5x4x2x3xf64>,
                 %D: tensor<5x5x4x2xf64>) -> tensor<6x7x2x2xf64> {
  // CHECK: tc.multi_contract [a, b, i, j] = %{{.*}}[a, c, i, k] * %{{.*}}[b, e, f, l] * %{{.*}}[d, f, j, k] * %{{.*}}[c, d, e, l]
  %S = tc.multi_contract [a, b, i, j] = %A[a, c, i, k] * %B[b, e, f, l] * %C[d, f, j, k] * %D[c, d, e, l]
         : tensor<6x5x2x3xf64>, tensor<7x4x4x2xf64>, tensor<5x4x2x3xf64>, tensor<5x5x4x2xf64> -> tensor<6x7x2x2xf64>
  return %S : tensor<6x7x2x2xf64>
}

// A term's coefficient is written before the first input; 1 is not written.
// CHECK-LABEL: func @scaled
func.func @scaled(%A: tensor<4x5xf64>, %B: tensor<5x6xf64>, %C: tensor<4x6xf64>) -> tensor<4x6xf64> {
  // CHECK: tc.contract %{{.*}}[i, j] += -2.500000e-01 * %{{.*}}[i, k] * %{{.*}}[k, j] {tc.name = "R"}
  %r = tc.contract %C[i, j] += -0.25 * %A[i, k] * %B[k, j] {tc.name = "R"} : tensor<4x5xf64>, tensor<5x6xf64> -> tensor<4x6xf64>
  // CHECK: tc.contract [i, j] = %{{.*}}[i, k] * %{{.*}}[k, j] :
  %s = tc.contract [i, j] = 1.0 * %A[i, k] * %B[k, j] : tensor<4x5xf64>, tensor<5x6xf64> -> tensor<4x6xf64>
  // CHECK: tc.sum [i] = 3.000000e+00 * %{{.*}}[i, j]
  %t = tc.sum [i] = 3.0 * %s[i, j] : tensor<4x6xf64> -> tensor<4xf64>
  return %r : tensor<4x6xf64>
}

// CHECK-LABEL: func @redistribute
func.func @redistribute(%x: tensor<8x8x4xf64>) -> tensor<8x8x4xf64> {
  // CHECK: tc.redistribute %{{.*}} [a, b, k] on <[4, 8]> from <[a, *]> to <[*, b] virtual [1, 2]> : tensor<8x8x4xf64>
  %y = tc.redistribute %x [a, b, k] on <[4, 8]> from <[a, *]> to <[*, b] virtual [1, 2]> : tensor<8x8x4xf64>
  // CHECK: tc.redistribute %{{.*}} [a, b, k] on <[2, 2, 8]> from <[1, k, *]> to <[b, a, 1]> : tensor<8x8x4xf64>
  %z = tc.redistribute %y [a, b, k] on <[2, 2, 8]> from <[1, k, *]> to <[b, a, 1]> : tensor<8x8x4xf64>
  return %z : tensor<8x8x4xf64>
}

// A plan written by hand round-trips; absent fields stay absent.
// CHECK-LABEL: func.func @planned
// CHECK: tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation, grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>, order = CAB, loops = [{i = 2 : i64, j = 2 : i64}, {k = 4 : i64}, {}, {}], seconds = 1.500000e+00 : f64>
func.func @planned(%A: tensor<8x4xf64>, %B: tensor<4x6xf64>) -> tensor<8x6xf64> {
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation, grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>, order = CAB, loops = [{i = 2, j = 2}, {k = 4}, {}, {}], seconds = 1.5>}
     : tensor<8x4xf64>, tensor<4x6xf64> -> tensor<8x6xf64>
  return %r : tensor<8x6xf64>
}

// COSMA's sequential schedule as the memory rule of the tiles (D29).
// CHECK-LABEL: func.func @planned_shared
// CHECK: order = CAB, loops = [{i = 2 : i64, j = 2 : i64}, {k = 4 : i64}, {}, {}], memory = shared>
func.func @planned_shared(%A: tensor<8x4xf64>, %B: tensor<4x6xf64>) -> tensor<8x6xf64> {
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = replication_a, order = CAB, loops = [{i = 2, j = 2}, {k = 4}, {}, {}], memory = shared>}
     : tensor<8x4xf64>, tensor<4x6xf64> -> tensor<8x6xf64>
  return %r : tensor<8x6xf64>
}

// Every value of every decision enum round-trips as a keyword (and every
// attribute holding one).
// CHECK-LABEL: func.func @decisions
// CHECK-SAME: fusion_plan = #tc.fusion_plan<grid = <[4]>, memory = 8.000000e+00 : f64, limit = 1.600000e+01 : f64, comm = 1.000000e+00 : f64, calc = 2.000000e+00 : f64>
// CHECK-SAME: inside_replication_b_bac = #tc.plan<method = inside, algorithm = replication_b, grid = <[4]>, dist_b = <[*]>, order = BAC>
// CHECK-SAME: inside_rotation_abc = #tc.plan<method = inside, algorithm = rotation, grid = <[1, 1]>, order = ABC>
// CHECK-SAME: machine_paper = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00>
// CHECK-SAME: machine_runtime = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, volumes = runtime>
// CHECK-SAME: outside_accumulation_bca = #tc.plan<method = outside, algorithm = accumulation, grid = <[4]>, dist_c = <[*]>, order = BCA>
// CHECK-SAME: outside_accumulation_cba = #tc.plan<in_core = false, method = outside, algorithm = accumulation, order = CBA, memory = per_array>
// CHECK-SAME: outside_replication_a_acb = #tc.plan<method = outside, algorithm = replication_a, grid = <[4]>, dist_a = <[*]>, order = ACB>
// CHECK-SAME: to_all = #tc.fusion<grid = <[4]>, compute = <[e]>, initial = <[*]>, final = <[*]>, partial_sums = to_all, memory = 8.000000e+00 : f64, comm = 1.000000e+00 : f64, calc = 2.000000e+00 : f64>
// CHECK-SAME: to_one = #tc.fusion<grid = <[4]>, compute = <[e]>, initial = <[1]>, final = <[1]>, partial_sums = to_one, memory = 8.000000e+00 : f64, comm = 1.000000e+00 : f64, calc = 2.000000e+00 : f64>
func.func @decisions() attributes {
  fusion_plan = #tc.fusion_plan<grid = <[4]>, memory = 8.0 : f64, limit = 16.0 : f64, comm = 1.0 : f64, calc = 2.0 : f64>,
  inside_rotation_abc = #tc.plan<method = inside, algorithm = rotation, grid = <[1, 1]>, order = ABC>,
  outside_replication_a_acb = #tc.plan<method = outside, algorithm = replication_a, grid = <[4]>, dist_a = <[*]>, order = ACB>,
  inside_replication_b_bac = #tc.plan<method = inside, algorithm = replication_b, grid = <[4]>, dist_b = <[*]>, order = BAC>,
  outside_accumulation_bca = #tc.plan<method = outside, algorithm = accumulation, grid = <[4]>, dist_c = <[*]>, order = BCA>,
  outside_accumulation_cba = #tc.plan<in_core = false, method = outside, algorithm = accumulation, order = CBA, memory = per_array>,
  to_one = #tc.fusion<grid = <[4]>, compute = <[e]>, initial = <[1]>, final = <[1]>, partial_sums = to_one, memory = 8.0 : f64, comm = 1.0 : f64, calc = 2.0 : f64>,
  to_all = #tc.fusion<grid = <[4]>, compute = <[e]>, initial = <[*]>, final = <[*]>, partial_sums = to_all, memory = 8.0 : f64, comm = 1.0 : f64, calc = 2.0 : f64>,
  machine_paper = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = paper>,
  machine_runtime = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = runtime>
} {
  return
}

// The tile-level ops of a planned contraction, on arrays of every kind and
// initial value.
// CHECK-LABEL: func.func @tile_ops
func.func @tile_ops(%i: index, %k: index) {
  // CHECK: tc.predicted_volumes {chunk_bytes = 4096 : i64, comm_bytes = 1.000000e+03 : f64, disk_bytes = 2.000000e+03 : f64, flops = 3.000000e+03 : f64, received_per_rank = array<f64: 1.000000e+00, 2.000000e+00>, sent_per_rank = array<f64: 3.000000e+00, 4.000000e+00>}
  tc.predicted_volumes {chunk_bytes = 4096 : i64, comm_bytes = 1.0e3 : f64, disk_bytes = 2.0e3 : f64, flops = 3.0e3 : f64, received_per_rank = array<f64: 1.0, 2.0>, sent_per_rank = array<f64: 3.0, 4.0>}
  %a = memref.alloc() : memref<16x32xf64>
  %c = memref.alloc() : memref<16x16xf64>
  // CHECK: %[[A:.*]] = tc.array "A" init input {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  %A = tc.array "A" init input {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: %[[A2:.*]] = tc.array "A" init zero {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [1, 0] skew [-1, -1]>>
  %A2 = tc.array "A" init zero {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [1, 0] skew [-1, -1]>>
  // CHECK: %[[S:.*]] = tc.array "S" init input {on_disk} : !tc.array<f64, #tc.layout<slab [64, 32] on [4] dims [-1, -1] skew [-1, -1] file_dims [1, 0]>>
  %S = tc.array "S" init input {on_disk} : !tc.array<f64, #tc.layout<slab [64, 32] on [4] dims [-1, -1] skew [-1, -1] file_dims [1, 0]>>
  // CHECK: %[[G:.*]] = tc.array "G" init input {on_disk} : !tc.array<f64, #tc.layout<gathered [64, 32] on [4] dims [-1, -1] skew [-1, -1]>>
  %G = tc.array "G" init input {on_disk} : !tc.array<f64, #tc.layout<gathered [64, 32] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: %[[C:.*]] = tc.array "C" init root_input storage %{{.*}} : memref<16x16xf64> {{.*}}#tc.layout<replicated [16, 16] on [4] dims [-1, -1] skew [-1, -1]
  %C = tc.array "C" init root_input storage %c : memref<16x16xf64> : !tc.array<f64, #tc.layout<replicated [16, 16] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.read_tile %[[A]][%{{.*}}, %{{.*}}] into %{{.*}} {root_only} : !tc.array<f64, #tc.layout<{{.*}}>>, memref<16x32xf64>
  tc.read_tile %A[%i, %k] into %a {root_only} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>, memref<16x32xf64>
  // CHECK: tc.broadcast_tile %{{.*}} from %[[S]][%{{.*}}, %{{.*}}] : memref<16x32xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.broadcast_tile %a from %S[%i, %k] : memref<16x32xf64>, !tc.array<f64, #tc.layout<slab [64, 32] on [4] dims [-1, -1] skew [-1, -1] file_dims [1, 0]>>
  // CHECK: tc.shift_tile %{{.*}}[%{{.*}}, %{{.*}}] sizes [16, 16] along 1 of %[[A]] : memref<16x32xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.shift_tile %a[%i, %k] sizes [16, 16] along 1 of %A : memref<16x32xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: tc.tile_contract %{{.*}}[%{{.*}}, %{{.*}}] ["i", "j"] += %{{.*}}[%{{.*}}, %{{.*}}] ["i", "k"] * %{{.*}}[%{{.*}}, %{{.*}}] ["j", "k"] extents {i = 16 : i64, j = 16 : i64, k = 16 : i64} : memref<16x32xf64>, memref<16x32xf64> -> memref<16x16xf64>
  tc.tile_contract %c[%i, %i] ["i", "j"] += %a[%i, %k] ["i", "k"] * %a[%i, %k] ["j", "k"]
      extents {i = 16 : i64, j = 16 : i64, k = 16 : i64}
      : memref<16x32xf64>, memref<16x32xf64> -> memref<16x16xf64>
  // CHECK: tc.allreduce_tile %{{.*}} : memref<16x16xf64>
  tc.allreduce_tile %c : memref<16x16xf64>
  // CHECK: tc.write_tile %{{.*}} into %[[C]][%{{.*}}, %{{.*}}] : memref<16x16xf64>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.write_tile %c into %C[%i, %i] : memref<16x16xf64>, !tc.array<f64, #tc.layout<replicated [16, 16] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.shift_array %[[A]] along 1 : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.shift_array %A along 1 : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  // CHECK: tc.allgather_array %[[G]] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.allgather_array %G : !tc.array<f64, #tc.layout<gathered [64, 32] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.allreduce_array %[[C]] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.allreduce_array %C : !tc.array<f64, #tc.layout<replicated [16, 16] on [4] dims [-1, -1] skew [-1, -1]>>
  // CHECK: tc.redistribute_array %[[A]] into %[[A2]] : !tc.array<f64, #tc.layout<{{.*}}>>, !tc.array<f64, #tc.layout<{{.*}}>>
  tc.redistribute_array %A into %A2 : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [1, 0] skew [-1, -1]>>
  // CHECK: tc.store %[[C]] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.store %C : !tc.array<f64, #tc.layout<replicated [16, 16] on [4] dims [-1, -1] skew [-1, -1]>>
  return
}

// The ops of a fused operator tree (tc-lower-fused): slices of tensors.
// CHECK-LABEL: func.func @slices
func.func @slices(%d: index) {
  %z = arith.constant 0 : index
  %buf = memref.alloc() : memref<4x4xf64>
  // CHECK: %[[T:.*]] = tc.array "T" init zero storage %{{.*}} : memref<4x4xf64> {{.*}}#tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]
  %T = tc.array "T" init zero storage %buf : memref<4x4xf64> : !tc.array<f64, #tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]>>
  // CHECK: tc.zero_array %[[T]] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.zero_array %T : !tc.array<f64, #tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]>>
  // CHECK: tc.load_slice %[[T]] [8, 16] at[%{{.*}}, %{{.*}}] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.load_slice %T [8, 16] at [%z, %d] : !tc.array<f64, #tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]>>
  // CHECK: tc.combine_partial %[[T]] along [0, 1] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.combine_partial %T along [0, 1] : !tc.array<f64, #tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]>>
  // CHECK: tc.store_slice %[[T]] [8, 16] at[%{{.*}}, %{{.*}}] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.store_slice %T [8, 16] at [%z, %d] : !tc.array<f64, #tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]>>
  // CHECK: tc.finish_store %[[T]] : !tc.array<f64, #tc.layout<{{.*}}>>
  tc.finish_store %T : !tc.array<f64, #tc.layout<distributed [8, 4] on [2, 2] dims [0, -1] skew [-1, -1]>>
  return
}
