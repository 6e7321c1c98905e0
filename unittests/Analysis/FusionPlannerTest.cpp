//===- FusionPlannerTest.cpp - Cociorva et al.'s formulas, tables and DP ----===//
#include "TC/Analysis/FusedSchedule.h"
#include "TC/Analysis/FusionPlanner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>

using namespace mlir::tc;

namespace {

/// [C] Fig. 2(a): T1 = sum_el B*D, T2 = sum_df T1*C, S = sum_ck T2*A, with the
/// section 4 extents (Nl = `nl`, section 3 uses 30).
struct Cociorva {
  OperatorTree tree;
  int A, B, C, D, T1, T2, S;
  explicit Cociorva(int64_t nijk = 40, int64_t nl = 40) {
    const int64_t N = 1000, Nef = 70;
    A = tree.addInput("A", {"a", "c", "i", "k"}, {N, N, nijk, nijk});
    B = tree.addInput("B", {"b", "e", "f", "l"}, {N, Nef, Nef, nl});
    C = tree.addInput("C", {"d", "f", "j", "k"}, {N, Nef, nijk, nijk});
    D = tree.addInput("D", {"c", "d", "e", "l"}, {N, N, Nef, nl});
    T1 = tree.addContraction("T1", {"b", "c", "d", "f"}, B, D);
    T2 = tree.addContraction("T2", {"b", "c", "j", "k"}, T1, C);
    S = tree.addContraction("S", {"a", "b", "i", "j"}, T2, A);
  }
  Distribution dist(const Grid &grid, const std::string &text) const {
    std::optional<Distribution> d = parseDistribution(text, grid, tree);
    EXPECT_TRUE(d) << text;
    return d.value_or(Distribution());
  }
  IndexSet set(const std::string &labels) const {
    IndexSet s = 0;
    for (char c : labels)
      s |= indexBit(tree.findIndex(std::string(1, c)));
    return s;
  }
};

/// [C] Fig. 3: C(i,k) = sum_j A(i,j) B(j,k); E(i,l) = sum_k C(i,k) D(k,l).
struct Figure3 {
  OperatorTree tree;
  int A, B, C, D, E;
};
Figure3 figure3() {
  Figure3 f;
  f.A = f.tree.addInput("A", {"i", "j"}, {100, 60});
  f.B = f.tree.addInput("B", {"j", "k"}, {60, 80});
  f.C = f.tree.addContraction("C", {"i", "k"}, f.A, f.B);
  f.D = f.tree.addInput("D", {"k", "l"}, {80, 40});
  f.E = f.tree.addContraction("E", {"i", "l"}, f.C, f.D);
  return f;
}

AnalyticCommCost analytic(double latency = 1e-5, double bandwidth = 3e8) {
  return AnalyticCommCost(latency, bandwidth, 8);
}

TEST(ProcessorGrid, FactorizationsOfP) {
  auto str = [](const std::vector<Grid> &grids) {
    std::string s;
    for (const Grid &g : grids)
      s += gridString(g) + " ";
    return s;
  };
  EXPECT_EQ(str(logicalGrids(32, 2)), "32 16x2 8x4 ");
  EXPECT_EQ(str(logicalGrids(32, 3)), "32 16x2 8x4 8x2x2 4x4x2 ");
  EXPECT_EQ(str(logicalGrids(16, 4)), "16 8x2 4x4 4x2x2 2x2x2x2 ");
  EXPECT_EQ(str(logicalGrids(7, 3)), "7 ");
  EXPECT_EQ(str(logicalGrids(1, 3)), "1 ");
}

TEST(ProcessorGrid, TuplesAndProjection) {
  Cociorva p;
  Grid grid{2, 2, 4, 8};
  Distribution gamma = p.dist(grid, "<c,d,f,1>");
  EXPECT_EQ(gamma.str(grid, p.tree), "<c,d,f,1>");
  // [C] 3.1: D(c,d,e,l) in <c,d,*,1> is T1's <c,d,f,1> seen from D.
  EXPECT_EQ(gamma.project(grid, p.tree.node(p.D).dimens), p.dist(grid, "<c,d,*,1>"));
  EXPECT_EQ(gamma.project(grid, p.tree.node(p.B).dimens), p.dist(grid, "<*,*,f,1>"));
  EXPECT_TRUE(gamma.noReplication(grid));
  EXPECT_FALSE(p.dist(grid, "<b,e,*,1>").noReplication(grid));
  EXPECT_EQ(gamma.parts(grid, p.tree.findIndex("f")), 4);
  EXPECT_FALSE(parseDistribution("<c,d>", grid, p.tree));
  EXPECT_FALSE(parseDistribution("<c,d,q,1>", grid, p.tree));
  // 2 grid dims, 3 indices: 3*2 distinct + 2*3 with one `*` + 1 all `*`.
  EXPECT_EQ(enumerateDistributions(Grid{2, 2}, p.set("abc"), true, false).size(), 13u);
  EXPECT_EQ(enumerateDistributions(Grid{2, 2}, p.set("abc"), false, false).size(), 6u);
}

TEST(FusionCost, DistSizeExampleOfSection32) {
  // B(b,e,f,l) in <b,e,*,1> on 2x2x4x8, fused on b and f with its parent, Nl=30:
  // Ne/2 * Nl = 1050 words per process whose 4th coordinate is 1.
  Cociorva p(30, 30);
  Grid grid{2, 2, 4, 8};
  Distribution alpha = p.dist(grid, "<b,e,*,1>");
  FusionEdge edge{alpha, alpha, p.set("bf")};
  EXPECT_DOUBLE_EQ(distSize(p.tree, grid, p.B, alpha, edge), 1050);
}

TEST(FusionCost, CalcCostExampleOfSection33) {
  // T1(b,c,d,f) in <c,d,f,1> on 2x2x4x8: Nb Nc Nd Ne Nf Nl / (2*2*4), Nl = 30.
  Cociorva p(30, 30);
  Grid grid{2, 2, 4, 8};
  EXPECT_DOUBLE_EQ(calcCost(p.tree, grid, p.T1, p.dist(grid, "<c,d,f,1>")), 9.1875e12);
}

TEST(FusionCost, FusionMultipliesMessagesFig3) {
  // C(i,k) = A(i,j) B(j,k); E(i,l) = C(i,k) D(k,l) on 4 processes: C moves from
  // <k> to <*> once unfused, Ni times (of Nk/4 elements each) fused on i.
  auto [tree, A, B, C, Dn, E] = figure3();
  (void)A, (void)B, (void)Dn, (void)E;
  Grid grid{4};
  Distribution k = *parseDistribution("<k>", grid, tree), star = *parseDistribution("<*>", grid, tree);
  FusionEdge unfused{k, star, 0}, fused{k, star, indexBit(tree.findIndex("i"))};
  EXPECT_DOUBLE_EQ(msgFactor(tree, grid, C, unfused), 1);
  EXPECT_DOUBLE_EQ(msgFactor(tree, grid, C, fused), 100);
  EXPECT_DOUBLE_EQ(distSize(tree, grid, C, k, unfused), 100 * 20);
  EXPECT_DOUBLE_EQ(distSize(tree, grid, C, k, fused), 20);
  // Same volume, 100x the messages: fusion never lowers communication.
  AnalyticCommCost comm = analytic(1e-3, 1e6);
  double once = moveCost(tree, grid, C, unfused, comm), many = moveCost(tree, grid, C, fused, comm);
  EXPECT_NEAR(once, 3 * 1e-3 + 100 * 80 * 0.75 * 8 / 1e6, 1e-12);
  EXPECT_NEAR(many, 100 * (3 * 1e-3 + 80 * 0.75 * 8 / 1e6), 1e-12);
}

TEST(FusionCost, VirtualPartitioningFig4) {
  // C produced in <k> (i undistributed) and consumed in <i>: fusing i splits it
  // over lcm(1, 4) = 4 virtual processes; the producer keeps 4 slices C(ii,k).
  auto [tree, A, B, C, Dn, E] = figure3();
  (void)A, (void)B, (void)Dn, (void)E;
  Grid grid{4};
  int i = tree.findIndex("i");
  FusionEdge edge{*parseDistribution("<k>", grid, tree), *parseDistribution("<i>", grid, tree),
                  indexBit(i)};
  EXPECT_EQ(virtualParts(grid, edge, i), 4);
  EXPECT_DOUBLE_EQ(distSize(tree, grid, C, edge.produced, edge), 4 * 80 / 4);
  EXPECT_DOUBLE_EQ(distSize(tree, grid, C, edge.consumed, edge), 80);
  EXPECT_DOUBLE_EQ(msgFactor(tree, grid, C, edge), 100 / 4);
}

TEST(FusionCost, OneFusedLoopPerNode) {
  // C <k> fused on i with E <i> needs 4 virtual processes (lcm(1, 4)); A, fused on
  // i with C but split like C's own i (not at all), makes C's i loop run over
  // Ni/1 and Ni/4 trips at once: rejected.
  auto [tree, A, B, C, Dn, E] = figure3();
  Grid grid{4};
  auto d = [&](const char *t) { return *parseDistribution(t, grid, tree); };
  IndexSet i = indexBit(tree.findIndex("i"));
  std::vector<NodeDecision> decisions(5);
  decisions[A] = {d("<j>"), SumVariant::None, i};
  decisions[B] = {d("<k>"), SumVariant::None, 0};
  decisions[C] = {d("<k>"), SumVariant::None, i};
  decisions[Dn] = {d("<l>"), SumVariant::None, 0};
  decisions[E] = {d("<i>"), SumVariant::None, 0};
  FusionMachine machine{4, 1e9, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EXPECT_EQ(evaluateFusionPlan(tree, grid, decisions, machine, comm).error,
            "at 'C', the fused loops of 'A' and 'C' are partitioned differently");
  decisions[A].fused = 0; // A whole: the virtual partitioning of C alone is fine
  EXPECT_EQ(evaluateFusionPlan(tree, grid, decisions, machine, comm).error, "");
  EXPECT_FALSE(fusedWithoutVirtualPartitioning(
      grid, FusionEdge{d("<k>"), d("<i>"), i}));
  EXPECT_TRUE(fusedWithoutVirtualPartitioning(grid, FusionEdge{d("<k>"), d("<k>"), i}));
}

TEST(CommCost, ExchangeShapes) {
  OperatorTree tree;
  tree.addInput("X", {"i", "j"}, {64, 64});
  Grid g4{4}, g22{2, 2};
  auto d = [&](const Grid &g, const char *t) { return *parseDistribution(t, g, tree); };
  ExchangeShape gather = exchangeShape(g4, d(g4, "<i>"), d(g4, "<*>"));
  EXPECT_DOUBLE_EQ(gather.receivedFraction, 0.75);
  EXPECT_DOUBLE_EQ(gather.messages, 3);
  ExchangeShape transpose = exchangeShape(g4, d(g4, "<i>"), d(g4, "<j>"));
  EXPECT_DOUBLE_EQ(transpose.receivedFraction, 0.75);
  EXPECT_DOUBLE_EQ(transpose.messages, 3);
  ExchangeShape select = exchangeShape(g4, d(g4, "<*>"), d(g4, "<i>"));
  EXPECT_DOUBLE_EQ(select.receivedFraction, 0);
  EXPECT_DOUBLE_EQ(select.messages, 0);
  ExchangeShape scatter = exchangeShape(g4, d(g4, "<1>"), d(g4, "<i>"));
  EXPECT_DOUBLE_EQ(scatter.receivedFraction, 1);
  EXPECT_DOUBLE_EQ(scatter.messages, 1);
  // <i,j> -> <j,i> on 2x2: the diagonal keeps a quarter of its block.
  ExchangeShape swap = exchangeShape(g22, d(g22, "<i,j>"), d(g22, "<j,i>"));
  EXPECT_DOUBLE_EQ(swap.receivedFraction, 1);
  EXPECT_DOUBLE_EQ(swap.messages, 1);
  EXPECT_DOUBLE_EQ(localElemsAfter(100, g4, d(g4, "<i>"), d(g4, "<*>")), 400);
}

TEST(CommCost, MeasuredTableInterpolates) {
  OperatorTree tree;
  tree.addInput("X", {"p", "q"}, {64, 64});
  Grid grid{4};
  Distribution from = *parseDistribution("<p>", grid, tree), to = *parseDistribution("<*>", grid, tree);
  EXPECT_EQ(commPatternKey(grid, from, to), "4:<x0>-><*>");
  EXPECT_EQ(commPatternKey(grid, to, from), "4:<*>-><x0>");
  auto fallback = std::make_shared<AnalyticCommCost>(analytic());
  MeasuredCommCost measured({{"4:<x0>-><*>", {{8000, 1.0}, {800, 0.2}, {80000, 5.5}}}}, fallback, 8);
  EXPECT_DOUBLE_EQ(measured.mcost(100, grid, from, to), 0.2);        // a point
  EXPECT_DOUBLE_EQ(measured.mcost(550, grid, from, to), 0.6);        // between
  EXPECT_DOUBLE_EQ(measured.mcost(20000, grid, from, to), 5.5 + 0.5 * 80000 / 72000 * 4.5 / 0.5 * 0.5 * 0 + 4.5 / 72000 * 80000);
  EXPECT_EQ(measured.misses(), 0u);
  EXPECT_DOUBLE_EQ(measured.mcost(100, grid, to, from), fallback->mcost(100, grid, to, from));
  EXPECT_EQ(measured.misses(), 1u);
}

/// [C] Table 1's and Table 2's chosen solutions.
std::vector<NodeDecision> paperSolution(const Cociorva &p, const Grid &grid, bool table1) {
  std::vector<NodeDecision> d(p.tree.nodes().size());
  auto set = [&](int node, const char *dist, const char *fused) {
    d[node] = NodeDecision{p.dist(grid, dist), SumVariant::None, p.set(fused)};
  };
  if (table1) {
    set(p.D, "<c,e>", "d");
    set(p.B, "<b,f>", "");
    set(p.C, "<j,f>", "d");
    set(p.A, "<i,c>", "a");
    set(p.T1, "<b,f>", "d");
    set(p.T2, "<b,c>", "");
    set(p.S, "<b,j>", "a");
  } else {
    set(p.D, "<e,l>", "d");
    set(p.B, "<f,b>", "");
    set(p.C, "<j,f>", "d");
    set(p.A, "<c,k>", "a");
    set(p.T1, "<f,b>", "d");
    set(p.T2, "<c,b>", "");
    set(p.S, "<j,b>", ""); // [C] reduces S in Table 1 only (docs/Derivations.md D19)
  }
  return d;
}

TEST(FusionPlanner, Table1MemoryColumnExactly) {
  Cociorva p;
  Grid grid{4, 8};
  FusionMachine machine{32, 512e6, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(p.tree, grid, paperSolution(p, grid, true), machine, comm);
  ASSERT_EQ(e.error, "");
  const auto &n = e.plan.nodes;
  EXPECT_DOUBLE_EQ(n[p.D].memBytes, 22.4e6);
  EXPECT_DOUBLE_EQ(n[p.B].memBytes, 49.0e6);
  EXPECT_DOUBLE_EQ(n[p.C].memBytes, 0.896e6); // printed 0.9MB
  EXPECT_DOUBLE_EQ(n[p.A].memBytes, 12.8e6);
  EXPECT_DOUBLE_EQ(n[p.T1].memBytes, 17.5e6);
  EXPECT_DOUBLE_EQ(n[p.T2].memBytes, 400.0e6);
  EXPECT_DOUBLE_EQ(n[p.S].memBytes, 0.4e6);
  EXPECT_NEAR(e.plan.memBytes, 503.0e6, 0.1e6);
  // The table's final distributions follow from the consumers' tuples.
  EXPECT_EQ(n[p.D].edge.consumed.str(grid, p.tree), "<*,*>");
  EXPECT_EQ(n[p.T1].edge.consumed.str(grid, p.tree), "<b,c>");
  EXPECT_EQ(n[p.T2].edge.consumed.str(grid, p.tree), "<b,j>");
  EXPECT_EQ(n[p.B].commSeconds, 0);
  EXPECT_EQ(n[p.S].commSeconds, 0);
  // Counting both blocks of each redistributed array (tc's runtime): D holds
  // 0.7 MB as read plus 22.4 MB replicated; B and S do not move.
  machine.bothBuffers = true;
  EvaluatedPlan both = evaluateFusionPlan(p.tree, grid, paperSolution(p, grid, true), machine, comm);
  EXPECT_DOUBLE_EQ(both.plan.nodes[p.D].memBytes, 22.4e6 + 0.7e6);
  EXPECT_DOUBLE_EQ(both.plan.nodes[p.B].memBytes, 49.0e6);
  // S, a formula, adds the working copies of its local product inside loop a:
  // T2(b,c,j,k) in <b,j> (1000/4*1000*40/8*40), A(c,i,k) and S(b,i,j) slices.
  EXPECT_DOUBLE_EQ(both.plan.nodes[p.S].memBytes,
                   0.4e6 + 8 * (250.0 * 1000 * 5 * 40 + 1000.0 * 40 * 40 + 250.0 * 40 * 5));
}

TEST(FusionPlanner, Table2MemoryColumnExactly) {
  Cociorva p;
  Grid grid{4, 4};
  FusionMachine machine{16, 2e9, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(p.tree, grid, paperSolution(p, grid, false), machine, comm);
  ASSERT_EQ(e.error, "");
  const auto &n = e.plan.nodes;
  EXPECT_DOUBLE_EQ(n[p.D].memBytes, 22.4e6);
  EXPECT_DOUBLE_EQ(n[p.B].memBytes, 98.0e6);
  EXPECT_DOUBLE_EQ(n[p.C].memBytes, 0.896e6);
  EXPECT_DOUBLE_EQ(n[p.A].memBytes, 12.8e6);
  EXPECT_DOUBLE_EQ(n[p.T1].memBytes, 35.0e6);
  EXPECT_DOUBLE_EQ(n[p.T2].memBytes, 800.0e6);
  EXPECT_DOUBLE_EQ(n[p.S].memBytes, 800.0e6);
  EXPECT_NEAR(e.plan.memBytes, 1769.1e6, 0.1e6);
  EXPECT_EQ(n[p.T1].edge.consumed.str(grid, p.tree), "<c,b>");
  EXPECT_EQ(n[p.T2].edge.consumed.str(grid, p.tree), "<j,b>");
}

TEST(FusionPlanner, IllegalConfigurationsAreNamed) {
  Cociorva p;
  Grid grid{4, 8};
  FusionMachine machine{32, 512e6, 8, 1e9};
  AnalyticCommCost comm = analytic();
  std::vector<NodeDecision> d = paperSolution(p, grid, true);
  d[p.T2].fused = p.set("b"); // T2 fused on b with S, but T1 on d with T2
  EXPECT_EQ(evaluateFusionPlan(p.tree, grid, d, machine, comm).error,
            "at 'T2', the fused loops {b} and {d} do not nest (a node's fused loops have one order)");
  d[p.T1].fused = p.set("bd"); // nested at T2 once C and D are unfused (D's {d}
  d[p.C].fused = 0;            // would put d before b in T1's loops); at S: {a}
  d[p.D].fused = 0;            // (A and the root) vs {b} (T2)
  EXPECT_EQ(evaluateFusionPlan(p.tree, grid, d, machine, comm).error,
            "at 'S', the fused loops {a} and {b} do not nest (a node's fused loops have one order)");
  // Legal at each node alone, not together: D alone on c puts c first among
  // T1's loops fused with T2, C alone on f puts f first among them.
  d = paperSolution(p, grid, true);
  d[p.T1].fused = p.set("bcdf");
  d[p.D].fused = p.set("c");
  d[p.C].fused = p.set("f");
  EXPECT_EQ(evaluateFusionPlan(p.tree, grid, d, machine, comm).error,
            "at 'T2', the fused loops {c} and {f} do not nest (a node's fused loops have one order)");
  d = paperSolution(p, grid, true);
  d[p.A].compute = p.dist(grid, "<*,c>");
  EXPECT_EQ(evaluateFusionPlan(p.tree, grid, d, machine, comm).error,
            "input 'A' cannot start replicated (<*,c>)");
  d = paperSolution(p, grid, true);
  d[p.T1].compute = p.dist(grid, "<b,e>");
  EXPECT_EQ(evaluateFusionPlan(p.tree, grid, d, machine, comm).error,
            "'T1' distributes a summed index but has no partial-sum variant");
}

TEST(FusionPlanner, FindsPlansWithinThePapersLimits) {
  Cociorva p;
  AnalyticCommCost comm = analytic();
  for (auto [procs, mem] : {std::pair<int64_t, double>{32, 512e6}, {16, 2e9}}) {
    FusionMachine machine{procs, mem, 8, 1e9};
    auto start = std::chrono::steady_clock::now();
    FusionSearchResult r = planFusion(p.tree, machine, comm);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(r.best) << procs;
    EXPECT_LE(r.best->memBytes, mem);
    // The DP's totals are those of the plan re-costed from its decisions.
    std::vector<NodeDecision> decisions;
    for (const auto &n : r.best->nodes)
      decisions.push_back(n.decision);
    EvaluatedPlan again = evaluateFusionPlan(p.tree, r.best->grid, decisions, machine, comm);
    ASSERT_EQ(again.error, "");
    EXPECT_DOUBLE_EQ(again.plan.seconds(), r.best->seconds());
    EXPECT_DOUBLE_EQ(again.plan.memBytes, r.best->memBytes);
    // No fitting plan on any grid is cheaper (each grid's own best is >= it).
    for (const FusionPlan &g : r.bestPerGrid)
      EXPECT_GE(g.seconds(), r.best->seconds());
    std::printf("P=%ld: grid %s, %.1f MB, comm %.1f s, calc %.1f s, %.3f s to plan, %zu kept, %zu pruned\n",
                static_cast<long>(procs), gridString(r.best->grid).c_str(), r.best->memBytes / 1e6,
                r.best->commSeconds, r.best->calcSeconds, seconds, r.solutionsKept, r.solutionsPruned);
    // Without virtual partitioning the search still fits, at no lower cost.
    FusionSearchOptions plain;
    plain.virtualPartitioning = false;
    FusionSearchResult noVirtual = planFusion(p.tree, machine, comm, plain);
    ASSERT_TRUE(noVirtual.best);
    EXPECT_LE(noVirtual.best->memBytes, mem);
    EXPECT_GE(noVirtual.best->seconds(), r.best->seconds());
    for (const auto &n : noVirtual.best->nodes)
      EXPECT_TRUE(fusedWithoutVirtualPartitioning(noVirtual.best->grid, n.edge));
  }
}

TEST(FusionPlanner, DecoupledApproachReplicatesT2AndCannotFit) {
  // [C] 4: minimizing communication without memory computes S in <a,b>, so T2
  // (which has no a) is replicated along a's grid dimension, and no fusion with
  // those distributions fits in 512 MB; only the integrated DP finds a plan.
  Cociorva p;
  FusionMachine machine{32, 512e6, 8, 1e9};
  AnalyticCommCost comm = analytic();
  DecoupledResult r = planDecoupled(p.tree, machine, comm);
  ASSERT_EQ(r.fused.error, "");
  const Grid &grid = r.unfused.grid;
  Distribution atS = r.unfused.nodes[p.S].decision.compute;
  EXPECT_EQ(atS.distributed(grid), p.set("ab")) << atS.str(grid, p.tree);
  Distribution t2Final = r.unfused.nodes[p.T2].edge.consumed;
  EXPECT_FALSE(t2Final.noReplication(grid)) << t2Final.str(grid, p.tree);
  EXPECT_FALSE(r.fused.best);
  EXPECT_GT(r.fused.smallestMemBytes, 512e6);
  EXPECT_TRUE(planFusion(p.tree, machine, comm).best);
  // The paper reads T2's final <a,b> as <*,*>: replicated on all processes,
  // 12.8 GB each (by [C] 3.1's own rule <a,b> seen from T2 is <*,b>).
  std::vector<NodeDecision> replicated = paperSolution(p, Grid{4, 8}, true);
  for (NodeDecision &d : replicated)
    d.fused = 0;
  replicated[p.S].compute = p.dist(Grid{4, 8}, "<a,i>");
  EvaluatedPlan full = evaluateFusionPlan(p.tree, Grid{4, 8}, replicated, machine, comm);
  ASSERT_EQ(full.error, "");
  EXPECT_EQ(full.plan.nodes[p.T2].edge.consumed.str(Grid{4, 8}, p.tree), "<*,*>");
  EXPECT_DOUBLE_EQ(full.plan.nodes[p.T2].memBytes, 12.8e9);
  std::printf("decoupled: grid %s, unfused %.1f GB, comm %.1f s; best fusion %.1f GB\n",
              gridString(r.unfused.grid).c_str(), r.unfused.memBytes / 1e9,
              r.unfused.commSeconds, r.fused.smallestMemBytes / 1e9);
  for (size_t id = 0; id < r.unfused.nodes.size(); ++id)
    std::printf("  %s %s -> %s %.1f MB\n", p.tree.node(id).name.c_str(),
                r.unfused.nodes[id].edge.produced.str(r.unfused.grid, p.tree).c_str(),
                r.unfused.nodes[id].edge.consumed.str(r.unfused.grid, p.tree).c_str(),
                r.unfused.nodes[id].memBytes / 1e6);
}

TEST(FusionPlanner, NothingFitsGivesTheSmallestMemory) {
  Cociorva p;
  FusionMachine machine{32, 1e6, 8, 1e9};
  AnalyticCommCost comm = analytic();
  FusionSearchResult r = planFusion(p.tree, machine, comm);
  EXPECT_FALSE(r.best);
  EXPECT_GT(r.smallestMemBytes, 1e6);
  machine.memBytes = r.smallestMemBytes;
  FusionSearchResult exact = planFusion(p.tree, machine, comm);
  ASSERT_TRUE(exact.best);
  EXPECT_DOUBLE_EQ(exact.best->memBytes, r.smallestMemBytes);
}

} // namespace

namespace {

TEST(FusedSchedule, Table1IsFig2c) {
  // T2 is fused on nothing with S, which streams along a: T2 is produced before
  // the a loop; T1, C and D inside the d loop; B before it.
  Cociorva p;
  Grid grid{4, 8};
  FusionMachine machine{32, 512e6, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(p.tree, grid, paperSolution(p, grid, true), machine, comm);
  ASSERT_EQ(e.error, "");
  FusedSchedule s = buildFusedSchedule(p.tree, e.plan);
  ASSERT_EQ(s.error, "");
  EXPECT_EQ(scheduleString(p.tree, s), "zero T2\n"
                                       "load B\n"
                                       "for d (x1000):\n"
                                       "  zero T1\n"
                                       "  load D\n"
                                       "  redistribute D\n"
                                       "  contract T1\n"
                                       "  redistribute T1\n"
                                       "  load C\n"
                                       "  redistribute C\n"
                                       "  contract T2\n"
                                       "redistribute T2\n"
                                       "for a (x1000):\n"
                                       "  zero S\n"
                                       "  load A\n"
                                       "  redistribute A\n"
                                       "  contract S\n"
                                       "  store S\n");
}

TEST(FusedSchedule, DistributedFusedLoopsRunOverTheLocalBlock) {
  // The DP's plans: every one has a schedule; a loop over an index split p ways
  // runs over N/p local values.
  Cociorva p;
  AnalyticCommCost comm = analytic();
  FusionMachine machine{32, 512e6, 8, 1e9, true};
  FusionSearchOptions options;
  options.virtualPartitioning = false;
  options.firstSlice = false;
  FusionSearchResult r = planFusion(p.tree, machine, comm, options);
  ASSERT_TRUE(r.best);
  for (const auto &n : r.best->nodes) {
    EXPECT_NE(n.decision.variant, SumVariant::ToOne);
    for (size_t d = 0; d < r.best->grid.size(); ++d)
      EXPECT_NE(n.edge.produced.entry[d], Distribution::kFirstSlice);
  }
  ASSERT_TRUE(r.best);
  FusedSchedule s = buildFusedSchedule(p.tree, *r.best);
  ASSERT_EQ(s.error, "");
  std::printf("%s: %s", gridString(r.best->grid).c_str(), scheduleString(p.tree, s).c_str());
  std::function<void(const std::vector<ScheduleItem> &)> check = [&](const auto &items) {
    for (const ScheduleItem &i : items)
      if (i.kind == ScheduleItem::Kind::Loop) {
        EXPECT_GE(i.trips, 1);
        EXPECT_EQ(i.trips * r.best->nodes[p.tree.root()].decision.compute.parts(r.best->grid, i.index) >=
                      p.tree.extent(i.index),
                  true);
        check(i.body);
      }
  };
  check(s.program);
}

TEST(FusedSchedule, PredictedBytesCountEveryIteration) {
  // Table 1: D moves <c,e> -> <*,*> 1000 times (once per d), a 2.8e6-element
  // block each time, of which a process holds 1/32: 31/32 of it is received.
  Cociorva p;
  Grid grid{4, 8};
  FusionMachine machine{32, 512e6, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(p.tree, grid, paperSolution(p, grid, true), machine, comm);
  FusedSchedule s = buildFusedSchedule(p.tree, e.plan);
  std::vector<double> bytes = predictedCommBytes(p.tree, e.plan, s, 8).received;
  ASSERT_EQ(bytes.size(), 32u);
  auto received = [&](int node, double runs) {
    const FusionEdge &edge = e.plan.nodes[node].edge;
    double whole = distSize(p.tree, grid, node, edge.consumed, edge) * 8;
    for (int i : p.tree.node(node).dims)
      whole *= static_cast<double>(edge.consumed.parts(grid, i));
    return runs * exchangeVolumes(grid, edge.produced, edge.consumed).received[5] * whole;
  };
  EXPECT_DOUBLE_EQ(received(p.D, 1000), 1000 * (31.0 / 32) * 1000 * 70 * 40 * 8);
  // The prediction is rank 5's own share (docs/Derivations.md D31): at (0, 5)
  // it holds block 5 of e and f (70 in blocks of 9, the last of 7: 9 here),
  // block 0 of c along grid dimension 0 (250) and of b (250), block 5 of c
  // along dimension 1 (125), of j (5). Every iteration of d (1000) it
  // receives D's slice but its own 250 x 9 x 40, C's (f, j, k) but its
  // 9 x 10 x 40, T1's <b,c> block but the f it holds (250 x 125 x 61), A's
  // (once per a) but its 125 x 10 x 40; T2 once: its <b,j> block but the c it
  // holds (250 x 875 x 5 x 40). Even blocks would give received(...) above.
  EXPECT_DOUBLE_EQ(bytes[5], 8 * (1000 * (1000.0 * 70 * 40 - 250 * 9 * 40) +
                                  1000 * (70.0 * 40 * 40 - 9 * 10 * 40) +
                                  1000 * (250.0 * 125 * 61) + 250.0 * 875 * 5 * 40 +
                                  1000 * (1000.0 * 40 * 40 - 125 * 10 * 40)));
  EXPECT_DOUBLE_EQ(received(p.T2, 1), 8 * 250.0 * 875 * 5 * 40); // even blocks: the same
}

TEST(FusedSchedule, VirtualPartitioningLoopsOverLcmBlocks) {
  // C is computed with i whole (<k>) and read by E split 4 ways along i (<i>),
  // fused on i: [C] 3.2(iii)'s lcm(1, 4) = 4 virtual blocks, 100 / 4 = 25
  // iterations, each moving one row of every virtual block of C.
  auto [tree, A, B, C, Dn, E] = figure3();
  Grid grid{4};
  auto d = [&](const char *t) { return *parseDistribution(t, grid, tree); };
  std::vector<NodeDecision> decisions(5);
  decisions[A] = {d("<j>"), SumVariant::None, 0};
  decisions[B] = {d("<k>"), SumVariant::None, 0};
  decisions[C] = {d("<k>"), SumVariant::None, indexBit(tree.findIndex("i"))};
  decisions[Dn] = {d("<l>"), SumVariant::None, 0};
  decisions[E] = {d("<i>"), SumVariant::None, 0};
  FusionMachine machine{4, 1e9, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(tree, grid, decisions, machine, comm);
  ASSERT_EQ(e.error, "");
  FusedSchedule s = buildFusedSchedule(tree, e.plan);
  ASSERT_EQ(s.error, "");
  const ScheduleItem *loop = nullptr;
  for (const ScheduleItem &item : s.program)
    if (item.kind == ScheduleItem::Kind::Loop)
      loop = &item;
  ASSERT_NE(loop, nullptr) << scheduleString(tree, s);
  EXPECT_EQ(tree.indexName(loop->index), "i");
  EXPECT_EQ(loop->parts, 4);
  EXPECT_EQ(loop->trips, 25);
  // Each iteration redistributes C's slice of 4 rows x 80 columns from <k>
  // (k split 4 ways) to <i> (one row each): every process keeps a quarter of
  // its 4 x 20 block and sends the rest, 25 times over. A (<j> -> <*>) and D
  // (<l> -> <*>) are gathered once: each process sends 3/4 of its block.
  ExchangeVolumes v = predictedCommBytes(tree, e.plan, s, 8);
  for (int64_t r = 0; r < 4; ++r)
    EXPECT_DOUBLE_EQ(v.sent[r], (25.0 * 3 * 20 + 3 * 1500 + 3 * 800) * 8) << "rank " << r;
}

TEST(FusedSchedule, PredictedBytesAreEachRanksShareOfUnevenBlocks) {
  // C(i,k) = sum_j A(i,j) B(j,k) on 3 processes, computed in <j>: every process
  // holds partial sums of all of C's 2 x 4 = 8 elements, combined by the
  // runtime's ring all-reduce over 3 segments of 3, 3 and 2 elements. Rank r
  // sends all but segments r+1 and r+2 (twice over, once per phase) and
  // receives all but r and r+1: 11, 11, 10 elements sent, 10, 11, 11 received,
  // not the average 2 (3-1)/3 x 8 = 10.67 (docs/Derivations.md D31). Then C
  // moves <*> -> <*>: nothing. E(i,l) = sum_k C(i,k) D(k,l) in <l>, l = 5:
  // D (k,l) arrives in <k> (k = 4: blocks of 2, 2, 0 rows) and is needed in
  // <l> (blocks of 2, 2, 1 columns): rank q keeps rows of its k block in its
  // l columns and sends the rest of its rows' columns.
  OperatorTree tree;
  int A = tree.addInput("A", {"i", "j"}, {2, 7});
  int B = tree.addInput("B", {"j", "k"}, {7, 4});
  int C = tree.addContraction("C", {"i", "k"}, A, B);
  int D = tree.addInput("D", {"k", "l"}, {4, 5});
  int E = tree.addContraction("E", {"i", "l"}, C, D);
  Grid grid{3};
  auto d = [&](const char *t) { return *parseDistribution(t, grid, tree); };
  std::vector<NodeDecision> decisions(5);
  decisions[A] = {d("<j>"), SumVariant::None, 0};
  decisions[B] = {d("<j>"), SumVariant::None, 0};
  decisions[C] = {d("<j>"), SumVariant::ToAll, 0};
  decisions[D] = {d("<k>"), SumVariant::None, 0};
  decisions[E] = {d("<l>"), SumVariant::None, 0};
  FusionMachine machine{3, 1e9, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(tree, grid, decisions, machine, comm);
  ASSERT_EQ(e.error, "");
  FusedSchedule s = buildFusedSchedule(tree, e.plan);
  ASSERT_EQ(s.error, "") << scheduleString(tree, s);
  ExchangeVolumes v = predictedCommBytes(tree, e.plan, s, 8);
  ASSERT_EQ(v.sent.size(), 3u);
  // D: rank 0 holds rows 0-1, rank 1 rows 2-3, rank 2 none; the <l> blocks are
  // columns 0-1, 2-3 and 4. Rank 0 sends its 2 rows' columns 2-4 (6), rank 1
  // its rows' columns 0-1 and 4 (6); rank 0 receives rows 2-3 x columns 0-1
  // (4), rank 1 rows 0-1 x 2-3 (4), rank 2 all 4 rows of column 4 (4).
  const double combineSent[3] = {11, 11, 10}, combineReceived[3] = {10, 11, 11};
  const double dSent[3] = {6, 6, 0}, dReceived[3] = {4, 4, 4};
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(v.sent[r], 8 * (combineSent[r] + dSent[r])) << "rank " << r;
    EXPECT_EQ(v.received[r], 8 * (combineReceived[r] + dReceived[r])) << "rank " << r;
  }
  (void)C;
  (void)E;
}

TEST(FusedSchedule, PredictedBytesOfFirstSliceArraysInUnevenBlocks) {
  // A(i,j) (i = 5, j = 3) starts on the first slice of grid dimension 0 of
  // 2 x 2, i split along dimension 1 (<1,i>: rank 0 holds rows 0-2, rank 1
  // rows 3-4, ranks 2 and 3 nothing), and C(i,k) = sum_j A(i,j) B(j,k) is
  // computed everywhere (<*,*>). Rank 0 sends its 9 elements to ranks 1-3,
  // rank 1 its 6 to ranks 0, 2 and 3 (D32: a rank off the slice takes every
  // block from the slice's replicas with its other coordinates), not 7.5
  // each. B (3 x 2) starts on rank 0 only (<1,1>) and goes to all; C stays.
  OperatorTree tree;
  int A = tree.addInput("A", {"i", "j"}, {5, 3});
  int B = tree.addInput("B", {"j", "k"}, {3, 2});
  int C = tree.addContraction("C", {"i", "k"}, A, B);
  Grid grid{2, 2};
  auto d = [&](const char *t) { return *parseDistribution(t, grid, tree); };
  std::vector<NodeDecision> decisions(3);
  decisions[A] = {d("<1,i>"), SumVariant::None, 0};
  decisions[B] = {d("<1,1>"), SumVariant::None, 0};
  decisions[C] = {d("<*,*>"), SumVariant::None, 0};
  FusionMachine machine{4, 1e9, 8, 1e9};
  AnalyticCommCost comm = analytic();
  EvaluatedPlan e = evaluateFusionPlan(tree, grid, decisions, machine, comm);
  ASSERT_EQ(e.error, "");
  FusedSchedule s = buildFusedSchedule(tree, e.plan);
  ASSERT_EQ(s.error, "") << scheduleString(tree, s);
  ExchangeVolumes v = predictedCommBytes(tree, e.plan, s, 8);
  const double sent[4] = {27 + 18, 18, 0, 0}, received[4] = {6, 9 + 6, 15 + 6, 15 + 6};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(v.sent[r], 8 * sent[r]) << "rank " << r;
    EXPECT_EQ(v.received[r], 8 * received[r]) << "rank " << r;
  }
  (void)C;
}

} // namespace
