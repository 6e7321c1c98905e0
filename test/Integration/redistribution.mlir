// Given and required distributions ([G] 2.3 stages 1 and 3): A arrives split
// along k, the plan (replication of B, outside) needs it split along i; the
// result is required split along j. Out of core on np = 2 and 4: results against
// numpy, and the measured bytes, redistributions included, equal the plan's.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: sed 's/<\[4\]>/<[2]>/g' %s > %t.np2.mlir
// RUN: tcc %t.np2.mlir -o - --procs 2 --mem 24KB --emit mlir | FileCheck %s --check-prefix=IR
// IR: %[[GIVEN:.*]] = tc.array "A" {{.*}}#tc.layout<distributed [64, 64] on [2] dims [-1, 0]
// IR: tc.redistribute_array %[[GIVEN]] into
// IR: tc.redistribute_array {{.*}} into %[[REQ:[^ ]*]]
// IR: tc.store %[[REQ]]
// RUN: tcc %t.np2.mlir -o %t.np2 --procs 2 --mem 24KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np2 --np 2 --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=64,j=64,k=64 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np4 --procs 4 --mem 24KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np4 --np 4 --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=64,j=64,k=64 --scratch %t.d --check-bytes | FileCheck %s
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 4, mem = "24KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @given(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>, %C: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %a = tc.redistribute %A [i, k] on <[4]> from <[i]> to <[k]> : tensor<64x64xf64>
    %r = tc.contract %C[i, j] += %a[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = replication_b>}
           : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    %out = tc.redistribute %r [i, j] on <[4]> from <[j]> to <[i]> : tensor<64x64xf64>
    return %out : tensor<64x64xf64>
  }
}
