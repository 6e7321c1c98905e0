//===- CosmaScheduleTest.cpp - COSMA over labels --------------------------===//
#include "TC/Analysis/CosmaSchedule.h"

#include "TC/Analysis/CommOptimalMatmul.h"
#include "TC/Analysis/ProcessorGrid.h"

#include "TestMachine.h"

#include <gtest/gtest.h>

#include <array>
#include <numeric>

using namespace mlir::tc;

namespace {

using test::machine;

ContractionProblem matmul(int64_t m, int64_t n, int64_t k) {
  return {{"i", "k"}, {"k", "j"}, {"i", "j"}, {{"i", m}, {"j", n}, {"k", k}}, {}, {}, {}};
}

MacroIndices macroOf(const ContractionProblem &p) {
  MacroIndicesOrError macro = macroIndicesOf(p);
  EXPECT_TRUE(macro) << macro.error;
  return macro.value;
}

/// Counts, element by element, what every rank sends and receives under the
/// runtime's rules (blocks ceil-sized, sub-blocks balanced within the block,
/// the longer first): an element of A in block (x, z) stored at (x, y, z) goes
/// to the pn - 1 other ranks (x, y', z); C's partial sums of an element owned
/// at (x, y, z) pass around the ring along z (each member sends its running
/// sum to the next): every member but the owner sends it once, every member
/// but the one after the owner receives it once.
RankVolumes simulate(int64_t m, int64_t n, int64_t k, const std::vector<int64_t> &g,
                      bool cSplitOnI) {
  auto owner = [](int64_t idx, int64_t extent, int64_t parts) {
    int64_t b = (extent + parts - 1) / parts;
    return std::pair<int64_t, int64_t>(idx / b, idx % b); // block, offset in block
  };
  auto sub = [](int64_t index, int64_t extent, int64_t parts, int64_t q) {
    int64_t b = (extent + parts - 1) / parts, blockLen = std::min(b, extent - index / b * b);
    int64_t base = blockLen / q, longer = blockLen % q, offset = index % b;
    return offset < longer * (base + 1) ? offset / (base + 1)
                                        : longer + (offset - longer * (base + 1)) / base;
  };
  int64_t P = g[0] * g[1] * g[2];
  RankVolumes v;
  v.sent.assign(P, 0);
  v.received.assign(P, 0);
  auto rank = [&](int64_t x, int64_t y, int64_t z) { return (x * g[1] + y) * g[2] + z; };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t kk = 0; kk < k; ++kk) { // A(i, k): block (x, z), stored by y
      int64_t x = owner(i, m, g[0]).first;
      int64_t z = owner(kk, k, g[2]).first, y = sub(i, m, g[0], g[1]);
      v.sent[rank(x, y, z)] += 8.0 * (g[1] - 1);
      for (int64_t y2 = 0; y2 < g[1]; ++y2)
        if (y2 != y)
          v.received[rank(x, y2, z)] += 8;
    }
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t j = 0; j < n; ++j) { // B(k, j): block (z, y), stored by x
      int64_t y = owner(j, n, g[1]).first;
      int64_t z = owner(kk, k, g[2]).first, x = sub(j, n, g[1], g[0]);
      v.sent[rank(x, y, z)] += 8.0 * (g[0] - 1);
      for (int64_t x2 = 0; x2 < g[0]; ++x2)
        if (x2 != x)
          v.received[rank(x2, y, z)] += 8;
    }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) { // C(i, j): partial on every z, summed at its owner
      int64_t x = owner(i, m, g[0]).first;
      int64_t y = owner(j, n, g[1]).first;
      int64_t z = cSplitOnI ? sub(i, m, g[0], g[2]) : sub(j, n, g[1], g[2]);
      for (int64_t z2 = 0; z2 < g[2]; ++z2) {
        if (z2 != z)
          v.sent[rank(x, y, z2)] += 8;
        if (g[2] > 1 && z2 != (z + 1) % g[2])
          v.received[rank(x, y, z2)] += 8;
      }
    }
  return v;
}

