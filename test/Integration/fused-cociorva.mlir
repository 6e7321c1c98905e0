// Cociorva et al.'s example (Fig. 2, T1 -> T2 -> S) scaled down to a..d = 80,
// e, f = 16, i..l = 8, on 4 processes with 8 MB each. Whole, T1 alone is 16 MB
// per process: no distribution without fusion fits. tc-fuse-distribute fuses and
// distributes it with the full search (its cheapest plan fuses loops split
// differently at their two ends: virtual partitioning, stepped sub-tiles; 4.42
// MB received per rank against 4.55 MB without), tc-lower-fused runs it; the
// result equals numpy's einsum of
// the whole expression, every rank sends and receives exactly the predicted
// bytes, and every rank's peak RSS stays within 8 MB of the fixed overhead (the
// same program at tiny extents).
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: not tc-opt %s --tc-set-machine="procs=4 mem=8MB net-bw=1GB/s disk-bw=200MB/s volumes=runtime" --tc-fuse-distribute="fusion=false virtual-partitioning=false first-slice=false" 2>&1 | FileCheck %s --check-prefix=UNFUSED
// UNFUSED: error: no fusion and distribution of @cociorva fits in 8.0 MB per process on 4 processes (7.0 MB for arrays after 1.0 MB of runtime staging buffers); the smallest plan needs {{[0-9.]+}} MB
// RUN: tcc %s -o %t.d/nest.mlir --procs 4 --mem 8MB --net-bw 1GB/s --disk-bw 200MB/s --emit mlir
// RUN: FileCheck %s --check-prefix=NEST < %t.d/nest.mlir
// NEST: func.func @cociorva()
// NEST: tc.predicted_volumes {{.*}}received_per_rank = array<f64: 4.423680e+06, 4.423680e+06, 4.423680e+06, 4.423680e+06>
// NEST: scf.for
// NEST: tc.tile_contract
// NEST: tc.redistribute_array
// NEST: tc.store_slice
// NEST: tc.finish_store
// RUN: grep -q "_steps = array" %t.d/nest.mlir
// RUN: tcc %s -o %t.d/prog --procs 4 --mem 8MB --net-bw 1GB/s --disk-bw 200MB/s
// RUN: tcc %S/Inputs/fused-cociorva-tiny.mlir -o %t.d/tiny --procs 4 --mem 8MB --net-bw 1GB/s --disk-bw 200MB/s
// RUN: %python %tc_src/scripts/run-contraction.py %t.d/tiny --np 4 --spec "S[a,b,i,j] = A[a,c,i,k] * B[b,e,f,l] * C[d,f,j,k] * D[c,d,e,l]" --extents a=8,b=8,c=8,d=8,e=4,f=4,i=2,j=2,k=2,l=2 --check-bytes --save-report %t.d/tiny.json
// RUN: %python %tc_src/scripts/run-contraction.py %t.d/prog --np 4 --spec "S[a,b,i,j] = A[a,c,i,k] * B[b,e,f,l] * C[d,f,j,k] * D[c,d,e,l]" --extents a=80,b=80,c=80,d=80,e=16,f=16,i=8,j=8,k=8,l=8 --check-bytes --max-rss-over %t.d/tiny.json:8000000 | FileCheck %s
// CHECK: relative error {{.*}} against numpy einsum
// CHECK: rank 0: disk 0 (predicted 0), sent [[S0:[0-9]+]] (predicted [[S0]]), received [[R0:[0-9]+]] (predicted [[R0]])
// CHECK: rank 3: disk 0 (predicted 0), sent [[S3:[0-9]+]] (predicted [[S3]]), received [[R3:[0-9]+]] (predicted [[R3]])
// CHECK: rank 0: peak RSS {{.*}} over the fixed overhead (allowed 8.00 MB)
// CHECK: OK
func.func @cociorva(%A: tensor<80x80x8x8xf64>, %B: tensor<80x16x16x8xf64>,
                    %C: tensor<80x16x8x8xf64>, %D: tensor<80x80x16x8xf64>)
    -> (tensor<80x80x8x8xf64> {tc.name = "S"}) {
  %T1 = tc.contract [b, c, d, f] = %B[b, e, f, l] * %D[c, d, e, l]
          : tensor<80x16x16x8xf64>, tensor<80x80x16x8xf64> -> tensor<80x80x80x16xf64>
  %T2 = tc.contract [b, c, j, k] = %T1[b, c, d, f] * %C[d, f, j, k]
          : tensor<80x80x80x16xf64>, tensor<80x16x8x8xf64> -> tensor<80x80x8x8xf64>
  %S = tc.contract [a, b, i, j] = %T2[b, c, j, k] * %A[a, c, i, k]
          : tensor<80x80x8x8xf64>, tensor<80x80x8x8xf64> -> tensor<80x80x8x8xf64>
  return %S : tensor<80x80x8x8xf64>
}
