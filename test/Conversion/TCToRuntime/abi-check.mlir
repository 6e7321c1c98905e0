// tc_main calls tc_rt_check_abi first, with the version tc was built with, once
// even when the pass runs again on its own output; a module without tc_main (a
// library of lowered functions) gets no check.
// RUN: tc-opt %s --tc-lower-to-runtime --tc-lower-to-runtime | FileCheck %s
// RUN: tc-opt %s --tc-lower-to-runtime | FileCheck %s --check-prefix=VERSION -DVERSION=%tc_rt_api_version

// CHECK-LABEL: func.func @tc_main()
// CHECK-NEXT: arith.constant
// CHECK-NEXT: call @tc_rt_check_abi(
// CHECK-NOT: call @tc_rt_check_abi(
// CHECK: call @work()
// CHECK-COUNT-1: func.func private @tc_rt_check_abi(i64)
// VERSION: %{{.*}} = arith.constant [[VERSION]] : i64
module {
  func.func @work() {
    return
  }
  func.func @tc_main() {
    func.call @work() : () -> ()
    return
  }
}
