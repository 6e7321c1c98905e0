// inside replication of a scalar operand (s[] * B, forced by a hand-written
// plan), out of core. The replicated scalar is rank 0's slab: the other ranks
// read nothing and receive it around the ring, as the all-gather of the
// outside method passes it (docs/Derivations.md D31). Before, broadcasting a
// rank-0 tile indexed its first dimension and every rank crashed; ranks other
// than 0 also read the scalar from disk, which the plan does not predict.
// np = 2, 3, 4, extents no process count divides; numpy within 1e-12, every
// rank's bytes as predicted.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tcc %s -o %t.np2 --procs 2 --mem 100KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np2 --np 2 --spec "C[i,j] = A[] * B[i,j]" --extents i=301,j=257 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np3 --procs 3 --mem 100KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np3 --np 3 --spec "C[i,j] = A[] * B[i,j]" --extents i=301,j=257 --scratch %t.d --check-bytes | FileCheck %s
// RUN: tcc %s -o %t.np4 --procs 4 --mem 100KB
// RUN: %python %tc_src/scripts/run-contraction.py %t.np4 --np 4 --spec "C[i,j] = A[] * B[i,j]" --extents i=301,j=257 --scratch %t.d --check-bytes | FileCheck %s
// CHECK: rank 1: disk {{[0-9]+}} (predicted {{[0-9]+}}), sent
// CHECK: OK
module attributes {tc.machine = #tc.machine<procs = 4, mem = "100KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @scaled(%A: tensor<f64>, %B: tensor<301x257xf64>) -> tensor<301x257xf64> {
    %r = tc.contract [i, j] = %A[] * %B[i, j]
           {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = replication_a, memory = per_array>}
           : tensor<f64>, tensor<301x257xf64> -> tensor<301x257xf64>
    return %r : tensor<301x257xf64>
  }
}
