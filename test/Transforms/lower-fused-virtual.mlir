// tc-lower-fused on virtually partitioned plans (Cociorva et al. 3.2(iii)):
// i fused between a block split 2 ways and one holding all of i runs over
// lcm(2, 1) = 2 virtual blocks, 40 / 2 = 20 iterations; the slices hold one
// row per virtual block, and an array the loop does not slice takes this
// iteration's row of each virtual block in its block (rows x and 20 + x).
// RUN: tc-opt %S/../Integration/Inputs/fused-virtual-steps.mlir --tc-lower-fused | FileCheck %s --check-prefix=STEPS
// STEPS-LABEL: func.func @tree()
// STEPS: tc.array "A" {{.*}}memref<1x15xf64> {{.*}}#tc.layout<distributed [2, 30] on [2, 2] dims [0, 1]
// STEPS: tc.array "A" {{.*}}memref<1x30xf64> {{.*}}#tc.layout<distributed [2, 30] on [2, 2] dims [0, -1]
// STEPS: %[[T1P:.*]] = tc.array "T1" {{.*}}storage %[[T1PBUF:[^ ]*]] : memref<1x10xf64> {{.*}}#tc.layout<distributed [2, 20] on [2, 2] dims [0, 1]
// STEPS: %[[T1C:.*]] = tc.array "T1" {{.*}}storage %[[T1CBUF:[^ ]*]] : memref<2x10xf64> {{.*}}#tc.layout<distributed [2, 20] on [2, 2] dims [-1, 1]
// STEPS: tc.array "R" {{.*}}storage %[[RBUF:[^ ]*]] : memref<40x2xf64> {{.*}}#tc.layout<distributed [40, 4] on [2, 2] dims [-1, 0]
// STEPS: scf.for %[[X:.*]] = %{{.*}} to %c20 step
// STEPS:   tc.load_slice {{.*}} [40, 30] at[%[[X]], %{{.*}}]
// STEPS:   tc.tile_contract %[[T1PBUF]][{{.*}}] ["i", "k"] += {{.*}} extents {i = 1 : i64, j = 30 : i64, k = 10 : i64}
// STEPS:   tc.redistribute_array %[[T1P]] into %[[T1C]]
// STEPS:   tc.tile_contract %[[RBUF]][%[[X]], %{{.*}}] ["i", "l"] += %[[T1CBUF]]{{.*}} extents {i = 2 : i64, k = 10 : i64, l = 2 : i64} {c_steps = array<i64: 20, 1>}
// RUN: tc-opt %S/../Integration/Inputs/fused-virtual-fig4.mlir --tc-lower-fused | FileCheck %s --check-prefix=FIG4
// FIG4-LABEL: func.func @fig4()
// FIG4: tc.array "A" {{.*}}#tc.layout<distributed [2, 30] on [2, 2] dims [1, 0]
// FIG4: tc.array "T1" {{.*}}memref<2x10xf64> {{.*}}#tc.layout<distributed [2, 20] on [2, 2] dims [-1, 1]
// FIG4: tc.array "T1" {{.*}}memref<1x10xf64> {{.*}}#tc.layout<distributed [2, 20] on [2, 2] dims [0, 1]
// FIG4: scf.for {{.*}} to %c20 step
// FIG4: tc.combine_partial
// FIG4: tc.redistribute_array
