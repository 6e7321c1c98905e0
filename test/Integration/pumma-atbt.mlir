// PUMMA's C = A^T B^T (Choi, Dongarra, Walker section 3.2): inputs given
// block-cyclic on a 2 x 2 grid in the transposed layouts and C required as
// <[i, j]>. No variant computes in all three layouts at once (the paper's
// (B A)^T moves C); the planner redistributes whichever array costs least
// (here A) and runs the variant the moved layouts give. Results against
// numpy; bytes per rank, the redistribution's included, exact.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.x --procs 4 --mem 64MB
// RUN: %python %tc_src/scripts/run-contraction.py %t.x --np 4 --spec "C[i,j] = A[k,i] * B[j,k]" --extents i=22,j=17,k=27 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s --emit mlir -o - --procs 4 --mem 64MB | FileCheck %s --check-prefix=IR
// CHECK: OK
// IR: tc.redistribute_array
// IR: tc.{{gather|reduce}}_cyclic
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @atbt(%A: tensor<27x22xf64>, %B: tensor<17x27xf64>) -> tensor<22x17xf64> {
    %a = tc.redistribute %A [x, y] on <[2, 2]> from <[*, *]> to <[x, y] cyclic [4, 3]> : tensor<27x22xf64>
    %b = tc.redistribute %B [x, y] on <[2, 2]> from <[*, *]> to <[x, y] cyclic [2, 4]> : tensor<17x27xf64>
    %r = tc.contract [i, j] = %a[k, i] * %b[j, k]
           {tc.plan = #tc.plan<algorithm = pumma>}
           : tensor<27x22xf64>, tensor<17x27xf64> -> tensor<22x17xf64>
    %c = tc.redistribute %r [i, j] on <[2, 2]> from <[i, j] cyclic [3, 2]> to <[*, *]> : tensor<22x17xf64>
    return %c : tensor<22x17xf64>
  }
}
