//===- PlanBenchmark.cpp - time to plan one contraction -------------------===//
//
// Gao et al.'s search for one contraction must be cheap enough to run inside a
// compiler: the goal is well under 10 ms per contraction. Planned here: the
// paper's matmul (section 6, N = 4000), 4-index transform and CCSD term (Table 10
// shapes), on the Table 8 machine scaled to 64 MB per process.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/ContractionPlanner.h"

#include <benchmark/benchmark.h>

using namespace mlir::tc;

namespace {

MachineModel table8Machine(int64_t procs) {
  MachineModel m;
  m.procs = procs;
  m.memBytes = 64e6;
  m.netBandwidth = 200e6;
  m.diskBandwidth = 8e6;
  return m;
}

void plan(benchmark::State &state, const ContractionProblem &problem) {
  MachineModel machine = table8Machine(state.range(0));
  size_t candidates = 0;
  for (auto _ : state) {
    PlanResult r = planContraction(problem, machine);
    benchmark::DoNotOptimize(r.chosen);
    candidates = r.candidates.size();
  }
  state.counters["candidates"] = static_cast<double>(candidates);
}

void BM_PlanMatmul(benchmark::State &state) {
  plan(state, {{"i", "k"}, {"j", "k"}, {"i", "j"},
               {{"i", 4000}, {"j", 4000}, {"k", 4000}}, {}, {}, {}});
}

void BM_PlanFourIndexTransform(benchmark::State &state) {
  // T[a,b,c,d] += A[a,b,c,p] * B[p,d] at 140^4 (one step of [G]'s 4-index transform).
  plan(state, {{"a", "b", "c", "p"}, {"p", "d"}, {"a", "b", "c", "d"},
               {{"a", 140}, {"b", 140}, {"c", 140}, {"d", 140}, {"p", 140}}, {}, {}, {}});
}

void BM_PlanCCSDTerm(benchmark::State &state) {
  // T[i,j] += A[i,a,b,c] * B[a,b,c,j] with occupied 40 and virtual 140 (the CCSD
  // term shape of [G] Table 10).
  plan(state, {{"i", "a", "b", "c"}, {"a", "b", "c", "j"}, {"i", "j"},
               {{"i", 40}, {"j", 40}, {"a", 140}, {"b", 140}, {"c", 140}}, {}, {}, {}});
}

void BM_PlanConstrained(benchmark::State &state) {
  // Given input and output layouts: every distribution-index triple is costed.
  ContractionProblem p{{"a", "m", "b", "n"}, {"n", "c", "m", "d"}, {"a", "b", "c", "d"},
                       {{"a", 96}, {"b", 96}, {"c", 96}, {"d", 96}, {"m", 96}, {"n", 96}},
                       {}, {}, {}};
  int64_t procs = state.range(0);
  p.givenA = Layout{{procs}, {"a"}};
  p.givenB = Layout{{procs}, {"d"}};
  p.requiredC = Layout{{procs}, {"b"}};
  plan(state, p);
}

void BM_PlanBatched(benchmark::State &state) {
  // C[a,d] += A[c,a,d,b] * B[b,c,d] (d a batch label, docs/Derivations.md D30)
  // at 140 x 140 x 40 x 140: Gao et al.'s algorithms around the batch loop and
  // the batch algorithm's one-process share.
  plan(state, {{"c", "a", "d", "b"}, {"b", "c", "d"}, {"a", "d"},
               {{"a", 140}, {"b", 140}, {"c", 140}, {"d", 40}}, {}, {}, {}});
}

void BM_PlanScalar(benchmark::State &state) {
  // The correlation energy E[] = T[a,b,i,j] * V[a,b,i,j] (O = 40, V = 140): a
  // scalar result, every label contracted.
  plan(state, {{"a", "b", "i", "j"}, {"a", "b", "i", "j"}, {},
               {{"a", 140}, {"b", 140}, {"i", 40}, {"j", 40}}, {}, {}, {}});
}

void BM_PlanOneInputSum(benchmark::State &state) {
  // C[a] += A[c,a,s,b] * B[b,c]: s summed out of A alone (D30).
  plan(state, {{"c", "a", "s", "b"}, {"b", "c"}, {"a"},
               {{"a", 140}, {"b", 140}, {"c", 140}, {"s", 40}}, {}, {}, {}});
}

} // namespace

BENCHMARK(BM_PlanMatmul)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanFourIndexTransform)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanCCSDTerm)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanConstrained)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanBatched)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanScalar)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanOneInputSum)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
