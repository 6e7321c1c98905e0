// tc-lower-plan turns a contraction with a #tc.block_plan into its schedule's
// program (docs/BlockSparse.md): block arrays whose homes are the plan's brick
// owners (on disk for an out-of-core schedule), a loop over the stages with
// the tasks' blocks, processes and stages, the result stored, and the plan's
// per-rank predictions. Here C[i,j] = A[i,k] * B[k,j] with two present blocks
// per matrix: task 0 = (A0, B0, C0) and task 1 = (A1, B1, C1), bricks numbered
// as the tasks first touch them (A0, B0, C0, A1, B1, C1).
// RUN: tc-opt %s --split-input-file --tc-lower-plan --verify-diagnostics | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-lower-plan --tc-lower-to-runtime --verify-diagnostics | FileCheck %s --check-prefix=CALLS

// CHECK-LABEL: func.func @matmul()
// CHECK: tc.predicted_volumes {{{.*}}disk_per_rank = array<f64: 1.200000e+02, 9.600000e+01>, flops = 8.000000e+00 : f64, received_per_rank = array<f64: 1.600000e+01, 3.200000e+01>, sent_per_rank = array<f64: 3.200000e+01, 1.600000e+01>}
// CHECK: %[[A:.*]] = tc.block_array "X" homes [1, 1] init input {on_disk}
// CHECK: %[[B:.*]] = tc.block_array "B" homes [0, 1] init input {on_disk}
// CHECK: %[[C:.*]] = tc.block_array "C" homes [0, 0] init zero {on_disk}
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %[[TWO]]
// CHECK-NEXT: tc.block_stage %[[S]], %[[C]][0, 1] += %[[A]][0, 2] * %[[B]][2, 1] tasks [0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0] stages 2
// CHECK: tc.block_store %[[C]]
// CHECK: func.func @tc_main()
// CHECK-NEXT: call @matmul()

// CALLS: call @tc_rt_block_array
// CALLS: call @tc_rt_block_stage(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CALLS: call @tc_rt_block_store(%{{.*}}) : (!llvm.ptr) -> ()
module attributes {tc.machine = #tc.machine<procs = 2, mem = "100B", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @matmul(%A: tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>> {tc.name = "X"},
                    %B: tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>)
      -> tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>> {
    %C = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.block_plan = #tc.block_plan<schedule = one_level, task_rank = [1, 1], brick_owner = [1, 0, 0, 1, 1, 0],
                                           task_stage = [0, 1], task_step = [0, 0], io_bytes = 216.0 : f64, comm_bytes = 32.0 : f64,
                                           io_per_rank = [120.0, 96.0], received_per_rank = [16.0, 32.0], sent_per_rank = [32.0, 16.0]>}
           : tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>, tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>
          -> tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>
    return %C : tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>
  }
}

// -----

// A plan made for another contraction (three tasks) is refused.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "100B", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @stale(%A: tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>,
                   %B: tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>)
      -> tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>> {
    // expected-error @+1 {{#tc.block_plan has 3 tasks and 6 bricks but the contraction has 2 and 6: plan it again (tc-plan-block-sparse)}}
    %C = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.block_plan = #tc.block_plan<schedule = in_memory, task_rank = [1, 1, 0], brick_owner = [1, 0, 0, 1, 1, 0],
                                           io_bytes = 0.0 : f64, comm_bytes = 0.0 : f64,
                                           io_per_rank = [0.0, 0.0], received_per_rank = [0.0, 0.0], sent_per_rank = [0.0, 0.0]>}
           : tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>, tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>
          -> tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>
    return %C : tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>
  }
}

// -----

// A plan naming a process the machine does not have is refused.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "100B", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @procs(%A: tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>,
                   %B: tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>)
      -> tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>> {
    // expected-error @+1 {{#tc.block_plan names process 2 but the machine has 2}}
    %C = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.block_plan = #tc.block_plan<schedule = in_memory, task_rank = [2, 1], brick_owner = [1, 0, 0, 1, 1, 0],
                                           io_bytes = 0.0 : f64, comm_bytes = 0.0 : f64,
                                           io_per_rank = [0.0, 0.0], received_per_rank = [0.0, 0.0], sent_per_rank = [0.0, 0.0]>}
           : tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>, tensor<4x3xf64, #tc.blocks<[[2, 2], [1, 2]], symmetry = 0>>
          -> tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>
    return %C : tensor<3x3xf64, #tc.blocks<[[2, 1], [1, 2]], symmetry = 0>>
  }
}
