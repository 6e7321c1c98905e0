//===- OutOfCoreCostModelTest.cpp - oracles from Gao et al. ----------------===//
//
// The paper's Tables 9-11 as oracles (settings and tolerances from
// docs/Derivations.md D10), plus properties on random problems.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/OutOfCoreCostModel.h"
#include "TestMachine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace mlir::tc;

namespace {

/// Cheapest candidate of one method x algorithm family (min over orders; for
/// replication over both replicated operands).
const Candidate *bestOf(const std::vector<Candidate> &cs, CommMethod method,
                        bool (*algorithm)(ParallelAlgorithm)) {
  const Candidate *best = nullptr;
  for (const Candidate &c : cs)
    if (c.method == method && algorithm(c.algorithm) &&
        (!best || c.seconds < best->seconds))
      best = &c;
  return best;
}
bool isRotation(ParallelAlgorithm a) { return a == ParallelAlgorithm::Rotation; }
bool isReplication(ParallelAlgorithm a) {
  return a == ParallelAlgorithm::ReplicationA || a == ParallelAlgorithm::ReplicationB;
}
bool isAccumulation(ParallelAlgorithm a) { return a == ParallelAlgorithm::Accumulation; }

struct Row {
  CommMethod method;
  bool (*algorithm)(ParallelAlgorithm);
  const char *name;
};
const Row kRows[] = {
    {CommMethod::Outside, isRotation, "Outside/Rotation"},
    {CommMethod::Outside, isReplication, "Outside/Replication"},
    {CommMethod::Outside, isAccumulation, "Outside/Accumulation"},
    {CommMethod::Inside, isRotation, "Inside/Rotation"},
    {CommMethod::Inside, isReplication, "Inside/Replication"},
    {CommMethod::Inside, isAccumulation, "Inside/Accumulation"},
};

/// [G] Table 11 machine: M = 2^29 B per array tile, Bd = 10 MB/s, the column's Bc,
/// f_rep = P^(1/4), f_acc = 1.4 (docs/Derivations.md D10).
MachineModel table11Machine(int64_t procs, double netBandwidth) {
  MachineModel m;
  m.procs = procs;
  m.memBytes = std::pow(2.0, 29);
  m.tileFraction = 1.0;
  m.diskBandwidth = 10e6;
  m.netBandwidth = netBandwidth;
  m.bcastFactor = std::pow(static_cast<double>(procs), 0.25);
  m.reduceFactor = 1.4;
  return m;
}

} // namespace

// [G] Table 11: all 24 cells within 1 s. M = 2^29 B per array tile, Bd = 10 MB/s,
// f_rep = P^(1/4), f_acc = 1.4, real-valued tiles (docs/Derivations.md D10).
TEST(OutOfCoreCostModel, GaoTable11AllCells) {
  struct Column {
    double N;
    int64_t P;
    double Bc;
    double expected[6];
  };
  const Column columns[] = {
      {160000, 4, 10e6, {281920, 259683, 318784, 310240, 268248, 298304}},
      {160000, 4, 200e6, {262464, 232168, 264307, 120240, 123502, 243827}},
      {640000, 16, 10e6, {3855360, 4224000, 6018048, 4040960, 4636610, 5690368}},
      {640000, 16, 200e6, {3699712, 3601408, 4274790, 1000960, 1330921, 3947110}},
  };
  for (const Column &col : columns) {
    MachineModel m = table11Machine(col.P, col.Bc);
    std::vector<Candidate> cs =
        enumerateCandidates({col.N, col.N, col.N}, m, PlanOptions{/*integerTiles=*/false});
    for (int r = 0; r < 6; ++r) {
      const Candidate *best = bestOf(cs, kRows[r].method, kRows[r].algorithm);
      ASSERT_NE(best, nullptr) << kRows[r].name;
      EXPECT_NEAR(best->seconds, col.expected[r], 1.0)
          << kRows[r].name << " N=" << col.N << " P=" << col.P << " Bc=" << col.Bc;
    }
  }
}

