//===- ContractionPlannerTest.cpp - plans over labels ---------------------===//
#include "TC/Analysis/ContractionPlanner.h"

#include "TestMachine.h"

#include <array>
#include <cmath>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlir::tc;

namespace {

using test::machine;

ContractionProblem matmul(int64_t n) {
  return {{"i", "k"}, {"k", "j"}, {"i", "j"}, {{"i", n}, {"j", n}, {"k", n}}, {}, {}, {}};
}

/// Every candidate's tiles fit the budget, its loops stay within the extents,
/// and nothing is cheaper than the chosen plan.
void expectWellFormed(const PlanResult &r, const ContractionProblem &p,
                      const MachineModel &m) {
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.chosen.has_value());
  const ContractionPlan &chosen = r.candidates[*r.chosen];
  for (const ContractionPlan &c : r.candidates) {
    EXPECT_GE(c.choiceSeconds(), chosen.choiceSeconds());
    double limit = c.inCore ? m.memBytes : m.tileLimit(c.memory);
    if (c.memory == TileMemory::Shared)
      EXPECT_LE(c.bufferBytes[0] + c.bufferBytes[1] + c.bufferBytes[2], limit * (1 + 1e-12));
    else
      for (double b : c.bufferBytes)
        EXPECT_LE(b, limit * (1 + 1e-12));
    // Every loop splits the extent it enters into non-empty tiles.
    for (const auto &[label, extent] : p.extents) {
      int64_t entering = extent;
      for (const auto &group : c.nest.groups)
        for (const TileLoop &loop : group)
          if (loop.label == label) {
            EXPECT_LE(loop.count, entering) << label;
            EXPECT_EQ(loop.count, (entering + (entering + loop.count - 1) / loop.count - 1) /
                                      ((entering + loop.count - 1) / loop.count));
            entering = (entering + loop.count - 1) / loop.count;
          }
    }
    if (c.inCore) {
      EXPECT_EQ(c.diskBytes, 0);
    }
  }
}

} // namespace

TEST(ContractionPlanner, InCoreWhenEverythingFits) {
  ContractionProblem p = matmul(64);
  MachineModel m = machine(4, 1 << 30);
  PlanResult r = planContraction(p, m);
  expectWellFormed(r, p, m);
  const ContractionPlan &c = r.candidates[*r.chosen];
  EXPECT_TRUE(c.inCore);
  EXPECT_EQ(c.totalDiskBytes(), 0);
  for (const auto &group : c.nest.groups)
    EXPECT_TRUE(group.empty());
}

TEST(ContractionPlanner, OutOfCoreTilesFitTheBudget) {
  ContractionProblem p = matmul(1000);
  MachineModel m = machine(4, 3e6); // 8 MB per array: far more than memory
  PlanResult r = planContraction(p, m);
  expectWellFormed(r, p, m);
  const ContractionPlan &c = r.candidates[*r.chosen];
  EXPECT_FALSE(c.inCore);
  EXPECT_GT(c.diskBytes, 0);
  // Rotation on the square 2 x 2 grid: Table 1 layouts.
  bool sawRotation = false;
  for (const ContractionPlan &cand : r.candidates)
    if (cand.algorithm == ParallelAlgorithm::Rotation) {
      sawRotation = true;
      EXPECT_EQ(cand.layoutA.str(), "[2, 2] (i, k)");
      EXPECT_EQ(cand.layoutB.str(), "[2, 2] (k, j)");
      EXPECT_EQ(cand.layoutC.str(), "[2, 2] (i, j)");
    }
  EXPECT_TRUE(sawRotation);
}

TEST(ContractionPlanner, SharedMemoryTilingReachesTheRedBlueBound) {
  // bench/out-of-core.sh's case: 4096^3 on 2 processes of 24 MB. Gao et al.'s
  // per-array budget (8 MB per tile) moves 5.37e8 disk bytes per process;
  // COSMA's sequential schedule keeps a 2048 x 1024 block of C resident and
  // streams panels of A and B: within 5% of Theorem 1's 2mnk/(P sqrt(S)) + mn/P
  // (docs/Derivations.md D29).
  ContractionProblem p = matmul(4096);
  MachineModel m = machine(2, 24e6);
  PlanResult r = planContraction(p, m);
  expectWellFormed(r, p, m);
  const ContractionPlan &c = r.candidates[*r.chosen];
  EXPECT_FALSE(c.inCore);
  EXPECT_EQ(c.memory, TileMemory::Shared);
  EXPECT_EQ(c.nest.readIn(0), Operand::C);
  const double n = 4096, S = 24e6 / 8;
  const double bound = 8 * (2 * n * n * n / (2 * std::sqrt(S)) + n * n / 2);
  EXPECT_LE(c.diskBytes, 1.05 * bound);
  // C is read and written once, A's own half once per J tile, B once per I
  // tile: 2 x 2 tiles of C leave 4.03e8 bytes.
  EXPECT_DOUBLE_EQ(c.diskBytes, 8 * n * n / 2 * (2 + 2 + 2));
  EXPECT_LE(c.bufferBytes[0] + c.bufferBytes[1] + c.bufferBytes[2],
            m.memBytes - m.stagingBytes());
  // Asked for, Gao et al.'s rule alone: its least disk traffic is 5.37e8.
  PlanDecisions gao;
  gao.memory = TileMemory::PerArray;
  PlanResult g = planContraction(p, m, gao);
  ASSERT_TRUE(g.chosen.has_value());
  double least = g.candidates.front().diskBytes;
  for (const ContractionPlan &x : g.candidates) {
    EXPECT_EQ(x.memory, TileMemory::PerArray);
    least = std::min(least, x.diskBytes);
  }
  EXPECT_DOUBLE_EQ(least, 8 * n * n / 2 * 8);
  EXPECT_GT(least, 1.3 * bound);
}

