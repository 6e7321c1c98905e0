// A program planned for several process counts (tc-specialize-procs: one copy
// of each function per count, each with its own tc.machine) registers every
// count, asks the runtime for the run's (tc_rt_select_procs refuses one not
// planned for) and runs each copy only on its count; each function is checked
// against its own machine; no tc.machine is left. One count needs no dispatch.
// RUN: tc-opt %s --split-input-file --tc-lower-to-runtime --verify-diagnostics | FileCheck %s

// CHECK-NOT: tc.machine
// CHECK-LABEL: func.func @f.p1()
// CHECK: call @tc_rt_array
// CHECK-LABEL: func.func @tc_main()
// CHECK-NEXT: %[[V:.*]] = arith.constant {{[0-9]+}} : i64
// CHECK-NEXT: call @tc_rt_check_abi(%[[V]]) : (i64) -> ()
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: call @tc_rt_plan_for_procs(%[[C1]]) : (i64) -> ()
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT: call @tc_rt_plan_for_procs(%[[C4]]) : (i64) -> ()
// CHECK-NEXT: %[[SIZE:.*]] = call @tc_rt_select_procs() : () -> i64
// CHECK-NEXT: %[[K1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[IS1:.*]] = arith.cmpi eq, %[[SIZE]], %[[K1]] : i64
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT:   func.call @f.p1() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: %[[K4:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[IS4:.*]] = arith.cmpi eq, %[[SIZE]], %[[K4]] : i64
// CHECK-NEXT: scf.if %[[IS4]] {
// CHECK-NEXT:   func.call @f.p4() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: tc_rt_check_procs
// CHECK: func.func private @tc_rt_plan_for_procs(i64)
// CHECK: func.func private @tc_rt_select_procs() -> i64
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @f.p1() attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
    %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [8, 6] on [1] dims [0, -1] skew [-1, -1]>>
    return
  }
  func.func @f.p4() attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
    // A grid of 4 is checked against this function's machine, not the module's.
    %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [8, 6] on [2, 2] dims [0, 1] skew [-1, -1]>>
    return
  }
  func.func @tc_main() {
    func.call @f.p1() : () -> ()
    func.call @f.p4() : () -> ()
    return
  }
}

// -----

// One count among the callees: the single check, with that count.
// CHECK-LABEL: func.func @tc_main()
// CHECK: call @tc_rt_check_abi
// CHECK-NEXT: %[[P:.*]] = arith.constant 2 : i64
// CHECK-NEXT: call @tc_rt_check_procs(%[[P]]) : (i64) -> ()
// CHECK-NEXT: call @g.p2() : () -> ()
module attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @g.p2() attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
    return
  }
  func.func @tc_main() {
    func.call @g.p2() : () -> ()
    return
  }
}

// -----

// A function planned for the module's count among specialized ones would run
// on counts it was not planned for.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @f.p1() attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
    return
  }
  func.func @g() {
    return
  }
  func.func @tc_main() {
    func.call @f.p1() : () -> ()
    // expected-error @+1 {{tc_main calls @g, planned for the module's process count, among functions specialized for several; specialize every function (tc-specialize-procs)}}
    func.call @g() : () -> ()
    return
  }
}

// -----

// Each function against its own machine: a grid of 4 in a function planned for 2.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @h.p2() attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
    // expected-error @+1 {{array 'A' is on a grid of 4 processes but the machine has 2}}
    %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [8, 6] on [2, 2] dims [0, 1] skew [-1, -1]>>
    return
  }
}
