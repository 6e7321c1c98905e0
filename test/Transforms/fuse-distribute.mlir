// tc-fuse-distribute: Cociorva et al.'s example under both machines of section 4
// (analytic Mcost), a tree with a summation node, and tc-plan leaving the
// formulas of a fused tree to it.
// RUN: tc-opt %s --tc-set-machine="procs=32 mem=512MB net-bw=300MB/s disk-bw=10MB/s" --tc-fuse-distribute="io-latency=0 call-overhead=0" --tc-plan-report="table=%t.32.txt" | FileCheck %s --check-prefix=P32
// RUN: FileCheck %s --check-prefix=TABLE32 < %t.32.txt
// RUN: tc-opt %s --tc-set-machine="procs=16 mem=2GB net-bw=300MB/s disk-bw=10MB/s" --tc-fuse-distribute="io-latency=0 call-overhead=0" | FileCheck %s --check-prefix=P16
// RUN: tc-opt %s --tc-plan="procs=16 mem=2GB net-bw=300MB/s disk-bw=10MB/s" | FileCheck %s --check-prefix=PIPE

// P32-LABEL: func.func @cociorva
// P32-SAME: tc.fusion_plan = #tc.fusion_plan<grid = <[16, 2]>
// P32-SAME: limit = 5.120000e+08
// P32: tc.contract [b, c, d, f] {{.*}}tc.fusion = #tc.fusion<grid = <[16, 2]>, compute = <[b, c]>, initial = <[b, c]>, final = <[b, c]>, fused = ["b", "c", "d", "f"]
// P32: tc.contract [b, c, j, k] {{.*}}compute = <[b, c]>, initial = <[b, c]>, final = <[b, j]>
// P32: tc.contract [a, b, i, j] {{.*}}compute = <[b, j]>, initial = <[b, j]>, final = <[b, j]>, fused = ["a"]

// TABLE32: operator tree @cociorva  (P = 32 as 16x2, memory limit 512.0 MB per process)
// TABLE32: full array reduced array initial final memory/proc comm (s)
// TABLE32-NEXT: B(b,e,f,l) B(b,e,f,l) <b,e> <b,*> 98.0 MB
// TABLE32-NEXT: D(c,d,e,l) D(c,e,l) <e,c> <*,c> 11.2 MB
// TABLE32-NEXT: C(d,f,j,k) C(f,j,k) <f,j> <*,*> 896.0 KB
// TABLE32-NEXT: A(a,c,i,k) A(c,i) <c,k> <*,*> 640.0 KB
// TABLE32-NEXT: T1(b,c,d,f) T1() <b,c> <b,c> 8 B 0
// TABLE32-NEXT: T2(b,c,j,k) T2(b,c,j,k) <b,c> <b,j> 400.0 MB
// TABLE32-NEXT: R(a,b,i,j) R(b,i,j) <b,j> <b,j> 400.0 KB 0
// TABLE32-NEXT: total: 511.1 MB per process

// With the paper's 16 processes and 2 GB, the grid [C] found: 4x4.
// P16-LABEL: func.func @cociorva
// P16-SAME: tc.fusion_plan = #tc.fusion_plan<grid = <[4, 4]>
// P16-SAME: limit = 2.000000e+09

// PIPE-LABEL: func.func @cociorva
// PIPE-NOT: tc.plan
// PIPE: return
func.func @cociorva(%A: tensor<1000x1000x40x40xf64>, %B: tensor<1000x70x70x40xf64>,
                    %C: tensor<1000x70x40x40xf64>, %D: tensor<1000x1000x70x40xf64>)
    -> tensor<1000x1000x40x40xf64> {
  %T1 = tc.contract [b, c, d, f] = %B[b, e, f, l] * %D[c, d, e, l]
          : tensor<1000x70x70x40xf64>, tensor<1000x1000x70x40xf64> -> tensor<1000x1000x1000x70xf64>
  %T2 = tc.contract [b, c, j, k] = %T1[b, c, d, f] * %C[d, f, j, k]
          : tensor<1000x1000x1000x70xf64>, tensor<1000x70x40x40xf64> -> tensor<1000x1000x40x40xf64>
  %S = tc.contract [a, b, i, j] = %T2[b, c, j, k] * %A[a, c, i, k]
          : tensor<1000x1000x40x40xf64>, tensor<1000x1000x40x40xf64> -> tensor<1000x1000x40x40xf64>
  return %S : tensor<1000x1000x40x40xf64>
}

// [C] 2's small example: S(t) = sum_j (sum_i A(i,j,t)) * (sum_k B(j,k,t)).
// P32-LABEL: func.func @sums
// P32: tc.sum [j, t] {{.*}}tc.fusion = #tc.fusion
// P32: tc.sum [j, t] {{.*}}tc.fusion = #tc.fusion
// P32: tc.contract [j, t] {{.*}}tc.fusion = #tc.fusion
// P32: tc.sum [t] {{.*}}tc.fusion = #tc.fusion
func.func @sums(%A: tensor<64x32x128xf64>, %B: tensor<32x48x128xf64>) -> tensor<128xf64> {
  %T1 = tc.sum [j, t] = %A[i, j, t] : tensor<64x32x128xf64> -> tensor<32x128xf64>
  %T2 = tc.sum [j, t] = %B[j, k, t] : tensor<32x48x128xf64> -> tensor<32x128xf64>
  %T3 = tc.contract [j, t] = %T1[j, t] * %T2[j, t] : tensor<32x128xf64>, tensor<32x128xf64> -> tensor<32x128xf64>
  %S = tc.sum [t] = %T3[j, t] : tensor<32x128xf64> -> tensor<128xf64>
  return %S : tensor<128xf64>
}

// One contraction is Gao et al.'s: no tc.fusion.
// P32-LABEL: func.func @single
// P32-NOT: tc.fusion
// P32: return
func.func @single(%A: tensor<256x256xf64>, %B: tensor<256x256xf64>) -> tensor<256x256xf64> {
  %C = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<256x256xf64>, tensor<256x256xf64> -> tensor<256x256xf64>
  return %C : tensor<256x256xf64>
}
