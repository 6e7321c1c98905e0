// tc-select-algorithm diagnostics: rotation skipped on a non-square P, no plan
// fitting in memory, a forced algorithm that cannot run, a grid of more
// processes than the machine's or, for an algorithm other than COSMA, of fewer,
// no machine model.
// RUN: tc-opt %s -split-input-file --tc-select-algorithm -verify-diagnostics

module attributes {tc.machine = #tc.machine<procs = 6, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @non_square(%A: tensor<600x600xf64>, %B: tensor<600x600xf64>) -> tensor<600x600xf64> {
    // expected-remark @+1 {{rotation skipped: P = 6 is not a perfect square}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<600x600xf64>, tensor<600x600xf64> -> tensor<600x600xf64>
    return %r : tensor<600x600xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = 6, net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @too_small(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    // expected-remark @+4 {{cosma in core skipped: its stored blocks, partial sums and one outer product of each input do not fit in memory}}
    // expected-remark @+3 {{cosma out of core skipped: on no grid do C's partial sums and one outer product of each input fit in memory beside the staging chunk}}
    // expected-remark @+2 {{pumma skipped: no grid fits its blocks and one panel in memory (out-of-core PUMMA is not implemented)}}
    // expected-error @+1 {{no plan fits in memory: array A needs at least 8 bytes per process for one tile but its budget is 2 bytes (0.333333 of 6 bytes); at least 24 bytes of memory per process are needed}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @outer_product_accumulation(%A: tensor<64xf64>, %B: tensor<64xf64>) -> tensor<64x64xf64> {
    // expected-remark @+2 {{accumulation skipped: no index of K = {} has extent >= 4 to distribute}}
    // expected-error @+1 {{no plan satisfies the given decisions: algorithm = accumulation}}
    %r = tc.contract [i, j] = %A[i] * %B[j] {tc.plan = #tc.plan<algorithm = accumulation>} : tensor<64xf64>, tensor<64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}

// -----

module {
  func.func @no_machine(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
    // expected-error @+1 {{planning needs a machine model}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
    return %r : tensor<4x4xf64>
  }
}

// -----

// Only COSMA leaves processes idle (Kwasniewski et al. section 7.1).
module attributes {tc.machine = #tc.machine<procs = 7, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @idle_accumulation(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    // expected-error @+1 {{algorithm = accumulation runs on every process, but the plan's grid [6] has 6 of the machine's 7 (only cosma leaves processes idle)}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<algorithm = accumulation, grid = <[6]>>} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 7, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @grid_too_large(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    // expected-error @+1 {{the plan's grid [2, 2, 2] has 8 processes but the machine has 7}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<algorithm = cosma, grid = <[2, 2, 2]>>} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}

// -----

// A 2-d grid of fewer processes, no algorithm given: only COSMA could leave
// processes idle, and it needs three grid dimensions.
module attributes {tc.machine = #tc.machine<procs = 7, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @idle_2d(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    // expected-remark @+2 {{rotation skipped: P = 7 is not a perfect square}}
    // expected-error @+1 {{no plan satisfies the given decisions: grid = [2, 3]}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<grid = <[2, 3]>>} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}

// -----

// Block-sparse contractions are refused by the dense planners, not planned as
// dense (tc-plan-block-sparse plans their task pools, docs/Derivations.md D33).
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @blocks(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>, %b: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>) -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>> {
    // expected-error @+1 {{'tc.contract' op has block-sparse operands (#tc.blocks): tc-plan-block-sparse plans them, but tc does not lower or run them yet}}
    %c = tc.contract [i, j] = %a[i, k] * %b[k, j] : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>, tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>> -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>
    return %c : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetry = 0>>
  }
}
