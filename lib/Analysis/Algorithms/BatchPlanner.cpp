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

/// A, B and C split alike along `label` (`*`: whole on every process) on a
/// 1-D grid of all P processes, with a process's share of the batch values
/// as a one-process contraction, which accumulation at P = 1 models with no
/// communication.
AlgorithmLayouts layoutsAlong(const PlanningContext &ctx, const std::string &label) {
  const int64_t P = ctx.machine.procs;
  AlgorithmLayouts out;
  out.a.grid = out.b.grid = out.c.grid = {P};
  out.a.dims = out.b.dims = out.c.dims = {label};
  addRedistribution(ctx, ParallelAlgorithm::Batch, out);
  fillNestArrays(ctx, out);
  out.model = {ctx.macro.sizes, ctx.machine, ParallelAlgorithm::Accumulation};
  if (label != Layout::kReplicated) {
    const double extent = static_cast<double>(ctx.problem.extents.at(label));
    out.model.sizes.L = ctx.macro.sizes.L / extent * std::ceil(extent / P);
  }
  out.model.machine.procs = 1;
  return out;
}

/// Batch (D30): A, B and C split alike along the batch label that suits P
/// best. With nothing to split at all (the second try), every process
/// computes the whole contraction and one stores it.
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
  return layoutsAlong(ctx, label);
}

/// The one-process candidates of `layouts`' model (a process's share of the
/// batch values) as batch candidates; in core only when `inCoreOnly`.
std::vector<Candidate> shareCandidates(const PlanningContext &ctx, const AlgorithmLayouts &layouts,
                                       bool inCoreOnly) {
  const ModelView &share = layouts.model;
  std::vector<Candidate> local = enumerateCandidates(share.sizes, share.machine, ctx.options);
  for (const Candidate &c : residentCCandidates(share.sizes, share.machine, ctx.options))
    local.push_back(c);
  std::vector<Candidate> models;
  for (Candidate c : local)
    if (c.algorithm == ParallelAlgorithm::Accumulation && (c.inCore || !inCoreOnly)) {
      c.algorithm = ParallelAlgorithm::Batch;
      models.push_back(c);
    }
  return models;
}

class BatchPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Batch};
  }
  bool plansRagged() const override { return true; }
  double messages(const ContractionPlan &, const MachineModel &) const override { return 0; }

  void addCandidates(const PlanningContext &ctx,
                     std::vector<ContractionPlan> &out) const override {
    const std::optional<Candidate> given = givenNestModel(ctx.decisions);
    addWholeCandidates(ctx, given, out);
    if (!given && ((ctx.macro.L.empty() && !(ctx.allowRagged && nothingToSplit(ctx.macro))) ||
                   ctx.decisions.nest))
      return;
    // One layout serves every candidate: the batch label that suits P best.
    const std::optional<AlgorithmLayouts> batch = batchLayouts(ctx);
    if (!batch)
      return;
    const std::vector<Candidate> models =
        given ? std::vector<Candidate>{*given} : shareCandidates(ctx, *batch, false);
    addTiledCandidates(ctx, models, [&](ParallelAlgorithm) { return batch; }, out);
  }

private:
  /// Where a message costs time of its own (the machine's latency), the
  /// whole contraction on every process, in core: no message at all, each
  /// process computing P times its share (D58). Statements of a few
  /// microseconds' work then run as fast on P processes as on one, where
  /// spread over them they waited on messages.
  void addWholeCandidates(const PlanningContext &ctx, const std::optional<Candidate> &given,
                          std::vector<ContractionPlan> &out) const {
    const MachineModel &machine = ctx.machine;
    if (machine.latency <= 0 || machine.procs == 1 || given || ctx.decisions.nest ||
        ctx.allowRagged || !ctx.decisions.inCore.value_or(true))
      return;
    const AlgorithmLayouts whole = layoutsAlong(ctx, Layout::kReplicated);
    const size_t first = out.size();
    addTiledCandidates(
        ctx, shareCandidates(ctx, whole, /*inCoreOnly=*/true),
        [&](ParallelAlgorithm) { return std::optional<AlgorithmLayouts>(whole); }, out);
    const MacroSizes &s = ctx.macro.sizes;
    const double flops = 2 * s.I * s.J * s.K * s.L;
    const double P = static_cast<double>(machine.procs);
    for (size_t i = first; i < out.size(); ++i)
      out[i].seconds += flops * (1 - 1 / P) / machine.flopRate;
  }
};

} // namespace

const AlgorithmPlanner &batchPlanner() {
  static const BatchPlanner planner;
  return planner;
}

} // namespace mlir::tc
