// tc-lower-fused on a hand-written plan (no tc-fuse-distribute, no tcc): a sum
// fused with its consumer along t, a contraction over a distributed summed index
// whose partial sums go to every process, inputs redistributed to the
// distributions their consumers read, the result written slice by slice.
// RUN: tc-opt %s --tc-lower-fused | FileCheck %s
// A module with an operator tree and a single contraction gets one tc_main,
// whichever of tc-lower-fused and tc-lower-plan runs first.
// RUN: tc-opt %s --tc-select-algorithm --tc-place-io --tc-solve-tiles --tc-lower-fused --tc-lower-plan | FileCheck %s --check-prefix=ENTRY
// RUN: tc-opt %s --tc-select-algorithm --tc-place-io --tc-solve-tiles --tc-lower-plan --tc-lower-fused | FileCheck %s --check-prefix=ENTRY

// CHECK-LABEL: func.func @tree()
// Per-rank bytes of the plan: B and C move from their given layouts, T2's partial
// sums are added over grid dimension 1.
// CHECK: tc.predicted_volumes {{{.*}}received_per_rank = array<f64: 7.600000e+02, 9.200000e+02, 9.200000e+02, 7.600000e+02>, sent_per_rank = array<f64: 7.600000e+02, 9.200000e+02, 9.200000e+02, 7.600000e+02>}
// A keeps all of i and its blocks of j and t; T1 is fused on t: one index of t.
// CHECK: %[[A:.*]] = tc.array "A" {{.*}} storage %[[ABUF:.*]] : memref<16x4x6xf64> {{.*}}#tc.layout<distributed [16, 8, 12] on [2, 2] dims [-1, 1, 0]
// CHECK: %[[T1:.*]] = tc.array "T1" {{.*}} storage %[[T1BUF:.*]] : memref<4x1xf64> {{.*}}#tc.layout<distributed [8, 2] on [2, 2] dims [1, 0]
// CHECK: %[[B:.*]] = tc.array "B" {{.*}}#tc.layout<distributed [8, 10] on [2, 2] dims [0, 1]
// CHECK: %[[B2:.*]] = tc.array "B" {{.*}} storage %[[B2BUF:.*]] : memref<4x10xf64> {{.*}}#tc.layout<distributed [8, 10] on [2, 2] dims [1, -1]
// CHECK: %[[T2:.*]] = tc.array "T2" {{.*}} storage %[[T2BUF:.*]] : memref<6x10xf64> {{.*}}#tc.layout<distributed [12, 10] on [2, 2] dims [0, -1]
// CHECK: %[[S:.*]] = tc.array "S" {{.*}}#tc.layout<distributed [12, 6] on [2, 2] dims [0, 1]
// CHECK: tc.zero_array %[[S]]
// CHECK: tc.zero_array %[[T2]]
// CHECK: tc.load_slice %[[A]] [16, 8, 12]
// CHECK: tc.load_slice %[[B]] [8, 10]
// CHECK: tc.redistribute_array %[[B]] into %[[B2]]
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   tc.zero_array %[[T1]]
// The sum is a contraction with a vector of ones over i.
// CHECK:   %[[ONES:.*]] = memref.get_global @__tc_ones_0 : memref<16xf64>
// CHECK:   tc.tile_contract %[[T1BUF]][{{.*}}] ["j", "t"] += %[[ABUF]][%{{.*}}, %{{.*}}, %[[T]]] ["i", "j", "t"] * %[[ONES]][%{{.*}}] ["i"] extents {i = 16 : i64, j = 4 : i64, t = 1 : i64}
// CHECK:   tc.tile_contract %[[T2BUF]][%[[T]], %{{.*}}] ["t", "l"] += %[[T1BUF]]{{.*}} * %[[B2BUF]]
// CHECK: }
// CHECK: tc.combine_partial %[[T2]] along [1]
// CHECK: tc.load_slice %[[C:[^ ]*]] [10, 6]
// CHECK: tc.redistribute_array %[[C]] into
// CHECK: tc.tile_contract
// CHECK: tc.store_slice %[[S]] [12, 6]
// CHECK: tc.finish_store %[[S]]
// CHECK-LABEL: func.func @tc_main()
// CHECK-NEXT: call @tree()

// ENTRY-LABEL: func.func @tree()
// ENTRY-LABEL: func.func @matmul()
// ENTRY: func.func @tc_main()
// ENTRY-DAG: call @tree()
// ENTRY-DAG: call @matmul()
// ENTRY-NOT: func.func @tc_main
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s", volumes = runtime>} {
  func.func @tree(%A: tensor<16x8x12xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[t, j]>, final = <[t, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %B: tensor<8x10xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, l]>, final = <[*, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %C: tensor<10x6xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, m]>, final = <[*, m]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> (tensor<12x6xf64> {tc.name = "S"})
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.sum [j, t] = %A[i, j, t] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, j]>, final = <[t, j]>, fused = ["t"], memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<16x8x12xf64> -> tensor<8x12xf64>
    %T2 = tc.contract [t, l] = %T1[j, t] * %B[j, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, *]>, final = <[t, *]>, partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x12xf64>, tensor<8x10xf64> -> tensor<12x10xf64>
    %S = tc.contract [t, m] = %T2[t, l] * %C[l, m] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, m]>, initial = <[t, m]>, final = <[t, m]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<12x10xf64>, tensor<10x6xf64> -> tensor<12x6xf64>
    return %S : tensor<12x6xf64>
  }
  func.func @matmul(%A: tensor<16x8xf64>, %B: tensor<8x12xf64>) -> tensor<16x12xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<16x8xf64>, tensor<8x12xf64> -> tensor<16x12xf64>
    return %r : tensor<16x12xf64>
  }
}