TEST(CosmaSchedule, VolumesMatchAnElementBySimulation) {
  // Extents that divide neither the grid nor the sub-blocks evenly.
  for (auto [m, n, k] : {std::array<int64_t, 3>{13, 7, 17}, {5, 11, 3}, {16, 16, 16}})
    for (const std::vector<int64_t> &g :
         {std::vector<int64_t>{2, 2, 1}, {1, 3, 2}, {2, 1, 3}, {3, 2, 2}, {1, 1, 5}, {7, 1, 1}}) {
      ContractionProblem p = matmul(m, n, k);
      MacroIndices macro = macroOf(p);
      CosmaLayout layout = completeCosmaLayout(p, macro, g, "i", "j", "k");
      RankVolumes got = cosmaVolumes(p, layout, 8), want = simulate(m, n, k, g, layout.splitC == "i");
      for (size_t r = 0; r < want.sent.size(); ++r) {
        EXPECT_EQ(got.sent[r], want.sent[r]) << m << "x" << n << "x" << k << " rank " << r;
        EXPECT_EQ(got.received[r], want.received[r]) << m << "x" << n << "x" << k << " rank " << r;
      }
      // Every byte sent is received.
      EXPECT_EQ(std::accumulate(got.sent.begin(), got.sent.end(), 0.0),
                std::accumulate(got.received.begin(), got.received.end(), 0.0));
    }
}

TEST(CosmaSchedule, FaceSumOnEvenSizes) {
  // 64^3 on [2, 2, 2]: each rank receives half of its 32x32 panels of A and B
  // and half of C's block partials: 3 * 512 elements.
  ContractionProblem p = matmul(64, 64, 64);
  CosmaLayout layout = completeCosmaLayout(p, macroOf(p), {2, 2, 2}, "i", "j", "k");
  RankVolumes v = cosmaVolumes(p, layout, 8);
  for (double r : v.received)
    EXPECT_EQ(r, 8.0 * 3 * 512);
}

TEST(CosmaSchedule, RoundsFitMemoryAndOverlap) {
  ContractionProblem p = matmul(256, 256, 4096);
  MacroIndices macro = macroOf(p);
  CosmaLayout layout = completeCosmaLayout(p, macro, {2, 2, 1}, "i", "j", "k");
  // Plenty of memory: rounds only to bound the panel width (kMaxRoundWidth).
  auto wide = cosmaRounds(p, macro, layout, 1e9, 8);
  ASSERT_TRUE(wide.has_value());
  ASSERT_EQ(wide->size(), 1u);
  EXPECT_EQ((*wide)[0].count, 4096 / kMaxRoundWidth);
  // Tight memory: more rounds, and the buffers fit.
  CosmaBuffers fixed = cosmaBuffers(p, layout, {});
  double mem = 8 * (fixed.storedA + fixed.storedB + fixed.storedC + fixed.blockC +
                    2 * (128 + 128) * 40);
  auto tight = cosmaRounds(p, macro, layout, mem, 8);
  ASSERT_TRUE(tight.has_value());
  EXPECT_GE((*tight)[0].count, 4096 / 40);
  EXPECT_LE(8 * cosmaBuffers(p, layout, *tight).total(), mem);
  // Not even one outer product fits.
  EXPECT_FALSE(cosmaRounds(p, macro, layout, 8 * fixed.blockC, 8).has_value());
}

/// The busiest rank's received bytes on `g` (the layout planCosma builds).
double maxReceivedOn(const ContractionProblem &p, const MacroIndices &macro,
                     const std::vector<int64_t> &g) {
  CosmaLabels l = chooseCosmaLabels(p, macro, g);
  return cosmaVolumes(p, completeCosmaLayout(p, macro, g, l.i, l.j, l.k), 8).maxReceived();
}

