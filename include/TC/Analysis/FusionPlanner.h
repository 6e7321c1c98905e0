//===- FusionPlanner.h - memory-constrained fusion and distribution -*- C++ -*-===//
//
// Cociorva et al. section 3.3 (docs/Derivations.md D17): a bottom-up dynamic program over an
// operator tree that chooses, for one logical processor grid, every node's
// distribution and its loop fusion with its parent, keeping at each node a set of
// solutions (final distribution, fusion, cost, memory of the subtree) and pruning
// the inferior ones and those over the memory limit; run for every factorization
// of P (section 4 finds 4x8 on 32 processes and 4x4 on 16). Fusion legality
// follows Lam et al. (docs/Derivations.md D18): at every node the fusion with the parent and the
// fusions with the children must nest (each a prefix of the node's loop order).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_FUSIONPLANNER_H
#define TC_ANALYSIS_FUSIONPLANNER_H

#include "TC/Analysis/FusionCost.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

struct FusionMachine {
  int64_t procs = 1;
  double memBytes = 0;     ///< limit per process
  int64_t elemBytes = 8;
  double flopRate = 1e9;   ///< flop/s per process; a multiply-add is 2 flops
  /// Count memory as tc's runtime uses it (#tc.machine volumes = runtime):
  /// both blocks of a redistributed array, and each local contraction's working
  /// copies (workingElems); [C] counts the larger block only (the default).
  bool bothBuffers = false;
  /// Costs of running the fused nest that [C] leaves out (its inputs sit in
  /// memory at no cost); 0 reproduces the paper. Seconds per input slice read
  /// and result slice written, disk bytes/s for them (0: free), and seconds per
  /// local contraction call (one per iteration of a formula's innermost fused
  /// loops): without them fusing an input down to single elements looks free.
  double ioLatency = 0, diskBandwidth = 0, callOverhead = 0;
};

/// Seconds of reading an input's slices or writing the result's ([SYNTHESIS]):
/// per slice ioLatency, plus the block's bytes at diskBandwidth.
double sliceIOSeconds(const OperatorTree &tree, const Grid &grid, int node,
                      const FusionEdge &edge, const FusionMachine &machine);

/// Seconds of calling the local contraction of `node` (in `gamma`) once per
/// iteration of its fused loops `loops` ([SYNTHESIS]).
double callSeconds(const OperatorTree &tree, const Grid &grid, int node,
                   const Distribution &gamma, IndexSet loops, const FusionMachine &machine);

/// What is decided at one node.
struct NodeDecision {
  /// The input's initial distribution, or the distribution the node computes in
  /// ([C]'s gamma); as seen from the node's loops.
  Distribution compute;
  SumVariant variant = SumVariant::None;
  /// Loops fused with the parent (the root: loops its result is written along).
  IndexSet fused = 0;
};

/// A costed configuration of the whole tree on one grid.
struct FusionPlan {
  struct Node {
    NodeDecision decision;
    FusionEdge edge;          ///< produced / consumed / fused
    double memBytes = 0;      ///< max(before, after) of this array
    double commSeconds = 0;   ///< MoveCost (+ the partial-sum combining)
    double calcSeconds = 0;   ///< CalcCost
  };
  Grid grid;
  std::vector<Node> nodes;    ///< by node id
  double memBytes = 0, commSeconds = 0, calcSeconds = 0;
  double seconds() const { return commSeconds + calcSeconds; }
};

/// Costs every node of `decisions` (by node id) on `grid`; empty error when legal
/// (fusions nest, inputs start unreplicated, variants match, and every fused
/// loop is partitioned alike on all edges through a node).
struct EvaluatedPlan {
  FusionPlan plan;
  std::string error;
};
EvaluatedPlan evaluateFusionPlan(const OperatorTree &tree, const Grid &grid,
                                 const std::vector<NodeDecision> &decisions,
                                 const FusionMachine &machine, const CommCostModel &comm);

/// Empty when the fusion sets are legal (docs/Derivations.md D18): fused indices are loops of
/// both nodes, and at every node its parent's and children's fusions nest.
std::string checkFusionLegality(const OperatorTree &tree,
                                const std::vector<IndexSet> &fusedWithParent);

struct FusionSearchOptions {
  int maxGridDims = 2;        ///< factorizations of P into 1..maxGridDims factors
  bool allowFusion = true;
  bool limitMemory = true;    ///< prune over-memory solutions ([C] 3.3)
  /// Allow fusing a loop split differently at the two ends ([C] 3.2(iii)); off,
  /// only plans whose fused loops need no virtual partitioning are searched.
  bool virtualPartitioning = true;
  /// Only plans whose fused loops split their extents into equal (virtual)
  /// blocks, the only ones tc-lower-fused runs (tc-fuse-distribute sets it for
  /// the runtime's volumes); off, the paper's search.
  bool equalFusedBlocks = false;
  /// Allow `1` entries ([C] 3.1): inputs held by one slice of the grid and
  /// partial sums consolidated on one (CalcCost_1); off, only `*` (CalcCost_2).
  bool firstSlice = true;
  /// When set, each node's distribution and variant are fixed (the decoupled
  /// approach's second step) and only fusions are searched; grid must be given.
  const std::vector<NodeDecision> *fixedDistributions = nullptr;
  std::optional<Grid> onlyGrid;
};

struct FusionSearchResult {
  std::optional<FusionPlan> best;  ///< cheapest within the memory limit
  /// Smallest memory of any plan found (with no limit when none fits).
  double smallestMemBytes = 0;
  std::vector<FusionPlan> bestPerGrid; ///< cheapest fitting plan of each grid that has one
  size_t solutionsKept = 0, solutionsPruned = 0;
  std::string error;                ///< a malformed tree
};

/// The DP over every logical grid; the cheapest plan whose memory fits.
FusionSearchResult planFusion(const OperatorTree &tree, const FusionMachine &machine,
                              const CommCostModel &comm, const FusionSearchOptions &options = {});

/// [C] 4's decoupled approach: minimize cost with neither fusion nor a memory
/// limit, then, with those distributions fixed, search the fusions for the least
/// memory. Returns the communication-optimal plan and the fused result (whose
/// `smallestMemBytes` tells whether any fusion fits).
struct DecoupledResult {
  FusionPlan unfused;
  FusionSearchResult fused;
};
DecoupledResult planDecoupled(const OperatorTree &tree, const FusionMachine &machine,
                              const CommCostModel &comm, int maxGridDims = 2);

} // namespace mlir::tc

#endif // TC_ANALYSIS_FUSIONPLANNER_H