TEST(ContractionPlanner, SharedMemoryTilingShapes) {
  // Tall, flat and skinny products under a memory cap: the shared plan's C
  // tile fills memory and its panels fit beside it; never worse than the
  // per-array plan's disk bytes for the same algorithm and method.
  for (auto [I, J, K] : {std::array<int64_t, 3>{512, 512, 8192}, {4096, 4096, 64},
                         {8192, 96, 512}, {300, 301, 302}}) {
    ContractionProblem p{{"i", "k"}, {"k", "j"}, {"i", "j"},
                         {{"i", I}, {"j", J}, {"k", K}}, {}, {}, {}};
    MachineModel m = machine(4, 4e6);
    PlanResult r = planContraction(p, m);
    expectWellFormed(r, p, m);
    for (const ContractionPlan &s : r.candidates) {
      if (!s.tiled() || s.memory != TileMemory::Shared)
        continue;
      EXPECT_EQ(s.nest.readIn(0), Operand::C);
      for (const ContractionPlan &g : r.candidates)
        if (g.tiled() && g.memory == TileMemory::PerArray && g.algorithm == s.algorithm &&
            g.method == s.method && g.nest.readIn(0) == Operand::C)
          EXPECT_LE(s.diskBytes, g.diskBytes * (1 + 1e-12))
              << I << "x" << J << "x" << K << " " << toString(s.algorithm);
    }
  }
}

TEST(ContractionPlanner, PlanVolumesMatchTheNest) {
  // The plan's disk bytes are the model's at the realized counts: A read rA times,
  // B rB times, C read and written rC times (outside accumulation adds its C
  // all-reduce phase; in the inside methods nothing else touches disk).
  ContractionProblem p{{"a", "m", "b", "n"}, {"n", "c", "m", "d"}, {"a", "b", "c", "d"},
                       {{"a", 12}, {"b", 10}, {"c", 14}, {"d", 8}, {"m", 6}, {"n", 9}},
                       {}, {}, {}};
  MachineModel m = machine(4, 40000);
  PlanDecisions d;
  d.method = CommMethod::Inside;
  d.algorithm = ParallelAlgorithm::Accumulation;
  PlanResult r = planContraction(p, m, d);
  expectWellFormed(r, p, m);
  ASSERT_FALSE(r.candidates.empty());
  for (const ContractionPlan &c : r.candidates) {
    NestArray A{p.labelsA, {{"m", 4}}}, B{p.labelsB, {{"m", 4}}}, C{p.labelsC, {}};
    double elems = 8.0;
    double sizeA = elems * 12 * 6 * 10 * 9, sizeB = elems * 9 * 14 * 6 * 8,
           sizeC = elems * 12 * 10 * 14 * 8;
    double expected = sizeA / 4 * rereadCount(c.nest, Operand::A, A) +
                      sizeB / 4 * rereadCount(c.nest, Operand::B, B) +
                      2 * sizeC * rereadCount(c.nest, Operand::C, C);
    EXPECT_DOUBLE_EQ(c.diskBytes, expected) << toString(c.nest.order);
  }
}

TEST(ContractionPlanner, NonSquareProcessCountSkipsRotationWithARemark) {
  ContractionProblem p = matmul(1000);
  MachineModel m = machine(6, 3e6);
  PlanResult r = planContraction(p, m);
  expectWellFormed(r, p, m);
  for (const ContractionPlan &c : r.candidates)
    EXPECT_NE(c.algorithm, ParallelAlgorithm::Rotation);
  ASSERT_FALSE(r.remarks.empty());
  EXPECT_EQ(r.remarks[0], "rotation skipped: P = 6 is not a perfect square");
}