// [G] Table 11's best method per column: Out/Rep, In/Rot, Out/Rot, In/Rot.
TEST(OutOfCoreCostModel, GaoTable11BestPerColumn) {
  struct Column {
    double N;
    int64_t P;
    double Bc;
    CommMethod method;
    ParallelAlgorithm family;
  };
  const Column columns[] = {
      {160000, 4, 10e6, CommMethod::Outside, ParallelAlgorithm::ReplicationA},
      {160000, 4, 200e6, CommMethod::Inside, ParallelAlgorithm::Rotation},
      {640000, 16, 10e6, CommMethod::Outside, ParallelAlgorithm::Rotation},
      {640000, 16, 200e6, CommMethod::Inside, ParallelAlgorithm::Rotation},
  };
  for (const Column &col : columns) {
    MachineModel m = table11Machine(col.P, col.Bc);
    std::vector<Candidate> cs =
        enumerateCandidates({col.N, col.N, col.N}, m, PlanOptions{false});
    const Candidate &best = cs[cheapest(cs)];
    EXPECT_EQ(best.method, col.method) << "N=" << col.N << " Bc=" << col.Bc;
    if (col.family == ParallelAlgorithm::Rotation)
      EXPECT_EQ(best.algorithm, ParallelAlgorithm::Rotation);
    else
      EXPECT_TRUE(isReplication(best.algorithm));
  }
}

namespace {
/// [G] Table 9 machine: P = 4, 64 MB per process of which 8 MB per array tile
/// (docs/Derivations.md D10), Bd = 8 MB/s, Bc = 200 MB/s, f_rep = sqrt(2), f_acc = 1.4.
MachineModel table9Machine() {
  MachineModel m;
  m.procs = 4;
  m.memBytes = 64e6;
  m.tileFraction = 8e6 / 64e6;
  m.diskBandwidth = 8e6;
  m.netBandwidth = 200e6;
  m.bcastFactor = std::sqrt(2.0);
  m.reduceFactor = 1.4;
  return m;
}
} // namespace

// [G] Table 9: the three exactly reproducible cells (docs/Derivations.md D10).
TEST(OutOfCoreCostModel, GaoTable9ExactCells) {
  std::vector<Candidate> cs =
      enumerateCandidates({4000, 4000, 4000}, table9Machine(), PlanOptions{false});
  const Candidate *inRot = bestOf(cs, CommMethod::Inside, isRotation);
  const Candidate *outRep = bestOf(cs, CommMethod::Outside, isReplication);
  const Candidate *inAcc = bestOf(cs, CommMethod::Inside, isAccumulation);
  ASSERT_TRUE(inRot && outRep && inAcc);
  EXPECT_NEAR(inRot->seconds, 25.28, 0.005);
  EXPECT_NEAR(outRep->seconds, 56.9, 0.01);
  EXPECT_NEAR(inAcc->seconds, 53.792, 0.0005);
  // Notes A.11: In/Rot at CAB with It1 = Jt1 = 2, D = 192 MB, V = 256 MB.
  EXPECT_NEAR(inRot->diskBytes, 192e6, 1);
  EXPECT_NEAR(inRot->commBytes, 256e6, 1);
  // The other three within 10% of the paper's predictions.
  EXPECT_NEAR(bestOf(cs, CommMethod::Outside, isAccumulation)->seconds, 73.792, 7.38);
  EXPECT_NEAR(bestOf(cs, CommMethod::Inside, isReplication)->seconds, 24.718, 2.48);
  EXPECT_NEAR(bestOf(cs, CommMethod::Outside, isRotation)->seconds, 75.42, 7.55);
}

