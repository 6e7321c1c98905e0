// tc-lower-plan: the program of each method (Gao et al. Figures 1-2): arrays in
// the algorithm's distributions, tiling loops, reads at the top of their group,
// C written where it was read, and the method's communication.
// RUN: tc-opt %s --tc-lower-plan | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 4, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // Outside rotation: sqrt(P) passes of the nest, A and B pre-skewed and shifted
  // disk to disk after each pass. The predictions are each rank's, computed
  // from the nest and the layouts (docs/Derivations.md D31), not the plan's
  // per-process figures.
  // CHECK-LABEL: func.func @outside_rotation()
  // CHECK: tc.predicted_volumes {chunk_bytes = 4000 : i64, comm_bytes = 0.000000e+00 : f64, disk_bytes = 0.000000e+00 : f64, disk_per_rank = array<f64: 9.216000e+03, 9.216000e+03, 9.216000e+03, 9.216000e+03>, flops = 2.048000e+03 : f64, received_per_rank = array<f64: 2.048000e+03, 2.048000e+03, 2.048000e+03, 2.048000e+03>, sent_per_rank = array<f64: 2.048000e+03, 2.048000e+03, 2.048000e+03, 2.048000e+03>}
  // CHECK: %[[BA:.*]] = memref.alloc() : memref<4x4xf64>
  // CHECK: %[[BB:.*]] = memref.alloc() : memref<4x8xf64>
  // CHECK: %[[BC:.*]] = memref.alloc() : memref<4x8xf64>
  // CHECK: %[[A:.*]] = tc.array "A" init input {on_disk} {{.*}}#tc.layout<distributed [16, 16] on [2, 2] dims [0, 1] skew [-1, 0]
  // CHECK: %[[B:.*]] = tc.array "B" init input {on_disk} {{.*}}#tc.layout<distributed [16, 16] on [2, 2] dims [0, 1] skew [1, -1]
  // CHECK: %[[C:.*]] = tc.array "C" init input {on_disk} {{.*}}#tc.layout<distributed [16, 16] on [2, 2] dims [0, 1] skew [-1, -1]
  // CHECK: scf.for
  // CHECK:   scf.for %[[I:.*]] =
  // CHECK:     tc.read_tile %[[C]][{{.*}}] into %[[BC]]
  // CHECK:     scf.for %[[K:.*]] =
  // CHECK:       tc.read_tile %[[A]][{{.*}}] into %[[BA]]
  // CHECK:       tc.read_tile %[[B]][{{.*}}] into %[[BB]]
  // CHECK:       tc.tile_contract %[[BC]][{{.*}}] ["i", "j"] += %[[BA]][{{.*}}] ["i", "k"] * %[[BB]][{{.*}}] ["k", "j"] extents {i = 4 : i64, j = 8 : i64, k = 4 : i64}
  // CHECK:     }
  // CHECK:     tc.write_tile %[[BC]] into %[[C]]
  // CHECK:   }
  // CHECK:   tc.shift_array %[[A]] along 1
  // CHECK:   tc.shift_array %[[B]] along 0
  // CHECK: }
  // CHECK: tc.store %[[C]]
  func.func @outside_rotation(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation,
              grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>,
              order = CAB, loops = [{i = 2}, {k = 2}, {}, {}], disk_bytes = 2.0, comm_bytes = 1.0>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // Inside rotation: sqrt(P) steps of contraction and in-memory shifts of the
  // A and B sub-tiles in use.
  // CHECK-LABEL: func.func @inside_rotation()
  // CHECK: scf.for
  // CHECK:   tc.read_tile
  // CHECK:   scf.for
  // CHECK:     tc.read_tile
  // CHECK:     tc.read_tile
  // CHECK:     scf.for
  // CHECK:       tc.tile_contract
  // CHECK:       tc.shift_tile %{{.*}}[{{.*}}] sizes [4, 4] along 1 of
  // CHECK:       tc.shift_tile %{{.*}}[{{.*}}] sizes [4, 8] along 0 of
  // CHECK-NOT: tc.shift_array
  func.func @inside_rotation(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = rotation,
              grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>,
              order = CAB, loops = [{i = 2}, {k = 2}, {}, {}]>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // Inside accumulation: C in slabs of its first dimension, each process's old
  // value read into its rows of the tile, each C tile's partial sums
  // reduce-scattered onto the slabs before the slabs are written (D53). Rank
  // r's disk: A's block (64 elements) once, B's (64) once per i tile, its slab
  // of C (64) read and written; sent and received: C less one slab (192).
  // CHECK-LABEL: func.func @inside_accumulation()
  // CHECK: tc.predicted_volumes {{.*}}disk_per_rank = array<f64: 2.560000e+03, 2.560000e+03, 2.560000e+03, 2.560000e+03>, {{.*}}received_per_rank = array<f64: 1.536000e+03, 1.536000e+03, 1.536000e+03, 1.536000e+03>, sent_per_rank = array<f64: 1.536000e+03, 1.536000e+03, 1.536000e+03, 1.536000e+03>}
  // CHECK: %[[C:.*]] = tc.array "C" init input {on_disk} {{.*}}#tc.layout<slab [16, 16] on [4] dims [-1, -1] skew [-1, -1]
  // CHECK-NOT: root_only
  // CHECK: tc.read_tile %[[C]][{{.*}}] into %[[BC:[^ ]*]] :
  // CHECK: tc.tile_contract
  // CHECK: tc.reduce_scatter_tile %[[BC]] into %[[C]]
  // CHECK-NEXT: tc.write_tile %[[BC]] into %[[C]]
  // CHECK-NOT: tc.allreduce
  func.func @inside_accumulation(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = accumulation,
              grid = <[4]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>,
              order = CAB, loops = [{i = 2}, {}, {}, {}]>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // Inside accumulation of a scalar: no rows to deal out, so C is replicated,
  // its old value kept on rank 0 and each tile all-reduced before it is written.
  // CHECK-LABEL: func.func @inside_accumulation_scalar()
  // CHECK: %[[C:.*]] = tc.array "C" init root_input {on_disk} {{.*}}#tc.layout<replicated [] on [4]
  // CHECK: tc.read_tile %[[C]][] into %[[BC:.*]] {root_only}
  // CHECK: tc.tile_contract
  // CHECK: tc.allreduce_tile %[[BC]]
  // CHECK-NEXT: tc.write_tile %[[BC]] into %[[C]]
  // CHECK-NOT: tc.allreduce_array
  func.func @inside_accumulation_scalar(%A: tensor<64xf64>, %B: tensor<64xf64>, %C: tensor<f64>) -> tensor<f64> {
    %r = tc.contract %C[] += %A[k] * %B[k]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = accumulation,
              grid = <[4]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>,
              order = CAB, loops = [{}, {}, {k = 2}, {}]>}
           : tensor<64xf64>, tensor<64xf64> -> tensor<f64>
    return %r : tensor<f64>
  }

  // Inside replication of A: stored in slabs, each tile completed by a broadcast.
  // CHECK-LABEL: func.func @inside_replication()
  // CHECK: %[[A:.*]] = tc.array "A" init input {on_disk} {{.*}}#tc.layout<slab [16, 16] on [4] dims [-1, -1] skew [-1, -1]
  // CHECK: tc.read_tile %[[A]][{{.*}}] into %[[BA:[^ ]*]]
  // CHECK-NEXT: tc.broadcast_tile %[[BA]] from %[[A]]
  func.func @inside_replication(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = replication_a,
              grid = <[4]>, dist_a = <[*]>, dist_b = <[j]>, dist_c = <[j]>,
              order = ABC, loops = [{i = 2}, {}, {}, {}]>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // Outside replication of B: gathered disk to disk before the nest.
  // CHECK-LABEL: func.func @outside_replication()
  // CHECK: %[[B:.*]] = tc.array "B" init input {on_disk} {{.*}}#tc.layout<gathered [16, 16] on [4] dims [-1, -1] skew [-1, -1]
  // CHECK: tc.allgather_array %[[B]]
  // CHECK: scf.for
  func.func @outside_replication(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = replication_b,
              grid = <[4]>, dist_a = <[i]>, dist_b = <[*]>, dist_c = <[i]>,
              order = BAC, loops = [{k = 2}, {}, {}, {}]>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // In core, accumulation into a fresh result: arrays in memory, each living in
  // its tile buffer, no tiling loops, one all-reduce of C at the end.
  // CHECK-LABEL: func.func @in_core()
  // CHECK: %[[BC:.*]] = memref.alloc() : memref<16x16xf64>
  // CHECK: %[[C:.*]] = tc.array "T" init zero storage %[[BC]] : memref<16x16xf64> {{.*}}#tc.layout<replicated [16, 16] on [4] dims [-1, -1] skew [-1, -1]
  // CHECK-NOT: scf.for
  // CHECK: tc.tile_contract
  // CHECK: tc.write_tile
  // CHECK-NEXT: tc.allreduce_array %[[C]]
  // CHECK-NEXT: tc.store %[[C]]
  func.func @in_core(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> (tensor<16x16xf64> {tc.name = "T"}) {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = accumulation,
              grid = <[4]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // A long I (a, b, c) and short J (d) and K (p): A and C are stored with the
  // long index last (contiguous), so the local dgemm runs column-major M-long.
  // CHECK-LABEL: func.func @long_i()
  // CHECK: tc.array "A" init input storage %{{.*}} : memref<8x4x16x16xf64> : !tc.array<f64, #tc.layout<distributed [8, 16, 16, 16] on [4] dims [-1, 0, -1, -1] skew [-1, -1, -1, -1] file_dims [3, 0, 1, 2]>>
  // CHECK: tc.array "B" {{.*}}init input {{.*}}#tc.layout<gathered [8, 4] on [4]
  // CHECK: tc.array "C" {{.*}}#tc.layout<distributed [4, 16, 16, 16] on [4] {{.*}} file_dims [3, 0, 1, 2]>>
  // CHECK: tc.tile_contract %{{.*}}[{{.*}}] ["d", "a", "b", "c"] += %{{.*}}[{{.*}}] ["p", "a", "b", "c"] * %{{.*}}[{{.*}}] ["p", "d"]
  func.func @long_i(%A: tensor<16x16x16x8xf64>, %B: tensor<8x4xf64>, %C: tensor<16x16x16x4xf64>) -> tensor<16x16x16x4xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, b, c, p] * %B[p, d]
           {tc.plan = #tc.plan<in_core = true, algorithm = replication_b,
              grid = <[4]>, dist_a = <[a]>, dist_b = <[*]>, dist_c = <[a]>>}
           : tensor<16x16x16x8xf64>, tensor<8x4xf64> -> tensor<16x16x16x4xf64>
    return %r : tensor<16x16x16x4xf64>
  }

  // CHECK-LABEL: func.func @tc_main()
  // CHECK: call @outside_rotation()
  // CHECK: call @inside_rotation()
  // CHECK: call @in_core()
}
