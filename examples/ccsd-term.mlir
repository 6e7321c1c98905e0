// The CCSD sub-expression of Gao et al. section 6 (eq. 6.3):
// T1[i,j] += A[i,a,b,c] * B[a,b,c,j], all extents 800, on the paper's machine
// (4 processes, 1 GB each, 200 MB/s network, 8 MB/s disk).
module attributes {tc.machine = #tc.machine<procs = 4, mem = "1GB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @ccsd_term(%A: tensor<800x800x800x800xf64>, %B: tensor<800x800x800x800xf64>,
                       %T1: tensor<800x800xf64>) -> tensor<800x800xf64> {
    %r = tc.contract %T1[i, j] += %A[i, a, b, c] * %B[a, b, c, j]
           : tensor<800x800x800x800xf64>, tensor<800x800x800x800xf64> -> tensor<800x800xf64>
    return %r : tensor<800x800xf64>
  }
}