TEST(ContractionPlanner, DecisionsRestrictTheSearch) {
  ContractionProblem p = matmul(64);
  MachineModel m = machine(4, 1 << 30);
  PlanDecisions d;
  d.inCore = false;
  d.method = CommMethod::Outside;
  d.algorithm = ParallelAlgorithm::ReplicationB;
  d.order = ReadOrder::BAC;
  PlanResult r = planContraction(p, m, d);
  expectWellFormed(r, p, m);
  ASSERT_EQ(r.candidates.size(), 1u);
  const ContractionPlan &c = r.candidates[0];
  EXPECT_FALSE(c.inCore);
  EXPECT_EQ(c.algorithm, ParallelAlgorithm::ReplicationB);
  EXPECT_EQ(c.nest.order, ReadOrder::BAC);
  EXPECT_EQ(c.layoutA.str(), "[4] (i)");
  EXPECT_EQ(c.layoutB.str(), "[4] (*)");

  // A given nest is evaluated as is.
  d.nest = TileNest{ReadOrder::BAC, {{{{"j", 2}, {"k", 4}}, {{"i", 2}}, {}, {}}}};
  PlanResult given = planContraction(p, m, d);
  ASSERT_EQ(given.candidates.size(), 1u) << given.error;
  EXPECT_EQ(given.candidates[0].nest.groups, d.nest->groups);
  // B (k x j, replicated) re-read once, A (i x k over 4) Jt1 = 2 times, C (i x j
  // over 4) read and written Kt1 = 4 times, plus the disk-to-disk broadcast of B.
  double n2 = 8.0 * 64 * 64;
  EXPECT_DOUBLE_EQ(given.candidates[0].diskBytes, n2 + n2 + 2 * n2 / 4 + 2 * 4 * n2 / 4);

  // A nest whose tiles do not fit has no plan.
  PlanDecisions tooBig = d;
  tooBig.nest = TileNest{ReadOrder::BAC, {}};
  PlanResult none = planContraction(p, machine(4, 3 * 1000), tooBig);
  EXPECT_TRUE(none.candidates.empty());
  EXPECT_NE(none.error.find("no plan satisfies the given decisions"), std::string::npos)
      << none.error;
}

TEST(ContractionPlanner, ConstrainedLayoutsCostRedistribution) {
  // A and B arrive distributed along k: accumulation needs no stage-1 move, so
  // with the same stage-2 cost it beats the others by the redistribution.
  ContractionProblem p{{"i", "k", "l"}, {"k", "l", "j"}, {"i", "j"},
                       {{"i", 16}, {"j", 16}, {"k", 64}, {"l", 64}}, {}, {}, {}};
  MachineModel m = machine(4, 1 << 30);
  p.givenA = Layout{{4}, {"l"}};
  p.givenB = Layout{{4}, {"l"}};
  PlanDecisions acc;
  acc.algorithm = ParallelAlgorithm::Accumulation;
  PlanResult r = planContraction(p, m, acc);
  expectWellFormed(r, p, m);
  const ContractionPlan &c = r.candidates[*r.chosen];
  // The distributed K index is the one the inputs already use.
  EXPECT_EQ(c.layoutA.str(), "[4] (l)");
  EXPECT_EQ(c.redist.commBytes, 0);
  // Required C distributed along i: accumulation's replicated C is selected locally.
  p.requiredC = Layout{{4}, {"i"}};
  EXPECT_EQ(planContraction(p, m, acc).candidates[0].redist.commBytes, 0);
  // Rotation must move both inputs.
  PlanDecisions rot;
  rot.algorithm = ParallelAlgorithm::Rotation;
  PlanResult moved = planContraction(p, m, rot);
  ASSERT_FALSE(moved.candidates.empty()) << moved.error;
  EXPECT_GT(moved.candidates[0].redist.commBytes, 0);
  // A layout on the wrong number of processes is an error.
  p.givenA = Layout{{8}, {"l"}};
  EXPECT_EQ(planContraction(p, m).error,
            "the layout of A [8] (l) spans 8 processes but the machine has 4");
}

TEST(ContractionPlanner, HeldOperandsCountTheirHandOverWhenChoosing) {
  // W[a,b,e,f] += T[a,m] * V[m,b,e,f] where another statement left W's old
  // value split along b (D45): the search weighs moving it into each
  // candidate's layout of C; none of it is a stage of the plan.
  ContractionProblem p{{"a", "m"},
                       {"m", "b", "e", "f"},
                       {"a", "b", "e", "f"},
                       {{"a", 38}, {"b", 38}, {"e", 38}, {"f", 38}, {"m", 10}},
                       {},
                       {},
                       {}};
  MachineModel m = machine(2, 1 << 30);
  PlanResult free = planContraction(p, m);
  ASSERT_TRUE(free.chosen) << free.error;
  for (const ContractionPlan &c : free.candidates)
    EXPECT_EQ(c.handOver.commBytes, 0);
  p.heldC = Layout{{2}, {"b"}};
  PlanResult held = planContraction(p, m);
  expectWellFormed(held, p, m);
  const ContractionPlan &chosen = held.candidates[*held.chosen];
  bool matching = false;
  for (const ContractionPlan &c : held.candidates) {
    EXPECT_GE(c.choiceSeconds(), chosen.choiceSeconds());
    // A plan computing C where it is held moves none of it.
    if (c.layoutC.samePartition(*p.heldC)) {
      EXPECT_EQ(c.handOver.commBytes, 0);
      matching = true;
    }
  }
  ASSERT_TRUE(matching);
  // Half of C (8.3 MB) would move into a layout split along another label:
  // the chosen plan takes W where it is.
  EXPECT_EQ(chosen.handOver.commBytes, 0);
  EXPECT_EQ(chosen.redist.commBytes, 0);
  // Held operands are moved by the runtime, not planned as stage 1: the
  // same plan's volumes as without them.
  EXPECT_EQ(free.candidates.size(), held.candidates.size());
}

