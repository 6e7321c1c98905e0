// One executable for several process counts (tcc --procs 1-4): a plan per
// count (tc-specialize-procs), chosen at start-up by MPI_Comm_size. Out of core
// in 16 KB per process, each run's result equals numpy's and every rank's
// disk, sent and received bytes equal the prediction of its count's plan; a
// count without a plan is refused, naming the planned ones. An operator tree
// (fused-summation) likewise with --procs 1,2,4.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.d/prog --procs 1-4 --mem 16KB --plan-table - | FileCheck %s --check-prefix=PLAN
// PLAN: contraction {{.*}}  (P = 1,
// PLAN: contraction {{.*}}  (P = 2,
// PLAN: contraction {{.*}}  (P = 3,
// PLAN: contraction {{.*}}  (P = 4,
// RUN: for np in 1 2 3 4; do \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/prog --np $np --spec "C[i,j] += A[i,k] * B[j,k]" --extents i=96,j=96,k=72 --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=RUNS
// RUNS-COUNT-4: OK
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 5 %t.d/prog --random-inputs 1 --output %t.d/five.h5 | FileCheck %s --check-prefix=FIVE
// FIVE: error: the program was planned for 1, 2, 3 or 4 processes but runs on 5 (use mpirun -np 1, 2, 3 or 4, or compile it again with --procs 5)
// RUN: not ls %t.d/five.h5
// RUN: tcc %S/fused-summation.mlir -o %t.d/tree --procs 1,2,4 --mem 256KB --net-bw 1GB/s --disk-bw 200MB/s
// RUN: for np in 1 2 4; do \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/tree --np $np --spec "S[t,l] = A[i,j,t] * B[j,l]" --extents i=64,j=32,t=48,l=40 --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=RUNS3
// RUNS3-COUNT-3: OK
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 3 %t.d/tree --random-inputs 1 | FileCheck %s --check-prefix=THREE
// THREE: error: the program was planned for 1, 2 or 4 processes but runs on 3
module attributes {tc.machine = #tc.machine<procs = 4, mem = "16KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @matmul(%A: tensor<96x72xf64>, %B: tensor<96x72xf64>, %C: tensor<96x96xf64>) -> tensor<96x96xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k]
           : tensor<96x72xf64>, tensor<96x72xf64> -> tensor<96x96xf64>
    return %r : tensor<96x96xf64>
  }
}
