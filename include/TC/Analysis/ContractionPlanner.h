//===- ContractionPlanner.h - plan one binary contraction -------*- C++ -*-===//
//
// Gao et al.'s search (section 2.3; docs/Derivations.md D9) for one contraction with labels:
// every parallel algorithm with the distribution indices of Table 1, every
// communication method and read order with the model's optimal tiles, turned into
// a real tiling-loop nest over the labels and evaluated again at the integer
// tiles it realizes, plus the stage-1/3 redistribution cost against given input
// and output layouts (constrained mode). Decisions already taken (method,
// algorithm, order, the whole nest) restrict the search instead of being redone.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_CONTRACTIONPLANNER_H
#define TC_ANALYSIS_CONTRACTIONPLANNER_H

#include "TC/Analysis/Layout.h"
#include "TC/Analysis/MacroIndices.h"
#include "TC/Analysis/OutOfCoreCostModel.h"
#include "TC/Analysis/TileNest.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

/// C[labelsC] += A[labelsA] * B[labelsB], with optional given layouts.
struct ContractionProblem {
  std::vector<std::string> labelsA, labelsB, labelsC;
  std::map<std::string, int64_t> extents;
  /// Constrained mode ([G] 2.3): A.dist1, B.dist1 and the required C.dist2.
  std::optional<Layout> givenA, givenB, requiredC;
  /// Where the runtime holds an operand another statement left in memory (its
  /// producer's layout, docs/Derivations.md D45): the runtime hands it over
  /// into the plan's layout before the statement runs, and predicts those
  /// bytes itself. Unlike a given layout this plans no stage-1 move; the hand-
  /// over only counts when choosing among the candidates. C's is the old value
  /// of an accumulation.
  std::optional<Layout> heldA, heldB, heldC;
  /// A later statement that reads the result from where this one leaves it
  /// in memory (D59): the layout its hand-over fills, in this problem's C
  /// labels (handOverTarget), and whether it runs whole on every process.
  struct Reader {
    Layout into;
    bool whole = false;
  };
  /// The readers of the result, as their plans stand: handing it over to them
  /// counts when choosing, as each reader's own hand-over counts in its
  /// choice, so that a statement's layout is weighed from both sides.
  std::vector<Reader> readers;
  /// C starts at zero (`=`, no accumulator): out of core its first read of
  /// each tile is a zero fill, not a disk read (docs/Derivations.md D51).
  bool freshC = false;

  /// C has a dimension to deal out over the processes and no required layout
  /// of its own: inside accumulation out of core keeps it as slabs (D53).
  bool resultDealsOut() const { return !labelsC.empty() && !requiredC; }

  const std::vector<std::string> &labels(Operand x) const {
    return x == Operand::A ? labelsA : x == Operand::B ? labelsB : labelsC;
  }
};

/// How much a label of `extent` suits a grid dimension of `parts`: extents
/// the dimension divides first (no ragged blocks), then larger ones (Gao et
/// al.'s layouts' tie-break, shared by COSMA's and PUMMA's label choice).
inline double labelPreference(int64_t extent, int64_t parts) {
  return (extent % parts == 0 ? 1e12 : 0) + static_cast<double>(extent);
}
/// The member of `members` labelPreference ranks first (the first on ties).
std::string preferredLabel(const ContractionProblem &problem,
                           const std::vector<std::string> &members, int64_t parts);

/// The problem's macro-indices (buildIndexSpace, then mapToMacroIndices), or
/// the error naming what the model does not cover.
MacroIndicesOrError macroIndicesOf(const ContractionProblem &problem);

/// The contraction a plan runs once labels of one input only are summed out
/// of it as it is loaded (docs/Derivations.md D30): those labels dropped from
/// their input and from the layout it is given in (the load reads all of them
/// whatever that is). The problem itself when it has none.
ContractionProblem withoutOneInputLabels(const ContractionProblem &problem);

/// Bytes each rank (row-major over the grid) sends and receives, for the
/// schedules that predict them rank by rank (COSMA, PUMMA).
struct RankVolumes {
  std::vector<double> sent, received;
  /// Disk bytes (read + written) per rank, when predicted per rank.
  std::vector<double> disk;
  double maxSent() const;
  double maxReceived() const;
};

/// Decisions already made; unset fields are searched.
struct PlanDecisions {
  std::optional<bool> inCore;
  std::optional<CommMethod> method;
  std::optional<ParallelAlgorithm> algorithm;
  std::optional<ReadOrder> order;
  /// How the out-of-core tiles share memory (Gao et al.'s per-array budget or
  /// COSMA's sequential schedule, docs/Derivations.md D29).
  std::optional<TileMemory> memory;
  /// PUMMA's rolled input (PummaSchedule.h).
  std::optional<Operand> roll;
  /// The processor grid: only plans on it are candidates. Every algorithm
  /// uses all P processes except COSMA, whose grid may have fewer (the rest
  /// stay idle, Kwasniewski et al. section 7.1); a grid of more than P, or of
  /// fewer for another algorithm, is an error.
  std::optional<std::vector<int64_t>> grid;
  /// A complete nest (requires method, algorithm and order): only evaluated.
  std::optional<TileNest> nest;
  /// A and C stored with I's labels last (StorageOrder.h); takes no part in the
  /// search. Unset: prefersIContiguous.
  std::optional<bool> iContiguous;
};

