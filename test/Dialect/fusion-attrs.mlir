// Round trip of #tc.fusion and #tc.fusion_plan (tc-fuse-distribute's record).
// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @fused
// CHECK-SAME: {tc.fusion = #tc.fusion<grid = <[4, 8]>, initial = <[c, e]>, final = <[*, *]>, fused = ["d"], memory = 2.240000e+07 : f64, comm = 5.528000e+02 : f64>}
// CHECK-SAME: tc.fusion_plan = #tc.fusion_plan<grid = <[4, 8]>, memory = 5.030000e+08 : f64, limit = 5.120000e+08 : f64, comm = 2.188000e+03 : f64, calc = 1.000000e+00 : f64>
// CHECK: tc.sum [c, d] = %arg0[c, d, e] {tc.fusion = #tc.fusion<grid = <[4, 8]>, compute = <[c, e]>, initial = <[c, 1]>, final = <[c, 1]>, partial_sums = to_one, memory = 8.000000e+00 : f64, comm = 1.000000e+00 : f64, calc = 2.000000e+00 : f64>}
func.func @fused(%D: tensor<8x8x8xf64> {tc.fusion = #tc.fusion<grid = <[4, 8]>, initial = <[c, e]>, final = <[*, *]>, fused = ["d"], memory = 2.24e7 : f64, comm = 552.8 : f64>})
    -> tensor<8x8xf64> attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[4, 8]>, memory = 5.03e8 : f64, limit = 5.12e8 : f64, comm = 2188.0 : f64, calc = 1.0 : f64>} {
  %s = tc.sum [c, d] = %D[c, d, e] {tc.fusion = #tc.fusion<grid = <[4, 8]>, compute = <[c, e]>, initial = <[c, 1]>, final = <[c, 1]>, partial_sums = to_one, memory = 8.0 : f64, comm = 1.0 : f64, calc = 2.0 : f64>} : tensor<8x8x8xf64> -> tensor<8x8xf64>
  return %s : tensor<8x8xf64>
}

// No partial sums to combine is the default: written or not, it is not printed.
// CHECK-LABEL: func.func @no_partial_sums
// CHECK-SAME: #tc.fusion<grid = <[2]>, compute = <[c]>, initial = <[c]>, final = <[c]>, memory
func.func @no_partial_sums() attributes {f = #tc.fusion<grid = <[2]>, compute = <[c]>, initial = <[c]>, final = <[c]>, partial_sums = none, memory = 8.0 : f64, comm = 1.0 : f64>} {
  return
}
