// tc-lower-plan's diagnostics: what it cannot lower, and why.
// RUN: tc-opt %s -split-input-file --tc-lower-plan -verify-diagnostics

module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @unplanned(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>) -> tensor<4x4xf64> {
    // expected-error @+1 {{'tc.contract' op has no complete plan (missing 'in_core'): run --tc-plan before --tc-lower-plan}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    return %r : tensor<4x4xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @no_loops(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>) -> tensor<4x4xf64> {
    // expected-error @+1 {{'tc.contract' op has no complete plan (missing 'order')}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = accumulation,
              grid = <[1]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>>}
           : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    return %r : tensor<4x4xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  // expected-error @+1 {{'func.func' op has 2 tc.contract ops; tc-lower-plan lowers one per function}}
  func.func @two(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>) -> tensor<4x4xf64> {
    %t = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    %r = tc.contract [i, j] = %t[i, k] * %B[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    return %r : tensor<4x4xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @not_args(%X: tensor<4x4x4xf64>, %B: tensor<4x4xf64>) -> tensor<4x4xf64> {
    %t = tc.sum [i, k] = %X[i, k, l] : tensor<4x4x4xf64> -> tensor<4x4xf64>
    // expected-error @+1 {{'tc.contract' op tc-lower-plan needs a function whose body is one tc.contract of its arguments (each possibly through a tc.redistribute) and a return of its result (possibly through one tc.redistribute)}}
    %r = tc.contract [i, j] = %t[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = accumulation,
              grid = <[1]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>>}
           : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    return %r : tensor<4x4xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @too_many_tiles(%A: tensor<4x4xf64>, %B: tensor<4x4xf64>) -> tensor<4x4xf64> {
    // expected-error @+1 {{'tc.contract' op plan splits label 'i' into 8 tiles but a process holds only 4 of its elements}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = accumulation,
              grid = <[1]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>,
              order = CAB, loops = [{i = 8}, {}, {}, {}]>}
           : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
    return %r : tensor<4x4xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @cosma_dists(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    // expected-error @+1 {{'tc.contract' op algorithm = cosma needs dist_a = <[i, *, k]>, dist_b = <[*, j, k]> and dist_c = <[i, j, *]> with i in I, j in J and k in K; got #tc.dist<[k, *, i]>, #tc.dist<[*, j, k]>, #tc.dist<[i, j, *]>}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = cosma, grid = <[2, 2, 1]>, dist_a = <[k, *, i]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @cosma_rounds(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    // expected-error @+1 {{'tc.contract' op algorithm = cosma rounds run over K labels, but 'i' is not one}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = #tc.cosma<rounds = {i = 2}>, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}

// -----

// PUMMA's plan must say which input rolls, and its layouts must describe a
// variant: here C holds the rolled A's free label along the roll dimension.
module attributes {tc.machine = #tc.machine<procs = 6, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @pumma_no_roll(%A: tensor<12x9xf64>, %B: tensor<9x10xf64>) -> tensor<12x10xf64> {
    // expected-error @+1 {{'tc.contract' op has no complete plan (missing 'roll'): run --tc-plan before --tc-lower-plan}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = pumma, grid = <[2, 3]>, dist_a = <[i, k] cyclic [0, 3]>, dist_b = <[k, j] cyclic [3, 0]>, dist_c = <[i, j]>>}
           : tensor<12x9xf64>, tensor<9x10xf64> -> tensor<12x10xf64>
    return %r : tensor<12x10xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 6, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @pumma_c_misplaced(%A: tensor<12x9xf64>, %B: tensor<9x10xf64>) -> tensor<12x10xf64> {
    // expected-error @+1 {{'tc.contract' op algorithm = pumma: pumma needs C to hold 'i' (the free label of the rolled A) along grid dimension 0; redistribute C instead}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = #tc.pumma<roll = a>, grid = <[2, 3]>, dist_a = <[i, k] cyclic [0, 3]>, dist_b = <[k, j] cyclic [3, 0]>, dist_c = <[j, i] cyclic [4, 6]>>}
           : tensor<12x9xf64>, tensor<9x10xf64> -> tensor<12x10xf64>
    return %r : tensor<12x10xf64>
  }
}

// -----

// Every algorithm but COSMA runs on all the machine's processes.
module attributes {tc.machine = #tc.machine<procs = 5, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @idle_rotation(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    // expected-error @+1 {{'tc.contract' op algorithm = rotation runs on every process, but the plan's grid #tc.grid<[2, 2]> has 4 of the machine's 5 (only cosma leaves processes idle)}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = rotation, grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>>}
           : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}

// -----

// No algorithm runs on more processes than the machine's.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "1MB/s", disk_bw = "1MB/s">} {
  func.func @cosma_too_many(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    // expected-error @+1 {{'tc.contract' op the plan's grid #tc.grid<[2, 2, 2]> has 8 processes but the machine has 4}}
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = true, algorithm = cosma, grid = <[2, 2, 2]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}