struct ContractionPlan {
  bool inCore = false;
  CommMethod method = CommMethod::Outside;
  ParallelAlgorithm algorithm = ParallelAlgorithm::Accumulation;
  /// The layouts the computation uses (Table 1); all on one grid.
  Layout layoutA, layoutB, layoutC;
  TileNest nest; ///< empty groups when in core
  TileMemory memory = TileMemory::PerArray; ///< how the nest's tiles share memory
  double bufferBytes[3] = {0, 0, 0}; ///< largest per-process tile of A, B, C
  /// Stage 2 ([G] D and V, per process) at the realized tiles.
  double diskBytes = 0, commBytes = 0, seconds = 0;
  RedistCost redist; ///< stages 1 and 3
  bool iContiguous = false; ///< A and C stored with I's labels last (StorageOrder.h)
  /// COSMA (CosmaSchedule.h): the rounds over the process's K range, and the
  /// bytes each rank sends and receives (row-major over the grid).
  std::vector<TileLoop> rounds;
  std::vector<double> sentPerRank, receivedPerRank;
  /// PUMMA (PummaSchedule.h): the input that moves along the grid; the mode
  /// and the roll dimension follow from the layouts.
  Operand roll = Operand::A;

  /// What handing the held operands (ContractionProblem::heldA, ...) over into
  /// this plan's layouts moves per process: the runtime's cost before the
  /// plan's stages, not part of the plan's volumes.
  RedistCost handOver;
  /// What handing this plan's result over to the problem's readers moves
  /// (ContractionProblem::readers), at the same prices: in memory only.
  RedistCost handOff;

  /// Out of core in Gao et al.'s tiling loops, with a method, a read order,
  /// a nest and a memory rule; COSMA out of core runs rounds instead (D56).
  bool tiled() const { return !inCore && algorithm != ParallelAlgorithm::Cosma; }

  double totalDiskBytes() const { return diskBytes + redist.diskBytes; }
  double totalCommBytes() const { return commBytes + redist.commBytes; }
  double totalSeconds() const { return seconds + redist.seconds; }
  /// The cost the search compares candidates by: the plan's and the hand-overs
  /// into it and out of it.
  double choiceSeconds() const { return totalSeconds() + handOver.seconds + handOff.seconds; }
};

struct PlanResult {
  std::vector<ContractionPlan> candidates;
  std::optional<size_t> chosen;     ///< cheapest choiceSeconds; unset iff `error` is set
  std::vector<std::string> remarks; ///< algorithms skipped and why
  std::string error;
};

/// The layout a hand-over of operand `x` fills for a plan of `algorithm`
/// that uses `used` for it: `used`, except that a replication algorithm's
/// whole input is handed over as a load fills it, a slab of its first
/// dimension (`first`) per process of `procs` (its all-gather, in the plan's
/// volumes, completes it).
Layout handOverTarget(ParallelAlgorithm algorithm, Operand x, const Layout &used,
                      const std::string &first, int64_t procs);

/// True for a plan of `algorithm` with A in `layoutA` that computes the whole
/// contraction on every process (D58).
bool runsWhole(ParallelAlgorithm algorithm, const Layout &layoutA);

/// Plans `problem` on `machine`. The labels must form a binary contraction that
/// mapToMacroIndices accepts (the caller reports its errors).
PlanResult planContraction(const ContractionProblem &problem,
                           const MachineModel &machine,
                           const PlanDecisions &decisions = {});

/// Equal decisions; given nests compare group by group in any order within a
/// group (loops within a group are interchangeable, docs/Derivations.md D4).
bool sameDecisions(const PlanDecisions &a, const PlanDecisions &b);

/// True when `chosen`, the plan planContraction chose under `searched`, is the
/// plan it would choose under `now` too, so that no new search is needed: `now`
/// keeps every decision of `searched`, `chosen` satisfies each decision of `now`,
/// and, unless the decisions are the same, `now` fixes the algorithm. With the
/// algorithm fixed, the candidates under `now` are those of `searched` for that
/// algorithm, filtered (the in-core and outside-only shortcuts of [G] 2.1 drop
/// none that `chosen` competes with), so the cheapest stays the cheapest; a
/// given nest (with method and order) is only evaluated, and evaluates to
/// `chosen` when it has `chosen`'s loops.
bool choiceStands(const PlanDecisions &searched, const ContractionPlan &chosen,
                  const PlanDecisions &now);

} // namespace mlir::tc

#endif // TC_ANALYSIS_CONTRACTIONPLANNER_H
