//===- CommOptimalMatmul.cpp - COSMA's cost model of C = A B --------------===//
//
// COSMA's formulas (Kwasniewski et al., SC'19, sections 5-7 and Table 3) in
// the corrected forms of docs/Derivations.md D23-D26: eq. (26) by brute
// force instead of the misprinted closed forms (27)/(28), Theorem 2 as
// Q(a) = 2mnk/(pa) + a^2 at the feasible a instead of the literal min{} of
// eq. (33), and FitRanks (section 7.1) as an exhaustive search over the
// factorizations of the allowed rank counts, scored by the face sum.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/CommOptimalMatmul.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <tuple>

namespace mlir::tc {

namespace {

using tc_layout::ceilDiv;

/// Extents arrive as doubles (the interface's convention) but are integers.
int64_t extent(double x) {
  assert(x >= 1 && "extent must be at least 1");
  return static_cast<int64_t>(std::llround(x));
}

} // namespace

//===----------------------------------------------------------------------===//
// Sequential (docs/Derivations.md D23)
//===----------------------------------------------------------------------===//

SequentialTile optimalSequentialTile(double S) {
  assert(S >= 3 && "eq. (26) needs one word each of C, A and B");
  SequentialTile best;
  best.intensity = -1;
  // b = floor((S-1-a)/a) is the largest b for this a (ab + a + 1 <= S) and
  // falls as a grows. ab/(a+b) < b, so once b <= the best intensity no larger
  // a can win: O(sqrt(S)) steps (D23).
  for (int64_t a = 1;; ++a) {
    double b = std::floor((S - 1 - static_cast<double>(a)) / a);
    if (b < 1 || b <= best.intensity)
      break;
    double rho = a * b / (a + b);
    if (rho > best.intensity) // strict: ties keep the smaller a
      best = {a, static_cast<int64_t>(b), rho};
  }
  return best;
}

double sequentialLowerBound(double m, double n, double k, double S) {
  // Theorem 1: every one of the mnk partial sums costs 2/sqrt(S) loads at the
  // optimal intensity sqrt(S)/2, and C is stored once.
  return 2 * m * n * k / std::sqrt(S) + m * n;
}

double sequentialScheduleWords(double m, double n, double k, double a,
                               double b) {
  // Per a x b block of C: k columns of A (a each) and k rows of B (b each),
  // then one store of the block (D23; the corollary's ratio lacks a 1/2).
  return m * n * k * (1 / a + 1 / b) + m * n;
}

//===----------------------------------------------------------------------===//
// Parallel (docs/Derivations.md D24)
//===----------------------------------------------------------------------===//

LocalDomain optimalDomain(double m, double n, double k, int64_t p, double S) {
  double V = m * n * k / static_cast<double>(p);
  // Q(a) = 2V/a + a^2 is minimal at a = cbrt(V); the I/O constraint a^2 <= S
  // caps it at sqrt(S) (COSMA eq. 32). Load balance fixes b = V/a^2, which is
  // eq. (32)'s max{mnk/(pS), cbrt(V)}.
  double a = std::min(std::sqrt(S), std::cbrt(V));
  return {a, V / (a * a)};
}

double parallelLowerBound(double m, double n, double k, int64_t p, double S) {
  // Not the literal min{} of eq. (33): with S < V^(2/3) its second term is the
  // unconstrained optimum at an infeasible a (D24).
  LocalDomain d = optimalDomain(m, n, k, p, S);
  double V = m * n * k / static_cast<double>(p);
  return 2 * V / d.a + d.a * d.a;
}

Rounds roundsFor(double a, double b, double S) {
  // Each outer product needs a words of A and a of B next to the a^2 of C, so
  // the spare S - a^2 holds (S - a^2)/(2a) of them per round (Algorithm 1
  // line 6). With a^2 >= S there is no spare memory (D24's degenerate case):
  // one outer product per round.
  Rounds r;
  double spare = S - a * a;
  r.s = spare > 0 ? std::max<int64_t>(
                        1, static_cast<int64_t>(std::ceil(spare / (2 * a))))
                  : 1;
  r.t = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(b / r.s)));
  return r;
}

//===----------------------------------------------------------------------===//
// Grid fitting (COSMA section 7.1; docs/Derivations.md D25)
//===----------------------------------------------------------------------===//

