//===- CommOptimalMatmulTest.cpp - oracles from COSMA ---------------------===//
//
// The values of docs/Derivations.md D23-D26: eq. (26)'s integer optimum, the
// Theorem 2 example, Fig. 5 (p = 65) and the 9,216 / 9,217 ranks of section 9,
// the Table 3 tall-matrix row, plus exhaustive and hand-computed checks.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/CommOptimalMatmul.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>

using namespace mlir::tc;

namespace {

/// The grid's factors in ascending order (the paper names grids up to order).
std::array<int64_t, 3> sortedGrid(const GridFit &g) {
  std::array<int64_t, 3> f = {g.pm, g.pn, g.pk};
  std::sort(f.begin(), f.end());
  return f;
}

/// Leading-term ratio of the (26) schedule to Theorem 1: sqrt(S)(a+b)/(2ab),
/// taken from the two functions (the mn stores cancel).
double ioRatio(const SequentialTile &t, double S) {
  const double m = 4096, n = 4096, k = 4096;
  return (sequentialScheduleWords(m, n, k, t.a, t.b) - m * n) /
         (sequentialLowerBound(m, n, k, S) - m * n);
}

} // namespace

//===--- Sequential (D23) -------------------------------------------------===//

TEST(CommOptimalSequential, OracleTable) {
  struct Row {
    double S;
    int64_t a, b;
    double rho, ratio;
  };
  // docs/Derivations.md D23 (brute force of eq. 26).
  const Row rows[] = {
      {100, 9, 10, 4.7368, 1.055556},
      {1000, 31, 31, 15.5, 1.020090},
      {1e4, 99, 100, 49.7487, 1.005051},
      {1e6, 999, 1000, 499.7499, 1.000501},
  };
  for (const Row &r : rows) {
    SCOPED_TRACE(r.S);
    SequentialTile t = optimalSequentialTile(r.S);
    EXPECT_EQ(t.a, r.a);
    EXPECT_EQ(t.b, r.b);
    EXPECT_NEAR(t.intensity, r.rho, 1e-4);
    EXPECT_LE(t.a * t.b + t.a + 1, r.S);
    EXPECT_NEAR(ioRatio(t, r.S), r.ratio, 1e-6);
    EXPECT_NEAR(ioRatio(t, r.S),
                std::sqrt(r.S) * (t.a + t.b) / (2.0 * t.a * t.b), 1e-12);
  }
}

TEST(CommOptimalSequential, ClosedForm27IsNotTheOptimum) {
  // Eq. (27) gives a = 10 at S = 100, then b = floor(89/10) = 8, rho = 4.44.
  SequentialTile t = optimalSequentialTile(100);
  EXPECT_GT(t.intensity, 10.0 * 8 / 18 + 0.2);
}

TEST(CommOptimalSequential, MatchesExhaustiveSearch) {
  // The early exit of the brute force against every (a, b) pair.
  for (int S = 3; S <= 600; ++S) {
    double bestRho = 0;
    for (int a = 1; a < S; ++a)
      for (int b = 1; a * b + a + 1 <= S; ++b)
        bestRho = std::max(bestRho, double(a) * b / (a + b));
    SequentialTile t = optimalSequentialTile(S);
    ASSERT_DOUBLE_EQ(t.intensity, bestRho) << "S = " << S;
    ASSERT_LE(t.a * t.b + t.a + 1, S) << "S = " << S;
    ASSERT_LT(t.intensity, std::sqrt(double(S)) / 2) << "S = " << S;
  }
  SequentialTile t3 = optimalSequentialTile(3);
  EXPECT_EQ(t3.a, 1);
  EXPECT_EQ(t3.b, 1);
}

TEST(CommOptimalSequential, BoundAndSchedule) {
  // 2mnk/sqrt(S) + mn by hand: m = 64, n = 32, k = 16, S = 256.
  EXPECT_DOUBLE_EQ(sequentialLowerBound(64, 32, 16, 256),
                   2.0 * 64 * 32 * 16 / 16 + 64 * 32);
  // mnk(1/a + 1/b) + mn with a = 8, b = 4: 32768 * 3/8 + 2048.
  EXPECT_DOUBLE_EQ(sequentialScheduleWords(64, 32, 16, 8, 4), 14336);
  // The bound is below every schedule, including the optimal tile's.
  SequentialTile t = optimalSequentialTile(256);
  EXPECT_GT(sequentialScheduleWords(64, 32, 16, t.a, t.b),
            sequentialLowerBound(64, 32, 16, 256));
}

