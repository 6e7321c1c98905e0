//===- CosmaScheduleTest.cpp - COSMA over labels --------------------------===//
#include "TC/Analysis/CosmaSchedule.h"

#include "TC/Analysis/CommOptimalMatmul.h"

#include "TestMachine.h"

#include <gtest/gtest.h>

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
/// runtime's rules (blocks ceil-sized, sub-blocks ceil-sized within the padded
/// block): an element of A in block (x, z) stored at (x, y, z) goes to the
/// pn - 1 other ranks (x, y', z); C's partial sum of an element at (x, y, z)
/// goes to the rank along z owning its sub-block.
RankVolumes simulate(int64_t m, int64_t n, int64_t k, const std::vector<int64_t> &g,
                      bool cSplitOnI) {
  auto owner = [](int64_t idx, int64_t extent, int64_t parts) {
    int64_t b = (extent + parts - 1) / parts;
    return std::pair<int64_t, int64_t>(idx / b, idx % b); // block, offset in block
  };
  auto sub = [](int64_t offset, int64_t extent, int64_t parts, int64_t q) {
    int64_t b = (extent + parts - 1) / parts, s = (b + q - 1) / q;
    return offset / s;
  };
  int64_t P = g[0] * g[1] * g[2];
  RankVolumes v;
  v.sent.assign(P, 0);
  v.received.assign(P, 0);
  auto rank = [&](int64_t x, int64_t y, int64_t z) { return (x * g[1] + y) * g[2] + z; };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t kk = 0; kk < k; ++kk) { // A(i, k): block (x, z), stored by y
      auto [x, io] = owner(i, m, g[0]);
      int64_t z = owner(kk, k, g[2]).first, y = sub(io, m, g[0], g[1]);
      v.sent[rank(x, y, z)] += 8.0 * (g[1] - 1);
      for (int64_t y2 = 0; y2 < g[1]; ++y2)
        if (y2 != y)
          v.received[rank(x, y2, z)] += 8;
    }
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t j = 0; j < n; ++j) { // B(k, j): block (z, y), stored by x
      auto [y, jo] = owner(j, n, g[1]);
      int64_t z = owner(kk, k, g[2]).first, x = sub(jo, n, g[1], g[0]);
      v.sent[rank(x, y, z)] += 8.0 * (g[0] - 1);
      for (int64_t x2 = 0; x2 < g[0]; ++x2)
        if (x2 != x)
          v.received[rank(x2, y, z)] += 8;
    }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) { // C(i, j): partial on every z, summed at its owner
      auto [x, io] = owner(i, m, g[0]);
      auto [y, jo] = owner(j, n, g[1]);
      int64_t z = cSplitOnI ? sub(io, m, g[0], g[2]) : sub(jo, n, g[1], g[2]);
      for (int64_t z2 = 0; z2 < g[2]; ++z2)
        if (z2 != z) {
          v.sent[rank(x, y, z2)] += 8;
          v.received[rank(x, y, z)] += 8;
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
  // prefers [13, 5, 1], whose short last sub-blocks (16384 / 13 and 16384 / 5 do
  // not divide) leave its busiest rank 0.4% more to receive than [13, 1, 5]'s.
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
