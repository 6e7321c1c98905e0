// A tree with a summation node ([C] 2): T1(j,t) = sum_i A(i,j,t), then
// S(t,l) = sum_j T1(j,t) * B(j,l), on 4 processes with 256 KB each. Numbers equal
// numpy and bytes the prediction. [C] 2's small example, whose T3 multiplies
// element-wise over j and t (indices of both operands and the result), runs
// too: the local contraction makes one product per value of them. f32 runs
// the first tree in single precision.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.d/prog --procs 4 --mem 256KB --net-bw 1GB/s --disk-bw 200MB/s
// RUN: %python %tc_src/scripts/run-contraction.py %t.d/prog --np 4 --spec "S[t,l] = A[i,j,t] * B[j,l]" --extents i=64,j=32,t=48,l=40 --check-bytes | FileCheck %s
// CHECK: relative error {{.*}} against numpy einsum
// CHECK: rank 2: disk 0 (predicted 0), sent [[S:[0-9]+]] (predicted [[S]]), received [[R:[0-9]+]] (predicted [[R]])
// CHECK: OK
// RUN: for np in 1 2 4; do \
// RUN:   tcc %S/Inputs/fused-hadamard.mlir -o %t.d/h --procs $np --mem 256KB --net-bw 1GB/s --disk-bw 200MB/s && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/h --np $np --spec "S[t] = A[i,j,t] * B[j,k,t]" --extents i=64,j=32,t=128,k=48 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=HADAMARD
// HADAMARD-COUNT-3: OK
// The same tree in f32 (planned and run in 4-byte elements) at np 1, 2, 4.
// RUN: sed 's/f64/f32/g' %s > %t.d/f32.mlir
// RUN: for np in 1 2 4; do \
// RUN:   tcc %t.d/f32.mlir -o %t.d/s --procs $np --mem 256KB --net-bw 1GB/s --disk-bw 200MB/s && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/s --np $np --dtype f32 --spec "S[t,l] = A[i,j,t] * B[j,l]" --extents i=64,j=32,t=48,l=40 --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SINGLE
// SINGLE-COUNT-3: OK
func.func @sum2(%A: tensor<64x32x48xf64>, %B: tensor<32x40xf64>) -> (tensor<48x40xf64> {tc.name = "S"}) {
  %T1 = tc.sum [j, t] = %A[i, j, t] : tensor<64x32x48xf64> -> tensor<32x48xf64>
  %S = tc.contract [t, l] = %T1[j, t] * %B[j, l] : tensor<32x48xf64>, tensor<32x40xf64> -> tensor<48x40xf64>
  return %S : tensor<48x40xf64>
}
