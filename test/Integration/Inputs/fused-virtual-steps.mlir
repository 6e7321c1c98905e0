// T1 = A B computed split along i (<i,k>) and read whole along i by R
// (<l,k>, partial sums over k to all), fused on i: lcm(2, 1) = 2 virtual
// blocks; R, not fused, takes row x and row 20 + x of its block in iteration
// x (a stepped sub-tile, [C] 3.2(iii)).
module attributes {tc.machine = #tc.machine<procs = 4, mem = "1MB", net_bw = "300MB/s", disk_bw = "10MB/s", volumes = runtime>} {
  func.func @tree(%A: tensor<40x30xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[i, j]>, final = <[i, *]>, fused = ["i"], memory = 0.0 : f64, comm = 0.0 : f64>},
                  %B: tensor<30x20xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, k]>, final = <[*, k]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %D: tensor<20x4xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, k]>, final = <[l, k]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> (tensor<40x4xf64> {tc.name = "R"})
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 1.0e6 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.contract [i, k] = %A[i, j] * %B[j, k] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, k]>, initial = <[i, k]>, final = <[*, k]>, fused = ["i"], memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<40x30xf64>, tensor<30x20xf64> -> tensor<40x20xf64>
    %R = tc.contract [i, l] = %T1[i, k] * %D[k, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[l, k]>, initial = <[l, *]>, final = <[l, *]>, partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<40x20xf64>, tensor<20x4xf64> -> tensor<40x4xf64>
    return %R : tensor<40x4xf64>
  }
}