// [G] Table 9 ranking from the model: In/Rot < In/Rep < In/Acc < Out/Rep < Out/Acc
// < Out/Rot; the best method is inside rotation. With integer tiles too.
TEST(OutOfCoreCostModel, GaoTable9Ranking) {
  for (bool integer : {false, true}) {
    std::vector<Candidate> cs =
        enumerateCandidates({4000, 4000, 4000}, table9Machine(), PlanOptions{integer});
    double inRot = bestOf(cs, CommMethod::Inside, isRotation)->seconds;
    double inRep = bestOf(cs, CommMethod::Inside, isReplication)->seconds;
    double inAcc = bestOf(cs, CommMethod::Inside, isAccumulation)->seconds;
    double outRep = bestOf(cs, CommMethod::Outside, isReplication)->seconds;
    double outAcc = bestOf(cs, CommMethod::Outside, isAccumulation)->seconds;
    double outRot = bestOf(cs, CommMethod::Outside, isRotation)->seconds;
    EXPECT_LT(inRot, inRep) << "integer=" << integer;
    EXPECT_LT(inRep, inAcc) << "integer=" << integer;
    EXPECT_LT(inAcc, outRep) << "integer=" << integer;
    EXPECT_LT(outRep, outAcc) << "integer=" << integer;
    EXPECT_LT(outAcc, outRot) << "integer=" << integer;
    const Candidate &best = cs[cheapest(cs)];
    EXPECT_EQ(best.method, CommMethod::Inside);
    EXPECT_EQ(best.algorithm, ParallelAlgorithm::Rotation);
  }
}

// [G] Table 10's best choices: 4-index transform -> outside replication (of the small
// B), CCSD term -> outside accumulation; times 0.8*Disk + 0.05*Comm in units of 1e6
// elements (Bd = 10 MB/s, Bc = 160 MB/s, docs/Derivations.md D10): 245760 s and 163840 s.
TEST(OutOfCoreCostModel, GaoTable10BestChoices) {
  MachineModel m;
  m.procs = 4;
  m.memBytes = 1e9; // Table 8: 1 GB per node
  m.diskBandwidth = 10e6;
  m.netBandwidth = 160e6;
  m.bcastFactor = std::sqrt(2.0);
  m.reduceFactor = 1.4;
  const double n = 800;
  std::vector<Candidate> fourIndex = enumerateCandidates({n * n * n, n, n}, m);
  const Candidate &fi = fourIndex[cheapest(fourIndex)];
  EXPECT_EQ(fi.method, CommMethod::Outside);
  EXPECT_EQ(fi.algorithm, ParallelAlgorithm::ReplicationB);
  EXPECT_NEAR(fi.seconds, 245760, 245760 * 0.001);
  std::vector<Candidate> ccsd = enumerateCandidates({n, n, n * n * n}, m);
  const Candidate &cc = ccsd[cheapest(ccsd)];
  EXPECT_EQ(cc.method, CommMethod::Outside);
  EXPECT_EQ(cc.algorithm, ParallelAlgorithm::Accumulation);
  EXPECT_NEAR(cc.seconds, 163840, 163840 * 0.001);
}

// Rotation needs a square grid: P = 8 gets no rotation candidate, P = 9 does.
TEST(OutOfCoreCostModel, RotationOnlyOnSquareGrids) {
  MachineModel m;
  m.memBytes = 64e6;
  m.diskBandwidth = 8e6;
  m.netBandwidth = 200e6;
  for (int64_t p : {8, 9}) {
    m.procs = p;
    std::vector<Candidate> cs = enumerateCandidates({4000, 4000, 4000}, m);
    bool anyRotation = false;
    for (const Candidate &c : cs)
      anyRotation |= c.algorithm == ParallelAlgorithm::Rotation;
    EXPECT_EQ(anyRotation, p == 9);
    EXPECT_FALSE(cs.empty());
  }
}

