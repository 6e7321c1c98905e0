// Out of core, each process keeps the remote bricks it received in an LRU
// cache ([K] 6): a later stage reading a brick still cached receives nothing.
// With room for every brick (--cache-bytes 1MB) on the CCD statement
// i0 += t * i1 at 40 KB per process, reads are served from the caches under
// both tc's schedule and the locality-oblivious one, results still equal
// numpy's and every rank's measured bytes equal the prediction net of the
// hits (fewer bytes than without the cache).
// RUN: rm -rf %t.d && mkdir -p %t.d/scratch
// RUN: tc-opt %S/Inputs/block-sparse-ccd-i0.mlir --tc-set-machine="procs=2 mem=40KB" --tc-plan-block-sparse="cache-bytes=1000000" --tc-lower-plan 2>/dev/null | FileCheck %s --check-prefix=IR
// IR: tc.block_stage {{.*}} cached [{{[0-9]+, [01], [0-9]+, [01]}}
// RUN: tc-opt %S/Inputs/block-sparse-ccd-i0.mlir --tc-set-machine="procs=2 mem=40KB" --tc-plan-block-sparse="assignment=next-task cache-bytes=0" 2>/dev/null | grep -o "received_per_rank = \[[^]]*\]" > %t.d/none
// RUN: tc-opt %S/Inputs/block-sparse-ccd-i0.mlir --tc-set-machine="procs=2 mem=40KB" --tc-plan-block-sparse="assignment=next-task cache-bytes=1000000" 2>/dev/null | grep -o "received_per_rank = \[[^]]*\]" > %t.d/cached
// RUN: %python -c "import re,sys; f=lambda p: sum(float(x) for x in re.findall(r'[0-9][0-9.e+]*', open(p).read())); print('fewer' if f(sys.argv[2]) < f(sys.argv[1]) else 'not fewer')" %t.d/none %t.d/cached | FileCheck %s --check-prefix=FEWER
// FEWER: fewer
// RUN: for a in hypergraph next-task; do for np in 2 3 4; do \
// RUN:   tcc %S/Inputs/block-sparse-ccd-i0.mlir -o %t.d/prog --procs $np --mem 40KB --cache-bytes 1000000 --assignment $a --net-bw 1GB/s --disk-bw 200MB/s || exit 1; \
// RUN:   %python %tc_src/scripts/run-block-sparse.py %t.d/prog --np $np --spec "i0[p3,p4,h1,h2] += t[p3,p5,h1,h6] * i1[h6,p4,h2,p5]" --segments p3=10:10:6:6,p4=10:10:6:6,p5=10:10:6:6,h1=4:4:2:2,h2=4:4:2:2,h6=4:4:2:2 --scratch %t.d/scratch --check-bytes || exit 1; \
// RUN: done; done | FileCheck %s
// CHECK-COUNT-6: OK
// RUN: ls -A %t.d/scratch | count 0
