// tc_rt_check_abi: a program compiled for another runtime ABI stops before it
// does anything, with a message from rank 0 naming both versions and a non-zero
// exit from every rank; one compiled for this runtime's version runs.
// tc-lower-to-runtime makes tc_main call it with the version tc was built with;
// to play a program built by another tc, this tc_main calls it again by hand
// with VERSION.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: sed 's/VERSION/0/' %s > %t.d/old.mlir
// RUN: tcc %t.d/old.mlir -o %t.d/old --procs 2 --mem 1MB --net-bw 1GB/s --disk-bw 200MB/s
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/old --random-inputs 1 --output %t.d/out.h5 | FileCheck %s --check-prefix=OLD -DVERSION=%tc_rt_api_version
// OLD-NOT: rank 1: error
// OLD: old: error: this program was compiled for tc runtime ABI 0, the runtime is [[VERSION]]: recompile with this tc
// OLD-NOT: compiled for
// OLD: exit status {{[1-9]}}
// RUN: not test -e %t.d/out.h5

// RUN: sed 's/VERSION/%tc_rt_api_version/' %s > %t.d/current.mlir
// RUN: tcc %t.d/current.mlir -o %t.d/current --procs 2 --mem 1MB --net-bw 1GB/s --disk-bw 200MB/s
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun -np 2 %t.d/current --random-inputs 1 --report %t.d/report.json
// RUN: grep -q '"procs": 2' %t.d/report.json
func.func private @tc_rt_check_abi(i64)
func.func @tc_main() {
  %v = arith.constant VERSION : i64
  func.call @tc_rt_check_abi(%v) : (i64) -> ()
  return
}
