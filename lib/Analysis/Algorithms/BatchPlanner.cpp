//===- BatchPlanner.cpp - batch labels split alike ------------------------===//
//
// A, B and C split alike along one batch label (a label of all three) on a
// 1-d grid of all P processes: each process contracts its own batch values,
// in core or with the tiles of its one-process share (docs/Derivations.md D30).
//
//===----------------------------------------------------------------------===//
#include "../TiledPlans.h"

#include <cmath>

namespace mlir::tc {

namespace {

/// Batch (D30): A, B and C split alike along the batch label that suits P
/// best, on a 1-D grid of all P processes. With nothing to split at all (the
/// second try), every process computes the whole contraction and one stores
/// it.
std::optional<AlgorithmLayouts> batchLayouts(const PlanningContext &ctx) {
  const int64_t P = ctx.machine.procs;
  std::vector<std::string> usable;
  for (const std::string &l : ctx.macro.L)
    if (ctx.problem.extents.at(l) >= P || ctx.allowRagged)
      usable.push_back(l);
  if (usable.empty() && ctx.allowRagged && nothingToSplit(ctx.macro))
    usable.push_back(Layout::kReplicated);
  if (usable.empty()) {
    ctx.remarks.push_back("batch skipped: no batch label of " + joinedLabels(ctx.macro.L) +
                          " has extent >= " + std::to_string(P) + " to distribute");
    return std::nullopt;
  }
  const std::string label = usable.front() == Layout::kReplicated
                                ? usable.front()
                                : preferredLabel(ctx.problem, usable, P);
  AlgorithmLayouts out;
  out.a.grid = out.b.grid = out.c.grid = {P};
  out.a.dims = out.b.dims = out.c.dims = {label};
  addRedistribution(ctx, ParallelAlgorithm::Batch, out);
  fillNestArrays(ctx, out);
  // A process's share of the batch values as a one-process contraction,
  // which accumulation at P = 1 models with no communication.
  out.model = {ctx.macro.sizes, ctx.machine, ParallelAlgorithm::Accumulation};
  if (label != Layout::kReplicated) {
    const double extent = static_cast<double>(ctx.problem.extents.at(label));
    out.model.sizes.L = ctx.macro.sizes.L / extent * std::ceil(extent / P);
  }
  out.model.machine.procs = 1;
  return out;
}

class BatchPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Batch};
  }
  bool plansRagged() const override { return true; }

  void addCandidates(const PlanningContext &ctx,
                     std::vector<ContractionPlan> &out) const override {
    const std::optional<Candidate> given = givenNestModel(ctx.decisions);
    if (!given && ((ctx.macro.L.empty() && !(ctx.allowRagged && nothingToSplit(ctx.macro))) ||
                   ctx.decisions.nest))
      return;
    // One layout serves every candidate: the batch label that suits P best.
    const std::optional<AlgorithmLayouts> batch = batchLayouts(ctx);
    if (!batch)
      return;
    std::vector<Candidate> models;
    if (given) {
      models = {*given};
    } else {
      // The one-process candidates of each process's share of the batch values.
      const ModelView &share = batch->model;
      std::vector<Candidate> local = enumerateCandidates(share.sizes, share.machine, ctx.options);
      for (const Candidate &c : residentCCandidates(share.sizes, share.machine, ctx.options))
        local.push_back(c);
      for (Candidate c : local)
        if (c.algorithm == ParallelAlgorithm::Accumulation) {
          c.algorithm = ParallelAlgorithm::Batch;
          models.push_back(c);
        }
    }
    addTiledCandidates(ctx, models, [&](ParallelAlgorithm) { return batch; }, out);
  }
};

} // namespace

const AlgorithmPlanner &batchPlanner() {
  static const BatchPlanner planner;
  return planner;
}

} // namespace mlir::tc
