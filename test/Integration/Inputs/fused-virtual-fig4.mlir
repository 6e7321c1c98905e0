// Cociorva et al. Fig. 4 at 40x30x20x4 on a 2x2 grid, as tc-fuse-distribute
// plans it at the paper's sizes: T1 = A B is computed with i whole (<j,k>,
// partial sums over j to all) and read by R split along i, fused on i:
// lcm(1, 2) = 2 virtual blocks, a loop of 20 iterations over slices of 2
// rows of A and T1 ([C] 3.2(iii)).
module attributes {tc.machine = #tc.machine<procs = 4, mem = "13MB", net_bw = "300MB/s", disk_bw = "10MB/s", volumes = runtime>} {
  func.func @fig4(%A: tensor<40x30xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, i]>, final = <[j, *]>, fused = ["i"], memory = 0.0 : f64, comm = 0.0 : f64>}, %B: tensor<30x20xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, k]>, final = <[j, k]>, memory = 0.0 : f64, comm = 0.0 : f64>}, %C: tensor<20x4xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, k]>, final = <[*, k]>, memory = 0.0 : f64, comm = 0.0 : f64>}) -> (tensor<40x4xf64> {tc.name = "R"}) attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 1.3e7 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.contract [i, k] = %A[i, j] * %B[j, k] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[j, k]>, initial = <[*, k]>, final = <[i, k]>, fused = ["i"], partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<40x30xf64>, tensor<30x20xf64> -> tensor<40x20xf64>
    %R = tc.contract [i, l] = %T1[i, k] * %C[k, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, k]>, initial = <[i, *]>, final = <[i, *]>, partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<40x20xf64>, tensor<20x4xf64> -> tensor<40x4xf64>
    return %R : tensor<40x4xf64>
  }
}

