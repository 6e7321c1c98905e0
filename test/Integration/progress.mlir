// The progress line on stderr (after TC_PROGRESS_AFTER seconds, 3 by default),
// --help, and --repeat (every run reloads its inputs: the result stays right).
// RUN: tcc %s -o %t.prog
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 -x TC_PROGRESS_AFTER=0 %t.prog --random-inputs 3 2>&1 | FileCheck %s
// CHECK: progress.mlir.tmp.prog: compute {{ *}}{{[0-9.]+}}% of planned flops, {{[0-9.]+}} s elapsed
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 %t.prog --random-inputs 3 2>&1 | count 0
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 1 %t.prog --help | FileCheck %s --check-prefix=HELP
// HELP: usage: mpirun -np P {{.*}}.prog [options]
// HELP: --input NAME=FILE.h5
// HELP: --random-inputs SEED
// HELP: --output FILE.h5
// HELP: --scratch DIR
// HELP: --report FILE.json
// HELP: --repeat N
// RUN: %python %tc_src/scripts/run-contraction.py %t.prog --np 2 --spec "C[i,j] = A[i,k] * B[k,j]" --extents i=64,j=64,k=64 --save-report %t.json -- --repeat 3 | FileCheck %s --check-prefix=REPEAT
// REPEAT: OK
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REPORT: "compute_seconds_per_run": [{{[0-9.e-]+}}, {{[0-9.e-]+}}, {{[0-9.e-]+}}]
// REPORT: "best_compute_seconds": {{[0-9.]+}}
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @mm(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}
