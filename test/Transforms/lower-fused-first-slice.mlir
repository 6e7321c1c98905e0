// Partial sums consolidated on one grid slice (Cociorva et al. 3.3 variant 1,
// to_one): T2 is computed in <t,j> with j summed over grid dimension 1 and kept
// by the first slice of it (<t,1>). Every process adds up its partial sums in a
// replicated accumulator, the combine sums them onto all, and the copy into the
// first-slice array moves no bytes (each process of the slice keeps its block);
// T2 then goes from the first slice to the replicas S reads (<t,*>).
// RUN: tc-opt %S/../Integration/Inputs/fused-first-slice.mlir --tc-lower-fused | FileCheck %s
// CHECK: %[[T2:.*]] = tc.array "T2" {{.*}}#tc.layout<distributed [12, 10] on [2, 2] dims [0, -1] skew [-1, -1] first_slice [1]>>
// CHECK: %[[ACC:.*]] = tc.array "T2" {{.*}}storage %[[ACCBUF:[^ ]*]] : {{.*}}#tc.layout<distributed [12, 10] on [2, 2] dims [0, -1]
// CHECK: %[[T2R:.*]] = tc.array "T2" {{.*}}storage %{{[^ ]*}} : {{.*}}#tc.layout<distributed [12, 10] on [2, 2] dims [0, -1]
// CHECK: tc.zero_array %[[ACC]]
// CHECK: tc.tile_contract %[[ACCBUF]]
// CHECK: tc.combine_partial %[[ACC]] along [1]
// CHECK-NEXT: tc.redistribute_array %[[ACC]] into %[[T2]]
// CHECK-NEXT: tc.redistribute_array %[[T2]] into %[[T2R]]
