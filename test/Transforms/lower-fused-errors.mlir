// RUN: tc-opt %s --tc-lower-fused --verify-diagnostics --split-input-file

// A plan the lowering cannot run is refused with the reason, naming the array.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s">} {
  // expected-error @+1 {{array B of @missing has no #tc.fusion; run tc-fuse-distribute first}}
  func.func @missing(%A: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[i, j]>, final = <[i, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                     %B: tensor<8x8xf64>, %C: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, k]>, final = <[j, k]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> tensor<8x8xf64>
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T = tc.contract [i, k] = %A[i, j] * %B[j, k] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, k]>, initial = <[i, k]>, final = <[i, k]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    %R = tc.contract [i, l] = %T[i, k] * %C[k, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, l]>, initial = <[i, l]>, final = <[i, l]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}
