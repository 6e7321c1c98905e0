// A contraction that was never planned and lowered has no runtime call: the
// error says which pass lowers it, and nothing is rewritten. Arrays and
// per-rank predictions are checked against the module's machine.
// RUN: tc-opt %s --tc-lower-to-runtime --split-input-file --verify-diagnostics

func.func @unplanned(%A: tensor<4x6xf64>, %B: tensor<6x5xf64>) -> tensor<4x5xf64> {
  // expected-error @+1 {{'tc.contract' op must be lowered by tc-lower-plan (or, in an operator tree, tc-lower-fused) before tc-lower-to-runtime}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

func.func @unlowered_sum(%A: tensor<4x6xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.sum' op must be lowered by tc-lower-plan}}
  %r = tc.sum [i] = %A[i, k] : tensor<4x6xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

// Against the module's machine: a grid of more processes than the machine's
// cannot run.
module attributes {tc.machine = #tc.machine<procs = 3, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @grid_too_large() {
    // expected-error @+1 {{'tc.array' op array 'A' is on a grid of 4 processes but the machine has 3}}
    %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [8] on [4] dims [0] skew [-1]>>
    return
  }
}

// -----

// Only a distributed array leaves processes idle (the others hold their data on
// every process of the run, or split it over all of them).
module attributes {tc.machine = #tc.machine<procs = 3, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @replicated_idle() {
    // expected-error @+1 {{'tc.array' op array 'C' of kind replicated is on a grid of 2 of the machine's 3 processes; only distributed arrays leave processes idle}}
    %C = tc.array "C" init zero : !tc.array<f64, #tc.layout<replicated [8] on [2] dims [-1] skew [-1]>>
    return
  }
}

// -----

// Per-rank predictions name every process.
module attributes {tc.machine = #tc.machine<procs = 3, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @per_rank() {
    // expected-error @+1 {{'tc.predicted_volumes' op predicts 2 processes' volumes but the machine has 3}}
    tc.predicted_volumes {chunk_bytes = 64 : i64, comm_bytes = 0.0 : f64, disk_bytes = 0.0 : f64, flops = 1.0 : f64, received_per_rank = array<f64: 1.0, 2.0>, sent_per_rank = array<f64: 1.0, 2.0>}
    return
  }
}
