//===- GaoPlanner.cpp - Gao et al.'s Table 1 algorithms -------------------===//
//
// Rotation (Cannon), replication of A or B and accumulation ([G] 2.2, Table
// 1), each with both communication methods and every read order, in core or
// with the cost model's tiles (section 2.3; docs/Derivations.md D9), and
// COSMA's sequential schedule for the tiles (memory = shared, D29).
//
//===----------------------------------------------------------------------===//
#include "../TiledPlans.h"

#include <cmath>
#include <functional>

namespace mlir::tc {

namespace {

/// Table 1 layouts of `alg` for distribution indices chosen to minimize stage-1/3
/// redistribution ([G] 2.3: stage 2 does not depend on which index of I, J or K is
/// distributed); ties prefer extents the grid divides, then larger extents.
std::optional<AlgorithmLayouts> chooseLayouts(const PlanningContext &ctx, ParallelAlgorithm alg) {
  const int64_t P = ctx.machine.procs;

  const bool rotation = alg == ParallelAlgorithm::Rotation;
  const int64_t parts = rotation ? static_cast<int64_t>(std::llround(std::sqrt(P))) : P;
  const std::vector<int64_t> grid = rotation ? std::vector<int64_t>{parts, parts}
                                             : std::vector<int64_t>{P};
  // Which macro-indices the algorithm distributes.
  std::vector<std::pair<char, const std::vector<std::string> *>> roles;
  if (rotation || alg == ParallelAlgorithm::ReplicationB)
    roles.push_back({'I', &ctx.macro.I});
  if (rotation || alg == ParallelAlgorithm::ReplicationA)
    roles.push_back({'J', &ctx.macro.J});
  if (rotation || alg == ParallelAlgorithm::Accumulation)
    roles.push_back({'K', &ctx.macro.K});
  std::vector<std::vector<std::string>> options;
  for (auto &[name, members] : roles) {
    std::vector<std::string> usable;
    for (const std::string &l : *members)
      if (ctx.problem.extents.at(l) >= parts || ctx.allowRagged)
        usable.push_back(l);
    // Cannon's shifts move a contracted block: with no K label (an outer
    // product) there is none to shift.
    if (usable.empty() && rotation && name == 'K') {
      ctx.remarks.push_back("rotation skipped: no index of K to shift");
      return std::nullopt;
    }
    if (usable.empty() && parts == 1)
      usable.push_back(Layout::kReplicated);
    if (usable.empty()) {
      ctx.remarks.push_back(std::string(toString(alg)) + " skipped: no index of " + name +
                            " = " + joinedLabels(*members) + " has extent >= " +
                            std::to_string(parts) + " to distribute");
      return std::nullopt;
    }
    options.push_back(usable);
  }
  auto label = [&](char role, const std::vector<std::string> &pick) -> std::string {
    for (size_t r = 0; r < roles.size(); ++r)
      if (roles[r].first == role)
        return pick[r];
    return Layout::kReplicated;
  };
  auto build = [&](const std::vector<std::string> &pick) {
    std::string i = label('I', pick), j = label('J', pick), k = label('K', pick);
    AlgorithmLayouts out;
    out.a.grid = out.b.grid = out.c.grid = grid;
    switch (alg) {
    case ParallelAlgorithm::Rotation:
      out.a.dims = {i, k}, out.b.dims = {k, j}, out.c.dims = {i, j};
      break;
    case ParallelAlgorithm::ReplicationA:
      out.a.dims = {"*"}, out.b.dims = {j}, out.c.dims = {j};
      break;
    case ParallelAlgorithm::ReplicationB:
      out.a.dims = {i}, out.b.dims = {"*"}, out.c.dims = {i};
      break;
    case ParallelAlgorithm::Accumulation:
      out.a.dims = {k}, out.b.dims = {k}, out.c.dims = {"*"};
      break;
    case ParallelAlgorithm::Cosma: // the other planners' algorithms
    case ParallelAlgorithm::Pumma:
    case ParallelAlgorithm::Batch:
      break;
    }
    addRedistribution(ctx, alg, out);
    return out;
  };
  auto tieBreak = [&](const std::vector<std::string> &pick) {
    double score = 0; // fewer ragged distributions, then larger extents
    for (const std::string &l : pick) {
      if (l == Layout::kReplicated)
        continue;
      score += labelPreference(ctx.problem.extents.at(l), parts);
    }
    return score;
  };
  std::optional<AlgorithmLayouts> best;
  double bestScore = 0;
  std::vector<std::string> pick(options.size());
  std::function<void(size_t)> enumerate = [&](size_t r) {
    if (r == options.size()) {
      AlgorithmLayouts cand = build(pick);
      double score = tieBreak(pick);
      if (!best || cand.redist.seconds < best->redist.seconds - 1e-15 ||
          (cand.redist.seconds <= best->redist.seconds + 1e-15 && score > bestScore)) {
        best = cand;
        bestScore = score;
      }
      return;
    }
    for (const std::string &l : options[r]) {
      pick[r] = l;
      enumerate(r + 1);
    }
  };
  enumerate(0);
  fillNestArrays(ctx, *best);
  best->model = {ctx.macro.sizes, ctx.machine, alg};
  return best;
}

class GaoPlanner : public AlgorithmPlanner {
public:
  std::vector<ParallelAlgorithm> algorithms() const override {
    return {ParallelAlgorithm::Rotation, ParallelAlgorithm::ReplicationA,
            ParallelAlgorithm::ReplicationB, ParallelAlgorithm::Accumulation};
  }
  bool plansRagged() const override { return true; }

