// tc-lower-plan on a COSMA plan whose grid leaves processes idle (Kwasniewski
// et al. section 7.1): [2, 2, 1] on a machine of 5. The fifth process creates
// and stores the arrays with the others (collectives over every process) but
// holds none of them: tc.grid_coord is -1 there, and the rounds, the
// multiplies and the reduction run only on the grid. The per-rank predictions
// have 5 entries, the idle one 0; the flops are those of one of the 4 used
// processes (2 64 48 40 / 4).
// RUN: tc-opt %s --tc-lower-plan --canonicalize | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 5, mem = "1GB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func.func @mm()
  // CHECK: tc.predicted_volumes {{{.*}}flops = 6.144000e+04 : f64, received_per_rank = array<f64: 9.984000e+03, 9.984000e+03, 9.984000e+03, 9.984000e+03, 0.000000e+00>, sent_per_rank = array<f64: 9.984000e+03, 9.984000e+03, 9.984000e+03, 9.984000e+03, 0.000000e+00>}
  // CHECK: %[[C:.*]] = memref.alloc() : memref<32x20xf64>
  // CHECK: %[[AA:.*]] = tc.array "A" init input {{.*}}#tc.layout<distributed [64, 48] on [2, 2, 1] dims [0, 2] skew [-1, -1] split [1, -1]
  // CHECK: %[[BA:.*]] = tc.array "B" init input {{.*}}#tc.layout<distributed [48, 40] on [2, 2, 1] dims [2, 1] skew [-1, -1] split [-1, 0]
  // CHECK: %[[CA:.*]] = tc.array "C" init input storage %[[C]] {{.*}}#tc.layout<distributed [64, 40] on [2, 2, 1] dims [0, 1] skew [-1, -1] split [2, -1]
  // CHECK: %[[COORD:.*]] = tc.grid_coord %[[CA]] along 0
  // CHECK: %[[MEMBER:.*]] = arith.cmpi sge, %[[COORD]], %{{.*}} : index
  // CHECK: scf.if %[[MEMBER]] {
  // CHECK:   tc.gather_tile_start %[[AA]]
  // CHECK:   scf.for
  // CHECK:   tc.tile_contract %[[C]]
  // CHECK-NOT: tc.reduce_scatter_tile
  // CHECK: }
  // CHECK: tc.store %[[CA]]
  // CHECK: memref.dealloc
  func.func @mm(%A: tensor<64x48xf64>, %B: tensor<48x40xf64>, %C: tensor<64x40xf64>) -> tensor<64x40xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = #tc.cosma<rounds = {k = 3}>, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<64x48xf64>, tensor<48x40xf64> -> tensor<64x40xf64>
    return %r : tensor<64x40xf64>
  }
}