TEST(ContractionPlanner, NoPlanFitsNamesTheArrayAndTheMemory) {
  PlanResult r = planContraction(matmul(16), machine(4, 6));
  EXPECT_FALSE(r.chosen.has_value());
  EXPECT_EQ(r.error, "no plan fits in memory: array A needs at least 8 bytes per process "
                     "for one tile but its budget is 2 bytes (0.333333 of 6 bytes); at "
                     "least 24 bytes of memory per process are needed");
}

TEST(ContractionPlanner, OuterProductAndReduction) {
  // Outer product: no K index, so accumulation (and rotation) cannot run.
  ContractionProblem outer{{"i"}, {"j"}, {"i", "j"}, {{"i", 64}, {"j", 64}}, {}, {}, {}};
  PlanResult r = planContraction(outer, machine(4, 1 << 20));
  expectWellFormed(r, outer, machine(4, 1 << 20));
  for (const ContractionPlan &c : r.candidates)
    EXPECT_NE(c.algorithm, ParallelAlgorithm::Accumulation);
  // Full reduction to a scalar: only accumulation distributes anything.
  ContractionProblem dot{{"k"}, {"k"}, {}, {{"k", 4096}}, {}, {}, {}};
  PlanResult d = planContraction(dot, machine(4, 1 << 20));
  expectWellFormed(d, dot, machine(4, 1 << 20));
  EXPECT_EQ(d.candidates[*d.chosen].algorithm, ParallelAlgorithm::Accumulation);
}

TEST(ContractionPlanner, RandomProblemProperties) {
  std::mt19937 rng(20261123);
  std::uniform_int_distribution<int> extent(1, 90), procsPick(0, 4), memExp(10, 22);
  const int64_t procs[] = {1, 2, 4, 6, 9};
  int outOfCore = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ContractionProblem p{{"a", "k", "b"}, {"k", "c", "l"}, {"c", "a", "b"},
                         {}, {}, {}, {}};
    p.labelsA.push_back("l");
    for (const char *l : {"a", "b", "c", "k", "l"})
      p.extents[l] = extent(rng);
    MachineModel m = machine(procs[procsPick(rng)], std::pow(2.0, memExp(rng)));
    PlanResult r = planContraction(p, m);
    if (!r.chosen) {
      // Only possible when an algorithm-distributed index is smaller than P for
      // every algorithm; never for lack of memory at these sizes.
      EXPECT_EQ(r.error.find("no plan fits"), std::string::npos) << r.error;
      continue;
    }
    expectWellFormed(r, p, m);
    const ContractionPlan &c = r.candidates[*r.chosen];
    double a = 8.0, b = 8.0, cc = 8.0;
    for (const std::string &l : p.labelsA)
      a *= p.extents[l];
    for (const std::string &l : p.labelsB)
      b *= p.extents[l];
    for (const std::string &l : p.labelsC)
      cc *= p.extents[l];
    if (a + b + cc <= m.memBytes) {
      EXPECT_EQ(c.totalDiskBytes(), 0) << "trial " << trial;
    }
    outOfCore += !c.inCore;
  }
  EXPECT_GT(outOfCore, 30);
}

namespace {

/// The loops of `nest` as a #tc.plan gives them back: each group sorted by label.
TileNest asRecorded(TileNest nest) {
  for (auto &group : nest.groups)
    std::sort(group.begin(), group.end(),
              [](const TileLoop &a, const TileLoop &b) { return a.label < b.label; });
  return nest;
}

/// What tc-select-algorithm (stage 1), tc-place-io (2) and tc-solve-tiles (3)
/// have recorded of `c` after `stage`.
PlanDecisions recorded(const ContractionPlan &c, int stage) {
  PlanDecisions d;
  d.inCore = c.inCore;
  d.algorithm = c.algorithm;
  // As mergePlan records them: Gao et al.'s tiling fields only for tiled
  // plans (COSMA out of core runs rounds, D56).
  if (c.tiled())
    d.method = c.method;
  if (stage >= 2 && c.tiled())
    d.order = c.nest.order;
  if (stage >= 3 && c.tiled()) {
    d.nest = asRecorded(c.nest);
    d.memory = c.memory; // recorded with the loops
  }
  if (stage >= 3 && c.iContiguous) // recorded only when true
    d.iContiguous = true;
  d.grid = c.layoutA.grid;
  return d;
}

void expectSamePlan(const ContractionPlan &a, const ContractionPlan &b) {
  EXPECT_EQ(a.inCore, b.inCore);
  EXPECT_EQ(a.iContiguous, b.iContiguous);
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.rounds.size(), b.rounds.size());
  if (a.tiled()) {
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(asRecorded(a.nest).groups, asRecorded(b.nest).groups);
    EXPECT_EQ(a.nest.order, b.nest.order);
  }
  EXPECT_EQ(a.layoutA.dims, b.layoutA.dims);
  EXPECT_EQ(a.layoutB.dims, b.layoutB.dims);
  EXPECT_EQ(a.layoutC.dims, b.layoutC.dims);
  EXPECT_EQ(a.layoutC.grid, b.layoutC.grid);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(a.bufferBytes[i], b.bufferBytes[i]);
  EXPECT_EQ(a.totalDiskBytes(), b.totalDiskBytes());
  EXPECT_EQ(a.totalCommBytes(), b.totalCommBytes());
  EXPECT_EQ(a.totalSeconds(), b.totalSeconds());
}

