// C[] = A[j] * B[i] = sum(A) sum(B) (scalar-result.mlir).
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @sums(%A: tensor<24xf64>, %B: tensor<40xf64>) -> tensor<f64> {
    %r = tc.contract [] = %A[j] * %B[i] : tensor<24xf64>, tensor<40xf64> -> tensor<f64>
    return %r : tensor<f64>
  }
}
