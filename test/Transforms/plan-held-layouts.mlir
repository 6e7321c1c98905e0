// RUN: tc-opt %s --tc-plan="procs=2 mem=1GB net-bw=1GB/s disk-bw=200MB/s report=%t.json" | FileCheck %s
// RUN: %python -c "import json,sys; cs = json.load(open(sys.argv[1]))['contractions']; [print(c['op'].split(':')[1], [k.get('hand_over_bytes') for k in c['candidates']][c['chosen']], max(k.get('hand_over_bytes', 0) for k in c['candidates'])) for c in cs]" %t.json | FileCheck %s --check-prefix=JSON
// A statement that reads an intermediate another statement left in memory
// is planned with that statement's layout in view (docs/Derivations.md D45):
// the runtime hands the value over into the reader's layout, and the search
// counts what that moves (hand_over_bytes in the report, not in the plan's
// volumes). W = X is computed split along a. The accumulation W += -T[a,m]
// V[m,b,e,f] alone would take COSMA or PUMMA, which move only T (608 bytes)
// but split W along b: handing W's old value over would move half of it
// (4.2 MB per rank). Replicating V (1.8 MB) and computing W where it is
// costs less. R reads W2, which no statement before it kept in memory:
// nothing is held, and its candidates report no hand-over.
// CHECK-LABEL: func.func @p_s2(
// CHECK: tc.contract %{{.*}}[a, b, e, f] +=
// CHECK-SAME: algorithm = replication_b, grid = <[2]>, dist_a = <[a]>, dist_b = <[*]>, dist_c = <[a]>
// JSON: {{[0-9]+}} None 0
// JSON-NEXT: {{[0-9]+}} 0 8340544
// JSON-NEXT: {{[0-9]+}} None 0
module {
  func.func @p_s1(%x: tensor<38x38x38x38xf64> {tc.name = "X"}, %one: tensor<f64> {tc.name = "ones", tc.ones}) -> (tensor<38x38x38x38xf64> {tc.name = "W"}) attributes {tc.intermediate, tc.in_memory, tc.statement = "W (1)"} {
    %0 = tc.contract [a, b, e, f] = %x[a, b, e, f] * %one[] {tc.name = "W"} : tensor<38x38x38x38xf64>, tensor<f64> -> tensor<38x38x38x38xf64>
    return %0 : tensor<38x38x38x38xf64>
  }
  func.func @p_s2(%t: tensor<38x4xf64> {tc.name = "T"}, %v: tensor<4x38x38x38xf64> {tc.name = "V"}, %w: tensor<38x38x38x38xf64> {tc.name = "W"}) -> (tensor<38x38x38x38xf64> {tc.name = "W"}) attributes {tc.intermediate, tc.in_memory, tc.statement = "W (2)"} {
    %0 = tc.contract %w[a, b, e, f] += -1.000000e+00 * %t[a, m] * %v[m, b, e, f] {tc.name = "W"} : tensor<38x4xf64>, tensor<4x38x38x38xf64> -> tensor<38x38x38x38xf64>
    return %0 : tensor<38x38x38x38xf64>
  }
  func.func @p_s3(%w: tensor<38x38x38x38xf64> {tc.name = "W2"}, %u: tensor<38x38x10x10xf64> {tc.name = "U"}) -> (tensor<38x38x10x10xf64> {tc.name = "R"}) attributes {tc.statement = "R (3)"} {
    %0 = tc.contract [a, b, i, j] = %w[a, b, e, f] * %u[e, f, i, j] {tc.name = "R"} : tensor<38x38x38x38xf64>, tensor<38x38x10x10xf64> -> tensor<38x38x10x10xf64>
    return %0 : tensor<38x38x10x10xf64>
  }
}
