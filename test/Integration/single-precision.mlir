// f32 end to end: sgemm, f32 HDF5 datasets in and out, scratch files and
// messages of 4-byte elements. A permuted contraction with uneven extents on
// 1, 2 and 4 processes, in core and out of core: results within 1e-5 of numpy
// (in f64 on the same f32 inputs), the output dataset f32, every rank's
// measured bytes equal to the prediction. An f64 dataset given to the f32
// program is refused by name, with no output left behind.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in 1:64MB 1:4KB 2:64MB 2:4KB 4:64MB 4:4KB; do \
// RUN:   np=${cfg%%:*}; mem=${cfg#*:}; \
// RUN:   tcc %s -o %t.d/p --procs $np --mem $mem 2>/dev/null && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/p --np $np --dtype f32 --spec "C[a,b] += A[k,a,l] * B[l,b,k]" --extents a=13,b=7,k=5,l=6 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-6: OK
// RUN: tcc %s -o %t.d/p2 --procs 2 --mem 4KB
// RUN: %python %S/Inputs/make_h5.py %t.d/A.h5 A=5x13x6
// RUN: %python %S/Inputs/make_h5.py %t.d/B.h5 B=6x7x5
// RUN: %python %S/Inputs/make_h5.py %t.d/C.h5 C=13x7
// RUN: %python %S/Inputs/expect_failure.py mpirun -np 2 %t.d/p2 --input A=%t.d/A.h5 --input B=%t.d/B.h5 --input C=%t.d/C.h5 --output %t.d/out.h5 --scratch %t.d | FileCheck %s --check-prefix=TYPE
// TYPE: error: dataset 'A' in {{.*}}A.h5 holds f64 elements but the program declares 'A' as f32 (store the dataset as f32, or declare the tensor f64)
// RUN: not ls %t.d/out.h5
// RUN: ls %t.d | not grep -q "\.bin$"
module attributes {tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @single(%A: tensor<5x13x6xf32>, %B: tensor<6x7x5xf32>, %C: tensor<13x7xf32>) -> tensor<13x7xf32> {
    %r = tc.contract %C[a, b] += %A[k, a, l] * %B[l, b, k] : tensor<5x13x6xf32>, tensor<6x7x5xf32> -> tensor<13x7xf32>
    return %r : tensor<13x7xf32>
  }
}
