// Labels of one input only (docs/Derivations.md D30): s and t of A and u of B
// are summed out as the inputs load, so the plan and the program are those of
// C[a,d] += A'[a,c] * B'[c,d]; the arrays keep the datasets' other dimensions
// in their places and name the summed ones, and the local contraction never
// sees them.
// RUN: tc-opt %s --tc-plan --tc-lower-plan | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  // CHECK-LABEL: func.func @one_input
  // CHECK-DAG: tc.array "A" {{.*}}#tc.layout<{{[a-z]+}} [8, 6] {{.*}}file_dims [1, 3] summed_file_dims [0, 2] summed_extents [3, 5]>>
  // CHECK-DAG: tc.array "B" {{.*}}#tc.layout<{{[a-z]+}} [6, 4] {{.*}}file_dims [0, 2] summed_file_dims [1] summed_extents [7]>>
  // CHECK: tc.tile_contract {{.*}} ["a", "d"] += {{.*}} ["a", "c"] * {{.*}} ["c", "d"]
  func.func @one_input(%A: tensor<3x8x5x6xf64>, %B: tensor<6x7x4xf64>, %C: tensor<8x4xf64>) -> tensor<8x4xf64> {
    %r = tc.contract %C[a, d] += %A[s, a, t, c] * %B[c, u, d] : tensor<3x8x5x6xf64>, tensor<6x7x4xf64> -> tensor<8x4xf64>
    return %r : tensor<8x4xf64>
  }
}
