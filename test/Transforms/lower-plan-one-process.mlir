// tc-lower-plan on one process: Cannon's rotation on a 1x1 grid emits no
// shifts and replication on a grid of one process no all-gather, which would
// move nothing and would keep their operands from sharing their kept values'
// buffers (tc-reuse-kept-storage).
// RUN: tc-opt %s --tc-lower-plan | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // Rotation on one process: no shifts (they would move nothing, and the
  // operands stay free of writes).
  // CHECK-LABEL: func.func @rotation_on_one_process()
  // CHECK: tc.tile_contract
  // CHECK-NOT: tc.shift_array
  // CHECK: tc.store
  func.func @rotation_on_one_process(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = rotation, grid = <[1, 1]>,
              dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // Outside replication on one process: the gathered operand's slab is all of
  // it; no all-gather (it would move nothing, and the operand stays free of
  // writes).
  // CHECK-LABEL: func.func @replication_on_one_process()
  // CHECK: tc.array "B" init input {{.*}}#tc.layout<gathered [16, 16] on [1]
  // CHECK-NOT: tc.allgather_array
  // CHECK: tc.tile_contract
  // CHECK: tc.store
  func.func @replication_on_one_process(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>, %C: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = replication_b, grid = <[1]>,
              dist_a = <[i]>, dist_b = <[*]>, dist_c = <[i]>>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }
}
