// Input of plan_options.py: an operator tree after [C] Fig. 4 (which the default
// options fuse along i with virtual partitioning on a 2x2 grid) and a
// contraction Gao et al.'s planner plans out of core.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "13MB", net_bw = "300MB/s", disk_bw = "10MB/s">} {
  func.func @fig4(%A: tensor<4000x3000xf64>, %B: tensor<3000x2000xf64>, %D: tensor<2000x40xf64>) -> tensor<4000x40xf64> {
    %C = tc.contract [i, k] = %A[i, j] * %B[j, k] : tensor<4000x3000xf64>, tensor<3000x2000xf64> -> tensor<4000x2000xf64>
    %E = tc.contract [i, l] = %C[i, k] * %D[k, l] : tensor<4000x2000xf64>, tensor<2000x40xf64> -> tensor<4000x40xf64>
    return %E : tensor<4000x40xf64>
  }
  func.func @matmul(%A: tensor<2000x2000xf64>, %B: tensor<2000x2000xf64>, %C: tensor<2000x2000xf64>) -> tensor<2000x2000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] : tensor<2000x2000xf64>, tensor<2000x2000xf64> -> tensor<2000x2000xf64>
    return %r : tensor<2000x2000xf64>
  }
}
