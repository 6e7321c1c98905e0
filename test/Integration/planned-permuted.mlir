// C[a,b,c,d] = A[a,m,b,n] * B[n,c,m,d], small: the planner chooses method, algorithm, order and tiles under
// mem = 12KB (out of core) on np = 1, 2 and 4. Results against numpy einsum
// within 1e-12 relative; measured disk and network bytes equal the plan's.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.np1 --procs 1 --mem 12KB --plan-table - | FileCheck %s --check-prefix=PLAN
// RUN: %python %tc_src/scripts/run-contraction.py %t.np1 --np 1 --spec "C[a,b,c,d] = A[a,m,b,n] * B[n,c,m,d]" --extents a=8,b=7,c=6,d=5,m=6,n=4 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np2 --procs 2 --mem 12KB --plan-table - | FileCheck %s --check-prefix=PLAN
// RUN: %python %tc_src/scripts/run-contraction.py %t.np2 --np 2 --spec "C[a,b,c,d] = A[a,m,b,n] * B[n,c,m,d]" --extents a=8,b=7,c=6,d=5,m=6,n=4 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np4 --procs 4 --mem 12KB --plan-table - | FileCheck %s --check-prefix=PLAN
// RUN: %python %tc_src/scripts/run-contraction.py %t.np4 --np 4 --spec "C[a,b,c,d] = A[a,m,b,n] * B[n,c,m,d]" --extents a=8,b=7,c=6,d=5,m=6,n=4 --scratch %t.d --check-bytes | FileCheck %s
// PLAN: *
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 4, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @permuted(%A: tensor<8x6x7x4xf64>, %B: tensor<4x6x6x5xf64>) -> tensor<8x7x6x5xf64> {
    %r = tc.contract [a, b, c, d] = %A[a, m, b, n] * %B[n, c, m, d]
           : tensor<8x6x7x4xf64>, tensor<4x6x6x5xf64> -> tensor<8x7x6x5xf64>
    return %r : tensor<8x7x6x5xf64>
  }
}
