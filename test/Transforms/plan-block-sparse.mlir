// tc-plan-block-sparse on Krishnamoorthy et al.'s in-memory shape ([K] 5.2),
// scaled down: C[a,b,c,d] = A[a,b,i] * B[i,c,d], a..d in O = (8, 4, 2, 2),
// i in V = (16, 8, 4, 4), every tensor totally symmetric: 64 tasks (one per
// present C block), 96 bricks (16 of A, 16 of B, 64 of C), 178,176 bytes. On 4 processes:
// - 1 MB each: in memory, no disk I/O;
// - 50 KB each (200 KB in all, but more than one process's share): out of
//   core, in stages whose bricks no process holds more than 50 KB of at once;
//   the tasks of different i share no brick, so the stages read every brick
//   once;
// - 20 KB each: the largest task's bricks (49,152 bytes) exceed a process's
//   memory: an error naming it.
// Plans are deterministic: the same run twice gives the same plan.
// RUN: tc-opt %s --tc-set-machine="mem=1MB" --tc-plan-block-sparse | FileCheck %s --check-prefix=MEM
// RUN: tc-opt %s --tc-set-machine="mem=50KB" --tc-plan-block-sparse | FileCheck %s --check-prefix=OOC
// RUN: tc-opt %s --tc-set-machine="mem=50KB" --tc-plan-block-sparse > %t.1
// RUN: tc-opt %s --tc-set-machine="mem=50KB" --tc-plan-block-sparse > %t.2
// RUN: cmp %t.1 %t.2
// RUN: %python %S/Inputs/check_block_plan.py 4 < %t.1 | FileCheck %s --check-prefix=CONSISTENT
// RUN: tc-opt %s --tc-set-machine="mem=1MB" --tc-plan-block-sparse | %python %S/Inputs/check_block_plan.py 4 | FileCheck %s --check-prefix=CONSISTENT
// CONSISTENT: consistent
// The report lists the schedule and every process's predicted bytes.
// RUN: tc-opt %s --tc-set-machine="mem=50KB" --tc-plan-block-sparse --tc-plan-report="table=- report=%t.json" -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: %python -c "import json,sys; b = json.load(open(sys.argv[1]))['block_sparse'][0]; print(b['schedule'], b['tasks'], b['bricks'], b['io_bytes'], len(b['task_stage']), sum(b['io_per_rank']) == b['io_bytes'], sum(b['received_per_rank']) == sum(b['sent_per_rank']))" %t.json | FileCheck %s --check-prefix=JSON
// TABLE: block-sparse contraction {{.*}}plan-block-sparse.mlir:{{[0-9]+}}:{{[0-9]+}}  ({{one_level|two_level}}, 64 tasks, 96 bricks, disk 1.782e+05 B, busiest receives {{.*}} B)
// TABLE-NEXT: process tasks disk bytes received sent
// TABLE-COUNT-4: {{^ +[0-3] +[0-9]+ +[0-9.e+]+ +[0-9.e+]+ +[0-9.e+]+$}}
// JSON: {{one_level|two_level}} 64 96 178176 64 True True
// RUN: not tc-opt %s --tc-set-machine="mem=20KB" --tc-plan-block-sparse 2>&1 | FileCheck %s --check-prefix=SMALL
// The locality-oblivious baseline: bricks' homes round-robin, stages of
// consecutive tasks, each stage's tasks dealt in order to the least-loaded
// process; the same accounting and consistent figures.
// RUN: tc-opt %s --tc-set-machine="mem=50KB" --tc-plan-block-sparse="assignment=next-task" > %t.nt
// RUN: FileCheck %s --check-prefix=NEXT < %t.nt
// RUN: %python %S/Inputs/check_block_plan.py 4 < %t.nt | FileCheck %s --check-prefix=CONSISTENT
// NEXT: #tc.block_plan<schedule = in_order, task_rank = [{{([0-3], ){63}[0-3]}}], brick_owner = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, {{.*}}]
// RUN: not tc-opt %s --tc-set-machine="mem=50KB" --tc-plan-block-sparse="assignment=random" 2>&1 | FileCheck %s --check-prefix=BADASSIGN
// BADASSIGN: error: 'tc.contract' op tc-plan-block-sparse: assignment 'random' is neither 'hypergraph' nor 'next-task'
// RUN: tc-opt %s --tc-set-machine="mem=1MB" --tc-plan-block-sparse | tc-opt | FileCheck %s --check-prefix=MEM

// MEM: tc.contract [a, b, c, d] = %{{.*}}[a, b, i] * %{{.*}}[i, c, d] {tc.block_plan = #tc.block_plan<schedule = in_memory, task_rank = [{{([0-3], ){63}[0-3]}}], brick_owner = [{{([0-3], ){95}[0-3]}}], io_bytes = 0.000000e+00 : f64, comm_bytes = [[COMM:[0-9.e+]+]] : f64, io_per_rank = [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], received_per_rank = [{{.*}}], sent_per_rank = [{{.*}}]>}

// OOC: tc.block_plan = #tc.block_plan<schedule = {{one_level|two_level}}, task_rank = [{{([0-3], ){63}[0-3]}}], brick_owner = [{{([0-3], ){95}[0-3]}}], task_stage = [{{([0-9]+, ){63}[0-9]+}}], task_step = [{{([0-9]+, ){63}[0-9]+}}], io_bytes = 1.781760e+05 : f64, comm_bytes = {{.*}} : f64, io_per_rank = [{{.*}}], received_per_rank = [{{.*}}], sent_per_rank = [{{.*}}]>

// SMALL: error: 'tc.contract' op no out-of-core schedule in 4 x 20000 bytes: task 0 touches 49152 bytes of bricks, more than a process's memory
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64KB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @four_index(
      %A: tensor<16x16x32xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [16, 8, 4, 4]], symmetry = 0>>,
      %B: tensor<32x16x16xf64, #tc.blocks<[[16, 8, 4, 4], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>)
      -> tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>> {
    %C = tc.contract [a, b, c, d] = %A[a, b, i] * %B[i, c, d]
           : tensor<16x16x32xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [16, 8, 4, 4]], symmetry = 0>>,
             tensor<32x16x16xf64, #tc.blocks<[[16, 8, 4, 4], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
          -> tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
    return %C : tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
  }
}
