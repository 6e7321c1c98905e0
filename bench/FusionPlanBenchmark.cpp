//===- FusionPlanBenchmark.cpp - time to plan an operator tree ------------===//
//
// Cociorva et al.'s DP must run inside a compiler: goals (issue 5) are the
// paper's example (section 4) in under 1 s and a chain of 10 contractions in
// under 10 s. Each iteration searches every logical grid of P with up to
// `max-grid-dims` dimensions, with the analytic Mcost.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/FusionPlanner.h"

#include <benchmark/benchmark.h>

using namespace mlir::tc;

namespace {

/// [C] Fig. 2(a) at the section 4 extents.
OperatorTree cociorvaExample() {
  OperatorTree t;
  int A = t.addInput("A", {"a", "c", "i", "k"}, {1000, 1000, 40, 40});
  int B = t.addInput("B", {"b", "e", "f", "l"}, {1000, 70, 70, 40});
  int C = t.addInput("C", {"d", "f", "j", "k"}, {1000, 70, 40, 40});
  int D = t.addInput("D", {"c", "d", "e", "l"}, {1000, 1000, 70, 40});
  int T1 = t.addContraction("T1", {"b", "c", "d", "f"}, B, D);
  int T2 = t.addContraction("T2", {"b", "c", "j", "k"}, T1, C);
  t.addContraction("S", {"a", "b", "i", "j"}, T2, A);
  return t;
}

/// A chain of `n` four-index contractions, as in a coupled-cluster term:
/// T_m[a,b,x_{m+1},y_{m+1}] = sum_{x_m,y_m} T_{m-1}[a,b,x_m,y_m] * X_m[x_m,y_m,x_{m+1},y_{m+1}].
OperatorTree fourIndexChain(int n) {
  OperatorTree t;
  auto x = [](int m) { return "x" + std::to_string(m); };
  auto y = [](int m) { return "y" + std::to_string(m); };
  int prev = t.addInput("X0", {"a", "b", x(0), y(0)}, {400, 400, 40, 40});
  for (int m = 0; m < n; ++m) {
    int op = t.addInput("X" + std::to_string(m + 1), {x(m), y(m), x(m + 1), y(m + 1)},
                        {40, 40, 40, 40});
    prev = t.addContraction("T" + std::to_string(m + 1), {"a", "b", x(m + 1), y(m + 1)}, prev, op);
  }
  return t;
}

void plan(benchmark::State &state, const OperatorTree &tree, int64_t procs, double mem) {
  FusionMachine machine{procs, mem, 8, 1e9};
  AnalyticCommCost comm(1e-5, 3e8, 8);
  FusionSearchOptions options;
  options.maxGridDims = static_cast<int>(state.range(1));
  FusionSearchResult r;
  for (auto _ : state) {
    r = planFusion(tree, machine, comm, options);
    benchmark::DoNotOptimize(r.best);
  }
  state.counters["fits"] = r.best ? 1 : 0;
  state.counters["MB"] = r.best ? r.best->memBytes / 1e6 : r.smallestMemBytes / 1e6;
  state.counters["kept"] = static_cast<double>(r.solutionsKept);
  state.counters["pruned"] = static_cast<double>(r.solutionsPruned);
}

void BM_FusePaperT3E(benchmark::State &state) { plan(state, cociorvaExample(), 32, 512e6); }
void BM_FusePaperItanium(benchmark::State &state) { plan(state, cociorvaExample(), 16, 2e9); }
void BM_FuseChain10(benchmark::State &state) {
  plan(state, fourIndexChain(10), state.range(0), 64e6);
}

} // namespace

// Arguments: P (for the chain) and the largest grid rank searched.
BENCHMARK(BM_FusePaperT3E)->Args({32, 2})->Args({32, 3})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FusePaperItanium)->Args({16, 2})->Args({16, 3})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FuseChain10)->Args({16, 2})->Args({32, 2})->Args({32, 3})->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