ContractionProblem randomProblem(std::mt19937 &rng) {
  std::uniform_int_distribution<int> extent(1, 90);
  ContractionProblem p{{"a", "k", "b", "l"}, {"k", "c", "l"}, {"c", "a", "b"}, {}, {}, {}, {}};
  for (const char *l : {"a", "b", "c", "k", "l"})
    p.extents[l] = extent(rng);
  return p;
}

MachineModel randomMachine(std::mt19937 &rng) {
  std::uniform_int_distribution<int> procsPick(0, 4), memExp(10, 22);
  const int64_t procs[] = {1, 2, 4, 6, 9};
  return machine(procs[procsPick(rng)], std::pow(2.0, memExp(rng)));
}

} // namespace

// The planning passes search once and record the choice a field at a time; each
// later pass asks again under the decisions recorded so far and must get the
// same plan a new search would give.
TEST(ContractionPlanner, ChoiceStandsWhereThePassesAskAgain) {
  std::mt19937 rng(7);
  std::vector<std::pair<ContractionProblem, MachineModel>> cases = {
      {matmul(4000), machine(4, 64e6)}, {matmul(64), machine(4, 1 << 30)},
      {matmul(512), machine(3, 1 << 20)},
      // A long I (stored I-contiguous), out of core.
      {{{"a", "b", "c", "p"}, {"p", "d"}, {"a", "b", "c", "d"},
        {{"a", 16}, {"b", 16}, {"c", 16}, {"d", 8}, {"p", 8}}, {}, {}, {}},
       machine(4, 1 << 16)}};
  for (int trial = 0; trial < 200; ++trial)
    cases.push_back({randomProblem(rng), randomMachine(rng)});
  int outOfCore = 0, iContiguous = 0;
  for (const auto &[p, m] : cases) {
    PlanResult first = planContraction(p, m);
    if (!first.chosen)
      continue;
    const ContractionPlan &c = first.candidates[*first.chosen];
    outOfCore += !c.inCore;
    iContiguous += c.iContiguous;
    for (int stage = 1; stage <= 3; ++stage) {
      PlanDecisions now = recorded(c, stage);
      ASSERT_TRUE(choiceStands({}, c, now)) << "stage " << stage;
      PlanResult again = planContraction(p, m, now);
      ASSERT_TRUE(again.chosen) << again.error;
      expectSamePlan(again.candidates[*again.chosen], c);
    }
  }
  EXPECT_GT(outOfCore, 30);
  EXPECT_GE(iContiguous, 1);
}

// Wherever choiceStands says a choice stands, a new search agrees; and it says
// so only for decisions that keep the searched ones and fix the algorithm.
TEST(ContractionPlanner, ChoiceStandsOnlyWhereASearchAgrees) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> coin(0, 1), pick(0, 1 << 20);
  int stands = 0, asked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ContractionProblem p = randomProblem(rng);
    MachineModel m = randomMachine(rng);
    PlanResult all = planContraction(p, m);
    if (all.candidates.empty())
      continue;
    // Decisions from two random candidates: `searched` from one, `now` from
    // `searched` plus fields of another.
    auto fieldsOf = [&](const ContractionPlan &c, PlanDecisions d) {
      if (coin(rng))
        d.inCore = c.inCore;
      if (coin(rng))
        d.algorithm = c.algorithm;
      if (coin(rng))
        d.method = c.method;
      if (coin(rng) && c.tiled()) {
        d.order = c.nest.order;
        if (coin(rng)) {
          d.nest = asRecorded(c.nest);
          d.memory = c.memory;
        }
      }
      if (coin(rng))
        d.iContiguous = coin(rng) == 1;
      if (coin(rng))
        d.grid = c.layoutA.grid;
      return d;
    };
    const ContractionPlan &x = all.candidates[pick(rng) % all.candidates.size()];
    const ContractionPlan &y = all.candidates[pick(rng) % all.candidates.size()];
    PlanDecisions searched = fieldsOf(x, {});
    PlanResult first = planContraction(p, m, searched);
    if (!first.chosen)
      continue;
    const ContractionPlan &c = first.candidates[*first.chosen];
    PlanDecisions now = fieldsOf(coin(rng) ? c : y, searched);
    ++asked;
    if (!choiceStands(searched, c, now))
      continue;
    ++stands;
    PlanDecisions searchedRest = searched, nowRest = now; // i_contiguous: no search
    searchedRest.iContiguous = nowRest.iContiguous = std::nullopt;
    EXPECT_TRUE(sameDecisions(searchedRest, nowRest) || now.algorithm == c.algorithm);
    PlanResult again = planContraction(p, m, now);
    ASSERT_TRUE(again.chosen) << again.error;
    expectSamePlan(again.candidates[*again.chosen], c);
  }
  EXPECT_GT(stands, 40);
  EXPECT_GT(asked - stands, 40);
}

