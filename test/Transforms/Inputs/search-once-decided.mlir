// Input of search-once.mlir: a contraction whose method is written by hand.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @matmul(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] {tc.plan = #tc.plan<method = "outside">} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
}
