// Square matrix multiplication of Gao et al. section 6 (eq. 6.1), C(I,J) += A(I,K) * B(J,K),
// all extents 4000, on the paper's scaled-down machine: 4 processes, 64 MB each,
// 200 MB/s network, 8 MB/s disk (Table 8). Edit the 4000s to run a small version.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @matmul(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>,
                    %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k]
           : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
}