TEST(CosmaSchedule, GridMinimizesTheBusiestRanksBytes) {
  // Every factorization of P within the extents, by brute force: the chosen
  // grid's busiest rank receives the least (the branch and bound on the average
  // prunes nothing it should not).
  for (auto [m, n, k] :
       {std::array<int64_t, 3>{61, 37, 53}, {24, 20, 1500}, {700, 9, 11}, {90, 77, 6}, {13, 7, 17}})
    for (int64_t P = 1; P <= 30; ++P) {
      ContractionProblem p = matmul(m, n, k);
      MacroIndices macro = macroOf(p);
      std::vector<int64_t> got = fitCosmaGrid(p, macro, machine(P, 1e9));
      std::optional<double> least;
      for (int64_t pm = 1; pm <= std::min(P, m); ++pm)
        for (int64_t pn = 1; pn <= std::min(P, n); ++pn)
          if (P % (pm * pn) == 0 && P / (pm * pn) <= k) {
            double mx = maxReceivedOn(p, macro, {pm, pn, P / (pm * pn)});
            least = least ? std::min(*least, mx) : mx;
          }
      if (!least) { // no grid of P within the extents (P > mnk): fitRanks's fallback
        GridFit fit = fitRanks(m, n, k, P, 1e9 / 8, 0.0);
        EXPECT_EQ(got, std::vector<int64_t>({fit.pm, fit.pn, fit.pk}));
        continue;
      }
      ASSERT_EQ(got[0] * got[1] * got[2], P);
      EXPECT_EQ(maxReceivedOn(p, macro, got), *least) << m << "x" << n << "x" << k << " P = " << P;
    }
  // 16384^3 on 65 ranks: fitRanks's face sum ties every order of 13, 5, 1 and
  // prefers [13, 5, 1], whose uneven blocks and sub-blocks (16384 / 13 and
  // 16384 / 5 do not divide) leave its busiest rank more to receive than
  // [5, 1, 13]'s.
  // COSMA v2.8.4's busiest rank receives 528,744,448 bytes here (bench/README.md,
  // issue 13).
  ContractionProblem sq = matmul(16384, 16384, 16384);
  MacroIndices macro = macroOf(sq);
  GridFit fit = fitRanks(16384, 16384, 16384, 65, 1e18, 0.0);
  EXPECT_EQ(std::vector<int64_t>({fit.pm, fit.pn, fit.pk}), std::vector<int64_t>({13, 5, 1}));
  std::vector<std::string> remarks;
  std::optional<ContractionPlan> plan = planCosma(sq, macro, machine(65, 1e18), remarks);
  ASSERT_TRUE(plan.has_value());
  EXPECT_LT(plan->commBytes, maxReceivedOn(sq, macro, {13, 5, 1}));
  EXPECT_LE(plan->commBytes, 528744448.0);
  // Sizes the grid divides: the face sum's choice stands.
  ContractionProblem even = matmul(64, 48, 32);
  EXPECT_EQ(fitCosmaGrid(even, macroOf(even), machine(4, 64e6)), std::vector<int64_t>({2, 2, 1}));
  ContractionProblem cube = matmul(64, 64, 64);
  EXPECT_EQ(fitCosmaGrid(cube, macroOf(cube), machine(8, 1e9)), std::vector<int64_t>({2, 2, 2}));
}

/// The machine of the test planner with `flopRate` flop/s per process.
MachineModel machineWithFlops(int64_t procs, double mem, double flopRate) {
  MachineModel m = machine(procs, mem);
  m.flopRate = flopRate;
  return m;
}

