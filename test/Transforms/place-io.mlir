// tc-place-io: the read order of the cheapest plan keeping the decisions made;
// a given order is kept; in-core plans get no order.
// RUN: tc-opt %s --tc-place-io | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // Inside rotation: CAB/CBA minimize disk and communication together ([G] 5.1).
  // CHECK-LABEL: func.func @inside_rotation
  // CHECK: #tc.plan<in_core = false, method = inside, algorithm = rotation, order = CAB>
  func.func @inside_rotation(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = rotation>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // Outside replication of B (Table 3 mirrored): C read first is cheapest here.
  // CHECK-LABEL: func.func @outside_replication_b
  // CHECK: #tc.plan<in_core = false, method = outside, algorithm = replication_b, order = CAB>
  func.func @outside_replication_b(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = replication_b>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // CHECK-LABEL: func.func @kept
  // CHECK: #tc.plan<method = inside, order = BAC>
  func.func @kept(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] {tc.plan = #tc.plan<method = inside, order = BAC>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // CHECK-LABEL: func.func @in_core
  // CHECK: #tc.plan<in_core = true>
  func.func @in_core(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = true>} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}
