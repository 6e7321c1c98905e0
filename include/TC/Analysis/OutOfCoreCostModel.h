//===- OutOfCoreCostModel.h - Gao et al.'s out-of-core cost model -*- C++ -*-===//
//
// Disk-I/O and communication volumes of one parallel out-of-core contraction
// C(I,J) += A(I,K) * B(J,K) for every {inside, outside} communication method x
// {rotation, replication, accumulation} parallel algorithm x disk-read order, with
// the closed-form optimal tile counts (X. Gao et al., "Compiler Techniques for
// Efficient Parallelization of Out-of-Core Tensor Contractions", sections 3-5,
// Tables 2-7; the derived, misprint-free forms of docs/Derivations.md
// D4-D8). Plain C++: sizes in, candidates out.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_OUTOFCORECOSTMODEL_H
#define TC_ANALYSIS_OUTOFCORECOSTMODEL_H

#include "TC/Analysis/Decisions.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

/// Every read order ([G] section 3).
inline constexpr ReadOrder kAllReadOrders[] = {ReadOrder::ABC, ReadOrder::ACB,
                                               ReadOrder::BAC, ReadOrder::BCA,
                                               ReadOrder::CAB, ReadOrder::CBA};

const char *toString(CommMethod m);
const char *toString(ParallelAlgorithm a);
const char *toString(ReadOrder o);
const char *toString(TileMemory m);

/// The machine as the model sees it ([G] section 2). Bandwidths in bytes/s.
struct MachineModel {
  int64_t procs = 1;
  double memBytes = 0;           ///< memory per process
  double netBandwidth = 0;       ///< Bc
  double diskBandwidth = 0;      ///< Bd
  int64_t elemBytes = 8;
  /// Multiplier on replication (all-to-all broadcast) volumes; [G]'s Tables 9-11
  /// need sqrt(2) at P=4 and 2 at P=16, which the paper never states (docs/Derivations.md D10).
  double bcastFactor = 1.0;
  /// Multiplier on accumulation (all-reduce) volumes; [G]'s tables need 1.4.
  double reduceFactor = 1.0;
  /// Share of per-process memory each array's tile may use: M = fraction * mem
  /// ([G] section 2: "one third").
  double tileFraction = 1.0 / 3.0;
  /// Predict the bytes tc's runtime moves where they differ from [G]'s formulas
  /// (ring all-gather, out-of-core all-reduce read+write, ring all-reduce on
  /// P not a power of two; see #tc.machine's `volumes`).
  bool runtimeVolumes = false;
  /// Flop/s per process (a multiply-add is 2 flops). [G]'s cost leaves out the
  /// computation, the same for every plan that spreads it evenly over all P
  /// processes; only what a plan adds to that share is charged at this rate
  /// (a COSMA grid leaving processes idle, CosmaSchedule.h).
  double flopRate = 1e9;
  /// Seconds per message beyond its bytes (#tc.machine's latency): each
  /// communication step of a plan and of a hand-over into its layouts
  /// (docs/Derivations.md D58). 0: the papers' model, bytes only.
  double latency = 0;

  double tileBudget() const { return tileFraction * memBytes; }
  /// Staging and out-of-core collectives move at most this much at a time, on
  /// top of the tiles: 4 MiB, less when the tile budget is smaller.
  double stagingBytes() const { return std::min(4.0 * (1 << 20), tileBudget()); }
  /// What one array's tile (PerArray) or all three together (Shared) may use.
  double tileLimit(TileMemory rule) const {
    return rule == TileMemory::PerArray ? tileBudget() : memBytes - stagingBytes();
  }
};

/// A contraction reduced to its macro-index extents ([G] eq. 2.2): A is I x K,
/// B is K x J, C is I x J elements, L times over (batch labels: a loop around
/// the contraction, docs/Derivations.md D30). The model's volumes are L times
/// those of one I x J x K contraction; out of core, the batch loop is the
/// outermost with one value per tile, in core every array holds all L values.
struct MacroSizes {
  double I = 1, J = 1, K = 1, L = 1;
  /// C starts at zero: the nest does not read it before its first K tile
  /// (ContractionProblem::freshC).
  bool freshC = false;
  /// Inside accumulation out of core may keep C as a slab per process (D53;
  /// ContractionProblem::resultDealsOut).
  bool slabC = true;
};

