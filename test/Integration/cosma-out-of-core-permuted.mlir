// COSMA out of core (docs/Derivations.md D56, forced by a hand-written plan):
// a 4-index contraction with permuted labels and an initial C (read once from
// each process's sub-block, so the disk bytes count it twice), extents no
// grid divides, np = 2 3 5, 96 KB per process: the stored sub-blocks live in
// scratch files, memory holds C's partial sums and two panels of each input.
// Results against numpy einsum within 1e-12 and every rank's disk, sent and
// received bytes equal to the plan's per-rank prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for np in 2 3 5; do \
// RUN:   tcc %s -o %t.np$np --procs $np --mem 96KB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.np$np --np $np --spec "C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]" --extents a=5,b=7,c=3,d=6,m=37,n=41 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-3: OK
module attributes {tc.machine = #tc.machine<procs = 1, mem = "96KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @permuted(%A: tensor<5x37x7x41xf64>, %B: tensor<41x3x37x6xf64>, %C: tensor<5x7x3x6xf64>) -> tensor<5x7x3x6xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, m, b, n] * %B[n, c, m, d]
           {tc.plan = #tc.plan<in_core = false, algorithm = cosma>}
           : tensor<5x37x7x41xf64>, tensor<41x3x37x6xf64> -> tensor<5x7x3x6xf64>
    return %r : tensor<5x7x3x6xf64>
  }
}
