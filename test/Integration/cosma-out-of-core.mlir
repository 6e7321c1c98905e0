// COSMA out of core chosen by the planner (docs/Derivations.md D56): a
// large-k product on 8 processes with 1/8 of each process's share of A, B and
// C (bench/out-of-core-shapes.py's large-k cell at 1/8 of the extents). Gao et
// al.'s accumulation would hold C's whole tile on every process; COSMA's grid
// splits K and I or J, so its partial sums fit and every input element is
// read from disk once and C's written once: 4259840 bytes per rank, (A + B +
// C) / 8. Results against numpy einsum within 1e-12 and every rank's disk,
// sent and received bytes equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.exe --procs 8 --mem 532480B --plan-table %t.table
// RUN: FileCheck %s --check-prefix=PLAN < %t.table
// RUN: %python %tc_src/scripts/run-contraction.py %t.exe --np 8 --spec "C[i,j] = A[i,k] * B[k,j]" --extents i=256,j=256,k=8192 --scratch %t.d --check-bytes | FileCheck %s
// PLAN: * on-disk  cosma {{.*}} 4.26e+06
// CHECK-COUNT-8: disk 4259840 (predicted 4259840)
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "3GB/s", disk_bw = "1GB/s">} {
  func.func @large_k(%A: tensor<256x8192xf64>, %B: tensor<8192x256xf64>) -> tensor<256x256xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<256x8192xf64>, tensor<8192x256xf64> -> tensor<256x256xf64>
    return %r : tensor<256x256xf64>
  }
}
