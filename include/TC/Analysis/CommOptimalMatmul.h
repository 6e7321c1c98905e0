//===- CommOptimalMatmul.h - COSMA's cost model of C = A B ------*- C++ -*-===//
//
// The I/O and communication model of COSMA (Kwasniewski et al., "Red-Blue
// Pebbling Revisited: Near Optimal Parallel Matrix-Matrix Multiplication",
// SC'19): the sequential tile of eq. (26), the bounds of Theorems 1 and 2, the
// optimal local domain of eq. (32), grid fitting (section 7.1, FitRanks), the
// rounds of Algorithm 1 and the general-case rows of Table 3. The misprinted
// formulas are replaced by the corrected forms of docs/Derivations.md D23-D26.
// Plain C++: sizes in, numbers out.
//
// A is m x k, B is k x n, C is m x n. Sizes and volumes are in elements
// ("words"); S is the fast (sequential) or local (parallel) memory in words.
// Parallel volumes are per rank.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_COMMOPTIMALMATMUL_H
#define TC_ANALYSIS_COMMOPTIMALMATMUL_H

#include <cstdint>

namespace mlir::tc {

//===--- Sequential (COSMA section 5, docs/Derivations.md D23) ------------===//

/// COSMA eq. (26): the a x b block of C (with an A column of a words) that
/// maximizes ab/(a+b) subject to ab + a + 1 <= S (brute force over a, b =
/// floor((S-1-a)/a)). Requires S >= 3. Ties keep the smaller a.
struct SequentialTile {
  int64_t a = 1, b = 1;
  double intensity = 0; ///< ab/(a+b): multiply-adds per word loaded
};
SequentialTile optimalSequentialTile(double S);

/// Theorem 1: 2mnk/sqrt(S) + mn words between slow and fast memory.
double sequentialLowerBound(double m, double n, double k, double S);

/// Words the schedule with an a x b resident block of C moves:
/// mnk(1/a + 1/b) + mn (real-valued; exact when a | m and b | n).
double sequentialScheduleWords(double m, double n, double k, double a,
                               double b);

//===--- Parallel (COSMA section 6, docs/Derivations.md D24) --------------===//

/// Eq. (32) read as docs/Derivations.md D24 says: a = min(sqrt(S),
/// cbrt(mnk/p)), b = mnk/(p a^2). The local domain is a x a x b.
struct LocalDomain {
  double a = 0, b = 0;
};
LocalDomain optimalDomain(double m, double n, double k, int64_t p, double S);

/// Theorem 2 evaluated correctly: Q(a) = 2mnk/(p a) + a^2 at the optimal
/// domain's a (per-rank words). Not the literal min{} of eq. (33), which is
/// infeasible when S < (mnk/p)^(2/3).
double parallelLowerBound(double m, double n, double k, int64_t p, double S);

/// A processor grid [pm, pn, pk] over `used` <= p ranks (COSMA section 7.1
/// FitRanks; docs/Derivations.md D25).
struct GridFit {
  int64_t pm = 1, pn = 1, pk = 1;
  int64_t used = 1; ///< pm * pn * pk
  /// Face sum (m/pm)(k/pk) + (k/pk)(n/pn) + (m/pm)(n/pn), each quotient the
  /// ceiling of the integer sizes: the A panel, B panel and C block of a rank.
  double wordsPerRank = 0;
  double flopsPerRank = 0; ///< 2 ceil(m/pm) ceil(n/pn) ceil(k/pk)
  /// ceil(m/pm) ceil(n/pn) + 2 (ceil(m/pm) + ceil(n/pn)) <= S: the C block
  /// plus one double-buffered outer product of each input.
  bool fitsMemory = true;
};

/// The metrics of one given grid (no search). m, n, k are integral extents;
/// each factor must be in [1, its extent].
GridFit evaluateGrid(double m, double n, double k, int64_t pm, int64_t pn,
                     int64_t pk, double S);

/// Every factorization of every p' in [ceil((1-delta) p), p] into pm*pn*pk
/// (each factor <= its dimension's extent, so dims of extent 1 get 1), scored
/// by wordsPerRank. Order of preference:
///   1. grids that fit memory (if any does);
///   2. fewer wordsPerRank;
///   3. more ranks used;
///   4. fewer flopsPerRank;
///   5. the lexicographically larger (pm, pn, pk): splitting m and n before k
///      avoids the reduction of C along k (Algorithm 1 line 12).
/// If no p' in the range has a grid within the extents (p > mnk), the largest
/// smaller p' that has one is used. If no grid fits memory, the best one is
/// returned with fitsMemory = false. delta = 0 gives the best grid on all p
/// ranks. m, n, k are integral extents.
GridFit fitRanks(double m, double n, double k, int64_t p, double S,
                 double delta = 0.03);

/// COSMA Algorithm 1 lines 6-7: outer products per round
/// s = ceil((S - a^2)/(2a)) (at least 1; 1 when a^2 >= S leaves no buffer) and
/// rounds t = ceil(b/s), for a local domain a x a x b.
struct Rounds {
  int64_t s = 1, t = 1;
};
Rounds roundsFor(double a, double b, double S);

//===--- Table 3, general case (docs/Derivations.md D26) ------------------===//
// Per-rank words, as printed in COSMA Table 3 (the paper's comparison, not
// bounds of tc's own schedules).

/// 2D ([sqrt p x sqrt p x 1]): k(m+n)/sqrt(p) + mn/p.
double table3Words2D(double m, double n, double k, int64_t p);
/// 2.5D (c = pS/(mk+nk) layers): (k(m+n))^(3/2)/(p sqrt(S)) + mnS/(k(m+n)).
double table3Words25D(double m, double n, double k, int64_t p, double S);
/// Recursive (CARMA): 2 min{sqrt(3) mnk/(p sqrt(S)), (mnk/p)^(2/3)}
/// + (mnk/p)^(2/3), as printed; the min is probably a misprinted max
/// (docs/Derivations.md D26).
double table3WordsRecursive(double m, double n, double k, int64_t p, double S);
/// COSMA as printed: min{2mnk/(p sqrt(S)) + S, 3 (mnk/p)^(2/3)}. The literal
/// min{}, for comparison with the table only; parallelLowerBound is the
/// correct value.
double table3WordsCosma(double m, double n, double k, int64_t p, double S);

} // namespace mlir::tc

#endif // TC_ANALYSIS_COMMOPTIMALMATMUL_H
