//===- OutOfCoreCostModel.cpp - Gao et al.'s out-of-core cost model -------===//
//
// One uniform evaluator covers the 6 (method x algorithm) x 3 (order class) cells of
// [G] Tables 2-7 (docs/Derivations.md D8): per method, the tile-constraint right-hand sides
// a, b, c, the disk weight wX of each (re)read of array X, and the communication
// vX per (re)read; per order class, which tile counts re-read which array. The
// closed-form optimum of the binding constraint pair ([G] eqs. 4.4, 4.9, 4.14,
// 5.1-5.7; docs/Derivations.md D5) gives the candidate tilings, which are then evaluated
// exactly (and, with integer tiles, at their floor/ceil neighbours).
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/OutOfCoreCostModel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>

namespace mlir::tc {

const char *toString(CommMethod m) {
  return m == CommMethod::Inside ? "inside" : "outside";
}

const char *toString(ParallelAlgorithm a) {
  switch (a) {
  case ParallelAlgorithm::Rotation:
    return "rotation";
  case ParallelAlgorithm::ReplicationA:
    return "replication-a";
  case ParallelAlgorithm::ReplicationB:
    return "replication-b";
  case ParallelAlgorithm::Accumulation:
    return "accumulation";
  case ParallelAlgorithm::Cosma:
    return "cosma";
  case ParallelAlgorithm::Pumma:
    return "pumma";
  case ParallelAlgorithm::Batch:
    return "batch";
  }
  return "?";
}

const char *toString(ReadOrder o) {
  static const char *names[] = {"ABC", "ACB", "BAC", "BCA", "CAB", "CBA"};
  return names[static_cast<int>(o)];
}

const char *toString(TileMemory m) {
  return m == TileMemory::PerArray ? "per-array" : "shared";
}

namespace {

/// The three order classes of [G] section 3 (pairs share one cost formula).
enum class OrderClass { AFirst, BFirst, CFirst };

OrderClass classOf(ReadOrder o) {
  switch (o) {
  case ReadOrder::ABC:
  case ReadOrder::ACB:
    return OrderClass::AFirst;
  case ReadOrder::BAC:
  case ReadOrder::BCA:
    return OrderClass::BFirst;
  default:
    return OrderClass::CFirst;
  }
}

/// The same order with the roles of A and B exchanged (for Replication B, which
/// is Replication A of the mirrored contraction C^T(J,I) += B(J,K) A(I,K)).
ReadOrder swapAB(ReadOrder o) {
  switch (o) {
  case ReadOrder::ABC:
    return ReadOrder::BAC;
  case ReadOrder::ACB:
    return ReadOrder::BCA;
  case ReadOrder::BAC:
    return ReadOrder::ABC;
  case ReadOrder::BCA:
    return ReadOrder::ACB;
  case ReadOrder::CAB:
    return ReadOrder::CBA;
  case ReadOrder::CBA:
    return ReadOrder::CAB;
  }
  return o;
}

/// Tile counts of the mirrored problem (I<->J).
TileCounts mirrored(TileCounts t) {
  std::swap(t.It1, t.Jt1);
  std::swap(t.It2, t.Jt2);
  return t;
}

/// Maps a candidate computed on the mirrored problem (A<->B, I<->J) back to the
/// caller's orientation. The order is already the caller's.
Candidate unmirror(Candidate c) {
  c.tiles = mirrored(c.tiles);
  std::swap(c.bufferBytes[0], c.bufferBytes[1]);
  return c;
}

/// Per-method parameters of docs/Derivations.md D8 (all volumes in bytes, per process).
struct MethodParams {
  double a, b, c;          ///< tile-count products needed by A, B, C (X_mem / M)
  double wA, wB, wC;       ///< disk bytes per (re)read of A, B, C
  double vA, vB, vC;       ///< communication bytes per (re)read (inside methods)
  double fixedDisk = 0;    ///< D1: outside methods' disk-to-disk phase
  double fixedComm = 0;    ///< V0: outside methods' communication
  double firstReadC = 0;   ///< C's first read, not made when C starts at zero (D51)
  bool rotateInside = false; ///< inside rotation: comm per J tile (A) / I tile (B)
};

MethodParams paramsFor(CommMethod method, ParallelAlgorithm alg, double A, double B, double C,
                       bool freshC, bool slabC, const MachineModel &m) {
  const double P = static_cast<double>(m.procs);
  const double sP = std::sqrt(P), logP = std::log2(P), M = m.tileBudget();
  const bool rep = alg == ParallelAlgorithm::ReplicationA;
  const bool acc = alg == ParallelAlgorithm::Accumulation;
  const bool inside = method == CommMethod::Inside;
  MethodParams p{};
  // Collective volumes per process. [G]: a broadcast of X moves X, an all-reduce
  // C log2 P. tc's runtime (lib/Runtime/Collectives.cpp): a ring all-gather
  // moves X (P-1)/P, recursive doubling C log2 P, a ring all-reduce 2C (P-1)/P.
  const bool exact = m.runtimeVolumes;
  const bool pow2 = (m.procs & (m.procs - 1)) == 0;
  const double gathered = exact ? (P - 1) / P : 1.0;
  const double reduceSteps = exact && !pow2 ? 2 * (P - 1) / P : logP;
  // In-memory tile bases: a replicated A (outside: on disk whole; inside: broadcast
  // into memory whole) and a replicated C are full-size tiles ([G] 4.2, 4.3, 5.2).
  p.a = (rep ? A : A / P) / M;
  p.b = (B / P) / M;
  p.c = (acc ? C : C / P) / M;
  // Disk bytes per read: local sizes; outside rotation repeats the nest sqrt(P)
  // times ([G] 4.1); outside replication reads the replicated A from disk whole.
  double scale = (!inside && alg == ParallelAlgorithm::Rotation) ? sP : 1.0;
  p.wA = scale * ((rep && !inside) ? A : A / P);
  p.wB = scale * B / P;
  // Inside accumulation on tc's runtime keeps C as a slab per process where C
  // can be dealt out (MacroSizes::slabC), each tile's partial sums
  // reduce-scattered onto the slabs (D53): a process reads and writes its
  // slab, C / P, though its tile is C's whole tile.
  const bool slabs = slabC && exact && inside && acc && m.procs > 1;
  const double diskC = acc && !slabs ? C : C / P;
  p.wC = scale * 2.0 * diskC; // C is read and written
  // A C that starts at zero is zero-filled on its first visit instead (D51):
  // one read of every tile fewer, in the first pass.
  if (freshC)
    p.firstReadC = diskC;
  if (inside) {
    if (alg == ParallelAlgorithm::Rotation) {
      p.vA = A / sP; // per J tile ([G] 5.1)
      p.vB = B / sP; // per I tile
      p.rotateInside = true;
    } else if (rep) {
      p.vA = m.bcastFactor * A * gathered; // broadcast of each A tile ([G] 5.2)
    } else if (slabs) {
      p.vC = C * (P - 1) / P; // a ring reduce-scatter per C write (D53)
    } else {
      p.vC = m.reduceFactor * C * reduceSteps; // all-reduce per C write ([G] 5.3)
    }
    if (exact && m.procs == 1) // one process: the runtime communicates nothing
      p.vA = p.vB = p.vC = 0;
    return p;
  }
  switch (alg) {
  case ParallelAlgorithm::Rotation: // sqrt(P) out-of-core shifts of A and B
    p.fixedDisk = 2.0 * (A + B) / sP;
    p.fixedComm = (A + B) / sP;
    break;
  case ParallelAlgorithm::Accumulation: // one out-of-core all-reduce of C
    p.fixedDisk = exact ? 2 * C : C; // the runtime reads and writes every chunk
    p.fixedComm = m.reduceFactor * C * reduceSteps;
    break;
  default: // one out-of-core all-to-all broadcast of A
    // The runtime reads each slab it forwards and writes each it receives.
    p.fixedDisk = exact ? 2 * A * gathered : A;
    p.fixedComm = m.bcastFactor * A * gathered;
    break;
  }
  if (exact && m.procs == 1) // one process: no shift, reduction or gather runs
    p.fixedDisk = p.fixedComm = 0;
  return p;
}

struct Evaluation {
  double disk, comm, seconds;
  double buffer[3];
};

/// Exact volumes of one tiling ([G] section 3, docs/Derivations.md D4): re-read counts per
/// order class and buffer sizes; nullopt if a tile does not fit or a count
/// exceeds its index extent.
std::optional<Evaluation> evaluate(const MethodParams &p, OrderClass cls,
                                   const TileCounts &t, const MacroSizes &s,
                                   const MachineModel &m,
                                   TileMemory memory = TileMemory::PerArray) {
  const double eps = 1e-9;
  if (t.I() > s.I * (1 + eps) || t.J() > s.J * (1 + eps) || t.Kt1 > s.K * (1 + eps))
    return std::nullopt;
  double rA = 0, rB = 0, rC = 0, pA = t.It1 * t.Kt1, pB = 0, pC = 0;
  switch (cls) {
  case OrderClass::AFirst:
    rA = 1, rB = t.It1, rC = t.Kt1;
    pB = t.Jt1 * t.Kt1, pC = t.It1 * t.It2 * t.Jt1;
    break;
  case OrderClass::BFirst:
    rA = t.Jt1, rB = 1, rC = t.Kt1;
    pB = t.Jt1 * t.Kt1, pC = t.It1 * t.Jt1 * t.Jt2;
    break;
  case OrderClass::CFirst:
    rA = t.Jt1, rB = t.It1, rC = 1;
    pB = t.Jt1 * t.Jt2 * t.Kt1, pC = t.It1 * t.Jt1;
    break;
  }
  Evaluation e;
  const double M = m.tileBudget();
  e.buffer[0] = p.a * M / pA;
  e.buffer[1] = p.b * M / pB;
  e.buffer[2] = p.c * M / pC;
  if (memory == TileMemory::PerArray
          ? pA < p.a * (1 - eps) || pB < p.b * (1 - eps) || pC < p.c * (1 - eps)
          : e.buffer[0] + e.buffer[1] + e.buffer[2] >
                m.tileLimit(TileMemory::Shared) * (1 + eps))
    return std::nullopt;
  e.disk = p.fixedDisk + p.wA * rA + p.wB * rB + p.wC * rC - p.firstReadC;
  e.comm = p.fixedComm + (p.rotateInside ? p.vA * t.J() + p.vB * t.I()
                                         : p.vA * rA + p.vB * rB + p.vC * rC);
  e.seconds = e.disk / m.diskBandwidth + e.comm / m.netBandwidth;
  return e;
}

/// min wx*x + wy*y subject to x*y >= a, 1 <= x <= xMax, 1 <= y <= yMax (docs/Derivations.md D5
/// `solve2`, with the index extents as upper bounds). Returns the real optimum x.
std::optional<double> solveBindingPair(double wx, double wy, double a, double xMax,
                                       double yMax) {
  if (a <= 1)
    return 1.0;
  double lo = std::max(1.0, a / yMax), hi = std::min(xMax, a);
  if (lo > hi * (1 + 1e-12))
    return std::nullopt;
  double x = wx > 0 && wy > 0 ? std::sqrt(a * wy / wx) : (wx > 0 ? lo : hi);
  return std::clamp(x, lo, hi);
}

/// Completes a tiling from the binding pair (x, y) of its order class by setting
/// the free counts to the smallest values meeting the other constraints.
TileCounts complete(OrderClass cls, const MethodParams &p, double x, double y,
                    const MacroSizes &s, bool integer) {
  auto up = [&](double v) {
    v = std::max(1.0, v);
    return integer ? std::ceil(v - 1e-9) : v;
  };
  TileCounts t;
  switch (cls) {
  case OrderClass::AFirst: // binding It1 * Kt1 >= a
    t.It1 = x, t.Kt1 = y;
    t.Jt1 = std::min(up(p.b / t.Kt1), s.J);
    t.It2 = up(p.c / (t.It1 * t.Jt1));
    break;
  case OrderClass::BFirst: // binding Jt1 * Kt1 >= b
    t.Jt1 = x, t.Kt1 = y;
    t.It1 = std::min(up(p.a / t.Kt1), s.I);
    t.Jt2 = up(p.c / (t.It1 * t.Jt1));
    break;
  case OrderClass::CFirst: // binding It1 * Jt1 >= c; Kt1 is free of cost
    t.Jt1 = x, t.It1 = y;
    t.Kt1 = std::min(up(std::max(p.a / t.It1, p.b / t.Jt1)), s.K);
    t.Jt2 = up(p.b / (t.Jt1 * t.Kt1));
    break;
  }
  return t;
}

/// Weights and bounds of the binding pair (x, y) of an order class.
struct BindingPair {
  double wx, wy, a, xMax, yMax;
};

BindingPair bindingPair(OrderClass cls, const MethodParams &p, const MacroSizes &s,
                        double R) {
  switch (cls) {
  case OrderClass::AFirst: // x = It1 (B re-read), y = Kt1 (C re-read)
    return {p.wB + R * p.vB, p.wC + R * p.vC, p.a, s.I, s.K};
  case OrderClass::BFirst: // x = Jt1 (A re-read), y = Kt1 (C re-read)
    return {p.wA + R * p.vA, p.wC + R * p.vC, p.b, s.J, s.K};
  case OrderClass::CFirst: // x = Jt1 (A re-read), y = It1 (B re-read)
    return {p.wA + R * p.vA, p.wB + R * p.vB, p.c, s.J, s.I};
  }
  return {};
}

/// Best tiling of one (method, algorithm, order class) cell, or nullopt.
std::optional<std::pair<TileCounts, Evaluation>>
bestTiling(const MethodParams &p, OrderClass cls, const MacroSizes &s,
           const MachineModel &m, bool integer) {
  const double R = m.diskBandwidth / m.netBandwidth;
  BindingPair bp = bindingPair(cls, p, s, R);
  // Real-valued starting points for the binding pair's x.
  std::vector<double> starts;
  if (std::optional<double> x = solveBindingPair(bp.wx, bp.wy, bp.a, bp.xMax, bp.yMax))
    starts.push_back(*x);
  if (p.rotateInside && cls != OrderClass::CFirst) {
    // [G] 5.1: communication- and disk-optimal tilings differ; evaluate both.
    // V-optimal: x = I/sqrt(MP) (or J/sqrt(MP)); D-optimal: x = I*sqrt(2/(MP)).
    const double MP = m.tileBudget() * static_cast<double>(m.procs);
    double extent = cls == OrderClass::AFirst ? s.I : s.J;
    starts.push_back(extent / std::sqrt(MP));
    starts.push_back(extent * std::sqrt(2.0 / MP));
  }
  std::optional<std::pair<TileCounts, Evaluation>> best;
  auto consider = [&](double x) {
    x = std::clamp(x, 1.0, bp.xMax);
    double y = std::clamp(integer ? std::ceil(bp.a / x - 1e-9) : bp.a / x, 1.0, bp.yMax);
    TileCounts t = complete(cls, p, x, y, s, integer);
    std::optional<Evaluation> e = evaluate(p, cls, t, s, m);
    if (e && (!best || e->seconds < best->second.seconds))
      best = std::make_pair(t, *e);
  };
  for (double x : starts) {
    if (!integer) {
      consider(x);
      continue;
    }
    consider(std::floor(x));
    consider(std::ceil(x));
  }
  return best;
}

/// COSMA's sequential schedule in the C-first class (Kwasniewski et al.
/// section 5; docs/Derivations.md D29): It1 x Jt1 tiles of C, each read and
/// written once, with A re-read Jt1 times and B It1 times, and every tile
/// within the shared limit together. For each It1, the fewest J tiles for
/// which some K split fits, then the fewest K panels that fit (the panels'
/// thickness costs no I/O). It1 grows until B's re-reads alone cost more than
/// the best tiling found.
std::optional<std::pair<TileCounts, Evaluation>>
bestResidentC(const MethodParams &p, const MacroSizes &s, const MachineModel &m) {
  const double M = m.tileBudget(), S = m.tileLimit(TileMemory::Shared);
  const double A = p.a * M, B = p.b * M, C = p.c * M; // local bytes
  auto panels = [&](double it, double jt) -> std::optional<double> {
    double left = S - C / (it * jt);
    if (left <= 0)
      return std::nullopt;
    double kt = std::max(1.0, std::ceil((A / it + B / jt) / left - 1e-9));
    return kt <= s.K ? std::optional(kt) : std::nullopt;
  };
  // Seconds each I tile adds (B read once more, and its communication).
  const double perI = p.wB / m.diskBandwidth + p.vB / m.netBandwidth;
  std::optional<std::pair<TileCounts, Evaluation>> best;
  for (double it = 1; it <= s.I; ++it) {
    if (best && it * perI >= best->second.seconds)
      break;
    if (!panels(it, s.J))
      continue;
    double lo = 1, hi = s.J; // the fewest J tiles that fit: panels(it, hi) holds
    while (lo < hi) {
      double mid = std::floor((lo + hi) / 2);
      if (panels(it, mid))
        hi = mid;
      else
        lo = mid + 1;
    }
    TileCounts t;
    t.It1 = it, t.Jt1 = hi, t.Kt1 = *panels(it, hi);
    std::optional<Evaluation> e = evaluate(p, OrderClass::CFirst, t, s, m, TileMemory::Shared);
    if (e && (!best || e->seconds < best->second.seconds))
      best = std::make_pair(t, *e);
    // One J tile and one K panel: A and C are read once whatever It1, and each
    // further I tile only reads B again (perI may round to nothing when B is a
    // scalar, so the test above would let It1 run to I).
    if (t.Jt1 == 1 && t.Kt1 == 1)
      break;
  }
  return best;
}

} // namespace

namespace {

/// The orientation the model computes in: Replication B is Replication A of the
/// mirrored problem C^T(J,I) += B(J,K) A(I,K).
struct Oriented {
  bool mirror;
  MacroSizes sizes;
  ParallelAlgorithm algorithm;
  double A, B, C; ///< array sizes in bytes
};

Oriented orient(const MacroSizes &sizes, const MachineModel &m, ParallelAlgorithm alg) {
  const bool mirror = alg == ParallelAlgorithm::ReplicationB;
  // One batch value's contraction (the caller scales by L, forBatch).
  MacroSizes s = mirror ? MacroSizes{sizes.J, sizes.I, sizes.K} : MacroSizes{sizes.I, sizes.J, sizes.K};
  s.freshC = sizes.freshC;
  s.slabC = sizes.slabC;
  const double e = static_cast<double>(m.elemBytes);
  return {mirror, s, mirror ? ParallelAlgorithm::ReplicationA : alg, s.I * s.K * e,
          s.K * s.J * e, s.I * s.J * e};
}

Candidate fromEvaluation(CommMethod method, ParallelAlgorithm alg, ReadOrder order,
                         const TileCounts &tiles, const Evaluation &e) {
  Candidate c{method, alg, order, tiles};
  c.diskBytes = e.disk;
  c.commBytes = e.comm;
  c.seconds = e.seconds;
  std::copy(std::begin(e.buffer), std::end(e.buffer), std::begin(c.bufferBytes));
  return c;
}

/// An out-of-core candidate of one batch value's contraction as the whole
/// contraction's: the batch loop, outermost with one value per tile, repeats
/// its I/O and communication L times (docs/Derivations.md D30).
Candidate forBatch(Candidate c, const MacroSizes &sizes) {
  c.diskBytes *= sizes.L;
  c.commBytes *= sizes.L;
  c.seconds *= sizes.L;
  return c;
}

} // namespace

bool isPerfectSquare(int64_t n) {
  int64_t r = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
  return r * r == n;
}

std::optional<Candidate> inCoreCandidate(const MacroSizes &sizes,
                                         const MachineModel &machine,
                                         ParallelAlgorithm alg) {
  const double P = static_cast<double>(machine.procs);
  Oriented o = orient(sizes, machine, alg);
  // In-core: the local data of the algorithm fits in memory ([G] section 2).
  // Every batch value at once (D30).
  const double L = sizes.L;
  double localA = L * (o.algorithm == ParallelAlgorithm::ReplicationA ? o.A : o.A / P);
  double localC = L * (o.algorithm == ParallelAlgorithm::Accumulation ? o.C : o.C / P);
  if (localA + L * o.B / P + localC > machine.memBytes)
    return std::nullopt;
  MethodParams p = paramsFor(CommMethod::Outside, o.algorithm, o.A, o.B, o.C, o.sizes.freshC,
                             o.sizes.slabC, machine);
  Candidate c{CommMethod::Outside, alg, ReadOrder::CAB, TileCounts{}};
  c.inCore = true;
  c.commBytes = L * p.fixedComm;
  c.seconds = c.commBytes / machine.netBandwidth;
  c.bufferBytes[0] = localA;
  c.bufferBytes[1] = L * o.B / P;
  c.bufferBytes[2] = localC;
  return o.mirror ? unmirror(c) : c;
}

std::optional<Candidate> evaluateTiling(const MacroSizes &sizes,
                                        const MachineModel &machine,
                                        CommMethod method, ParallelAlgorithm alg,
                                        ReadOrder order, const TileCounts &tiles,
                                        TileMemory memory) {
  Oriented o = orient(sizes, machine, alg);
  MethodParams p =
      paramsFor(method, o.algorithm, o.A, o.B, o.C, o.sizes.freshC, o.sizes.slabC, machine);
  TileCounts t = o.mirror ? mirrored(tiles) : tiles;
  ReadOrder modelOrder = o.mirror ? swapAB(order) : order;
  std::optional<Evaluation> e =
      evaluate(p, classOf(modelOrder), t, o.sizes, machine, memory);
  if (!e)
    return std::nullopt;
  Candidate c = forBatch(fromEvaluation(method, alg, order, t, *e), sizes);
  c.memory = memory;
  return o.mirror ? unmirror(c) : c;
}

namespace {

/// Every out-of-core cell of the search ([G] 2.1-2.2): fn(alg, oriented
/// problem, method, its parameters). Algorithms whose local data fits go to
/// `inCore` instead (when the options allow in-core plans).
template <typename Fn>
void forEachOutOfCoreCell(const MacroSizes &sizes, const MachineModel &machine,
                          const PlanOptions &options, std::vector<Candidate> &inCore,
                          Fn fn) {
  assert(machine.procs >= 1 && machine.memBytes > 0 && machine.netBandwidth > 0 &&
         machine.diskBandwidth > 0 && "machine model validated by the caller");
  const double P = static_cast<double>(machine.procs);
  static const ParallelAlgorithm kAlgorithms[] = {
      ParallelAlgorithm::Rotation, ParallelAlgorithm::ReplicationA,
      ParallelAlgorithm::ReplicationB, ParallelAlgorithm::Accumulation};
  for (ParallelAlgorithm alg : kAlgorithms) {
    if (alg == ParallelAlgorithm::Rotation && !isPerfectSquare(machine.procs))
      continue;
    if (options.allowInCore)
      if (std::optional<Candidate> c = inCoreCandidate(sizes, machine, alg)) {
        inCore.push_back(*c);
        continue;
      }
    Oriented o = orient(sizes, machine, alg);
    // [G] 2.1: "when available local memory is large enough to hold all the remote
    // data, we can directly select the outside communication method". Remote data:
    // the blocks shifted through a process (rotation), the replicated operand, or
    // the partial results to reduce (accumulation).
    double remote = o.algorithm == ParallelAlgorithm::Rotation ? (o.A + o.B) / std::sqrt(P)
                    : o.algorithm == ParallelAlgorithm::ReplicationA ? o.A
                                                                     : o.C;
    bool outsideOnly =
        options.outsideOnlyWhenRemoteFits && remote <= machine.tileBudget();
    for (CommMethod method : {CommMethod::Inside, CommMethod::Outside}) {
      if (method == CommMethod::Inside && outsideOnly)
        continue;
      fn(alg, o, method,
         paramsFor(method, o.algorithm, o.A, o.B, o.C, o.sizes.freshC, o.sizes.slabC, machine));
    }
  }
}

} // namespace

std::vector<Candidate> enumerateCandidates(const MacroSizes &sizes,
                                           const MachineModel &machine,
                                           const PlanOptions &options) {
  std::vector<Candidate> out;
  forEachOutOfCoreCell(sizes, machine, options, out,
                       [&](ParallelAlgorithm alg, const Oriented &o, CommMethod method,
                           const MethodParams &p) {
                         for (ReadOrder order : kAllReadOrders) {
                           ReadOrder modelOrder = o.mirror ? swapAB(order) : order;
                           auto best = bestTiling(p, classOf(modelOrder), o.sizes, machine,
                                                  options.integerTiles);
                           if (!best)
                             continue;
                           Candidate c = forBatch(
                               fromEvaluation(method, alg, order, best->first, best->second),
                               sizes);
                           out.push_back(o.mirror ? unmirror(c) : c);
                         }
                       });
  return out;
}

std::vector<Candidate> residentCCandidates(const MacroSizes &sizes,
                                           const MachineModel &machine,
                                           const PlanOptions &options) {
  std::vector<Candidate> out, inCore;
  forEachOutOfCoreCell(sizes, machine, options, inCore,
                       [&](ParallelAlgorithm alg, const Oriented &o, CommMethod method,
                           const MethodParams &p) {
                         auto best = bestResidentC(p, o.sizes, machine);
                         if (!best)
                           return;
                         for (ReadOrder order : {ReadOrder::CAB, ReadOrder::CBA}) {
                           Candidate c = forBatch(
                               fromEvaluation(method, alg, order, best->first, best->second),
                               sizes);
                           c.memory = TileMemory::Shared;
                           out.push_back(o.mirror ? unmirror(c) : c);
                         }
                       });
  return out;
}

size_t cheapest(const std::vector<Candidate> &candidates) {
  assert(!candidates.empty());
  size_t best = 0;
  for (size_t i = 1; i < candidates.size(); ++i)
    if (candidates[i].seconds < candidates[best].seconds)
      best = i;
  return best;
}

} // namespace mlir::tc
