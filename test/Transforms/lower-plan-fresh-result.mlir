// tc-lower-plan: a result that starts at zero (`=`, no accumulator) is not
// read from disk before its first K tile (docs/Derivations.md D51). Its tile
// is zero-filled on the first visit: at once where no loop over a summed
// label (or outside rotation's pass) encloses C's read, else under an
// scf.if on those loops standing at their first value. Each rank's predicted
// disk bytes drop by its block of C (outside rotation: 9216 -> 8704 bytes,
// lower-plan.mlir's `+=` of the same plan).
// RUN: tc-opt %s --tc-lower-plan | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 4, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func.func @outside_rotation()
  // CHECK: tc.predicted_volumes {{.*}}disk_per_rank = array<f64: 8.704000e+03, 8.704000e+03, 8.704000e+03, 8.704000e+03>
  // CHECK: memref.alloc() : memref<4x4xf64>
  // CHECK: memref.alloc() : memref<4x8xf64>
  // CHECK: %[[BC:.*]] = memref.alloc() : memref<4x8xf64>
  // CHECK: %[[C:.*]] = tc.array "C" init zero {on_disk}
  // CHECK: scf.for %[[PASS:[^ ]*]] =
  // CHECK:   scf.for
  // CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[PASS]], %{{.*}} : index
  // CHECK:     scf.if %[[FIRST]] {
  // CHECK:       memref.store %{{.*}}, %[[BC]]
  // CHECK:     } else {
  // CHECK:       tc.read_tile %[[C]][{{.*}}] into %[[BC]]
  // CHECK:     }
  // CHECK:     tc.write_tile %[[BC]] into %[[C]]
  func.func @outside_rotation(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation,
              grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>,
              order = CAB, loops = [{i = 2}, {k = 2}, {}, {}], disk_bytes = 2.0, comm_bytes = 1.0>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // C read inside the K loop (order ABC): zero-filled when k's tile is the first.
  // CHECK-LABEL: func.func @k_loop_outside_c()
  // CHECK: memref.alloc() : memref<8x8xf64>
  // CHECK: memref.alloc() : memref<8x4xf64>
  // CHECK: %[[BC:.*]] = memref.alloc() : memref<8x4xf64>
  // CHECK: %[[C:.*]] = tc.array "C" init zero {on_disk}
  // CHECK: scf.for
  // CHECK:   scf.for %[[K:[^ ]*]] =
  // CHECK:     tc.read_tile
  // CHECK:     tc.read_tile
  // CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
  // CHECK:     scf.if %[[FIRST]] {
  // CHECK:       memref.store %{{.*}}, %[[BC]]
  // CHECK:     } else {
  // CHECK:       tc.read_tile %[[C]][{{.*}}] into %[[BC]]
  // CHECK:     }
  // CHECK:     tc.tile_contract %[[BC]]
  // CHECK:     tc.write_tile %[[BC]] into %[[C]]
  func.func @k_loop_outside_c(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = replication_a,
              grid = <[4]>, dist_a = <[*]>, dist_b = <[j]>, dist_c = <[j]>,
              order = ABC, loops = [{i = 2, k = 2}, {}, {}, {}]>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // C read first (order CAB, one pass): never read, only zero-filled.
  // CHECK-LABEL: func.func @c_first()
  // CHECK: memref.alloc() : memref<8x8xf64>
  // CHECK: memref.alloc() : memref<8x4xf64>
  // CHECK: %[[BC:.*]] = memref.alloc() : memref<8x4xf64>
  // CHECK: %[[C:.*]] = tc.array "C" init zero {on_disk}
  // CHECK-NOT: tc.read_tile %[[C]]
  // CHECK: memref.store %{{.*}}, %[[BC]]
  // CHECK-NOT: tc.read_tile %[[C]]
  // CHECK: tc.write_tile %[[BC]] into %[[C]]
  // CHECK-NOT: tc.read_tile %[[C]]
  // CHECK: return
  func.func @c_first(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = replication_a,
              grid = <[4]>, dist_a = <[*]>, dist_b = <[j]>, dist_c = <[j]>,
              order = CAB, loops = [{i = 2}, {k = 2}, {}, {}]>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }
}
