// PUMMA's C = A^T B (Choi, Dongarra, Walker section 3.2): the inputs arrive
// block-cyclic on a 2 x 3 grid with K along the same grid dimension in both
// (ScaLAPACK's layout of A^T B), so the plan rolls one input along the other
// dimension and reduces C's partial panels into their owners; the given
// layouts are used in place. Results against numpy, bytes per rank exact.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.x --procs 6 --mem 64MB
// RUN: %python %tc_src/scripts/run-contraction.py %t.x --np 6 --spec "C[i,j] += A[k,i] * B[k,j]" --extents i=29,j=23,k=31 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s --emit mlir -o - --procs 6 --mem 64MB | FileCheck %s --check-prefix=IR
// CHECK: OK
// IR-NOT: tc.redistribute_array
// IR: tc.reduce_cyclic
module attributes {tc.machine = #tc.machine<procs = 6, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @atb(%A: tensor<31x29xf64>, %B: tensor<31x23xf64>, %C: tensor<29x23xf64>) -> tensor<29x23xf64> {
    %a = tc.redistribute %A [x, y] on <[2, 3]> from <[*, *]> to <[x, y] cyclic [3, 4]> : tensor<31x29xf64>
    %b = tc.redistribute %B [x, y] on <[2, 3]> from <[*, *]> to <[x, y] cyclic [3, 2]> : tensor<31x23xf64>
    %r = tc.contract %C[i, j] += %a[k, i] * %b[k, j]
           {tc.plan = #tc.plan<algorithm = pumma>}
           : tensor<31x29xf64>, tensor<31x23xf64> -> tensor<29x23xf64>
    return %r : tensor<29x23xf64>
  }
}
