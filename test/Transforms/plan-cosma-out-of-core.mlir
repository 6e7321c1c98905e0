// tc-plan out of core with COSMA's grid (docs/Derivations.md D56): a
// large-k product on 8 processes with 1/8 of each process's share. Gao et
// al.'s accumulation holds C's whole tile on every process and must re-read
// an input; COSMA's grid [1, 2, 4] splits J and K, its partial sums fit, and
// every element moves once: (A + B + C) / 8 = 4259840 disk bytes per
// process. No method, order, loops or memory: COSMA runs rounds (over k, 256
// of 8 outer products each, the panels within memory less the staging chunk).
// RUN: tc-opt %s --tc-plan | FileCheck %s

// CHECK: tc.plan = #tc.plan<in_core = false, algorithm = #tc.cosma<rounds = {k = 256 : i64}>, grid = <[1, 2, 4]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>, disk_bytes = 4.259840e+06 : f64
module attributes {tc.machine = #tc.machine<procs = 8, mem = "532480B", net_bw = "3GB/s", disk_bw = "1GB/s">} {
  func.func @large_k(%A: tensor<256x8192xf64>, %B: tensor<8192x256xf64>) -> tensor<256x256xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<256x8192xf64>, tensor<8192x256xf64> -> tensor<256x256xf64>
    return %r : tensor<256x256xf64>
  }
}