  /// Cannon on q x q: the skew and q - 1 shifts, of A and of B; replication
  /// all-gathers its input, accumulation all-reduces C. Out of core each tile
  /// does so (inside), or each staged chunk of the disk-to-disk moves
  /// (outside).
  double messages(const ContractionPlan &plan, const MachineModel &machine) const override {
    const int64_t P = machine.procs;
    double steps = 0;
    switch (plan.algorithm) {
    case ParallelAlgorithm::Rotation:
      steps = 2 * std::sqrt(static_cast<double>(P));
      break;
    case ParallelAlgorithm::ReplicationA:
    case ParallelAlgorithm::ReplicationB:
      steps = allGatherSteps(P);
      break;
    case ParallelAlgorithm::Accumulation:
      steps = allReduceSteps(P);
      break;
    default:
      break;
    }
    if (plan.inCore || P == 1)
      return steps;
    if (plan.method == CommMethod::Inside)
      return steps * tileCount(plan.nest);
    return steps * std::max(1.0, std::ceil(plan.commBytes / machine.stagingBytes()));
  }

  void addCandidates(const PlanningContext &ctx,
                     std::vector<ContractionPlan> &out) const override {
    const PlanDecisions &d = ctx.decisions;
    if (!ctx.allowRagged && !isPerfectSquare(ctx.machine.procs) &&
        (!d.algorithm || *d.algorithm == ParallelAlgorithm::Rotation))
      ctx.remarks.push_back("rotation skipped: P = " + std::to_string(ctx.machine.procs) +
                            " is not a perfect square");
    std::vector<Candidate> models;
    if (std::optional<Candidate> given = givenNestModel(d)) {
      models = {*given};
    } else {
      models = enumerateCandidates(ctx.macro.sizes, ctx.machine, ctx.options);
      // COSMA's sequential schedule competes with Gao et al.'s tilings (D29).
      for (const Candidate &c : residentCCandidates(ctx.macro.sizes, ctx.machine, ctx.options))
        models.push_back(c);
    }
    addTiledCandidates(
        ctx, models, [&](ParallelAlgorithm alg) { return chooseLayouts(ctx, alg); }, out);
  }
};

} // namespace

const AlgorithmPlanner &gaoPlanner() {
  static const GaoPlanner planner;
  return planner;
}

} // namespace mlir::tc
