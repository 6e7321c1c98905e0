// tc-lower-plan on a COSMA plan (Kwasniewski et al. Algorithm 1): split
// arrays, C's partial sums in one buffer, the rounds over k double-buffered
// (the next round's gathers start before this round's multiply; the last round
// peeled), a reduce-scatter of C and the per-rank predictions. A block no
// other process shares (split along a grid dimension of extent 1) is used in
// place as its array's storage: C on [2, 2, 1] (nothing read, reduced or
// written back), A and B on [1, 1, 2] (no panels, and so a single round).
// Out of core (docs/Derivations.md D56) every array is on disk and nothing is
// in place: each rank's disk bytes are its own sub-blocks of A, B and C once,
// and a C that starts at zero is zero-filled, not read.
// RUN: tc-opt %s --tc-lower-plan --canonicalize | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1GB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func.func @mm()
  // A: a 32x48 block per (i, k), its 32 rows split over the 2 processes along
  // grid dimension 1: 16 x 48 elements each, sent to 1 other and 16 x 48
  // received (6144 bytes); B: 48 x 20 split along dimension 0 (3840 bytes);
  // C: pk = 1, nothing to reduce.
  // CHECK: tc.predicted_volumes {{{.*}}comm_bytes = 0.000000e+00 : f64{{.*}}received_per_rank = array<f64: 9.984000e+03, 9.984000e+03, 9.984000e+03, 9.984000e+03>, sent_per_rank = array<f64: 9.984000e+03, 9.984000e+03, 9.984000e+03, 9.984000e+03>}
  // CHECK: %[[C:.*]] = memref.alloc() : memref<32x20xf64>
  // CHECK: %[[A0:.*]] = memref.alloc() : memref<32x16xf64>
  // CHECK: %[[A1:.*]] = memref.alloc() : memref<32x16xf64>
  // CHECK: %[[B0:.*]] = memref.alloc() : memref<16x20xf64>
  // CHECK: %[[B1:.*]] = memref.alloc() : memref<16x20xf64>
  // CHECK: %[[AA:.*]] = tc.array "A" init input {{.*}}#tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1]
  // CHECK: %[[BA:.*]] = tc.array "B" init input {{.*}}#tc.layout<distributed [48, 40] on [2, 2, 1] dims [2, 1] skew [-1, -1] split [-1, 0]
  // CHECK: %[[CA:.*]] = tc.array "C" init input storage %[[C]] {{.*}}#tc.layout<distributed [64, 40] on [2, 2, 1] dims [0, 1] skew [-1, -1] split [2, -1]
  // CHECK-NOT: tc.read_tile
  // CHECK: %[[TA:.*]] = tc.gather_tile_start %[[AA]][%{{.*}}, %{{.*}}] into %[[A0]]
  // CHECK: %[[TB:.*]] = tc.gather_tile_start %[[BA]][%{{.*}}, %{{.*}}] into %[[B0]]
  // CHECK: %[[LOOP:.*]]:2 = scf.for %[[R:.*]] = %{{.*}} to %c2 step %{{.*}} iter_args(%[[WA:.*]] = %[[TA]], %[[WB:.*]] = %[[TB]])
  // CHECK:   tc.wait %[[WA]]
  // CHECK:   tc.wait %[[WB]]
  // CHECK:   %[[NEXT:.*]] = arith.addi %[[R]], %c1
  // CHECK:   %[[CUR:.*]] = arith.select %{{.*}}, %[[A0]], %[[A1]]
  // CHECK:   %[[OTHER:.*]] = arith.select %{{.*}}, %[[A1]], %[[A0]]
  // CHECK:   %[[ROUND:.*]] = arith.remui %[[NEXT]], %c3
  // CHECK:   %[[OFF:.*]] = arith.muli %[[ROUND]], %c16
  // CHECK:   %[[NA:.*]] = tc.gather_tile_start %[[AA]][%{{.*}}, %[[OFF]]] into %[[OTHER]]
  // CHECK:   %[[NB:.*]] = tc.gather_tile_start %[[BA]]
  // CHECK:   tc.tile_contract %[[C]][{{.*}}] ["i", "j"] += %[[CUR]][{{.*}}] ["i", "k"] * %{{.*}}[{{.*}}] ["k", "j"] extents {i = 32 : i64, j = 20 : i64, k = 16 : i64}
  // CHECK:   scf.yield %[[NA]], %[[NB]]
  // CHECK: tc.wait %[[LOOP]]#0
  // CHECK: tc.wait %[[LOOP]]#1
  // CHECK: tc.tile_contract %[[C]][{{.*}}] ["i", "j"] += %[[A0]][{{.*}}] ["i", "k"] * %[[B0]]
  // CHECK-NOT: tc.reduce_scatter_tile
  // CHECK-NOT: tc.write_tile
  // CHECK: tc.store %[[CA]]
  // CHECK: memref.dealloc %[[C]]
  func.func @mm(%A: tensor<64x48xf64>, %B: tensor<48x40xf64>, %C: tensor<64x40xf64>) -> tensor<64x40xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = #tc.cosma<rounds = {k = 3}>, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<64x48xf64>, tensor<48x40xf64> -> tensor<64x40xf64>
    return %r : tensor<64x40xf64>
  }

  // CHECK-LABEL: func.func @tall()
  // CHECK: %[[C:.*]] = memref.alloc() : memref<16x16xf64>
  // CHECK: %[[A:.*]] = memref.alloc() : memref<16x32xf64>
  // CHECK: %[[B:.*]] = memref.alloc() : memref<32x16xf64>
  // CHECK: tc.array "A" {{.*}} storage %[[A]] {{.*}}#tc.layout<distributed [16, 64] on [1, 1, 2]
  // CHECK: tc.array "B" {{.*}} storage %[[B]] {{.*}}#tc.layout<distributed [64, 16] on [1, 1, 2]
  // CHECK: %[[CA:.*]] = tc.array "C" {{.*}}#tc.layout<distributed [16, 16] on [1, 1, 2]
  // CHECK-NOT: storage
  // CHECK: tc.read_tile %[[CA]][%{{.*}}, %{{.*}}] into %[[C]]
  // CHECK-NOT: tc.gather_tile_start
  // CHECK-NOT: scf.for
  // CHECK: tc.tile_contract %[[C]][{{.*}}] ["i", "j"] += %[[A]][{{.*}}] ["i", "k"] * %[[B]][{{.*}}] ["k", "j"] extents {i = 16 : i64, j = 16 : i64, k = 32 : i64}
  // CHECK-NOT: tc.tile_contract
  // CHECK: tc.reduce_scatter_tile %[[C]] into %[[CA]]
  // CHECK: tc.write_tile %[[C]] into %[[CA]]
  // CHECK: tc.store %[[CA]]
  func.func @tall(%A: tensor<16x64xf64>, %B: tensor<64x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = #tc.cosma<rounds = {k = 4}>, grid = <[1, 1, 2]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<16x64xf64>, tensor<64x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // CHECK-LABEL: func.func @on_disk()
  // A's and B's 16 x 32 blocks unsplit along [1, 1, 2]'s first two dimensions,
  // C's 16 x 16 block split in two: 512 + 512 + 128 elements per rank; ranks 2
  // and 3 are idle.
  // CHECK: tc.predicted_volumes {{{.*}}disk_per_rank = array<f64: 9.216000e+03, 9.216000e+03, 0.000000e+00, 0.000000e+00>
  // CHECK: %[[C:.*]] = memref.alloc() : memref<16x16xf64>
  // CHECK: %[[A0:.*]] = memref.alloc() : memref<16x8xf64>
  // CHECK: tc.array "A" init input {on_disk}
  // CHECK: tc.array "B" init input {on_disk}
  // CHECK: %[[CA:.*]] = tc.array "C" init zero {on_disk}
  // CHECK-NOT: tc.read_tile
  // CHECK: memref.store %{{.*}}, %[[C]]
  // CHECK: tc.gather_tile_start %{{.*}} into %[[A0]]
  // CHECK: scf.for
  // CHECK: tc.tile_contract %[[C]]
  // CHECK: tc.reduce_scatter_tile %[[C]] into %[[CA]]
  // CHECK: tc.write_tile %[[C]] into %[[CA]]
  // CHECK: tc.store %[[CA]]
  func.func @on_disk(%A: tensor<16x64xf64>, %B: tensor<64x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, algorithm = #tc.cosma<rounds = {k = 4}>, grid = <[1, 1, 2]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<16x64xf64>, tensor<64x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }
}