TEST(CosmaSchedule, Figure5LeavesOneOf65RanksIdle) {
  // Kwasniewski et al. section 7.1, Fig. 5: 16384^3 on 65 ranks. Every grid of
  // 65 is a permutation of 13 x 5 x 1; 64 ranks give [4, 4, 4]. With cores of
  // 10 GFlop/s behind 200 MB/s each, the 42.9% less the busiest rank receives
  // (1.13 s) outweighs the 1/64 - 1/65 of the flops the idle rank leaves to the
  // others (0.21 s).
  ContractionProblem sq = matmul(16384, 16384, 16384);
  MacroIndices macro = macroOf(sq);
  MachineModel m = machineWithFlops(65, 1e18, 1e10);
  EXPECT_EQ(fitCosmaGrid(sq, macro, m), std::vector<int64_t>({4, 4, 4}));
  std::vector<std::string> remarks;
  std::optional<ContractionPlan> idle = planCosma(sq, macro, m, remarks);
  std::optional<ContractionPlan> all = planCosma(sq, macro, m, remarks, {}, /*delta=*/0);
  ASSERT_TRUE(idle && all);
  EXPECT_EQ(idle->layoutA.grid, std::vector<int64_t>({4, 4, 4}));
  EXPECT_EQ(idle->layoutA.procs(), 64);
  EXPECT_EQ(all->layoutA.grid, std::vector<int64_t>({5, 1, 13}));
  // Exact volumes: [4, 4, 4]'s busiest rank receives 3/4 of a 4096^2 panel of A
  // and of B and 3 quarters of its C block, 301,989,888 bytes; [5, 1, 13]'s
  // 528,714,200.
  EXPECT_EQ(idle->commBytes, 301989888.0);
  EXPECT_EQ(all->commBytes, 528714200.0);
  EXPECT_NEAR(idle->commBytes / all->commBytes - 1, -0.4288, 1e-4);
  // Per rank: 65 entries, the idle 65th moving nothing.
  ASSERT_EQ(idle->sentPerRank.size(), 65u);
  ASSERT_EQ(idle->receivedPerRank.size(), 65u);
  EXPECT_EQ(idle->sentPerRank[64], 0.0);
  EXPECT_EQ(idle->receivedPerRank[64], 0.0);
  for (int r = 0; r < 64; ++r)
    EXPECT_GT(idle->receivedPerRank[r], 0.0) << "rank " << r;
  // Computation +1.5625% per used rank (65/64), charged at the flop rate on top
  // of the communication.
  const double F = 2.0 * 16384 * 16384 * 16384;
  EXPECT_DOUBLE_EQ((F / 64) / (F / 65) - 1, 0.015625);
  EXPECT_DOUBLE_EQ(idle->seconds, 301989888.0 / 200e6 + F * (1.0 / 64 - 1.0 / 65) / 1e10);
  EXPECT_DOUBLE_EQ(all->seconds, 528714200.0 / 200e6);
  EXPECT_LT(idle->totalSeconds(), all->totalSeconds());
  // The planner's choice among all algorithms.
  PlanResult r = planContraction(sq, m);
  ASSERT_TRUE(r.chosen.has_value()) << r.error;
  EXPECT_EQ(r.candidates[*r.chosen].algorithm, ParallelAlgorithm::Cosma);
  EXPECT_EQ(r.candidates[*r.chosen].layoutA.grid, std::vector<int64_t>({4, 4, 4}));
}

TEST(CosmaSchedule, IdleRanksOnlyWhenTheyPay) {
  ContractionProblem sq = matmul(16384, 16384, 16384);
  MacroIndices macro = macroOf(sq);
  // At 1 GFlop/s (the default) the idle rank's share costs 2.1 s, more than
  // the 1.13 s of communication it saves: all 65 ranks stay busy.
  EXPECT_EQ(fitCosmaGrid(sq, macro, machine(65, 1e18)), std::vector<int64_t>({5, 1, 13}));
  // 64 ranks may leave one idle, but no grid of 63 = 3^2 7 beats [4, 4, 4] on
  // all 64, whatever the flop rate.
  for (double flops : {1e9, 1e12})
    EXPECT_EQ(fitCosmaGrid(sq, macro, machineWithFlops(64, 1e18, flops)),
              std::vector<int64_t>({4, 4, 4}));
  // Below 34 ranks 3% is less than one rank: delta leaves none idle.
  for (int64_t P : {5, 7, 11, 13, 31, 33}) {
    std::vector<int64_t> g = fitCosmaGrid(sq, macro, machineWithFlops(P, 1e18, 1e15));
    EXPECT_EQ(g[0] * g[1] * g[2], P);
  }
  // Free computation (flop rate -> infinity) on 65 ranks: the bytes decide.
  EXPECT_EQ(fitCosmaGrid(sq, macro, machineWithFlops(65, 1e18, 1e30)),
            std::vector<int64_t>({4, 4, 4}));
}

/// The machine model's time of grid `g` on machine `m` (brute force).
double secondsOn(const ContractionProblem &p, const MacroIndices &macro,
                 const std::vector<int64_t> &g, const MachineModel &m) {
  return cosmaSeconds(macro.sizes, g[0] * g[1] * g[2], maxReceivedOn(p, macro, g), m);
}

