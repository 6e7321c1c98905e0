// 4096^3 matrix product on 2 processes, in core (2 GB each): the shape of the
// ScaLAPACK pdgemm comparison (bench/matmul-vs-pdgemm.sh).
module attributes {tc.machine = #tc.machine<procs = 2, mem = "2GB", net_bw = "2GB/s", disk_bw = "1GB/s">} {
  func.func @matmul(%A: tensor<4096x4096xf64>, %B: tensor<4096x4096xf64>, %C: tensor<4096x4096xf64>) -> tensor<4096x4096xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j]
           : tensor<4096x4096xf64>, tensor<4096x4096xf64> -> tensor<4096x4096xf64>
    return %r : tensor<4096x4096xf64>
  }
}
