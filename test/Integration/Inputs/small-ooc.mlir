// A small out-of-core product (scratch files on 2 ranks at 4 KB each).
module attributes {tc.machine = #tc.machine<procs = 2, mem = "4KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @small(%A: tensor<24x24xf64>, %B: tensor<24x24xf64>) -> tensor<24x24xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j]
           {tc.plan = #tc.plan<in_core = false>}
           : tensor<24x24xf64>, tensor<24x24xf64> -> tensor<24x24xf64>
    return %r : tensor<24x24xf64>
  }
}