TEST(CosmaSchedule, GridWithIdleRanksMinimizesTheTime) {
  // Every factorization of every P' in [ceil(0.97 P), P] within the extents, by
  // brute force: the chosen grid has the least time, and on a tie the most
  // ranks (the branch and bound prunes nothing it should not).
  int idle = 0;
  for (auto [m, n, k] :
       {std::array<int64_t, 3>{640, 512, 576}, {97, 89, 4000}, {700, 9, 11}, {300, 300, 300}})
    for (int64_t P = 34; P <= 70; ++P)
      for (double flops : {1e8, 1e10}) {
        ContractionProblem p = matmul(m, n, k);
        MacroIndices macro = macroOf(p);
        MachineModel mm = machineWithFlops(P, 1e9, flops);
        std::vector<int64_t> got = fitCosmaGrid(p, macro, mm);
        std::optional<double> least;
        int64_t mostUsed = 0;
        for (int64_t used = P - static_cast<int64_t>(0.03 * P + 1e-9); used <= P; ++used)
          for (int64_t pm = 1; pm <= std::min(used, m); ++pm)
            for (int64_t pn = 1; pn <= std::min(used, n); ++pn)
              if (used % (pm * pn) == 0 && used / (pm * pn) <= k) {
                double s = secondsOn(p, macro, {pm, pn, used / (pm * pn)}, mm);
                if (!least || s < *least || (s == *least && used > mostUsed))
                  least = s, mostUsed = used;
              }
        ASSERT_TRUE(least.has_value());
        std::string what = std::to_string(m) + "x" + std::to_string(n) + "x" +
                           std::to_string(k) + " P = " + std::to_string(P);
        EXPECT_EQ(secondsOn(p, macro, got, mm), *least) << what;
        EXPECT_EQ(got[0] * got[1] * got[2], mostUsed) << what;
        idle += mostUsed < P;
      }
  EXPECT_GT(idle, 10); // the range matters on some of these
}

TEST(CosmaSchedule, IdleRanksNeverLoseAPlan) {
  // Idle ranks only add candidates: wherever the grids of all ranks give a
  // COSMA plan, so does the search that may idle some, and it is no slower in
  // the model, memory tight or not (a grid of fewer ranks has larger blocks:
  // when its rounds do not fit, the plan falls back to all ranks).
  int plans = 0, idle = 0, fellBack = 0;
  for (auto [m, n, k] :
       {std::array<int64_t, 3>{640, 512, 576}, {97, 89, 4000}, {300, 300, 300}, {66, 60, 70}})
    for (int64_t P : {34, 40, 65, 67})
      for (double mem = 1 << 12; mem <= (1 << 26); mem *= 1.5) {
        ContractionProblem p = matmul(m, n, k);
        MacroIndices macro = macroOf(p);
        MachineModel mm = machineWithFlops(P, mem, 1e10);
        std::vector<std::string> remarks;
        std::optional<ContractionPlan> all = planCosma(p, macro, mm, remarks, {}, /*delta=*/0);
        std::optional<ContractionPlan> some = planCosma(p, macro, mm, remarks);
        if (!all)
          continue;
        ++plans;
        std::string what = std::to_string(m) + "x" + std::to_string(n) + "x" +
                           std::to_string(k) + " P = " + std::to_string(P) +
                           " mem = " + std::to_string(mem);
        ASSERT_TRUE(some.has_value()) << what;
        EXPECT_LE(some->seconds, all->seconds) << what;
        idle += some->layoutA.procs() < P;
        std::vector<int64_t> fitted = fitCosmaGrid(p, macro, mm);
        fellBack += fitted[0] * fitted[1] * fitted[2] < P && some->layoutA.procs() == P;
      }
  EXPECT_GT(plans, 50);
  EXPECT_GT(idle, 10);
  EXPECT_GT(fellBack, 0); // the fallback is needed (255 plans, 201 idle, 4 fell back)
}

