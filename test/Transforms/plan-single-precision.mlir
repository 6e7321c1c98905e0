// f32 tensors are planned in 4-byte elements: the same product fits in 8 KB
// per process in f32 (A's block 20x30, B 30x20, C's block 20x20: 6400 bytes)
// but not in f64 (12800 bytes), and the all-gather of B's other half moves 300
// elements, 1200 bytes in f32 and 2400 in f64.
// latency=0: the papers' model, which these plans reproduce; tc's default
// latency would run contractions this small whole on every process (D58).
// RUN: tc-opt %s --tc-plan="volumes=runtime latency=0" | FileCheck %s --check-prefix=PLAN
// RUN: tc-opt %s --tc-plan="volumes=runtime latency=0" --tc-lower-plan | FileCheck %s
// PLAN: func.func @single
// PLAN: tc.plan = #tc.plan<in_core = true, algorithm = replication_b
// PLAN-SAME: comm_bytes = 1.200000e+03
// PLAN: func.func @double
// PLAN: tc.plan = #tc.plan<in_core = false
// CHECK-LABEL: func.func @single
// CHECK: tc.predicted_volumes {{.*}}disk_per_rank = array<f64: 0.000000e+00, 0.000000e+00>{{.*}}sent_per_rank = array<f64: 1.200000e+03, 1.200000e+03>
// CHECK: tc.array {{.*}} : memref<20x30xf32> : !tc.array<f32, #tc.layout<{{.*}}>>
// CHECK-LABEL: func.func @double
// CHECK: tc.predicted_volumes {{.*}}sent_per_rank = array<f64: 2.400000e+03, 2.400000e+03>
// CHECK: memref.alloc() : memref<{{.*}}xf64>
module attributes {tc.machine = #tc.machine<procs = 2, mem = "8KB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @single(%A: tensor<40x30xf32>, %B: tensor<30x20xf32>) -> tensor<40x20xf32> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<40x30xf32>, tensor<30x20xf32> -> tensor<40x20xf32>
    return %r : tensor<40x20xf32>
  }
  func.func @double(%A: tensor<40x30xf64>, %B: tensor<30x20xf64>) -> tensor<40x20xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<40x30xf64>, tensor<30x20xf64> -> tensor<40x20xf64>
    return %r : tensor<40x20xf64>
  }
}
