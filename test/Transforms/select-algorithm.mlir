// tc-select-algorithm: in-core when the data fits (COSMA, the least communication
// there), the cheapest algorithm and its
// Table 1 distributions otherwise, decisions already made are kept, and given
// input layouts steer the distributed index.
// RUN: tc-opt %s --tc-select-algorithm | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func.func @fits
  // CHECK: tc.plan = #tc.plan<in_core = true, algorithm = cosma, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>
  func.func @fits(%A: tensor<64x32xf64>, %B: tensor<32x48xf64>) -> tensor<64x48xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<64x32xf64>, tensor<32x48xf64> -> tensor<64x48xf64>
    return %r : tensor<64x48xf64>
  }
  // CHECK-LABEL: func.func @out_of_core
  // Out of core: COSMA with its sub-blocks on disk (docs/Derivations.md D56)
  // reads as much as inside rotation with COSMA's sequential schedule as its
  // tiling (D29), which beats Gao et al.'s replication-a, and gathers half
  // of what Cannon's shifts move.
  // CHECK: tc.plan = #tc.plan<in_core = false, algorithm = cosma, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>
  func.func @out_of_core(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // CHECK-LABEL: func.func @kept
  // CHECK: tc.plan = #tc.plan<in_core = false, method = outside, algorithm = accumulation, grid = <[4]>, dist_a = <[k]>, dist_b = <[k]>, dist_c = <[*]>>
  func.func @kept(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] {tc.plan = #tc.plan<method = outside, algorithm = accumulation>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // The inputs arrive distributed along their third dimension (label l here).
  // CHECK-LABEL: func.func @constrained
  // CHECK: tc.plan = #tc.plan<in_core = true, algorithm = accumulation, grid = <[4]>, dist_a = <[l]>, dist_b = <[l]>, dist_c = <[*]>>
  func.func @constrained(%A: tensor<16x64x64xf64>, %B: tensor<64x64x16xf64>) -> tensor<16x16xf64> {
    %a = tc.redistribute %A [x, y, z] on <[4]> from <[x]> to <[z]> : tensor<16x64x64xf64>
    %b = tc.redistribute %B [y, z, w] on <[4]> from <[w]> to <[z]> : tensor<64x64x16xf64>
    %r = tc.contract [i, j] = %a[i, k, l] * %b[k, l, j] {tc.plan = #tc.plan<algorithm = accumulation>} : tensor<16x64x64xf64>, tensor<64x64x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }
}

