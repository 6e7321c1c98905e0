// The four-tensor expression of Cociorva et al. 2002 (Fig. 2, section 4):
//   S[a,b,i,j] = sum_{c,d,e,f,k,l} A[a,c,i,k] * B[b,e,f,l] * C[d,f,j,k] * D[c,d,e,l]
// factored into the paper's formula sequence T1, T2, S. Extents of section 4:
// Na = Nb = Nc = Nd = 1000, Ne = Nf = 70, Ni = Nj = Nk = Nl = 40; machine (i) of
// section 4: 32 processes of a Cray T3E with 512 MB each. The paper gives no bandwidths
// (its communication costs come from measured tables) and does not model disk: net_bw
// and disk_bw below are placeholders until a calibrated machine file replaces them.
module attributes {tc.machine = #tc.machine<procs = 32, mem = "512MB", net_bw = "300MB/s", disk_bw = "10MB/s">} {
  func.func @cociorva(%A: tensor<1000x1000x40x40xf64>, %B: tensor<1000x70x70x40xf64>,
                      %C: tensor<1000x70x40x40xf64>, %D: tensor<1000x1000x70x40xf64>)
      -> (tensor<1000x1000x40x40xf64> {tc.name = "S"}) {
    // T1(b,c,d,f) = sum_{e,l} B(b,e,f,l) * D(c,d,e,l)
    %T1 = tc.contract [b, c, d, f] = %B[b, e, f, l] * %D[c, d, e, l]
            : tensor<1000x70x70x40xf64>, tensor<1000x1000x70x40xf64> -> tensor<1000x1000x1000x70xf64>
    // T2(b,c,j,k) = sum_{d,f} T1(b,c,d,f) * C(d,f,j,k)
    %T2 = tc.contract [b, c, j, k] = %T1[b, c, d, f] * %C[d, f, j, k]
            : tensor<1000x1000x1000x70xf64>, tensor<1000x70x40x40xf64> -> tensor<1000x1000x40x40xf64>
    // S(a,b,i,j) = sum_{c,k} T2(b,c,j,k) * A(a,c,i,k)
    %S = tc.contract [a, b, i, j] = %T2[b, c, j, k] * %A[a, c, i, k]
            : tensor<1000x1000x40x40xf64>, tensor<1000x1000x40x40xf64> -> tensor<1000x1000x40x40xf64>
    return %S : tensor<1000x1000x40x40xf64>
  }
}
