// Labels of one input only (docs/Derivations.md D30): s and t of A and u of B
// are summed out as the inputs load, C[a,d] += A[s,a,t,c] * B[c,u,d] then runs
// as C[a,d] += A'[a,c] * B'[c,d] with whatever algorithm the planner picks
// (COSMA on 4 processes in core). 1 to 4 processes, in core and out of core:
// results against numpy einsum and every rank's measured bytes equal to the
// prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in 1:64MB 1:1KB 2:64MB 2:1KB 3:4KB 4:64MB 4:1KB; do \
// RUN:   np=${cfg%%:*}; mem=${cfg#*:}; \
// RUN:   tcc %s -o %t.d/p --procs $np --mem $mem 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/p --np $np --spec "C[a,d] += A[s,a,t,c] * B[c,u,d]" --extents s=3,a=8,t=5,c=6,u=7,d=4 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-7: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @one_input(%A: tensor<3x8x5x6xf64>, %B: tensor<6x7x4xf64>, %C: tensor<8x4xf64>) -> tensor<8x4xf64> {
    %r = tc.contract %C[a, d] += %A[s, a, t, c] * %B[c, u, d] : tensor<3x8x5x6xf64>, tensor<6x7x4xf64> -> tensor<8x4xf64>
    return %r : tensor<8x4xf64>
  }
}
