// COSMA out of core (docs/Derivations.md D56) on a hand-written grid of fewer
// ranks than the run's: [1, 1, 2] on 3 processes leaves rank 2 idle (it
// moves and stores nothing; predicted zero), as COSMA's in-core plans may.
// Results against numpy einsum within 1e-12 and every rank's disk, sent and
// received bytes equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.exe --procs 3 --mem 96KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.exe --np 3 --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=37,j=29,k=1001 --scratch %t.d --check-bytes | FileCheck %s
// CHECK: rank 2: disk 0 (predicted 0), sent 0 (predicted 0), received 0 (predicted 0)
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "96KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @idle(%A: tensor<37x1001xf64>, %B: tensor<1001x29xf64>, %C: tensor<37x29xf64>) -> tensor<37x29xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, algorithm = cosma, grid = <[1, 1, 2]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>>}
           : tensor<37x1001xf64>, tensor<1001x29xf64> -> tensor<37x29xf64>
    return %r : tensor<37x29xf64>
  }
}
