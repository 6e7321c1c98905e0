// tc-plan: machine options, the whole plan, the JSON report and the table.
// RUN: tc-opt %s --tc-plan="procs=4 mem=64MB net-bw=200MB/s disk-bw=8MB/s latency=0 report=%t.json table=%t.txt" | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=TABLE < %t.txt
// RUN: not tc-opt %s --tc-plan="procs=4 mem=64MB net-bw=200MB/s disk-bw=8MB/s report=%t.nodir/r.json" 2>&1 | FileCheck %s --check-prefix=NOWRITE

// [G] section 6 matmul at N = 4000 on the Table 8 machine with 64 MB per process.
// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 64000000
// CHECK-LABEL: func.func @matmul
// Gao et al.'s own choice (per-array tiles) is inside replication-a, order CAB
// at 20.64 s; COSMA's sequential schedule as inside rotation's tiling (D29)
// keeps each process's whole 2000 x 2000 block of C in memory: 16.64 s.
// COSMA out of core (D56) on [2, 2, 1] reads and writes as much (each
// process its sub-blocks once) and gathers half of what Cannon's shifts
// move: 16.32 s.
// CHECK: tc.plan = #tc.plan<in_core = false, algorithm = #tc.cosma<rounds = {k = 10 : i64}>, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>, disk_bytes = 1.280000e+08 : f64, comm_bytes = 6.400000e+07 : f64, seconds = 1.632000e+01 : f64>
func.func @matmul(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
  %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
  return %r : tensor<4000x4000xf64>
}

// JSON: "machine": {
// JSON-NEXT: "procs": 4,
// JSON-NEXT: "mem": 64000000,
// JSON-NEXT: "net_bw": 200000000,
// JSON-NEXT: "disk_bw": 8000000,
// JSON: "contractions": [
// JSON: "op": "{{.*}}plan-pipeline.mlir:18:8",
// JSON: "candidates": [
// JSON: "method": "inside",
// JSON-NEXT: "algorithm": "rotation",
// JSON-NEXT: "in_core": false,
// JSON-NEXT: "order": "ABC",
// JSON-NEXT: "memory": "per-array",
// JSON-NEXT: "tiles": {
// JSON-NEXT: "i": 2,
// JSON-NEXT: "k": 1,
// JSON-NEXT: "j": 2
// JSON-NEXT: },
// JSON-NEXT: "disk_bytes": 160000000,
// JSON-NEXT: "comm_bytes": 256000000,
// JSON-NEXT: "seconds": 21.280000000000001
// The chosen candidate is COSMA out of core (the 65th and last).
// JSON: "algorithm": "cosma",
// JSON-NEXT: "in_core": false,
// JSON-NEXT: "tiles": {
// JSON-NEXT: "i": 1,
// JSON-NEXT: "k": 10,
// JSON-NEXT: "j": 1
// JSON: "chosen": 64

// TABLE: contraction {{.*}}plan-pipeline.mlir:18:8  (P = 4, memory per process = 6.4e+07 B, tile budget = 2.133e+07 B)
// TABLE-NEXT: method   algorithm      order  memory    tiles
// TABLE: {{^}}  inside   replication-a  CAB    per-array i=2 k=4     {{ *}}1.6e+08     1.28e+08      20.64
// TABLE: {{^}}  inside   rotation       CAB    shared    k=4         {{ *}}1.28e+08     1.28e+08      16.64
// TABLE: {{^}}* on-disk  cosma          -      -         k=10        {{ *}}1.28e+08      6.4e+07      16.32

// NOWRITE: error: cannot write plan report '{{.*}}.nodir/r.json'
