// Bad input and failing disks: a message naming the rank, the file and the
// array or tile; a non-zero exit from every rank, no hang; no output written,
// and an output file from an earlier run left as it was.
// RUN: rm -rf %t.d && mkdir -p %t.d/scratch
// RUN: tcc %s -o %t.prog --procs 2 --mem 6KB
// RUN: %python %S/Inputs/make_h5.py %t.d/A.h5 A=16x16
// RUN: %python %S/Inputs/make_h5.py %t.d/B.h5 B=16x16
// RUN: %python %S/Inputs/make_h5.py %t.d/bad.h5 B=16x15
// RUN: echo earlier > %t.d/out.h5

// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.prog --input A=%t.d/missing.h5 --input B=%t.d/B.h5 --output %t.d/out.h5 --scratch %t.d/scratch | FileCheck %s --check-prefix=MISSING
// MISSING: rank {{[01]}}: error: cannot open input file {{.*}}missing.h5 for array 'A'
// MISSING: exit status {{[1-9]}}
// RUN: grep -q earlier %t.d/out.h5

// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.prog --input A=%t.d/A.h5 --input B=%t.d/bad.h5 --output %t.d/out.h5 --scratch %t.d/scratch | FileCheck %s --check-prefix=SHAPE
// SHAPE: rank {{[01]}}: error: dataset 'B' in {{.*}}bad.h5 has shape [16, 15] but the program expects [16, 16]

// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.prog --input A=%t.d/A.h5 --input B=%t.d/B.h5 --output %t.d/out.h5 --scratch %t.d/A.h5/dir | FileCheck %s --check-prefix=SCRATCH
// SCRATCH: rank {{[01]}}: error: cannot create scratch file {{.*}}A.h5/dir/tc-{{[0-9]+}}-{{[0-9]+}}-A-r{{[01]}}.bin for array 'A': Not a directory (choose a writable --scratch directory)

// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 -x TC_FAIL_WRITE_AFTER_BYTES=3000 %t.prog --input A=%t.d/A.h5 --input B=%t.d/B.h5 --output %t.d/out.h5 --scratch %t.d/scratch | FileCheck %s --check-prefix=WRITE
// WRITE: rank {{[01]}}: error: writing {{.*}} of array '{{[ABC]}}' to {{.*}}scratch/tc-{{[0-9]+}}-{{[0-9]+}}-{{[ABC]}}-r{{[01]}}.bin: Input/output error

// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.prog --random-inputs 1 --bogus | FileCheck %s --check-prefix=USAGE
// USAGE: error: unknown option '--bogus' (see --help)
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.prog --random-inputs 1 --repeat 0 | FileCheck %s --check-prefix=REPEAT
// REPEAT: error: --repeat needs a count from 1 to 1000, got '0' (see --help)

// No failed run left the output or scratch files behind.
// RUN: grep -q earlier %t.d/out.h5
// RUN: ls %t.d | FileCheck %s --check-prefix=FILES
// FILES-NOT: tmp
// RUN: ls %t.d/scratch | count 0

// A good run replaces the output.
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 %t.prog --input A=%t.d/A.h5 --input B=%t.d/B.h5 --output %t.d/out.h5 --scratch %t.d/scratch --quiet
// RUN: not grep -q earlier %t.d/out.h5
module attributes {tc.machine = #tc.machine<procs = 2, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @faults(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }
}
