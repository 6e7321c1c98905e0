//===- CosmaSchedule.h - COSMA for one contraction over labels --*- C++ -*-===//
//
// Kwasniewski et al.'s communication-optimal matrix multiplication (COSMA,
// Algorithm 1 and section 7) applied to C(I,J) += A(I,K) * B(K,J) over labels
// (docs/Derivations.md D27): a grid [pm, pn, pk] (CommOptimalMatmul.h's
// fitRanks), one label of I, J and K distributed along grid dimensions 0, 1
// and 2, and every array stored without replication: A's block (i, k) is split
// again along grid dimension 1 (each of the pn processes sharing it stores a
// sub-block), B's block (k, j) along grid dimension 0, and C's block (i, j)
// along grid dimension 2. A process gathers the panels of A and B it multiplies
// from the processes sharing their blocks, round by round over its K range, and
// the pk partial sums of a C block are reduce-scattered into its sub-blocks
// around a ring (each member receives all of the block but one member's part).
//
// The block arithmetic is the runtime's (ceil-sized blocks, balanced
// sub-blocks within them, edges clipped, only real elements sent), so the bytes
// predicted here for every rank are the bytes it moves.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_COSMASCHEDULE_H
#define TC_ANALYSIS_COSMASCHEDULE_H

#include "TC/Analysis/ContractionPlanner.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

/// Which labels the schedule distributes and splits.
struct CosmaLayout {
  std::vector<int64_t> grid;        ///< [pm, pn, pk]
  std::string i, j, k;              ///< distributed along grid dimensions 0, 1, 2
  std::string splitA, splitB, splitC; ///< split again along grid dimension 1, 0, 2

  /// The compute view of an array ([G] Table 1 style): A <i,*,k>, B <*,j,k>,
  /// C <i,j,*> (what a process multiplies, after gathering).
  Layout computeLayout(Operand x) const;
  /// The grid dimension along which x's block is split again: 1, 0, 2.
  static int64_t splitGridDim(Operand x) { return x == Operand::A ? 1 : x == Operand::B ? 0 : 2; }
  const std::string &splitLabel(Operand x) const {
    return x == Operand::A ? splitA : x == Operand::B ? splitB : splitC;
  }
};

/// The distributed labels for `grid`: for each of I, J, K, a member label whose
/// extent the grid dimension divides, else the largest (the same tie-break as
/// Gao et al.'s layouts). Empty `error` on success; I, J and K must be non-empty.
struct CosmaLabels {
  std::string i, j, k, error;
};
CosmaLabels chooseCosmaLabels(const ContractionProblem &problem, const MacroIndices &macro,
                              const std::vector<int64_t> &grid);

/// Completes a layout whose grid and distributed labels are given (by the
/// planner or a hand-written plan): the split labels, A's its distributed I
/// label, B's its J label, C's whichever of the two has the longer block (a
/// sub-block splits a block; the runtime splits distributed dimensions only).
CosmaLayout completeCosmaLayout(const ContractionProblem &problem, const MacroIndices &macro,
                                const std::vector<int64_t> &grid, const std::string &i,
                                const std::string &j, const std::string &k);

/// Bytes each rank (row-major over the grid) sends and receives: the gathers of
/// A along grid dimension 1 and of B along 0 (direct exchanges), and the ring
/// reduce-scatter of C along 2. They do not depend on the rounds: the rounds partition the K range, and
/// each sends only its real elements.
RankVolumes cosmaVolumes(const ContractionProblem &problem, const CosmaLayout &layout,
                          int64_t elemBytes);

/// Where the stored sub-blocks live: in memory (in core), or in each process's
/// scratch files (out of core, docs/Derivations.md D56), where memory holds only
/// C's partial sums and the panels of the round in flight.
enum class CosmaStorage { InMemory, OnDisk };

/// The padded per-process sizes the lowering allocates, in elements: each
/// array's stored sub-block, C's whole block (the partial sums), and one round's
/// panel of A and of B (two of each are live: double buffering).
struct CosmaBuffers {
  double storedA = 0, storedB = 0, storedC = 0, blockC = 0, panelA = 0, panelB = 0;
  /// What memory holds whatever the rounds: C's partial sums, and the stored
  /// sub-blocks when they live there.
  double resident(CosmaStorage storage) const {
    return (storage == CosmaStorage::InMemory ? storedA + storedB + storedC : 0) + blockC;
  }
  /// What memory holds: the resident part and two panels of A and of B.
  double total(CosmaStorage storage = CosmaStorage::InMemory) const {
    return resident(storage) + 2 * (panelA + panelB);
  }
};
CosmaBuffers cosmaBuffers(const ContractionProblem &problem, const CosmaLayout &layout,
                          const std::vector<TileLoop> &rounds);

/// The rounds over the process's K range (Algorithm 1 lines 6-7): as few as fit
/// the memory left after C's partial sums and, in memory, the stored blocks, and at least
/// enough that no panel is wider than kMaxRoundWidth outer products (so that
/// communication overlaps the dgemm, section 7.3). nullopt when even one outer
/// product per round does not fit.
constexpr int64_t kMaxRoundWidth = 512;
std::optional<std::vector<TileLoop>>
cosmaRounds(const ContractionProblem &problem, const MacroIndices &macro, const CosmaLayout &layout,
            double memBytes, int64_t elemBytes, CosmaStorage storage = CosmaStorage::InMemory);