TEST(ContractionPlanner, ChoiceDoesNotStandForOtherDecisions) {
  ContractionProblem p = matmul(4000);
  // Two processes: Gao et al.'s tiling (inside replication-a) is chosen.
  MachineModel m = machine(2, 64e6);
  PlanResult r = planContraction(p, m);
  const ContractionPlan &c = r.candidates[*r.chosen];
  ASSERT_TRUE(c.tiled());
  PlanDecisions other = recorded(c, 1);
  other.algorithm = c.algorithm == ParallelAlgorithm::Accumulation
                        ? ParallelAlgorithm::ReplicationA
                        : ParallelAlgorithm::Accumulation;
  EXPECT_FALSE(choiceStands({}, c, other));
  // in_core = false alone may add out-of-core candidates of algorithms that fit in
  // core: a new search decides.
  PlanDecisions outOfCore;
  outOfCore.inCore = false;
  EXPECT_FALSE(choiceStands({}, c, outOfCore));
  // Dropping a searched decision, or loops other than the chosen ones.
  EXPECT_FALSE(choiceStands(recorded(c, 2), c, recorded(c, 1)));
  PlanDecisions loops = recorded(c, 3);
  loops.nest->groups[3].push_back({"k", 2});
  EXPECT_FALSE(choiceStands({}, c, loops));
  EXPECT_TRUE(choiceStands(recorded(c, 3), c, recorded(c, 3)));
}

TEST(ContractionPlanner, CosmaOutOfCoreStandsWithoutATiling) {
  // Four processes: COSMA out of core (D56) is chosen; recorded without a
  // method, order or loops, it stands; any of them rules it out.
  ContractionProblem p = matmul(4000);
  PlanResult r = planContraction(p, machine(4, 64e6));
  const ContractionPlan &c = r.candidates[*r.chosen];
  ASSERT_EQ(c.algorithm, ParallelAlgorithm::Cosma);
  ASSERT_FALSE(c.inCore);
  EXPECT_FALSE(c.tiled());
  EXPECT_TRUE(choiceStands({}, c, recorded(c, 3)));
  PlanDecisions method = recorded(c, 3);
  method.method = c.method;
  EXPECT_FALSE(choiceStands({}, c, method));
  PlanDecisions order = recorded(c, 3);
  order.order = ReadOrder::CAB;
  EXPECT_FALSE(choiceStands({}, c, order));
  EXPECT_FALSE(planContraction(p, machine(4, 64e6), method).chosen.has_value());
}

TEST(ContractionPlanner, GivenGridRestrictsTheSearch) {
  ContractionProblem p = matmul(64);
  // A 1-d grid of all ranks: Gao et al.'s replication and accumulation only.
  PlanDecisions d;
  d.grid = std::vector<int64_t>{5};
  PlanResult r = planContraction(p, machine(5, 1 << 30), d);
  ASSERT_TRUE(r.chosen.has_value()) << r.error;
  for (const ContractionPlan &c : r.candidates)
    EXPECT_EQ(c.layoutA.grid, std::vector<int64_t>({5})) << toString(c.algorithm);
  // A COSMA grid of fewer ranks than the machine's: the rest idle
  // (Kwasniewski et al. section 7.1). Only COSMA runs on it.
  d.grid = std::vector<int64_t>{2, 2, 1};
  r = planContraction(p, machine(5, 1 << 30), d);
  ASSERT_TRUE(r.chosen.has_value()) << r.error;
  ASSERT_EQ(r.candidates.size(), 1u);
  const ContractionPlan &c = r.candidates[0];
  EXPECT_EQ(c.algorithm, ParallelAlgorithm::Cosma);
  EXPECT_EQ(c.layoutA.grid, std::vector<int64_t>({2, 2, 1}));
  ASSERT_EQ(c.receivedPerRank.size(), 5u);
  EXPECT_EQ(c.receivedPerRank[4], 0.0);
  EXPECT_TRUE(choiceStands(d, c, recorded(c, 3)));
  // Other algorithms use every rank.
  d.algorithm = ParallelAlgorithm::Accumulation;
  d.grid = std::vector<int64_t>{4};
  r = planContraction(p, machine(5, 1 << 30), d);
  EXPECT_FALSE(r.chosen.has_value());
  EXPECT_EQ(r.error, "algorithm = accumulation runs on every process, but the plan's grid "
                     "[4] has 4 of the machine's 5 (only cosma leaves processes idle)");
  // No algorithm on more ranks than the machine has.
  d.algorithm.reset();
  d.grid = std::vector<int64_t>{2, 2, 2};
  r = planContraction(p, machine(5, 1 << 30), d);
  EXPECT_EQ(r.error, "the plan's grid [2, 2, 2] has 8 processes but the machine has 5");
  // A grid no algorithm's plan is on.
  d.grid = std::vector<int64_t>{3};
  r = planContraction(p, machine(5, 1 << 30), d);
  EXPECT_FALSE(r.chosen.has_value());
  EXPECT_NE(r.error.find("no plan satisfies the given decisions: grid = [3]"), std::string::npos)
      << r.error;
}

