// fused-first-slice.mlir in uneven blocks (j = 7, l = 5 over 2): A arrives on
// the first slice of grid dimension 1 (<t,1>) and is spread to <t,j>, blocks of
// 4 and 3 along j, so the slice's replicas send different amounts; T2's
// partial sums over j are consolidated on the first slice (<t,1>, to_one), then
// read replicated by S.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s", volumes = runtime>} {
  func.func @tree(%A: tensor<16x7x12xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[t, 1]>, final = <[t, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %B: tensor<7x5xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, l]>, final = <[*, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %C: tensor<5x3xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, m]>, final = <[*, m]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> (tensor<12x3xf64> {tc.name = "S"})
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.sum [j, t] = %A[i, j, t] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, j]>, final = <[t, j]>, fused = ["t"], memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<16x7x12xf64> -> tensor<7x12xf64>
    %T2 = tc.contract [t, l] = %T1[j, t] * %B[j, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, 1]>, final = <[t, *]>, partial_sums = to_one, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<7x12xf64>, tensor<7x5xf64> -> tensor<12x5xf64>
    %S = tc.contract [t, m] = %T2[t, l] * %C[l, m] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, m]>, initial = <[t, m]>, final = <[t, m]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<12x5xf64>, tensor<5x3xf64> -> tensor<12x3xf64>
    return %S : tensor<12x3xf64>
  }
}

