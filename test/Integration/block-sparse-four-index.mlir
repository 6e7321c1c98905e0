// Krishnamoorthy et al.'s in-memory shape ([K] 5.2) scaled down, as a
// native MPI program: C[a,b,c,d] = A[a,b,i] * B[i,c,d], a..d in O = (8, 4, 2, 2)
// and i in V = (16, 8, 4, 4), every tensor totally symmetric. Results equal
// numpy's einsum on the same blocks and every rank's measured disk, sent and
// received bytes equal the schedule's prediction:
// - in memory, one executable for 1-4 processes (tcc --procs 1-4);
// - out of core (50 KB a process, below its bricks: one- or two-level
//   stages), per process count; the scratch directory is empty afterwards.
// RUN: rm -rf %t.d && mkdir -p %t.d/scratch
// RUN: tcc %s -o %t.d/mem --procs 1-4 --mem 1MB --net-bw 1GB/s --disk-bw 200MB/s --plan-table - | FileCheck %s --check-prefix=PLAN
// PLAN-COUNT-4: block-sparse contraction {{.*}}  (in_memory, 64 tasks, 96 bricks, disk 0 B
// RUN: for np in 1 2 3 4; do \
// RUN:   %python %tc_src/scripts/run-block-sparse.py %t.d/mem --np $np --spec "C[a,b,c,d] = A[a,b,i] * B[i,c,d]" --segments a=8:4:2:2,b=8:4:2:2,c=8:4:2:2,d=8:4:2:2,i=16:8:4:4 --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=RUNS
// RUN: for np in 1 2 3 4; do \
// RUN:   tcc %s -o %t.d/ooc$np --procs $np --mem 50KB --net-bw 1GB/s --disk-bw 200MB/s --plan-table - | grep -q "(one_level\|(two_level" || exit 1; \
// RUN:   %python %tc_src/scripts/run-block-sparse.py %t.d/ooc$np --np $np --spec "C[a,b,c,d] = A[a,b,i] * B[i,c,d]" --segments a=8:4:2:2,b=8:4:2:2,c=8:4:2:2,d=8:4:2:2,i=16:8:4:4 --scratch %t.d/scratch --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=RUNS
// RUNS-COUNT-4: OK
// The locality-oblivious baseline (--assignment next-task) runs as predicted too.
// RUN: tcc %s -o %t.d/next --procs 3 --mem 50KB --net-bw 1GB/s --disk-bw 200MB/s --assignment next-task --plan-table - | FileCheck %s --check-prefix=NEXT
// NEXT: (in_order, 64 tasks, 96 bricks
// RUN: %python %tc_src/scripts/run-block-sparse.py %t.d/next --np 3 --spec "C[a,b,c,d] = A[a,b,i] * B[i,c,d]" --segments a=8:4:2:2,b=8:4:2:2,c=8:4:2:2,d=8:4:2:2,i=16:8:4:4 --scratch %t.d/scratch --check-bytes | FileCheck %s --check-prefix=NEXTOK
// NEXTOK: OK
// RUN: ls -A %t.d/scratch | count 0
//
// Bad inputs: a clear error naming the file, group and block, a non-zero
// exit and no output file.
// RUN: %python %S/Inputs/make_block_input.py %t.d/A.h5 A 8:4:2:2,8:4:2:2,16:8:4:4
// RUN: %python %S/Inputs/make_block_input.py %t.d/B.h5 B 16:8:4:4,8:4:2:2,8:4:2:2
// RUN: %python %S/Inputs/make_block_input.py %t.d/B-drop.h5 B 16:8:4:4,8:4:2:2,8:4:2:2 --drop 5
// RUN: %python %S/Inputs/make_block_input.py %t.d/B-extra.h5 B 16:8:4:4,8:4:2:2,8:4:2:2 --extra
// RUN: %python %S/Inputs/make_block_input.py %t.d/B-segs.h5 B 16:8:4:4,8:4:2:2,4:4:4:4
// RUN: %python %S/Inputs/make_block_input.py %t.d/B-f32.h5 B 16:8:4:4,8:4:2:2,8:4:2:2 --f32
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/ooc2 --input A=%t.d/A.h5 --input B=%t.d/B-drop.h5 --output %t.d/o.h5 --scratch %t.d/scratch | FileCheck %s --check-prefix=DROP
// DROP: error: group 'B' of {{.*}}B-drop.h5 lacks block [1, 1, 0], which the program's tensor has present
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/ooc2 --input A=%t.d/A.h5 --input B=%t.d/B-extra.h5 --output %t.d/o.h5 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: group 'B' of {{.*}}B-extra.h5 stores 17 blocks but the program's tensor has 16 present: it holds blocks the program does not
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/ooc2 --input A=%t.d/A.h5 --input B=%t.d/B-segs.h5 --output %t.d/o.h5 | FileCheck %s --check-prefix=SEGS
// SEGS: error: group 'B' of {{.*}}B-segs.h5 has segments [16, 8, 4, 4, 8, 4, 2, 2, 4, 4, 4, 4] (counts [4, 4, 4]) but the program's tensor has [16, 8, 4, 4, 8, 4, 2, 2, 8, 4, 2, 2] (counts [4, 4, 4])
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/ooc2 --input A=%t.d/A.h5 --input B=%t.d/B-f32.h5 --output %t.d/o.h5 | FileCheck %s --check-prefix=F32
// F32: error: group 'B' of {{.*}}B-f32.h5: 'values' must hold f64 elements, as the program declares 'B'
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/ooc2 --input A=%t.d/B.h5 --input B=%t.d/B.h5 --output %t.d/o.h5 | FileCheck %s --check-prefix=GROUP
// GROUP: error: input file {{.*}}B.h5 has no group 'A' (a block-sparse tensor is a group, docs/BlockSparse.md)
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/ooc2 --input A=%t.d/A.h5 --output %t.d/o.h5 | FileCheck %s --check-prefix=MISSING
// MISSING: error: no input for block-sparse tensor 'B': pass --input B=file.h5
// RUN: not ls %t.d/o.h5
// RUN: ls -A %t.d/scratch | count 0
module {
  func.func @four_index(
      %A: tensor<16x16x32xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [16, 8, 4, 4]], symmetry = 0>>,
      %B: tensor<32x16x16xf64, #tc.blocks<[[16, 8, 4, 4], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>)
      -> tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>> {
    %C = tc.contract [a, b, c, d] = %A[a, b, i] * %B[i, c, d]
           : tensor<16x16x32xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [16, 8, 4, 4]], symmetry = 0>>,
             tensor<32x16x16xf64, #tc.blocks<[[16, 8, 4, 4], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
          -> tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
    return %C : tensor<16x16x16x16xf64, #tc.blocks<[[8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2], [8, 4, 2, 2]], symmetry = 0>>
  }
}
