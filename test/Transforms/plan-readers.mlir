// RUN: tc-opt %S/Inputs/plan-readers.mlir --tc-plan="procs=2 mem=1GB net-bw=200MB/s disk-bw=200MB/s latency=0 report=%t.json" | FileCheck %s
// RUN: %python -c "import json,sys; cs = json.load(open(sys.argv[1]))['contractions']; [print(c['op'].split(':')[1], c['candidates'][c['chosen']].get('hand_off_bytes'), max(k.get('hand_off_bytes', 0) for k in c['candidates']), c['candidates'][c['chosen']].get('hand_over_bytes')) for c in cs]" %t.json | FileCheck %s --check-prefix=JSON
// RUN: tc-opt %S/Inputs/plan-readers.mlir --tc-plan="procs=2 mem=1GB net-bw=200MB/s disk-bw=200MB/s latency=0 plan-sweeps=1" | FileCheck %s --check-prefix=ONE
// RUN: not tc-opt %S/Inputs/plan-readers.mlir --tc-select-algorithm="plan-sweeps=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// A statement planned with its readers' layouts in view (docs/Derivations.md
// D59). P = A B alone takes COSMA, which leaves P split along i; R and S
// each read P with COSMA split along j, so in the first sweep (plan-sweeps=1)
// each hands P over from i to j (8 KB per rank each, hand_over_bytes). The
// second sweep plans P again with those readers in view: handing it off to
// both would move 16 KB per rank (hand_off_bytes), more than replication-a
// costs over COSMA, so P is computed split along j where they read it, and
// nothing is handed over; the third sweep changes nothing.
// CHECK-LABEL: func.func @p_s1(
// CHECK: algorithm = replication_a, grid = <[2]>, dist_a = <[*]>, dist_b = <[j]>, dist_c = <[j]>
// CHECK-LABEL: func.func @p_s2(
// CHECK: algorithm = cosma, grid = <[2, 1, 1]>, dist_a = <[j, *, i]>
// CHECK-LABEL: func.func @p_s3(
// CHECK: algorithm = cosma, grid = <[2, 1, 1]>, dist_a = <[n, *, m]>
// JSON: {{[0-9]+}} 0 16384 None
// JSON-NEXT: {{[0-9]+}} None 0 0
// JSON-NEXT: {{[0-9]+}} None 0 0
// ONE-LABEL: func.func @p_s1(
// ONE: algorithm = cosma, grid = <[2, 1, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>
// BAD: error: tc-select-algorithm: plan-sweeps must be at least 1, not 0