/// Tile counts (number of tiles) of the tiling-loop groups after the clean-up
/// of [G] section 3 (Figure 3b): It1/It2, Jt1/Jt2, Kt1 (Kt2 is always 1).
struct TileCounts {
  double It1 = 1, It2 = 1, Jt1 = 1, Jt2 = 1, Kt1 = 1;
  double I() const { return It1 * It2; }
  double J() const { return Jt1 * Jt2; }
};

/// One point of the search: method x algorithm x order with its optimal tiles.
struct Candidate {
  CommMethod method;
  ParallelAlgorithm algorithm;
  ReadOrder order;
  TileCounts tiles;
  TileMemory memory = TileMemory::PerArray;
  bool inCore = false;     ///< everything fits: no disk I/O at all
  double diskBytes = 0;    ///< D, per process ([G]'s volumes are per process)
  double commBytes = 0;    ///< V, per process
  double seconds = 0;      ///< D/Bd + V/Bc
  /// Largest in-memory tile of A, B, C in bytes (within `memory`'s limit).
  double bufferBytes[3] = {0, 0, 0};
};

struct PlanOptions {
  /// Round tile counts up to integers ([G]: "ceiling"). False evaluates the
  /// real-valued optimum, as [G]'s Tables 9-11 do.
  bool integerTiles = true;
  /// Offer the in-core candidate of an algorithm whose local data fits. False
  /// forces out-of-core tilings (a plan that must exercise the disk path).
  bool allowInCore = true;
  /// Apply [G] 2.1's rule that skips the inside method when the remote data
  /// fits (reproducing [G]; planContraction searches both, D52).
  bool outsideOnlyWhenRemoteFits = true;
};

/// Every feasible candidate for a contraction of the given sizes on `machine`.
/// When all local data fits in memory only in-core candidates are returned (no
/// disk I/O, [G] section 2). Rotation is skipped unless P is a perfect square.
/// With options.outsideOnlyWhenRemoteFits, an algorithm whose remote data
/// fits the tile budget gets only outside candidates ([G] section 2.1).
/// An empty result means no tiling fits the budget.
std::vector<Candidate> enumerateCandidates(const MacroSizes &sizes,
                                           const MachineModel &machine,
                                           const PlanOptions &options = {});

/// The in-core candidate of `alg` (no disk I/O; [G] section 2), or nullopt when
/// the algorithm's local data does not fit in memory.
std::optional<Candidate> inCoreCandidate(const MacroSizes &sizes,
                                         const MachineModel &machine,
                                         ParallelAlgorithm alg);

/// Exact volumes of one given out-of-core tiling ([G] section 3, docs/Derivations.md D4/D8),
/// or nullopt when the model's tiles exceed `memory`'s limit or a count exceeds
/// its extent.
std::optional<Candidate> evaluateTiling(const MacroSizes &sizes,
                                        const MachineModel &machine,
                                        CommMethod method, ParallelAlgorithm alg,
                                        ReadOrder order, const TileCounts &tiles,
                                        TileMemory memory = TileMemory::PerArray);

/// COSMA's sequential schedule as out-of-core tilings (Kwasniewski et al.
/// section 5, docs/Derivations.md D29): for every algorithm and method
/// enumerateCandidates offers out of core, the orders that read C first (CAB,
/// CBA) under TileMemory::Shared. C is read and written once, A once per J
/// tile, B once per I tile; the C tile is as large as memory allows and K is
/// cut into as few panels as still fit. Empty when everything fits in core.
std::vector<Candidate> residentCCandidates(const MacroSizes &sizes,
                                           const MachineModel &machine,
                                           const PlanOptions &options = {});

bool isPerfectSquare(int64_t n);

/// Index of the cheapest candidate (smallest seconds; ties keep the first).
/// Requires a non-empty list.
size_t cheapest(const std::vector<Candidate> &candidates);

} // namespace mlir::tc

#endif // TC_ANALYSIS_OUTOFCORECOSTMODEL_H
