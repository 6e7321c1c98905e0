// P(ij) A[i,k] * B[k,j] for plan_options.py: two copies of one product summing
// 3 terms per element, shared with min-summed-volume = 2, not by default (32).
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @antisymmetrized(%A: tensor<4x3xf64>, %B: tensor<3x4xf64>) -> (tensor<4x4xf64> {tc.name = "R"}) {
    %0 = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.name = "R"} : tensor<4x3xf64>, tensor<3x4xf64> -> tensor<4x4xf64>
    %1 = tc.contract %0[i, j] += -1.0 * %A[j, k] * %B[k, i] {tc.name = "R"} : tensor<4x3xf64>, tensor<3x4xf64> -> tensor<4x4xf64>
    return %1 : tensor<4x4xf64>
  }
}
