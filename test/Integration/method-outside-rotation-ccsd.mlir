// outside rotation (forced by a hand-written plan) on the ccsd contraction, out of
// core (mem = 3KB); np = 1, 4. Results against numpy einsum within 1e-12
// relative; measured disk and network bytes equal the plan's.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.np1 --procs 1 --mem 3KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np1 --np 1 --spec "C[i,j] += A[i,a,b,c] * B[a,b,c,j]" --extents i=8,j=8,a=4,b=4,c=4 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np4 --procs 4 --mem 3KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np4 --np 4 --spec "C[i,j] += A[i,a,b,c] * B[a,b,c,j]" --extents i=8,j=8,a=4,b=4,c=4 --scratch %t.d --check-bytes | FileCheck %s
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 4, mem = "3KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @ccsd_term(%A: tensor<8x4x4x4xf64>, %B: tensor<4x4x4x8xf64>, %C: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %r = tc.contract %C[i, j] += %A[i, a, b, c] * %B[a, b, c, j]
           {tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation, memory = per_array>}
           : tensor<8x4x4x4xf64>, tensor<4x4x4x8xf64> -> tensor<8x8xf64>
    return %r : tensor<8x8xf64>
  }
}
