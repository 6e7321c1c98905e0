// Nothing left behind (issue 15): scratch files have no name in the --scratch
// directory (O_TMPFILE, else unlinked once open), so however a run ends, a
// rank killed by SIGKILL included, the system frees them and the directory
// stays empty; a missing --scratch directory is created, parents included.
// RUN: rm -rf %t.d && mkdir -p %t.d/s
// RUN: tcc %s -o %t.d/prog --procs 2 --mem 1MB
// RUN: tcc %S/Inputs/small-ooc.mlir -o %t.d/small --procs 2 --mem 4KB
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe %t.d/small --random-inputs 1 --scratch %t.d/new/scratch --quiet
// RUN: test -d %t.d/new/scratch
// RUN: ls %t.d/new/scratch | count 0
// A --scratch path through a file is refused by name.
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/small --random-inputs 1 --scratch %t.d/prog/sub | FileCheck %s --check-prefix=NOTDIR
// NOTDIR: error: cannot create scratch file {{.*}}prog/sub/tc-{{[0-9]+}}-{{[0-9]+}}-{{[ABC]}}-r{{[01]}}.bin for array '{{[ABC]}}': Not a directory
// One rank killed 1.5 s into a run of several seconds (2560^3 out of core in
// 1 MB per rank): mpirun fails, no output, and the scratch directory held no
// file during the run and holds none after it.
// RUN: %python %S/Inputs/kill_rank.py %t.d/s %t.d/prog -- mpirun -np 2 %t.d/prog --random-inputs 1 --output %t.d/out.h5 --scratch %t.d/s --quiet | FileCheck %s --check-prefix=KILL
// KILL: mpirun exit status {{[1-9]}}
// KILL: scratch during the run: []
// KILL: scratch after: []
// RUN: not ls %t.d/out.h5
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @long(%A: tensor<2560x2560xf64>, %B: tensor<2560x2560xf64>) -> tensor<2560x2560xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false>}
           : tensor<2560x2560xf64>, tensor<2560x2560xf64> -> tensor<2560x2560xf64>
    return %r : tensor<2560x2560xf64>
  }
}
