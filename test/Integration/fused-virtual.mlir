// Virtual partitioning run (Cociorva et al. 3.2(iii), docs/Derivations.md D32):
// two hand-written plans on a 2x2 grid, each fusing i between an array split
// along i at one end and whole at the other (lcm = 2 virtual blocks), kept by
// tcc as they are and lowered by tc-lower-fused; in f64 and f32, results
// against numpy and every rank's sent and received bytes equal the prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for elem in f64 f32; do \
// RUN:   sed "s/f64>/$elem>/g" %S/Inputs/fused-virtual-fig4.mlir > %t.d/fig4.mlir && \
// RUN:   tcc %t.d/fig4.mlir -o %t.d/fig4 --procs 4 && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/fig4 --np 4 --dtype $elem --spec "R[i,l] = A[i,j] * B[j,k] * C[k,l]" --extents i=40,j=30,k=20,l=4 --check-bytes || exit 1; \
// RUN:   sed "s/f64>/$elem>/g" %S/Inputs/fused-virtual-steps.mlir > %t.d/steps.mlir && \
// RUN:   tcc %t.d/steps.mlir -o %t.d/steps --procs 4 && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/steps --np 4 --dtype $elem --spec "R[i,l] = A[i,j] * B[j,k] * C[k,l]" --extents i=40,j=30,k=20,l=4 --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-4: OK
