// The 4-index transform step of issue 4's CTF comparison:
// T[a,b,c,d] += A[a,b,c,p] * B[p,d], all extents 64, on 2 processes, in core.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "2GB", net_bw = "2GB/s", disk_bw = "1GB/s">} {
  func.func @four_index(%A: tensor<64x64x64x64xf64>, %B: tensor<64x64xf64>,
                        %C: tensor<64x64x64x64xf64>) -> tensor<64x64x64x64xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, b, c, p] * %B[p, d]
           : tensor<64x64x64x64xf64>, tensor<64x64xf64> -> tensor<64x64x64x64xf64>
    return %r : tensor<64x64x64x64xf64>
  }
}
