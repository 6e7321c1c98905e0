// Krishnamoorthy et al.'s out-of-core experiment ([K] 6.4), the CCD
// sub-computation at small scale: O in segments (4, 4, 2, 2) and V in
// (10, 10, 6, 6) (the paper's 40, 40, 20, 20 and 100, 100, 60, 60 over 10),
// every tensor totally symmetric,
//   i1[h6,p3,h1,p5] = v1[h6,p3,h1,p5] + t[p3,p7,h1,h8] * v2[h6,h8,p5,p7]
//   i0[p3,p4,h1,h2] += t[p3,p5,h1,h6] * i1[h6,p4,h2,p5]
// each a contraction accumulating into its given result (v1 is i1's initial
// value), run on 1-4 processes in memory and out of core (memory below each
// process's bricks; C bricks of several stages are read back): results equal
// numpy's einsum on the same blocks and every rank's measured bytes equal the
// schedule's prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d/scratch
// RUN: tc-opt %s --tc-set-machine="procs=2 mem=150KB" --tc-plan-block-sparse 2>/dev/null | FileCheck %s --check-prefix=PLAN
// RUN: tc-opt %S/Inputs/block-sparse-ccd-i0.mlir --tc-set-machine="procs=2 mem=150KB" --tc-plan-block-sparse 2>/dev/null | FileCheck %s --check-prefix=PLAN
// PLAN: tc.block_plan = #tc.block_plan<schedule = two_level
// RUN: for mem in 4MB 150KB; do for np in 1 2 3 4; do \
// RUN:   tcc %s -o %t.d/ccd --procs $np --mem $mem --net-bw 1GB/s --disk-bw 200MB/s || exit 1; \
// RUN:   %python %tc_src/scripts/run-block-sparse.py %t.d/ccd --np $np --spec "i1[h6,p3,h1,p5] += t[p3,p7,h1,h8] * v2[h6,h8,p5,p7]" --segments p3=10:10:6:6,p5=10:10:6:6,p7=10:10:6:6,h1=4:4:2:2,h6=4:4:2:2,h8=4:4:2:2 --scratch %t.d/scratch --check-bytes || exit 1; \
// RUN:   tcc %S/Inputs/block-sparse-ccd-i0.mlir -o %t.d/ccd-i0 --procs $np --mem $mem --net-bw 1GB/s --disk-bw 200MB/s || exit 1; \
// RUN:   %python %tc_src/scripts/run-block-sparse.py %t.d/ccd-i0 --np $np --spec "i0[p3,p4,h1,h2] += t[p3,p5,h1,h6] * i1[h6,p4,h2,p5]" --segments p3=10:10:6:6,p4=10:10:6:6,p5=10:10:6:6,h1=4:4:2:2,h2=4:4:2:2,h6=4:4:2:2 --scratch %t.d/scratch --check-bytes || exit 1; \
// RUN: done; done | FileCheck %s
// RUN: ls -A %t.d/scratch | count 0
// CHECK-COUNT-16: OK
module {
  func.func @ccd_i1(%i1: tensor<12x32x12x32xf64, #tc.blocks<[[4, 4, 2, 2], [10, 10, 6, 6], [4, 4, 2, 2], [10, 10, 6, 6]], symmetry = 0>> {tc.name = "i1"}, %t: tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>> {tc.name = "t"}, %v2: tensor<12x12x32x32xf64, #tc.blocks<[[4, 4, 2, 2], [4, 4, 2, 2], [10, 10, 6, 6], [10, 10, 6, 6]], symmetry = 0>> {tc.name = "v2"}) -> tensor<12x32x12x32xf64, #tc.blocks<[[4, 4, 2, 2], [10, 10, 6, 6], [4, 4, 2, 2], [10, 10, 6, 6]], symmetry = 0>> {
    %r = tc.contract %i1[h6, p3, h1, p5] += %t[p3, p7, h1, h8] * %v2[h6, h8, p5, p7]
           : tensor<32x32x12x12xf64, #tc.blocks<[[10, 10, 6, 6], [10, 10, 6, 6], [4, 4, 2, 2], [4, 4, 2, 2]], symmetry = 0>>, tensor<12x12x32x32xf64, #tc.blocks<[[4, 4, 2, 2], [4, 4, 2, 2], [10, 10, 6, 6], [10, 10, 6, 6]], symmetry = 0>> -> tensor<12x32x12x32xf64, #tc.blocks<[[4, 4, 2, 2], [10, 10, 6, 6], [4, 4, 2, 2], [10, 10, 6, 6]], symmetry = 0>>
    return %r : tensor<12x32x12x32xf64, #tc.blocks<[[4, 4, 2, 2], [10, 10, 6, 6], [4, 4, 2, 2], [10, 10, 6, 6]], symmetry = 0>>
  }
}
