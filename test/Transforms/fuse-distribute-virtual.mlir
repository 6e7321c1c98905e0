// tc-fuse-distribute's virtual-partitioning option on [C] Fig. 4.
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=13MB net-bw=300MB/s disk-bw=10MB/s" --tc-fuse-distribute="io-latency=0 call-overhead=0" | FileCheck %s --check-prefix=VIRT
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=13MB net-bw=300MB/s disk-bw=10MB/s" --tc-fuse-distribute="virtual-partitioning=false io-latency=0 call-overhead=0" | FileCheck %s --check-prefix=NOVIRT

// After [C] Fig. 4: C is produced with i undistributed and, on a 2x2 grid, E
// reads it split along i; fusing i between them takes lcm(1, 2) = 2 virtual
// processes. Without virtual partitioning C must be read as it is produced.
// VIRT-LABEL: func.func @fig4
// VIRT: tc.contract [i, k] {{.*}}compute = <[j, k]>, initial = <[*, k]>, final = <[i, k]>, fused = ["i"]
// NOVIRT-LABEL: func.func @fig4
// NOVIRT: tc.contract [i, k] {{.*}}compute = <[j]>, initial = <[*]>, final = <[*]>, fused = ["i"]
func.func @fig4(%A: tensor<4000x3000xf64>, %B: tensor<3000x2000xf64>, %D: tensor<2000x40xf64>) -> tensor<4000x40xf64> {
  %C = tc.contract [i, k] = %A[i, j] * %B[j, k] : tensor<4000x3000xf64>, tensor<3000x2000xf64> -> tensor<4000x2000xf64>
  %E = tc.contract [i, l] = %C[i, k] * %D[k, l] : tensor<4000x2000xf64>, tensor<2000x40xf64> -> tensor<4000x40xf64>
  return %E : tensor<4000x40xf64>
}