// Everything fits: no disk I/O in any candidate; outside method (no remote tiles).
TEST(OutOfCoreCostModel, InCoreProblemDoesNoDiskIO) {
  MachineModel m;
  m.procs = 4;
  m.memBytes = 1e9;
  m.diskBandwidth = 8e6;
  m.netBandwidth = 200e6;
  std::vector<Candidate> cs = enumerateCandidates({500, 600, 700}, m);
  ASSERT_EQ(cs.size(), 4u); // one in-core plan per algorithm
  for (const Candidate &c : cs) {
    EXPECT_TRUE(c.inCore);
    EXPECT_EQ(c.diskBytes, 0);
  }
  // Replicating A moves A = 500*700*8 bytes, less than rotation's
  // (A + B)/sqrt(P) = (500*700 + 700*600)*8/2 or replicating B = 700*600*8.
  const Candidate &best = cs[cheapest(cs)];
  EXPECT_EQ(best.algorithm, ParallelAlgorithm::ReplicationA);
  EXPECT_DOUBLE_EQ(best.commBytes, 500.0 * 700 * 8);
}

// Properties on many random problems (sizes, P, memory), integer tiles:
// every tile buffer fits the budget, tile counts are whole and within the extents,
// no candidate is cheaper than the chosen one, and when all three arrays fit in
// one process's memory the chosen plan does no disk I/O.
TEST(OutOfCoreCostModel, RandomProblemProperties) {
  std::mt19937_64 rng(20261122);
  auto logUniform = [&](double lo, double hi) {
    std::uniform_real_distribution<double> d(std::log(lo), std::log(hi));
    return std::floor(std::exp(d(rng)));
  };
  int planned = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    MacroSizes s{logUniform(1, 1e6), logUniform(1, 1e6), logUniform(1, 1e6)};
    MachineModel m;
    m.procs = std::uniform_int_distribution<int64_t>(1, 64)(rng);
    m.memBytes = logUniform(1e5, 1e11);
    m.diskBandwidth = logUniform(1e6, 1e9);
    m.netBandwidth = logUniform(1e6, 1e10);
    m.bcastFactor = 1 + std::uniform_real_distribution<double>(0, 1)(rng);
    m.reduceFactor = 1 + std::uniform_real_distribution<double>(0, 1)(rng);
    std::vector<Candidate> cs = enumerateCandidates(s, m);
    if (cs.empty())
      continue;
    ++planned;
    const double M = m.tileBudget();
    for (const Candidate &c : cs) {
      const TileCounts &t = c.tiles;
      for (double v : {t.It1, t.It2, t.Jt1, t.Jt2, t.Kt1}) {
        EXPECT_GE(v, 1);
        EXPECT_EQ(v, std::floor(v));
      }
      EXPECT_LE(t.I(), s.I);
      EXPECT_LE(t.J(), s.J);
      EXPECT_LE(t.Kt1, s.K);
      if (!c.inCore) {
        for (double buffer : c.bufferBytes)
          EXPECT_LE(buffer, M * (1 + 1e-9)) << toString(c.method) << " "
                                            << toString(c.algorithm) << " "
                                            << toString(c.order);
      }
      EXPECT_GE(c.diskBytes, 0);
      EXPECT_GE(c.commBytes, 0);
    }
    const Candidate &best = cs[cheapest(cs)];
    for (const Candidate &c : cs)
      EXPECT_GE(c.seconds, best.seconds);
    const double e = 8, total = (s.I * s.K + s.K * s.J + s.I * s.J) * e;
    if (total <= m.memBytes) {
      EXPECT_EQ(best.diskBytes, 0) << "I=" << s.I << " J=" << s.J << " K=" << s.K;
    }
  }
  EXPECT_GT(planned, 1000);
}

