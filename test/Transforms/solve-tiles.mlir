// tc-solve-tiles: the tile counts of the decided method, algorithm and order,
// split over the labels, and the predicted volumes; hand-written loops are kept
// and evaluated.
// RUN: tc-opt %s --tc-solve-tiles | FileCheck %s

module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func.func @solved
  // COSMA's sequential schedule (D29): each process's 2000 x 2000 block of C
  // (32 MB) stays in memory beside 4 panels of A and B: D = 2 C/P + A/P + B/P =
  // 1.28e8, V = A/sqrt(P) + B/sqrt(P) = 1.28e8; 16 + 0.64 = 16.64 s.
  // CHECK: order = CAB, loops = [{}, {k = 4 : i64}, {}, {}], memory = shared, disk_bytes = 1.280000e+08 : f64, comm_bytes = 1.280000e+08 : f64, seconds = 1.664000e+01 : f64>
  func.func @solved(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = rotation, order = CAB>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // CHECK-LABEL: func.func @per_array_solved
  // CHECK: order = CAB, loops = [{i = 2 : i64}, {k = 2 : i64}, {}, {}], memory = per_array, disk_bytes = 1.600000e+08 : f64, comm_bytes = 1.920000e+08 : f64, seconds = 2.096000e+01 : f64>
  func.func @per_array_solved(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = rotation, order = CAB, memory = per_array>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // Given loops: A re-read Jt1 = 4 times, B It1 = 4 times, C read and written
  // once: D = 4 A/P + 4 B/P + 2 C/P = 3.2e8; V = 4 A/sqrt(P) + 4 B/sqrt(P) =
  // 5.12e8 ([G] 5.1); 3.2e8 / 8e6 + 5.12e8 / 2e8 = 42.56 s.
  // CHECK-LABEL: func.func @given_loops
  // CHECK: loops = [{i = 4 : i64, j = 4 : i64}, {k = 2 : i64}, {}, {}], disk_bytes = 3.200000e+08 : f64, comm_bytes = 5.120000e+08 : f64, seconds = 4.256000e+01 : f64>
  func.func @given_loops(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = rotation, order = CAB, loops = [{i = 4, j = 4}, {k = 2}, {}, {}]>} : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  // Labels of one macro-index share its tile count: I = {a, b} needs It1 = 4
  // (Gao et al.'s per-array tiles),
  // taken from the larger extent a (a divisor of 960).
  // CHECK-LABEL: func.func @split_labels
  // CHECK: loops = [{a = 4 : i64}, {k = 2 : i64}
  func.func @split_labels(%A: tensor<960x10x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<960x10x4000xf64>) -> tensor<960x10x4000xf64> {
    %r = tc.contract %C[a, b, j] += %A[a, b, k] * %B[k, j] {tc.plan = #tc.plan<in_core = false, method = inside, algorithm = rotation, order = CAB, memory = per_array>} : tensor<960x10x4000xf64>, tensor<4000x4000xf64> -> tensor<960x10x4000xf64>
    return %r : tensor<960x10x4000xf64>
  }
  // In core: no loops; the replicated A (64 x 64 doubles) is broadcast once.
  // CHECK-LABEL: func.func @in_core
  // CHECK: #tc.plan<in_core = true, algorithm = replication_a, disk_bytes = 0.000000e+00 : f64, comm_bytes = 3.276800e+04 : f64
  func.func @in_core(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = true, algorithm = replication_a>} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}
