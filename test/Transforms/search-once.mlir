// Gao et al.'s search runs once per contraction and pipeline run: tc-plan on three
// contractions searches three times, tc-select-algorithm searching and
// tc-place-io, tc-solve-tiles and the report reusing its choice (ContractionSearch).
// Each search is a "tc-planner-search" action, counted by a debug counter.
// latency=0: the papers' model, which these plans reproduce; tc's default
// latency would run contractions this small whole on every process (D58).
// RUN: tc-opt %s --tc-plan="latency=0 report=%t.json table=%t.txt" --mlir-debug-counter=tc-planner-search-skip=0 --mlir-print-debug-counter -o %t.plan.mlir 2>&1 | FileCheck %s --check-prefix=PLAN
// PLAN: tc-planner-search {{ *}}: {3,0,-1}
// The passes one by one in one tc-opt run share the searches too, and plan alike.
// RUN: tc-opt %s --tc-select-algorithm --tc-place-io --tc-solve-tiles --tc-plan-report="report=%t.passes.json" --mlir-debug-counter=tc-planner-search-skip=0 --mlir-print-debug-counter -o %t.passes.mlir 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: diff %t.plan.mlir %t.passes.mlir
// RUN: diff %t.json %t.passes.json
// Each planning pass alone searches once per contraction.
// RUN: tc-opt %s --tc-place-io --mlir-debug-counter=tc-planner-search-skip=0 --mlir-print-debug-counter -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// A decision written by hand restricts the passes' search; the report lists the
// candidates of the unrestricted one, a second search.
// RUN: tc-opt %S/Inputs/search-once-decided.mlir --tc-plan="latency=0 report=%t.decided.json" --mlir-debug-counter=tc-planner-search-skip=0 --mlir-print-debug-counter -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECIDED
// DECIDED: tc-planner-search {{ *}}: {2,0,-1}
// Skipping the searches (a debug counter bisecting a problem) fails clearly.
// RUN: not tc-opt %s --tc-plan --mlir-debug-counter=tc-planner-search-count=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIPPED
// SKIPPED: error: the planner's search was skipped (--mlir-debug-counter)

module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @matmul(%A: tensor<4000x4000xf64>, %B: tensor<4000x4000xf64>, %C: tensor<4000x4000xf64>) -> tensor<4000x4000xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] : tensor<4000x4000xf64>, tensor<4000x4000xf64> -> tensor<4000x4000xf64>
    return %r : tensor<4000x4000xf64>
  }
  func.func @four_index(%A: tensor<64x64x64x32xf64>, %B: tensor<32x16xf64>) -> tensor<64x64x64x16xf64> {
    %r = tc.contract [a, b, c, d] = %A[a, b, c, p] * %B[p, d] : tensor<64x64x64x32xf64>, tensor<32x16xf64> -> tensor<64x64x64x16xf64>
    return %r : tensor<64x64x64x16xf64>
  }
  func.func @in_core(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %r : tensor<64x64xf64>
  }
}