//===--- Parallel (D24) ---------------------------------------------------===//

TEST(CommOptimalParallel, Theorem2Example) {
  // m = n = k = 4096, p = 64, S = 3 * 4096^2 / 64 (D24): sqrt(S) < cbrt(V).
  const double n = 4096, S = 3 * n * n / 64;
  LocalDomain d = optimalDomain(n, n, n, 64, S);
  EXPECT_NEAR(d.a, 886.8, 0.05);
  EXPECT_DOUBLE_EQ(d.a, std::sqrt(S));
  EXPECT_NEAR(d.b, n * n * n / (64 * S), 1e-6);
  double q = parallelLowerBound(n, n, n, 64, S);
  EXPECT_NEAR(q, 3.208e6, 1e3);
  // The literal min{} of eq. (33) picks the infeasible 3 V^(2/3) = 3 * 2^20.
  double literal = table3WordsCosma(n, n, n, 64, S);
  EXPECT_NEAR(literal, 3.0 * (1 << 20), 1e-6);
  EXPECT_NEAR(literal, 3.146e6, 1e3);
  EXPECT_GT(q - literal, 6e4);
}

TEST(CommOptimalParallel, CubicDomainWhenMemoryIsAmple) {
  // V = 2^30 and S = 2^24 > V^(2/3) = 2^20: a = b = 1024, Q = 3 * 2^20, the
  // literal min agrees.
  const double n = 4096, S = 1 << 24;
  LocalDomain d = optimalDomain(n, n, n, 64, S);
  EXPECT_NEAR(d.a, 1024, 1e-9);
  EXPECT_NEAR(d.b, 1024, 1e-6);
  EXPECT_NEAR(parallelLowerBound(n, n, n, 64, S), 3.0 * (1 << 20), 1e-3);
  EXPECT_NEAR(table3WordsCosma(n, n, n, 64, S), 3.0 * (1 << 20), 1e-3);
}

TEST(CommOptimalParallel, BoundIsTheMinimumOverFeasibleA) {
  // Q(a) = 2V/a + a^2 over a in (0, sqrt(S)]; the bound is its minimum.
  const double m = 3000, n = 2000, k = 5000, S = 4e5; // pS >= mn+mk+nk
  const int64_t p = 96;
  double V = m * n * k / p, q = parallelLowerBound(m, n, k, p, S);
  for (double a = 1; a * a <= S; a += 0.5)
    ASSERT_GE(2 * V / a + a * a, q * (1 - 1e-12)) << "a = " << a;
}

TEST(CommOptimalParallel, RoundsByHand) {
  // a = 10, b = 100, S = 300: (300 - 100)/20 = 10 outer products, 10 rounds.
  Rounds r = roundsFor(10, 100, 300);
  EXPECT_EQ(r.s, 10);
  EXPECT_EQ(r.t, 10);
  // a = 10, b = 95, S = 250: ceil(150/20) = 8, ceil(95/8) = 12.
  r = roundsFor(10, 95, 250);
  EXPECT_EQ(r.s, 8);
  EXPECT_EQ(r.t, 12);
  // No spare memory (a^2 = S): one outer product per round, b rounds.
  r = roundsFor(10, 37, 100);
  EXPECT_EQ(r.s, 1);
  EXPECT_EQ(r.t, 37);
  // Ample memory: everything in one round.
  r = roundsFor(10, 37, 1e6);
  EXPECT_EQ(r.t, 1);
}

//===--- Grid fitting (D25) -----------------------------------------------===//

