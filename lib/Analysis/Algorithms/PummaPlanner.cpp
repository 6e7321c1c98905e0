//===- PummaPlanner.cpp - Choi, Dongarra and Walker's PUMMA ---------------===//
//
// PUMMA's rolled input and variant (PummaSchedule.h, docs/Derivations.md
// D28), in core only; block-cyclic layouts given are used in place.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/AlgorithmPlanner.h"
#include "TC/Analysis/PummaSchedule.h"

#include <algorithm>

namespace mlir::tc {

namespace {

class PummaPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Pumma};
  }

  /// The rolled input moves a step along its grid dimension and the other's
  /// panel (or C's partial panel) goes along the other, at most as many
  /// steps as the larger grid dimension has processes.
  double messages(const ContractionPlan &plan, const MachineModel &) const override {
    const std::vector<int64_t> &grid = plan.layoutA.grid;
    const int64_t larger = grid.empty() ? 1 : *std::max_element(grid.begin(), grid.end());
    return 2 * static_cast<double>(larger);
  }

  void addCandidates(const PlanningContext &ctx,
                     std::vector<ContractionPlan> &out) const override {
    const PlanDecisions &d = ctx.decisions;
    // PUMMA multiplies matrices: batch labels have no place in its panels.
    if (!ctx.macro.L.empty()) {
      ctx.remarks.push_back("pumma skipped: batch labels " + joinedLabels(ctx.macro.L) +
                            " (in A, B and C) are not part of its schedule");
      return;
    }
    if (!d.inCore.value_or(true) || d.nest)
      return;
    if (std::optional<ContractionPlan> plan =
            planPumma(ctx.problem, ctx.macro, ctx.machine, ctx.remarks, d.roll);
        plan && ctx.onGrid(*plan))
      out.push_back(*plan);
  }
};

} // namespace

const AlgorithmPlanner &pummaPlanner() {
  static const PummaPlanner planner;
  return planner;
}

} // namespace mlir::tc
