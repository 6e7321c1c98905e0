// `1` (first-slice) distributions run (Cociorva et al. 3.1, 3.3 variant 1;
// docs/Derivations.md D32): a hand-written plan keeping T2 on the first slice
// of grid dimension 1, kept by tcc, lowered by tc-lower-fused and run on 4
// processes in f64 and f32: results against numpy, every rank's sent and
// received bytes equal to the prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for elem in f64 f32; do \
// RUN:   sed "s/f64>/$elem>/g" %S/Inputs/fused-first-slice.mlir > %t.d/p.mlir && \
// RUN:   tcc %t.d/p.mlir -o %t.d/p --procs 4 && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/p --np 4 --dtype $elem --spec "S[t,m] = A[i,j,t] * B[j,l] * C[l,m]" --extents i=16,j=8,t=12,l=10,m=6 --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-2: OK
// The same with input A arriving on the first slice only (<t,1>): loaded there,
// then spread to <t,j> from the slice's replicas.
// RUN: sed '0,/initial = <\[t, j\]>, final = <\[t, j\]>, memory/s//initial = <[t, 1]>, final = <[t, j]>, memory/' %S/Inputs/fused-first-slice.mlir > %t.d/a1.mlir
// RUN: grep -q "initial = <\[t, 1\]>, final = <\[t, j\]>" %t.d/a1.mlir
// RUN: tcc %t.d/a1.mlir -o %t.d/a1 --procs 4
// RUN: %python %tc_src/scripts/run-contraction.py %t.d/a1 --np 4 --spec "S[t,m] = A[i,j,t] * B[j,l] * C[l,m]" --extents i=16,j=8,t=12,l=10,m=6 --check-bytes | FileCheck %s --check-prefix=INPUT
// INPUT: OK