TEST(CosmaSchedule, GivenGridOfFewerRanks) {
  // A hand-written grid [2, 2, 1] on 5 processes: the fifth is idle.
  ContractionProblem p = matmul(61, 37, 53);
  MacroIndices macro = macroOf(p);
  MachineModel m = machine(5, 64e6);
  std::vector<std::string> remarks;
  std::optional<ContractionPlan> plan =
      planCosma(p, macro, m, remarks, std::vector<int64_t>{2, 2, 1});
  ASSERT_TRUE(plan.has_value());
  CosmaLabels l = chooseCosmaLabels(p, macro, {2, 2, 1});
  RankVolumes v = cosmaVolumes(p, completeCosmaLayout(p, macro, {2, 2, 1}, l.i, l.j, l.k), 8);
  std::vector<double> sent = v.sent, received = v.received;
  sent.push_back(0);
  received.push_back(0);
  EXPECT_EQ(plan->sentPerRank, sent);
  EXPECT_EQ(plan->receivedPerRank, received);
  EXPECT_DOUBLE_EQ(plan->seconds, v.maxReceived() / 200e6 +
                                      2.0 * 61 * 37 * 53 * (1.0 / 4 - 1.0 / 5) / 1e9);
  // More ranks than the machine has: no plan.
  EXPECT_FALSE(planCosma(p, macro, m, remarks, std::vector<int64_t>{2, 3, 1}).has_value());
  EXPECT_NE(remarks.back().find("is not a 3-d grid of at most 5 processes"), std::string::npos)
      << remarks.back();
  // More ranks than elements (P > mnk): fitRanks's grid, the rest idle.
  ContractionProblem tiny = matmul(2, 2, 8);
  std::optional<ContractionPlan> few = planCosma(tiny, macroOf(tiny), machine(40, 1e9), remarks);
  ASSERT_TRUE(few.has_value());
  EXPECT_EQ(few->layoutA.procs(), 32);
  EXPECT_EQ(few->sentPerRank.size(), 40u);
}

TEST(CosmaSchedule, PlannerPlansCosmaOnPrimesAndNeedsAllLabelRoles) {
  for (int64_t P : {2, 3, 5, 7}) {
    ContractionProblem p = matmul(96, 80, 112);
    // COSMA competes with PUMMA on these grids; ask for it to check its plan.
    PlanDecisions cosma;
    cosma.algorithm = ParallelAlgorithm::Cosma;
    PlanResult r = planContraction(p, machine(P, 1e9), cosma);
    ASSERT_TRUE(r.chosen.has_value()) << r.error;
    const ContractionPlan &c = r.candidates[*r.chosen];
    EXPECT_EQ(c.algorithm, ParallelAlgorithm::Cosma) << "P = " << P;
    EXPECT_EQ(c.layoutA.procs(), P);
    ASSERT_EQ(c.sentPerRank.size(), static_cast<size_t>(P));
    // Never above what the fitted grid's face sum allows.
    GridFit fit = evaluateGrid(96, 80, 112, c.layoutA.grid[0], c.layoutA.grid[1],
                               c.layoutA.grid[2], 1e9 / 8);
    EXPECT_LE(c.commBytes, 8 * fit.wordsPerRank);
  }
  // A matrix-vector product has no J: COSMA does not apply, with a remark.
  ContractionProblem mv{{"i", "k"}, {"k"}, {"i"}, {{"i", 64}, {"k", 64}}, {}, {}, {}};
  PlanResult r = planContraction(mv, machine(4, 1e9));
  EXPECT_TRUE(std::any_of(r.remarks.begin(), r.remarks.end(), [](const std::string &s) {
    return s.find("cosma skipped") != std::string::npos;
  }));
}

} // namespace

