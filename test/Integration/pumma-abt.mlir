// PUMMA's C = A B^T (Choi, Dongarra, Walker section 3.2): both inputs hold K
// along grid dimension 1 of a 3 x 2 grid, so one is rolled along dimension 0
// and C's partial panels are reduced along dimension 1; given layouts used in
// place. Results against numpy, bytes per rank exact.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.x --procs 6 --mem 64MB
// RUN: %python %tc_src/scripts/run-contraction.py %t.x --np 6 --spec "C[i,j] += A[i,k] * B[j,k]" --extents i=25,j=34,k=19 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s --emit mlir -o - --procs 6 --mem 64MB | FileCheck %s --check-prefix=IR
// CHECK: OK
// IR-NOT: tc.redistribute_array
// IR: tc.reduce_cyclic
module attributes {tc.machine = #tc.machine<procs = 6, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @abt(%A: tensor<25x19xf64>, %B: tensor<34x19xf64>, %C: tensor<25x34xf64>) -> tensor<25x34xf64> {
    %a = tc.redistribute %A [x, y] on <[3, 2]> from <[*, *]> to <[x, y] cyclic [2, 3]> : tensor<25x19xf64>
    %b = tc.redistribute %B [x, y] on <[3, 2]> from <[*, *]> to <[x, y] cyclic [5, 3]> : tensor<34x19xf64>
    %r = tc.contract %C[i, j] += %a[i, k] * %b[j, k]
           {tc.plan = #tc.plan<algorithm = pumma>}
           : tensor<25x19xf64>, tensor<34x19xf64> -> tensor<25x34xf64>
    return %r : tensor<25x34xf64>
  }
}