TEST(CommOptimalFitRanks, Figure5DropsOneOf65Ranks) {
  // n = 4 * 5 * 13 * 16 divides by every factor of both grids.
  const double n = 4160, S = 1e12;
  GridFit all = fitRanks(n, n, n, 65, S, /*delta=*/0);
  EXPECT_EQ(all.used, 65);
  EXPECT_EQ(sortedGrid(all), (std::array<int64_t, 3>{1, 5, 13}));
  // Ties among the permutations go to the lexicographically larger one.
  EXPECT_EQ(all.pm, 13);
  EXPECT_EQ(all.pn, 5);
  EXPECT_EQ(all.pk, 1);
  EXPECT_NEAR(all.wordsPerRank / (n * n), 19.0 / 65, 1e-12);

  GridFit fit = fitRanks(n, n, n, 65, S);
  EXPECT_EQ(fit.used, 64);
  EXPECT_EQ(fit.pm, 4);
  EXPECT_EQ(fit.pn, 4);
  EXPECT_EQ(fit.pk, 4);
  EXPECT_TRUE(fit.fitsMemory);
  EXPECT_NEAR(fit.wordsPerRank / (n * n), 0.1875, 1e-12);

  // Fig. 5: communication -36%, computation +1.5% (D25: -35.86%, +1.5625%).
  double comm = fit.wordsPerRank / all.wordsPerRank - 1;
  double comp = fit.flopsPerRank / all.flopsPerRank - 1;
  EXPECT_NEAR(comm, -0.3586, 0.005 * 0.3586);
  EXPECT_NEAR(comp, 0.015625, 0.005 * 0.015625);
  EXPECT_NEAR(comp, 65.0 / 64 - 1, 1e-12);
}

TEST(CommOptimalFitRanks, Rank9217IsLeftIdle) {
  // COSMA section 9: 16384^3 on 9,216 = 2^10 3^2 and 9,217 = 13 * 709 ranks.
  const double n = 16384, S = 1e12;
  GridFit p9216 = fitRanks(n, n, n, 9216, S, /*delta=*/0);
  EXPECT_EQ(p9216.used, 9216);
  EXPECT_EQ(sortedGrid(p9216), (std::array<int64_t, 3>{16, 24, 24}));
  // ceil(16384/24) = 683: 683^2 + 2 * 683 * 1024.
  EXPECT_DOUBLE_EQ(p9216.wordsPerRank, 683.0 * 683 + 2 * 683.0 * 1024);

  // All 9,217 ranks force [1, 13, 709]: about 11x the words.
  GridFit p9217 = fitRanks(n, n, n, 9217, S, /*delta=*/0);
  EXPECT_EQ(p9217.used, 9217);
  EXPECT_EQ(sortedGrid(p9217), (std::array<int64_t, 3>{1, 13, 709}));
  EXPECT_GT(p9217.wordsPerRank / p9216.wordsPerRank, 11);

  // One idle rank allowed: the 9,217th is dropped, giving 9,216's grid.
  GridFit drop = fitRanks(n, n, n, 9217, S, /*delta=*/1.0 / 9217);
  EXPECT_EQ(drop.used, 9216);
  EXPECT_EQ(drop.pm, p9216.pm);
  EXPECT_EQ(drop.pn, p9216.pn);
  EXPECT_EQ(drop.pk, p9216.pk);

  // With the default 3% both counts end on the same grid, which leaves the
  // extra rank idle and is no worse than [16, 24, 24].
  GridFit d9216 = fitRanks(n, n, n, 9216, S);
  GridFit d9217 = fitRanks(n, n, n, 9217, S);
  EXPECT_EQ(d9216.pm, d9217.pm);
  EXPECT_EQ(d9216.pn, d9217.pn);
  EXPECT_EQ(d9216.pk, d9217.pk);
  EXPECT_LE(d9217.used, 9216);
  EXPECT_LE(d9217.wordsPerRank, p9216.wordsPerRank);
  EXPECT_GE(d9217.used, 9217 - static_cast<int64_t>(0.03 * 9217));
}

TEST(CommOptimalFitRanks, CeilingsWhenSizesDoNotDivide) {
  // ceil(10/3) = 4: faces 4*10 + 10*10 + 4*10, flops 2 * 4 * 10 * 10.
  GridFit g = evaluateGrid(10, 10, 10, 3, 1, 1, 1e9);
  EXPECT_EQ(g.used, 3);
  EXPECT_DOUBLE_EQ(g.wordsPerRank, 180);
  EXPECT_DOUBLE_EQ(g.flopsPerRank, 800);
  // 100^3 on 8 ranks: the cube [2, 2, 2], 3 faces of 50 x 50.
  GridFit c = fitRanks(100, 100, 100, 8, 1e9, 0);
  EXPECT_EQ(sortedGrid(c), (std::array<int64_t, 3>{2, 2, 2}));
  EXPECT_DOUBLE_EQ(c.wordsPerRank, 3 * 50.0 * 50);
}

