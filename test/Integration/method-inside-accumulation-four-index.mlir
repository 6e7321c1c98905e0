// inside accumulation (forced by a hand-written plan) on the four-index contraction, out of
// core (mem = 16KB); np = 1-4 (on 3, C's slabs of 3, 3 and 2 rows, D53). Results against
// numpy einsum within 1e-12 relative; measured disk and network bytes equal the plan's.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.np1 --procs 1 --mem 16KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np1 --np 1 --spec "C[a,b,c,d] += A[a,b,c,p] * B[p,d]" --extents a=8,b=8,c=8,d=8,p=8 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np2 --procs 2 --mem 16KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np2 --np 2 --spec "C[a,b,c,d] += A[a,b,c,p] * B[p,d]" --extents a=8,b=8,c=8,d=8,p=8 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np3 --procs 3 --mem 16KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np3 --np 3 --spec "C[a,b,c,d] += A[a,b,c,p] * B[p,d]" --extents a=8,b=8,c=8,d=8,p=8 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np4 --procs 4 --mem 16KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np4 --np 4 --spec "C[a,b,c,d] += A[a,b,c,p] * B[p,d]" --extents a=8,b=8,c=8,d=8,p=8 --scratch %t.d --check-bytes | FileCheck %s
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 4, mem = "16KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @four_index(%A: tensor<8x8x8x8xf64>, %B: tensor<8x8xf64>, %C: tensor<8x8x8x8xf64>) -> tensor<8x8x8x8xf64> {
    %r = tc.contract %C[a, b, c, d] += %A[a, b, c, p] * %B[p, d]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = accumulation, memory = per_array>}
           : tensor<8x8x8x8xf64>, tensor<8x8xf64> -> tensor<8x8x8x8xf64>
    return %r : tensor<8x8x8x8xf64>
  }
}