TEST(ContractionPlanner, AMemoryRefusalSaysSo) {
  // R[l,b] = A[b,c,i,l] * B[i,c,d,a] on 4 processes of 3 KB: every algorithm
  // that applies needs more memory; the error says memory, not "skipped".
  ContractionProblem p{{"b", "c", "i", "l"}, {"i", "c", "d", "a"}, {"l", "b"},
                       {{"a", 7}, {"b", 7}, {"c", 7}, {"d", 7}, {"i", 5}, {"l", 5}}, {}, {}, {}};
  MachineModel m = machine(4, 3000);
  m.runtimeVolumes = true;
  PlanResult r = planContraction(p, m);
  EXPECT_FALSE(r.chosen.has_value());
  EXPECT_NE(r.error.find("no plan fits in memory"), std::string::npos) << r.error;
  m.memBytes = 1e6;
  EXPECT_TRUE(planContraction(p, m).chosen.has_value());
}

namespace {

/// Whether `plan` computes the whole contraction on every process (D58).
bool runsWholeEverywhere(const ContractionPlan &plan) {
  return plan.algorithm == ParallelAlgorithm::Batch && plan.layoutA.isReplicated() &&
         plan.layoutB.isReplicated() && plan.layoutC.isReplicated();
}

/// `m` charging `latency` seconds per message, at 10 Gflop/s per process.
MachineModel withLatency(MachineModel m, double latency) {
  m.latency = latency;
  m.flopRate = 1e10;
  return m;
}

} // namespace

// Microseconds of work against messages of 10 us: the whole product on every
// process, with no message; the papers' model (latency 0) never offers it,
// and work that outweighs the messages is spread over the processes.
TEST(ContractionPlanner, WholeOnEveryProcessWhereMessagesCostMoreThanTheWork) {
  for (int64_t P : {2, 3, 4}) {
    const ContractionProblem tiny = matmul(8);
    PlanResult r = planContraction(tiny, withLatency(machine(P, 1e9), 1e-5));
    ASSERT_TRUE(r.chosen) << r.error;
    const ContractionPlan &chosen = r.candidates[*r.chosen];
    EXPECT_TRUE(runsWholeEverywhere(chosen)) << "P = " << P;
    EXPECT_TRUE(chosen.inCore);
    EXPECT_EQ(chosen.commBytes, 0);
    // Its cost is the work the other processes' shares add: 2 n^3 (1 - 1/P).
    EXPECT_NEAR(chosen.seconds, 2.0 * 512 * (1 - 1.0 / P) / 1e10, 1e-15);

    PlanResult paper = planContraction(tiny, machine(P, 1e9));
    ASSERT_TRUE(paper.chosen);
    for (const ContractionPlan &c : paper.candidates)
      EXPECT_FALSE(runsWholeEverywhere(c)) << "P = " << P;

    PlanResult large = planContraction(matmul(2000), withLatency(machine(P, 1e9), 1e-5));
    ASSERT_TRUE(large.chosen);
    EXPECT_FALSE(runsWholeEverywhere(large.candidates[*large.chosen])) << "P = " << P;
  }
}

// Each stage-2 message costs the latency: replication in core all-gathers
// over a ring (P - 1 messages) and leaves C split, whose reader needs P - 1
// more; accumulation all-reduces (2 log2 P on a power of two) into C whole.
TEST(ContractionPlanner, LatencyPricesEachMessageOfStageTwo) {
  const int64_t P = 4;
  const double latency = 1e-3;
  for (auto [alg, messages] :
       {std::pair{ParallelAlgorithm::ReplicationA, 2.0 * (P - 1)},
        std::pair{ParallelAlgorithm::Accumulation, 2.0 * std::log2(static_cast<double>(P))}}) {
    PlanDecisions d;
    d.algorithm = alg;
    d.inCore = true;
    PlanResult bytesOnly = planContraction(matmul(64), machine(P, 1e9), d);
    PlanResult priced = planContraction(matmul(64), withLatency(machine(P, 1e9), latency), d);
    ASSERT_TRUE(bytesOnly.chosen && priced.chosen);
    EXPECT_NEAR(priced.candidates[*priced.chosen].seconds -
                    bytesOnly.candidates[*bytesOnly.chosen].seconds,
                latency * messages, 1e-12)
        << toString(alg);
  }
}

