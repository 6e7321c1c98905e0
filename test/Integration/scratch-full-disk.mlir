// Nothing left behind on a full disk (issue 15): the --scratch directory is a
// 2 MB tmpfs (mounted in a mount namespace of this test's own, so nothing
// outside it changes) and every rank's first scratch array needs 13 MB. The
// run stops with ENOSPC named by rank, file and array, exits non-zero, writes
// no output, and leaves the file system empty (no name, no block used).
// REQUIRES: mountns
// RUN: rm -rf %t.d && mkdir -p %t.d/full
// RUN: tcc %S/scratch-cleanup.mlir -o %t.d/prog --procs 2 --mem 1MB
// RUN: unshare --mount sh -c 'mount -t tmpfs -o size=2m tmpfs %t.d/full && \
// RUN:   %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/prog --random-inputs 1 --scratch %t.d/full --output %t.d/out.h5 --quiet; \
// RUN:   echo "used: $(df -k --output=used %t.d/full | tail -1 | tr -d " ") KB"; echo "names: $(ls -A %t.d/full | wc -l)"' | FileCheck %s
// CHECK: rank {{[01]}}: error: writing initial rows of array 'A' to {{.*}}full/tc-{{[0-9]+}}-{{[0-9]+}}-A-r{{[01]}}.bin: No space left on device
// CHECK: exit status {{[1-9]}}
// CHECK: used: 0 KB
// CHECK: names: 0
// RUN: not ls %t.d/out.h5
