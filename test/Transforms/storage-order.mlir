// The stored dimension order (#tc.plan i_contiguous): tc-solve-tiles stores A and
// C with I's labels last when I dwarfs J and K (lib/Analysis/StorageOrder.h), a
// value written by hand is kept either way, the report shows it, and
// tc-lower-plan stores the arrays as it says (tc.array file_dims).
// RUN: tc-opt %s --tc-plan="report=%t.json table=%t.txt" | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=TABLE < %t.txt
// RUN: tc-opt %s --tc-plan --tc-lower-plan | FileCheck %s --check-prefix=LOWER

module attributes {tc.machine = #tc.machine<procs = 2, mem = "1GB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // I = {a, b, c} (4096) dwarfs J = {d} (4) and K = {p} (8): stored I-contiguous.
  // PLAN-LABEL: func.func @long_i
  // PLAN: tc.plan = #tc.plan<{{.*}}, i_contiguous = true>
  // LOWER-LABEL: func.func @long_i()
  // LOWER: tc.array "A" {{.*}}#tc.layout<{{[a-z]+}} [8, 16, 16, 16] {{.*}}file_dims [3, 0, 1, 2]>>
  // LOWER: tc.array "B" {{.*}}#tc.layout<{{[a-z]+}} [8, 4]
  // LOWER-NOT: file_dims
  // LOWER: tc.array "C" {{.*}}#tc.layout<{{[a-z]+}} [4, 16, 16, 16] {{.*}}file_dims [3, 0, 1, 2]>>
  func.func @long_i(%A: tensor<16x16x16x8xf64>, %B: tensor<8x4xf64>) -> tensor<16x16x16x4xf64> {
    %r = tc.contract [a, b, c, d] = %A[a, b, c, p] * %B[p, d]
           : tensor<16x16x16x8xf64>, tensor<8x4xf64> -> tensor<16x16x16x4xf64>
    return %r : tensor<16x16x16x4xf64>
  }

  // The same contraction with the given order written by hand: kept.
  // PLAN-LABEL: func.func @long_i_as_given
  // PLAN: tc.plan = #tc.plan<{{.*}}, i_contiguous = false>
  // LOWER-LABEL: func.func @long_i_as_given()
  // LOWER: tc.array "A" {{.*}}#tc.layout<{{[a-z]+}} [16, 16, 16, 8]
  // LOWER-NOT: file_dims
  // LOWER: tc.store
  func.func @long_i_as_given(%A: tensor<16x16x16x8xf64>, %B: tensor<8x4xf64>) -> tensor<16x16x16x4xf64> {
    %r = tc.contract [a, b, c, d] = %A[a, b, c, p] * %B[p, d] {tc.plan = #tc.plan<i_contiguous = false>}
           : tensor<16x16x16x8xf64>, tensor<8x4xf64> -> tensor<16x16x16x4xf64>
    return %r : tensor<16x16x16x4xf64>
  }

  // A square product the rule leaves as given, stored I-contiguous by hand.
  // PLAN-LABEL: func.func @square_i_contiguous
  // PLAN: tc.plan = #tc.plan<{{.*}}, i_contiguous = true>
  // LOWER-LABEL: func.func @square_i_contiguous()
  // LOWER: tc.array "A" {{.*}}#tc.layout<{{[a-z]+}} [16, 16] {{.*}}file_dims [1, 0]>>
  // LOWER: tc.array "B" {{.*}}#tc.layout<{{[a-z]+}} [16, 16]
  // LOWER-NOT: file_dims
  // LOWER: tc.array "C" {{.*}}#tc.layout<{{[a-z]+}} [16, 16] {{.*}}file_dims [1, 0]>>
  func.func @square_i_contiguous(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<i_contiguous = true>}
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }

  // The same product planned: no field, stored as given.
  // PLAN-LABEL: func.func @square(
  // PLAN-NOT: i_contiguous
  // PLAN: return
  // LOWER-LABEL: func.func @square()
  // LOWER-NOT: file_dims
  // LOWER: tc.store
  func.func @square(%A: tensor<16x16xf64>, %B: tensor<16x16xf64>) -> tensor<16x16xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    return %r : tensor<16x16xf64>
  }
}

// JSON: "op": "{{.*}}storage-order.mlir:20:
// JSON: "i_contiguous": true
// JSON: "op": "{{.*}}storage-order.mlir:33:
// JSON: "i_contiguous": false
// JSON: "op": "{{.*}}storage-order.mlir:47:
// JSON: "i_contiguous": true
// JSON: "op": "{{.*}}storage-order.mlir:60:
// JSON: "i_contiguous": false

// TABLE: contraction {{.*}}storage-order.mlir:20:{{.*}} B)  i_contiguous = true
// TABLE: contraction {{.*}}storage-order.mlir:33:{{.*}} B)  i_contiguous = false
// TABLE: contraction {{.*}}storage-order.mlir:47:{{.*}} B)  i_contiguous = true
// TABLE: contraction {{.*}}storage-order.mlir:60:{{.*}} B)  i_contiguous = false