TEST(CommOptimalFitRanks, FactorsStayWithinExtents) {
  // m = n = 2: only k can take more than 2 ranks; [1, 1, 8] moves
  // 2*125 + 125*2 + 2*2 = 504 words against [2, 2, 2]'s 1001.
  GridFit g = fitRanks(2, 2, 1000, 8, 1e9, 0);
  EXPECT_EQ(g.pm, 1);
  EXPECT_EQ(g.pn, 1);
  EXPECT_EQ(g.pk, 8);
  EXPECT_DOUBLE_EQ(g.wordsPerRank, 504);
  // An extent of 1 gets 1.
  GridFit v = fitRanks(1, 1000, 1000, 4, 1e9, 0);
  EXPECT_EQ(v.pm, 1);
  EXPECT_EQ(v.used, 4);
  // More ranks than multiply-adds: fall back below the idle range.
  GridFit tiny = fitRanks(1, 1, 2, 64, 1e9);
  EXPECT_EQ(tiny.used, 2);
  EXPECT_EQ(tiny.pk, 2);
}

TEST(CommOptimalFitRanks, MemoryCheckSkipsGridsThatDoNotFit) {
  // m = n = k = 64 on 8 ranks. The cube [2, 2, 2] needs 32*32 + 2*64 = 1152
  // words; with S = 1000 it does not fit, and the best fitting grid wins.
  const double n = 64;
  GridFit roomy = fitRanks(n, n, n, 8, 1e9, 0);
  EXPECT_EQ(sortedGrid(roomy), (std::array<int64_t, 3>{2, 2, 2}));
  GridFit tight = fitRanks(n, n, n, 8, 1000, 0);
  EXPECT_TRUE(tight.fitsMemory);
  EXPECT_GT(tight.wordsPerRank, roomy.wordsPerRank);
  double lm = std::ceil(n / tight.pm), ln = std::ceil(n / tight.pn);
  EXPECT_LE(lm * ln + 2 * (lm + ln), 1000);
  // [4, 2, 1]: C block 16 x 32 plus 2 * 48 = 608 words, faces
  // 16*64 + 64*32 + 16*32 = 3584. [2, 4, 1] ties and is lexicographically
  // smaller; [4, 1, 2] needs 16*64 + 2*80 > 1000.
  EXPECT_EQ(tight.pm, 4);
  EXPECT_EQ(tight.pn, 2);
  EXPECT_EQ(tight.pk, 1);
  EXPECT_DOUBLE_EQ(tight.wordsPerRank, 3584);
  // Nothing fits: the best grid anyway, flagged.
  GridFit none = fitRanks(n, n, n, 8, 10, 0);
  EXPECT_FALSE(none.fitsMemory);
  EXPECT_EQ(sortedGrid(none), (std::array<int64_t, 3>{2, 2, 2}));
}

TEST(CommOptimalFitRanks, PizDaintSamples) {
  // D24's sample values: S = 64 GiB / 36 cores / 8 B words.
  const double S = 238609294;
  // Square 16384^3 on 9,216 ranks: cubic domain, Q = 3 (mnk/p)^(2/3), one
  // round.
  const double n = 16384;
  LocalDomain sq = optimalDomain(n, n, n, 9216, S);
  EXPECT_NEAR(sq.a, 781.46, 0.01);
  EXPECT_NEAR(sq.b, 781.46, 0.01);
  EXPECT_NEAR(parallelLowerBound(n, n, n, 9216, S), 1832031, 1);
  EXPECT_EQ(roundsFor(sq.a, sq.b, S).t, 1);
  // RPA (w = 128): m = n = 17408, k = 3735552 on 2,048 ranks.
  const double m = 17408, k = 3735552;
  LocalDomain rpa = optimalDomain(m, m, k, 2048, S);
  EXPECT_NEAR(rpa.a, 8206.8, 0.1);
  EXPECT_NEAR(parallelLowerBound(m, m, k, 2048, S), 2.0206e8, 0.0001e8);
  GridFit g = fitRanks(m, m, k, 2048, S);
  EXPECT_EQ(g.pm, 2);
  EXPECT_EQ(g.pn, 2);
  EXPECT_EQ(g.pk, 512);
  EXPECT_TRUE(g.fitsMemory);
  EXPECT_NEAR(g.wordsPerRank, 2.0277e8, 0.0001e8);
}

//===--- Table 3 (D26) ----------------------------------------------------===//

