// A product of three matrices for plan_options.py: (AB)C costs 280 flops with a
// 20-element intermediate, A(BC) 288 with 12; tolerance 0.05 picks the second.
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @chain(%A: tensor<2x3xf64>, %B: tensor<3x10xf64>, %C: tensor<10x4xf64>) -> tensor<2x4xf64> {
    %r = tc.multi_contract [i, l] = %A[i, j] * %B[j, k] * %C[k, l]
           : tensor<2x3xf64>, tensor<3x10xf64>, tensor<10x4xf64> -> tensor<2x4xf64>
    return %r : tensor<2x4xf64>
  }
}
