//===- AlgorithmPlanner.h - one parallel algorithm's search -----*- C++ -*-===//
//
// planContraction asks every registered algorithm for its candidate plans of
// one contraction, each with its predicted disk and network volumes and time,
// and keeps the fastest. Each algorithm's search is one file under
// lib/Analysis/Algorithms behind this interface (docs/Architecture.md).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_ALGORITHMPLANNER_H
#define TC_ANALYSIS_ALGORITHMPLANNER_H

#include "TC/Analysis/ContractionPlanner.h"

#include <string>
#include <vector>

namespace mlir::tc {

/// What every algorithm's search reads for one contraction.
struct PlanningContext {
  const ContractionProblem &problem;
  const MachineModel &machine;
  const MacroIndices &macro;
  const PlanDecisions &decisions;
  /// The cost model's shortcuts the decisions allow ([G] 2.1).
  PlanOptions options;
  /// Why algorithms have no candidate (reported as remarks).
  std::vector<std::string> &remarks;
  /// Distribute labels of extent below the grid's (some blocks empty): the
  /// second try when no algorithm finds a label to distribute otherwise.
  bool allowRagged = false;

  /// Whether `plan` runs on the given grid (true when none is given).
  bool onGrid(const ContractionPlan &plan) const {
    return !decisions.grid || plan.layoutA.grid == *decisions.grid;
  }
};

/// One parallel algorithm's search.
class AlgorithmPlanner {
public:
  virtual ~AlgorithmPlanner() = default;
  /// The algorithms whose plans it makes (its keys in the registry).
  virtual std::vector<ParallelAlgorithm> algorithms() const = 0;
  /// Appends its candidates under ctx's decisions, each with its layouts and
  /// predicted volumes and seconds, or remarks why it has none. Called only
  /// when the decisions leave one of its algorithms open.
  virtual void addCandidates(const PlanningContext &ctx,
                             std::vector<ContractionPlan> &out) const = 0;
  /// Whether it searches again with ctx.allowRagged when no algorithm found a
  /// plan.
  virtual bool plansRagged() const { return false; }
  /// The messages the busiest process sends in `plan`'s stage 2 (a plan of
  /// one of its algorithms), one per communication step: what the machine's
  /// latency prices (docs/Derivations.md D58).
  virtual double messages(const ContractionPlan &plan, const MachineModel &machine) const = 0;
};

/// Steps of the runtime's collectives over `p` processes (Collectives.cpp):
/// a ring all-gather takes p - 1; an all-reduce 2 log2 p (recursive doubling,
/// one exchange each way per step) on a power of two, else 2 (p - 1) (ring).
double allGatherSteps(int64_t p);
double allReduceSteps(int64_t p);

/// The tiles a plan's nest runs (the product of its loops' counts), each of
/// which communicates on its own out of core.
double tileCount(const TileNest &nest);

/// The searches planContraction runs, in order; of equally fast candidates
/// the first found is chosen.
const std::vector<const AlgorithmPlanner *> &algorithmPlanners();

/// The built-in searches (lib/Analysis/Algorithms).
const AlgorithmPlanner &gaoPlanner();   ///< Gao et al.'s Table 1 algorithms
const AlgorithmPlanner &batchPlanner(); ///< batch labels split alike (D30)
const AlgorithmPlanner &cosmaPlanner(); ///< Kwasniewski et al. (D27)
const AlgorithmPlanner &pummaPlanner(); ///< Choi, Dongarra, Walker (D28)

/// "{a, b}": labels as remarks print them.
std::string joinedLabels(const std::vector<std::string> &labels);

} // namespace mlir::tc

#endif // TC_ANALYSIS_ALGORITHMPLANNER_H