TEST(CommOptimalTable3, GeneralCaseByHand) {
  // m = 2048, n = 1024, k = 4096, p = 64, V = mnk/p = 2^27, V^(2/3) = 2^18.
  const double m = 2048, n = 1024, k = 4096;
  // 2D: 4096 * 3072 / 8 + 2048 * 1024 / 64.
  EXPECT_DOUBLE_EQ(table3Words2D(m, n, k, 64), 1572864 + 32768);
  // COSMA, S = 2^20: min{2^18 + 2^20, 3 * 2^18} = 786432 (cubic, feasible).
  EXPECT_NEAR(table3WordsCosma(m, n, k, 64, 1 << 20), 786432, 1e-6);
  EXPECT_NEAR(parallelLowerBound(m, n, k, 64, 1 << 20), 786432, 1e-6);
  // S = 2^16: the literal min still says 786432; the feasible value is
  // 2^20 + 2^16.
  EXPECT_NEAR(table3WordsCosma(m, n, k, 64, 1 << 16), 786432, 1e-6);
  EXPECT_NEAR(parallelLowerBound(m, n, k, 64, 1 << 16), 1114112, 1e-6);
  // 2.5D and recursive, m = n = 512, k = 1024 (k(m+n) = 2^20), p = 64,
  // S = 2^16: 2^30/2^14 + 2^34/2^20; 2 min{sqrt(3) 2^14, 2^(44/3)} + 2^(44/3).
  EXPECT_NEAR(table3Words25D(512, 512, 1024, 64, 1 << 16), 65536 + 16384, 1e-6);
  EXPECT_NEAR(table3WordsRecursive(512, 512, 1024, 64, 1 << 16),
              3 * std::pow(2.0, 44.0 / 3), 1e-6);
  // With S = 2^20 > 3 V^(2/3) the printed min takes its sqrt(3) branch,
  // 2 sqrt(3) 2^22/2^10 + 2^(44/3), and falls below Theorem 2: the printed min
  // should be a max (D26), but the function is the table as printed.
  double rec = table3WordsRecursive(512, 512, 1024, 64, 1 << 20);
  EXPECT_NEAR(rec, 2 * std::sqrt(3.0) * 4096 + std::pow(2.0, 44.0 / 3), 1e-6);
  EXPECT_LT(rec, parallelLowerBound(512, 512, 1024, 64, 1 << 20));
}

TEST(CommOptimalTable3, TallExtraMemoryRow) {
  // m = n = sqrt(p), k = p^(3/2)/4, S = 2nk/p^(2/3): the COSMA entry is the
  // general formula minus the input each rank owns, p(3/2^(4/3) - 1/2).
  for (double p : {64.0, 4096.0, 1048576.0}) {
    SCOPED_TRACE(p);
    double m = std::sqrt(p), n = m, k = std::pow(p, 1.5) / 4;
    double S = 2 * n * k / std::pow(p, 2.0 / 3);
    double cosma = table3WordsCosma(m, n, k, static_cast<int64_t>(p), S);
    double expected = p * (3 / std::pow(2.0, 4.0 / 3) - 0.5);
    EXPECT_NEAR(cosma - (m * k + n * k) / p, expected, 1e-9 * p);
    // The paper's printed entry p(3 - 2^(1/3))/2^(4/3) ~ 0.69p is the same.
    EXPECT_NEAR(expected, p * (3 - std::cbrt(2.0)) / std::pow(2.0, 4.0 / 3),
                1e-9 * p);
    // Here the cubic domain is feasible: the bound equals the literal entry.
    EXPECT_NEAR(parallelLowerBound(m, n, k, static_cast<int64_t>(p), S), cosma,
                1e-9 * cosma);
    // 2.5D's tall entry p^(4/3)/2 + p^(1/3) matches its general formula.
    EXPECT_NEAR(table3Words25D(m, n, k, static_cast<int64_t>(p), S),
                std::pow(p, 4.0 / 3) / 2 + std::cbrt(p), 1e-9 * p * p);
    // 2D's tall entry p^(3/2)/2 is the leading term of k(m+n)/sqrt(p) + mn/p.
    EXPECT_NEAR(table3Words2D(m, n, k, static_cast<int64_t>(p)),
                std::pow(p, 1.5) / 2 + 1, 1e-9 * p * p);
  }
}