namespace {

MachineModel diskMachine(int64_t procs, double mem) {
  MachineModel m = test::machine(procs, mem);
  m.diskBandwidth = 1e9;
  m.netBandwidth = 3e9;
  m.runtimeVolumes = true;
  return m;
}

TEST(CosmaOutOfCore, DiskBytesCoverEveryElementOnce) {
  // Uneven extents on a grid that splits every array: the ranks' own
  // sub-blocks partition A, B and C, so the disk bytes sum to each array once
  // (C twice when its initial value is read).
  ContractionProblem p = matmul(37, 29, 1001);
  MacroIndices macro = macroOf(p);
  for (std::vector<int64_t> g : {std::vector<int64_t>{2, 1, 3}, {1, 2, 2}, {3, 2, 1}}) {
    CosmaLayout layout = completeCosmaLayout(p, macro, g, "i", "j", "k");
    for (bool readsC : {false, true}) {
      std::vector<double> disk = cosmaDiskBytes(p, layout, 8, readsC);
      ASSERT_EQ(disk.size(), static_cast<size_t>(g[0] * g[1] * g[2]));
      double want = 8.0 * (37 * 1001 + 1001 * 29 + (readsC ? 2 : 1) * 37 * 29);
      EXPECT_EQ(std::accumulate(disk.begin(), disk.end(), 0.0), want) << gridList(g);
    }
  }
}

TEST(CosmaOutOfCore, LargeKOnEightProcessesReadsTheInputsOnce) {
  // bench/out-of-core-shapes.py's large-k cell on 8 processes, each with 1/8
  // of its share: the whole C tile of Gao et al.'s accumulation does not fit
  // beside the staging chunk, so its best tiling reads A twice (1.49x the
  // inputs read once). COSMA out of core splits K over several processes and
  // I or J over the rest: its partial sums fit, and every element is read or
  // written once.
  ContractionProblem p = matmul(2048, 2048, 65536);
  p.freshC = true;
  const double share = 8.0 * (2 * 2048 * 65536.0 + 2048 * 2048.0) / 8;
  MachineModel m = diskMachine(8, share / 8);
  PlanResult r = planContraction(p, m);
  ASSERT_TRUE(r.chosen.has_value()) << r.error;
  const ContractionPlan &c = r.candidates[*r.chosen];
  EXPECT_EQ(c.algorithm, ParallelAlgorithm::Cosma);
  EXPECT_FALSE(c.inCore);
  EXPECT_FALSE(c.tiled());
  EXPECT_EQ(c.diskBytes, share);
  EXPECT_LE(c.bufferBytes[0] + c.bufferBytes[1] + c.bufferBytes[2], m.memBytes - m.stagingBytes());
  // Gao et al.'s best tiling reads A twice; those that read every input once
  // broadcast A or B whole (0.94 GB per process against COSMA's 0.15 GB).
  std::optional<ContractionPlan> bestTiled;
  for (const ContractionPlan &other : r.candidates)
    if (other.tiled() && (!bestTiled || other.seconds < bestTiled->seconds))
      bestTiled = other;
  ASSERT_TRUE(bestTiled.has_value());
  EXPECT_GT(bestTiled->diskBytes, 1.4 * share);
  EXPECT_LT(c.seconds, bestTiled->seconds);
  for (const ContractionPlan &other : r.candidates)
    if (other.tiled() && other.diskBytes <= share)
      EXPECT_GT(other.commBytes, 6 * c.commBytes);
}

TEST(CosmaOutOfCore, OnlyWhereItsBlocksDoNotFitAndNoTilingIsGiven) {
  ContractionProblem p = matmul(256, 256, 8192);
  // Everything fits: COSMA plans in core.
  PlanDecisions cosma;
  cosma.algorithm = ParallelAlgorithm::Cosma;
  PlanResult roomy = planContraction(p, diskMachine(4, 1e9), cosma);
  ASSERT_TRUE(roomy.chosen.has_value()) << roomy.error;
  EXPECT_TRUE(roomy.candidates[*roomy.chosen].inCore);
  // Out of core forced: the rounds with the sub-blocks on disk.
  PlanDecisions onDisk = cosma;
  onDisk.inCore = false;
  PlanResult forced = planContraction(p, diskMachine(4, 1e9), onDisk);
  ASSERT_TRUE(forced.chosen.has_value()) << forced.error;
  EXPECT_FALSE(forced.candidates[*forced.chosen].inCore);
  EXPECT_FALSE(forced.candidates[*forced.chosen].rounds.empty());
  // A method belongs to Gao et al.'s tiling: no COSMA plan satisfies it.
  PlanDecisions withMethod = onDisk;
  withMethod.method = CommMethod::Inside;
  EXPECT_FALSE(planContraction(p, diskMachine(4, 1e9), withMethod).chosen.has_value());
  // Partial sums of C that do not fit beside the staging chunk on any grid.
  std::vector<std::string> remarks;
  ContractionProblem wide = matmul(4096, 4096, 64);
  EXPECT_FALSE(planCosmaOutOfCore(wide, macroOf(wide), diskMachine(2, 8e6), remarks));
  ASSERT_FALSE(remarks.empty());
  EXPECT_NE(remarks.back().find("cosma out of core skipped"), std::string::npos);
}

} // namespace
