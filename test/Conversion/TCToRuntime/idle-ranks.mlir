// A program planned for a machine checks, after the ABI version, that it runs
// on that machine's number of processes (tc_rt_check_procs): the grids of its
// arrays may have fewer (COSMA's idle ranks, Kwasniewski et al. section 7.1),
// the run may not. A distributed array on a grid of 4 of the 5 processes is
// lowered as any other; tc.grid_coord becomes tc_rt_grid_coord (-1 on the idle
// process).
// RUN: tc-opt %s --tc-lower-to-runtime | FileCheck %s

// CHECK-NOT: tc.machine
// CHECK-LABEL: func.func @tc_main()
// CHECK-NEXT: %[[V:.*]] = arith.constant {{[0-9]+}} : i64
// CHECK-NEXT: call @tc_rt_check_abi(%[[V]]) : (i64) -> ()
// CHECK-NEXT: %[[P:.*]] = arith.constant 5 : i64
// CHECK-NEXT: call @tc_rt_check_procs(%[[P]]) : (i64) -> ()
// CHECK: %[[A:.*]] = call @tc_rt_array(
// CHECK: call @tc_rt_grid_coord(%[[A]], %{{.*}}) : (!llvm.ptr, i64) -> i64
// CHECK: func.func private @tc_rt_check_procs(i64)
module attributes {tc.machine = #tc.machine<procs = 5, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @tc_main() {
    %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [8, 6] on [2, 2, 1] dims [0, 1] skew [-1, -1]>>
    %c = tc.grid_coord %A along 0 : !tc.array<f64, #tc.layout<distributed [8, 6] on [2, 2, 1] dims [0, 1] skew [-1, -1]>>
    return
  }
}
