//===- PummaPlanner.cpp - Choi, Dongarra and Walker's PUMMA ---------------===//
//
// PUMMA's rolled input and variant (PummaSchedule.h, docs/Derivations.md
// D28), in core only; block-cyclic layouts given are used in place.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/AlgorithmPlanner.h"
#include "TC/Analysis/PummaSchedule.h"

namespace mlir::tc {

namespace {

class PummaPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Pumma};
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
