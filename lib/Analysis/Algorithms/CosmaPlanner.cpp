//===- CosmaPlanner.cpp - Kwasniewski et al.'s COSMA ----------------------===//
//
// COSMA's grid and rounds (CosmaSchedule.h, docs/Derivations.md D27), in
// core only: like Gao et al.'s in-core plans it ignores a method and an
// order (they bind out-of-core plans); a given nest rules it out. Out of
// core its sequential schedule is one of Gao's tilings (memory = shared).
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/AlgorithmPlanner.h"
#include "TC/Analysis/CosmaSchedule.h"

namespace mlir::tc {

namespace {

class CosmaPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Cosma};
  }

  void addCandidates(const PlanningContext &ctx,
                     std::vector<ContractionPlan> &out) const override {
    const PlanDecisions &d = ctx.decisions;
    // COSMA multiplies matrices: batch labels have no place in its grid.
    if (!ctx.macro.L.empty()) {
      ctx.remarks.push_back("cosma skipped: batch labels " + joinedLabels(ctx.macro.L) +
                            " (in A, B and C) are not part of its schedule");
      return;
    }
    if (!d.inCore.value_or(true) || d.nest || (d.grid && d.grid->size() != 3))
      return;
    if (std::optional<ContractionPlan> plan =
            planCosma(ctx.problem, ctx.macro, ctx.machine, ctx.remarks, d.grid))
      out.push_back(*plan);
  }
};

} // namespace

const AlgorithmPlanner &cosmaPlanner() {
  static const CosmaPlanner planner;
  return planner;
}

} // namespace mlir::tc
