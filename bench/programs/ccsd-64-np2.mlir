// The CCSD-like term of issue 4's CTF comparison: T[i,j] += A[i,a,b,c] * B[a,b,c,j],
// all extents 64, on 2 processes with memory to spare (in core).
module attributes {tc.machine = #tc.machine<procs = 2, mem = "2GB", net_bw = "2GB/s", disk_bw = "1GB/s">} {
  func.func @ccsd_term(%A: tensor<64x64x64x64xf64>, %B: tensor<64x64x64x64xf64>,
                       %C: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %r = tc.contract %C[i, j] += %A[i, a, b, c] * %B[a, b, c, j]
           : tensor<64x64x64x64xf64>, tensor<64x64x64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}
