//===- CosmaPlanner.cpp - Kwasniewski et al.'s COSMA ----------------------===//
//
// COSMA's grid and rounds (CosmaSchedule.h, docs/Derivations.md D27) in
// core, or with its stored sub-blocks in scratch files when they do not fit
// (D56). Like Gao et al.'s in-core plans it ignores a method and an order in
// core; out of core it runs rounds, not Gao's tiling, so a given method,
// order, memory rule or nest rules it out there.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/AlgorithmPlanner.h"
#include "TC/Analysis/CosmaSchedule.h"

#include <algorithm>

namespace mlir::tc {

namespace {

class CosmaPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Cosma};
  }

  /// Per round, A's panel all-gathered along pn and B's along pm; C's
  /// partial sums reduced along pk once.
  double messages(const ContractionPlan &plan, const MachineModel &) const override {
    const std::vector<int64_t> &grid = plan.layoutA.grid;
    if (grid.size() != 3)
      return 0;
    double rounds = 1;
    for (const TileLoop &r : plan.rounds)
      rounds *= static_cast<double>(r.count);
    return rounds * (allGatherSteps(grid[1]) + allGatherSteps(grid[0])) + allReduceSteps(grid[2]);
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
    if (d.nest || (d.grid && d.grid->size() != 3))
      return;
    if (d.inCore.value_or(true))
      if (std::optional<ContractionPlan> plan =
              planCosma(ctx.problem, ctx.macro, ctx.machine, ctx.remarks, d.grid)) {
        out.push_back(*plan);
        return;
      }
    if (d.inCore.value_or(false) || d.method || d.order || d.memory)
      return;
    // Its reasons not to apply are the in-core plan's too: said once.
    std::vector<std::string> remarks;
    if (std::optional<ContractionPlan> plan =
            planCosmaOutOfCore(ctx.problem, ctx.macro, ctx.machine, remarks, d.grid))
      out.push_back(*plan);
    for (const std::string &r : remarks)
      if (std::find(ctx.remarks.begin(), ctx.remarks.end(), r) == ctx.remarks.end())
        ctx.remarks.push_back(r);
  }
};

} // namespace

const AlgorithmPlanner &cosmaPlanner() {
  static const CosmaPlanner planner;
  return planner;
}

} // namespace mlir::tc