// Handing a held operand over costs a message to each other process, except
// into a plan that runs whole (its result then reaches every reader with
// none: the messages are its producer's, charged there).
TEST(ContractionPlanner, HandOverLatencyIsChargedToSplitPlansOnly) {
  const int64_t P = 2;
  ContractionProblem p = matmul(8);
  p.heldA = Layout{{P}, {"k"}};
  PlanResult r = planContraction(p, withLatency(machine(P, 1e9), 1e-5));
  ASSERT_TRUE(r.chosen);
  bool sawWhole = false, sawSplit = false;
  for (const ContractionPlan &c : r.candidates) {
    if (c.handOver.commBytes == 0)
      continue;
    const double bytesSeconds = c.handOver.commBytes / 200e6;
    if (runsWholeEverywhere(c)) {
      sawWhole = true;
      EXPECT_NEAR(c.handOver.seconds, bytesSeconds, 1e-15);
    } else {
      sawSplit = true;
      EXPECT_NEAR(c.handOver.seconds, bytesSeconds + 1e-5 * (P - 1), 1e-15);
    }
  }
  EXPECT_TRUE(sawWhole);
  EXPECT_TRUE(sawSplit);
  EXPECT_TRUE(runsWholeEverywhere(r.candidates[*r.chosen]));
}

// Every label shorter than the grid: the ragged plans (some processes with
// empty blocks) still compete with the whole contraction on every process,
// and a batch product of 40^4 on 64 processes is spread over them.
TEST(ContractionPlanner, WholeCompetesWithRaggedPlans) {
  ContractionProblem batched{{"b", "i", "k"},
                             {"b", "k", "j"},
                             {"b", "i", "j"},
                             {{"b", 40}, {"i", 40}, {"j", 40}, {"k", 40}},
                             {},
                             {},
                             {}};
  MachineModel m = machine(64, 1e9);
  m.latency = 1e-5;
  PlanResult r = planContraction(batched, m);
  ASSERT_TRUE(r.chosen) << r.error;
  EXPECT_TRUE(std::any_of(r.candidates.begin(), r.candidates.end(), runsWholeEverywhere));
  const ContractionPlan &chosen = r.candidates[*r.chosen];
  EXPECT_FALSE(runsWholeEverywhere(chosen));
}

// Readers of the result (D59): handing the result over into a reader's
// layout counts in each candidate's choice at the same prices as the
// reader's own hand-over, so that enough readers of C split along j turn the
// choice from the plan that leaves C split along i (COSMA's, the cheapest
// alone) to one that leaves it as they load it.
TEST(ContractionPlanner, ReadersHandOffCountsInTheChoice) {
  const int64_t P = 2;
  const ContractionProblem alone = matmul(64);
  const MachineModel m = machine(P, 1e9);
  PlanResult first = planContraction(alone, m);
  ASSERT_TRUE(first.chosen) << first.error;
  const Layout left = first.candidates[*first.chosen].layoutC;
  ASSERT_EQ(left.parts("i"), P) << left.str();
  EXPECT_EQ(first.candidates[*first.chosen].handOff.commBytes, 0);
  const Layout alongJ{{P}, {"j"}};
  ContractionProblem read = alone;
  for (int reader = 0; reader < 3; ++reader) {
    read.readers.push_back({alongJ, /*whole=*/false});
    PlanResult r = planContraction(read, m);
    ASSERT_TRUE(r.chosen) << r.error;
    expectWellFormed(r, read, m);
    bool sawMove = false;
    for (const ContractionPlan &c : r.candidates) {
      if (!c.inCore || c.layoutC.parts("i") != P)
        continue;
      // Half of each rank's 32 x 64 block moves to each reader: 8 KB at 200 MB/s.
      sawMove = true;
      EXPECT_EQ(c.handOff.commBytes, (reader + 1) * 32 * 32 * 8.0);
      EXPECT_NEAR(c.handOff.seconds, c.handOff.commBytes / 200e6, 1e-15);
    }
    EXPECT_TRUE(sawMove);
    const ContractionPlan &chosen = r.candidates[*r.chosen];
    // Two readers: COSMA's plan and its hand-offs cost replication-a's plan.
    if (reader == 0) {
      EXPECT_EQ(chosen.layoutC.parts("i"), P) << chosen.layoutC.str();
    } else if (reader == 2) {
      EXPECT_TRUE(chosen.layoutC.samePartition(alongJ)) << chosen.layoutC.str();
      EXPECT_EQ(chosen.handOff.commBytes, 0);
    }
  }
  // A reader that runs whole on every process is charged the bytes only.
  ContractionProblem whole = alone;
  whole.readers.push_back({Layout{{P}, {Layout::kReplicated}}, /*whole=*/true});
  MachineModel slow = m;
  slow.latency = 1e-3;
  PlanResult w = planContraction(whole, slow);
  ASSERT_TRUE(w.chosen) << w.error;
  for (const ContractionPlan &c : w.candidates)
    EXPECT_NEAR(c.handOff.seconds, c.handOff.commBytes / 200e6, 1e-15);
}