/// Out of core (D56): the disk bytes each rank (row-major over the grid) reads
/// and writes: its own sub-blocks of A and B read once, as the rounds gather
/// their panels, and its sub-block of C written once (read once before, when
/// `readsC`: C has an initial value).
std::vector<double> cosmaDiskBytes(const ContractionProblem &problem, const CosmaLayout &layout,
                                   int64_t elemBytes, bool readsC);

/// COSMA's delta (Kwasniewski et al. section 7.1, FitRanks; Fig. 5): the
/// largest share of the machine's P ranks that grid fitting may leave idle, so
/// that a grid on P' in [ceil((1 - delta) P), P] ranks competes with those on
/// all P. The paper's default, 3%: on 65 ranks [4, 4, 4] on 64 beats every
/// factorization of 65 (docs/Derivations.md D25, D27).
constexpr double kCosmaIdleFraction = 0.03;

/// The machine model's time for a COSMA grid on `used` of machine.procs ranks
/// whose busiest rank receives `maxReceivedBytes`: those bytes at the network
/// bandwidth, plus the computation idle ranks add. [G]'s model leaves out the
/// computation every plan shares, F / P per rank (F = 2 |I| |J| |K| flops);
/// on P' < P ranks each used rank does F / P', P / P' times that share, and
/// the difference F (1/P' - 1/P) is charged at machine.flopRate (Fig. 5's
/// +1.5% computation for 65 -> 64 ranks). Without a network bandwidth (0),
/// bytes count as seconds and computation is not charged.
double cosmaSeconds(const MacroSizes &sizes, int64_t used, double maxReceivedBytes,
                    const MachineModel &machine);

/// The grid planCosma uses on machine.procs = P ranks: among the
/// factorizations pm * pn * pk = P' of every P' in [ceil((1 - delta) P), P]
/// (delta = kCosmaIdleFraction by default; ranks P'..P-1 then stay idle) with
/// each factor within its macro-index extent (those that fit memory as
/// fitRanks judges it, if any does), the one with the least time
/// (cosmaSeconds: its busiest rank's received bytes, cosmaVolumes, with the
/// runtime's ceil-sized blocks and balanced sub-blocks, plus the computation idle ranks
/// add), then more ranks used (ties and grids no better keep every rank), then
/// the busiest rank's fewest bytes, the fewest received in total, and
/// fitRanks's order (face sum, flops, (pm, pn, pk) descending). fitRanks's face
/// sum is the even-size proxy of that volume: it counts the data a rank already
/// holds and ignores uneven sub-blocks, so on 16384^3 with P = 65 it ties
/// [13, 5, 1] with [5, 1, 13], whose busiest rank receives less. The
/// search stops at the first grid whose lower bound (the average received
/// volume, exact and cheap: ((pn-1)|A| + (pm-1)|B| + (pk-1)|C|) / P', in
/// cosmaSeconds) exceeds the best time found. fitRanks's grid when no
/// factorization in the range is within the extents (P > |I| |J| |K|).
std::vector<int64_t> fitCosmaGrid(const ContractionProblem &problem, const MacroIndices &macro,
                                  const MachineModel &machine,
                                  double delta = kCosmaIdleFraction);

/// COSMA's plan for `problem` on `machine`, in core: the grid fitted to P
/// (fitCosmaGrid with `delta`; with 0 when the rounds of the grid it gives,
/// which leaves ranks idle, do not fit in memory), the labels, the rounds and
/// the volumes; nullopt with a remark when it does not apply or does not fit
/// in memory.
/// `grid`: a given grid instead, of at most P ranks. A grid of P' < P ranks
/// leaves ranks P'..P-1 idle (the runtime runs them without data): the plan's
/// per-rank volumes have P entries, zero for the idle ranks, and its seconds
/// are cosmaSeconds.
std::optional<ContractionPlan> planCosma(const ContractionProblem &problem,
                                         const MacroIndices &macro, const MachineModel &machine,
                                         std::vector<std::string> &remarks,
                                         const std::optional<std::vector<int64_t>> &grid = {},
                                         double delta = kCosmaIdleFraction);

/// COSMA out of core (docs/Derivations.md D56): the sub-blocks stored in
/// scratch files, memory holding C's partial sums and two panels of A and B
/// beside the runtime's staging chunk. Every input element is read from disk
/// once and C's written once, whatever the grid; the grid (all P ranks, each
/// factor within its macro-index extent, or `grid` when given: at most P
/// ranks, those past it idle) is the one with the least time: the busiest
/// rank's disk bytes at the disk bandwidth plus its received bytes at the
/// network's (cosmaSeconds). nullopt with a remark when no grid's partial sums
/// and one outer product of each input fit.
std::optional<ContractionPlan>
planCosmaOutOfCore(const ContractionProblem &problem, const MacroIndices &macro,
                   const MachineModel &machine, std::vector<std::string> &remarks,
                   const std::optional<std::vector<int64_t>> &grid = {});

} // namespace mlir::tc

#endif // TC_ANALYSIS_COSMASCHEDULE_H