// A C that starts at zero (`=`) is zero-filled on its first visit, not read
// (docs/Derivations.md D51): every tiling of every method and algorithm moves
// one read of C's local part fewer, out of core, and in core nothing changes.
// D53: on tc's runtime inside accumulation keeps C as a slab per process and
// reduce-scatters each tile onto the slabs, where [G] 5.3 keeps C whole on
// every process and all-reduces each tile. Per sweep over C a process then
// reads and writes C / P instead of C, and sends C (P - 1) / P instead of
// C log2 P; its tiles (and so its reads of A and B) are the same.
TEST(OutOfCoreCostModel, InsideAccumulationKeepsSlabsOfC) {
  MachineModel runtime = test::machine(4, 4e6), paper = runtime;
  runtime.runtimeVolumes = true;
  const double I = 1500, J = 1300, K = 900, e = 8, P = 4, C = I * J * e;
  MacroSizes added{I, J, K}, fresh{I, J, K};
  fresh.freshC = true;
  const TileCounts tiles{6, 1, 6, 1, 6};
  int compared = 0;
  for (ReadOrder order : kAllReadOrders) {
    auto eval = [&](const MacroSizes &s, const MachineModel &m) {
      return evaluateTiling(s, m, CommMethod::Inside, ParallelAlgorithm::Accumulation, order,
                            tiles);
    };
    std::optional<Candidate> a = eval(added, runtime), f = eval(fresh, runtime),
                             g = eval(added, paper);
    ASSERT_EQ(a.has_value(), g.has_value());
    if (!a)
      continue;
    ++compared;
    EXPECT_DOUBLE_EQ(a->diskBytes - f->diskBytes, C / P) << toString(order); // a slab's read
    const double sweeps = a->commBytes / (C * (P - 1) / P);
    EXPECT_GE(sweeps, 1) << toString(order);
    EXPECT_DOUBLE_EQ(sweeps, std::round(sweeps)) << toString(order);
    EXPECT_DOUBLE_EQ(g->commBytes, sweeps * C * std::log2(P)) << toString(order);
    EXPECT_DOUBLE_EQ(g->diskBytes - a->diskBytes, sweeps * 2 * (C - C / P)) << toString(order);
    // A C without rows to deal out, or required in another layout, stays
    // whole on every process (the lowering keeps [G]'s method).
    MacroSizes whole = added;
    whole.slabC = false;
    MacroSizes wholeFresh = whole;
    wholeFresh.freshC = true;
    std::optional<Candidate> w = eval(whole, runtime), wf = eval(wholeFresh, runtime);
    ASSERT_TRUE(w && wf);
    EXPECT_DOUBLE_EQ(w->diskBytes - wf->diskBytes, C) << toString(order);
    EXPECT_DOUBLE_EQ(w->diskBytes, g->diskBytes) << toString(order);
  }
  EXPECT_GT(compared, 0);
}

TEST(OutOfCoreCostModel, FreshResultSkipsItsFirstRead) {
  MachineModel m = test::machine(4, 4e6);
  const double I = 1500, J = 1300, K = 900, e = 8, P = 4;
  MacroSizes added{I, J, K}, fresh{I, J, K};
  fresh.freshC = true;
  const TileCounts tiles{6, 1, 6, 1, 6};
  std::set<std::pair<CommMethod, ParallelAlgorithm>> compared;
  for (CommMethod method : {CommMethod::Inside, CommMethod::Outside})
    for (ParallelAlgorithm alg : {ParallelAlgorithm::Rotation, ParallelAlgorithm::ReplicationA,
                                  ParallelAlgorithm::ReplicationB, ParallelAlgorithm::Accumulation})
      for (ReadOrder order : kAllReadOrders) {
        std::optional<Candidate> a = evaluateTiling(added, m, method, alg, order, tiles);
        std::optional<Candidate> f = evaluateTiling(fresh, m, method, alg, order, tiles);
        ASSERT_EQ(a.has_value(), f.has_value());
        if (!a)
          continue;
        const double cLocal = alg == ParallelAlgorithm::Accumulation ? I * J * e : I * J * e / P;
        EXPECT_DOUBLE_EQ(a->diskBytes - f->diskBytes, cLocal)
            << toString(method) << " " << toString(alg) << " " << toString(order);
        EXPECT_DOUBLE_EQ(a->commBytes, f->commBytes);
        compared.insert({method, alg});
      }
  EXPECT_EQ(compared.size(), 8u); // every method with every algorithm
  m.memBytes = 1e9;               // in core: no disk either way
  for (const Candidate &c : enumerateCandidates(fresh, m))
    EXPECT_EQ(c.diskBytes, 0);
}
