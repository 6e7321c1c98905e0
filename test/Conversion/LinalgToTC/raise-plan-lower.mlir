// IR a linalg-producing compiler emits goes through tc: raising, tc-plan and
// tc-lower-plan give the distributed program of the contraction.
// RUN: tc-opt %s --tc-raise-linalg --tc-plan="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s" | FileCheck %s --check-prefix=PLAN
// PLAN: tc.contract [d0, d1] = %arg0[d0, d2] * %arg1[d2, d1] {tc.plan = #tc.plan<
// RUN: tc-opt %s --tc-raise-linalg --tc-plan="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s" --tc-lower-plan | FileCheck %s
// CHECK-LABEL: func.func @mm()
// CHECK-DAG: tc.array "A" {{.*}}#tc.layout<{{[a-z]+}} [64, 48]
// CHECK-DAG: tc.array "B" {{.*}}#tc.layout<{{[a-z]+}} [48, 32]
// CHECK-DAG: tc.array "C" {{.*}}#tc.layout<{{[a-z]+}} [64, 32]
// CHECK: tc.tile_contract
// CHECK: tc.store
// CHECK-LABEL: func.func @tc_main()
// CHECK: call @mm()
module {
  func.func @mm(%a: tensor<64x48xf64> {tc.name = "A"}, %b: tensor<48x32xf64> {tc.name = "B"})
      -> (tensor<64x32xf64> {tc.name = "C"}) {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<64x32xf64>
    %c = linalg.fill ins(%zero : f64) outs(%e : tensor<64x32xf64>) -> tensor<64x32xf64>
    %r = linalg.matmul ins(%a, %b : tensor<64x48xf64>, tensor<48x32xf64>) outs(%c : tensor<64x32xf64>) -> tensor<64x32xf64>
    return %r : tensor<64x32xf64>
  }
}
