// tc-specialize-procs: every function holding contractions becomes one copy
// per process count, @NAME.pP, each with the module's machine at procs = P
// (what the planners and lowerings then read); functions without contractions
// stay. Through tc-plan (specialize-procs=) each copy gets the plan for its
// P, and the report names each P.
// RUN: tc-opt %s --tc-specialize-procs="specialize-procs=1,2,4" | FileCheck %s
// RUN: tc-opt %s --tc-specialize-procs | FileCheck %s --check-prefix=NONE
// RUN: tc-opt %s --tc-plan="specialize-procs=1,4 table=-" | FileCheck %s --check-prefix=PLAN
// RUN: tc-opt %s --tc-plan="specialize-procs=1,4" --tc-lower-plan | FileCheck %s --check-prefix=LOWER
// RUN: not tc-opt %s --tc-specialize-procs="specialize-procs=2,1,2" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not tc-opt %s --tc-specialize-procs="specialize-procs=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// TWICE: error: specialize-procs: 2 appears twice
// ZERO: error: specialize-procs: 0 is not a process count (at least 1)

// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 64000,
// CHECK-LABEL: func.func @mm.p1(
// CHECK-SAME: attributes {tc.machine = #tc.machine<procs = 1, mem = 64000, net_bw = 2.000000e+08, disk_bw = 8.000000e+06,
// CHECK: tc.contract
// CHECK-LABEL: func.func @mm.p2(
// CHECK-SAME: tc.machine = #tc.machine<procs = 2, mem = 64000,
// CHECK-LABEL: func.func @mm.p4(
// CHECK-SAME: tc.machine = #tc.machine<procs = 4, mem = 64000,
// CHECK-LABEL: func.func @helper()
// CHECK-NOT: tc.machine
// CHECK-NOT: func.func @mm(

// NONE: func.func @mm(
// NONE-NOT: @mm.p

// PLAN: contraction {{.*}}  (P = 1,
// PLAN: contraction {{.*}}  (P = 4,

// LOWER-LABEL: func.func @mm.p1() attributes {tc.machine = #tc.machine<procs = 1,
// LOWER: tc.predicted_volumes {{.*}}sent_per_rank = array<f64: {{[^,]*}}>}
// LOWER-LABEL: func.func @mm.p4() attributes {tc.machine = #tc.machine<procs = 4,
// LOWER: tc.predicted_volumes {{.*}}sent_per_rank = array<f64: {{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}>}
// LOWER-LABEL: func.func @tc_main()
// LOWER-NEXT: call @mm.p1()
// LOWER-NEXT: call @mm.p4()
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @mm(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
  func.func @helper() {
    return
  }
}