GridFit evaluateGrid(double m, double n, double k, int64_t pm, int64_t pn,
                     int64_t pk, double S) {
  int64_t M = extent(m), N = extent(n), K = extent(k);
  assert(pm >= 1 && pn >= 1 && pk >= 1 && pm <= M && pn <= N && pk <= K &&
         "grid factor outside [1, extent]");
  // The rank holding the largest (ceiling) block bounds the round: with sizes
  // that do not divide, that is the one every other rank waits for.
  double lm = static_cast<double>(ceilDiv(M, pm));
  double ln = static_cast<double>(ceilDiv(N, pn));
  double lk = static_cast<double>(ceilDiv(K, pk));
  GridFit g;
  g.pm = pm;
  g.pn = pn;
  g.pk = pk;
  g.used = pm * pn * pk;
  // A panel + B panel received, C block reduced: COSMA's 2ab + a^2 for a
  // non-cubic domain (D25).
  g.wordsPerRank = lm * lk + lk * ln + lm * ln;
  g.flopsPerRank = 2 * lm * ln * lk;
  // C resident plus one double-buffered outer product of each input (D25).
  g.fitsMemory = lm * ln + 2 * (lm + ln) <= S;
  return g;
}

namespace {

/// True when `x` is preferred to `y` (the order documented in the header).
bool better(const GridFit &x, const GridFit &y) {
  if (x.fitsMemory != y.fitsMemory)
    return x.fitsMemory;
  if (x.wordsPerRank != y.wordsPerRank)
    return x.wordsPerRank < y.wordsPerRank;
  if (x.used != y.used)
    return x.used > y.used;
  if (x.flopsPerRank != y.flopsPerRank)
    return x.flopsPerRank < y.flopsPerRank;
  return std::make_tuple(x.pm, x.pn, x.pk) > std::make_tuple(y.pm, y.pn, y.pk);
}

} // namespace

GridFit fitRanks(double m, double n, double k, int64_t p, double S,
                 double delta) {
  assert(p >= 1 && delta >= 0 && delta < 1);
  int64_t M = extent(m), N = extent(n), K = extent(k);
  // ceil((1-delta) p) ranks at least; the epsilon keeps 0.03 * 100 from
  // rounding to 2.9999... and losing an allowed idle rank.
  int64_t maxIdle = static_cast<int64_t>(std::floor(delta * p + 1e-9));
  int64_t lowest = std::max<int64_t>(1, p - maxIdle);

  GridFit best;
  bool found = false;
  // Below `lowest` only while nothing has been found (p > mnk); p' = 1 always
  // has the grid [1, 1, 1].
  for (int64_t q = p; q >= 1 && (q >= lowest || !found); --q) {
    for (int64_t pm = 1; pm <= std::min(q, M); ++pm) {
      if (q % pm)
        continue;
      int64_t rest = q / pm;
      for (int64_t pn = 1; pn <= std::min(rest, N); ++pn) {
        if (rest % pn)
          continue;
        int64_t pk = rest / pn;
        if (pk > K)
          continue;
        GridFit g = evaluateGrid(m, n, k, pm, pn, pk, S);
        if (!found || better(g, best)) {
          best = g;
          found = true;
        }
      }
    }
  }
  return best;
}

//===----------------------------------------------------------------------===//
// Table 3, general case (docs/Derivations.md D26)
//===----------------------------------------------------------------------===//

double table3Words2D(double m, double n, double k, int64_t p) {
  double P = static_cast<double>(p);
  return k * (m + n) / std::sqrt(P) + m * n / P;
}

double table3Words25D(double m, double n, double k, int64_t p, double S) {
  double P = static_cast<double>(p);
  double I = k * (m + n);
  return std::pow(I, 1.5) / (P * std::sqrt(S)) + m * n * S / I;
}

double table3WordsRecursive(double m, double n, double k, int64_t p, double S) {
  double V = m * n * k / static_cast<double>(p);
  double V23 = std::pow(V, 2.0 / 3.0);
  // As printed; CARMA's side min{cbrt(V), sqrt(S/3)} suggests a max (D26).
  return 2 * std::min(std::sqrt(3.0) * V / std::sqrt(S), V23) + V23;
}

double table3WordsCosma(double m, double n, double k, int64_t p, double S) {
  double V = m * n * k / static_cast<double>(p);
  // Literal on purpose (D26): see parallelLowerBound for the feasible value.
  return std::min(2 * V / std::sqrt(S) + S, 3 * std::pow(V, 2.0 / 3.0));
}

} // namespace mlir::tc
