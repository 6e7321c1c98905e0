// 4096^3 matrix product on 2 processes with 24 MB each: 1/8 of each process's
// 192 MB share of the data (A, B, C: 128 MB each), so out of core.
// Used by bench/out-of-core.sh; the bandwidths are replaced by measured ones.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "24MB", net_bw = "2GB/s", disk_bw = "1GB/s">} {
  func.func @matmul(%A: tensor<4096x4096xf64>, %B: tensor<4096x4096xf64>, %C: tensor<4096x4096xf64>) -> tensor<4096x4096xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           : tensor<4096x4096xf64>, tensor<4096x4096xf64> -> tensor<4096x4096xf64>
    return %r : tensor<4096x4096xf64>
  }
}
