// tc-specialize-procs refuses what it cannot specialize, by name.
// RUN: tc-opt %s --split-input-file --verify-diagnostics --tc-specialize-procs="specialize-procs=1,2"

// Without a machine there is nothing to specialize.
module {
  // expected-error @+1 {{@mm: specializing for process counts needs a machine model (run tc-set-machine first)}}
  func.func @mm(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}

// -----

// A called function would need its callers specialized too.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // expected-error @+1 {{@mm is called; only the program's entry functions (called by none) can be specialized for process counts}}
  func.func @mm(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
  func.func @caller(%A: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %r = func.call @mm(%A, %A) : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}

// -----

// A copy's name taken by another symbol.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @mm(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
  // expected-error @+1 {{'mm.p2' is the name of @mm specialized for 2 processes; rename this symbol}}
  func.func @mm.p2() {
    return
  }
}
