//===- ContractionPlanner.cpp - plan one binary contraction ---------------===//
#include "TC/Analysis/ContractionPlanner.h"

#include "TC/Analysis/CosmaSchedule.h"
#include "TC/Analysis/ProcessorGrid.h"
#include "TC/Analysis/PummaSchedule.h"
#include "TC/Analysis/StorageOrder.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

namespace mlir::tc {

namespace {

std::string joined(const std::vector<std::string> &labels) {
  std::string s;
  for (const std::string &l : labels)
    s += (s.empty() ? "" : ", ") + l;
  return "{" + s + "}";
}

/// The data of one problem the search shares.
struct Context {
  const ContractionProblem &problem;
  const MachineModel &machine;
  MacroIndices macro;
  std::vector<std::string> &remarks;
  /// Distribute labels of extent below the grid's (some blocks empty): the
  /// second try when no algorithm finds a label to distribute otherwise.
  bool allowRagged = false;
};

/// Table 1 layouts of `alg` for distribution indices chosen to minimize stage-1/3
/// redistribution ([G] 2.3: stage 2 does not depend on which index of I, J or K is
/// distributed); ties prefer extents the grid divides, then larger extents.
/// What the cost model evaluates for a layout: the problem's sizes on the
/// machine under the algorithm, or, for the batch algorithm, a process's
/// one-process share.
struct ModelView {
  MacroSizes sizes;
  MachineModel machine;
  ParallelAlgorithm algorithm;
};

struct AlgorithmLayouts {
  Layout a, b, c;
  RedistCost redist;
  /// A, B, C with the blocks each label is split into under a, b, c (the
  /// in-memory tiles of the nest).
  NestArray arrays[3];
  ModelView model;
};

/// Stage 1/3 redistribution of `out`'s layouts against the given ones ([G]
/// 2.3). Replication broadcasts its operand from whatever distribution it has
/// (the broadcast is stage 2's V0), so Table 1 leaves that operand
/// unconstrained.
void addRedistribution(const Context &ctx, ParallelAlgorithm alg, AlgorithmLayouts &out) {
  const ContractionProblem &pb = ctx.problem;
  if (pb.givenA && alg != ParallelAlgorithm::ReplicationA)
    out.redist += redistributionCost(*pb.givenA, out.a, pb.labelsA, pb.extents, ctx.machine);
  if (pb.givenB && alg != ParallelAlgorithm::ReplicationB)
    out.redist += redistributionCost(*pb.givenB, out.b, pb.labelsB, pb.extents, ctx.machine);
  if (pb.requiredC)
    out.redist += redistributionCost(out.c, *pb.requiredC, pb.labelsC, pb.extents, ctx.machine);
}

/// The blocks each array's labels are split into under its layout.
void fillNestArrays(const Context &ctx, AlgorithmLayouts &out) {
  const std::vector<std::string> *labels[3] = {&ctx.problem.labelsA, &ctx.problem.labelsB,
                                               &ctx.problem.labelsC};
  const Layout *layouts[3] = {&out.a, &out.b, &out.c};
  for (int i = 0; i < 3; ++i) {
    out.arrays[i].labels = *labels[i];
    for (const std::string &l : *labels[i])
      out.arrays[i].parts[l] = layouts[i]->parts(l);
  }
}

/// True when the contraction has no label of I, J, K or L: nothing any
/// algorithm could split (a product of two full sums, D30).
bool nothingToSplit(const MacroIndices &m) {
  return m.I.empty() && m.J.empty() && m.K.empty() && m.L.empty();
}

/// Batch (D30): A, B and C split alike along the batch label that suits P
/// best, on a 1-D grid of all P processes. With nothing to split at all (the
/// second try), every process computes the whole contraction and one stores
/// it.
std::optional<AlgorithmLayouts> batchLayouts(const Context &ctx) {
  const int64_t P = ctx.machine.procs;
  std::vector<std::string> usable;
  for (const std::string &l : ctx.macro.L)
    if (ctx.problem.extents.at(l) >= P || ctx.allowRagged)
      usable.push_back(l);
  if (usable.empty() && ctx.allowRagged && nothingToSplit(ctx.macro))
    usable.push_back(Layout::kReplicated);
  if (usable.empty()) {
    ctx.remarks.push_back("batch skipped: no batch label of " + joined(ctx.macro.L) +
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

std::optional<AlgorithmLayouts> chooseLayouts(const Context &ctx, ParallelAlgorithm alg) {
  if (alg == ParallelAlgorithm::Batch)
    return batchLayouts(ctx);
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
                            " = " + joined(*members) + " has extent >= " +
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
    case ParallelAlgorithm::Cosma: // planned by planCosma
    case ParallelAlgorithm::Pumma: // planned by planPumma
    case ParallelAlgorithm::Batch: // batchLayouts
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

/// Groups that may hold a loop over `label` (docs/Derivations.md D4 table), below D4.
std::vector<unsigned> groupsFor(const Context &ctx, ReadOrder order,
                                const std::string &label) {
  std::array<unsigned, 5> where = macroLoopGroups(order);
  auto in = [&](const std::vector<std::string> &v) {
    return std::find(v.begin(), v.end(), label) != v.end();
  };
  std::vector<unsigned> out;
  if (in(ctx.macro.I))
    out = {where[0], where[1]};
  else if (in(ctx.macro.J))
    out = {where[2], where[3]};
  else
    out = {where[4]};
  out.erase(std::remove(out.begin(), out.end(), 3u), out.end());
  return out;
}

/// Clamps every loop to the tiles its label has left when the loop is entered,
/// with the fewest tiles of the same size (so no tile is empty); drops loops of 1.
void normalizeLoops(TileNest &nest, const std::map<std::string, int64_t> &extents) {
  std::map<std::string, int64_t> entering(extents);
  for (auto &group : nest.groups) {
    for (TileLoop &loop : group) {
      int64_t &e = entering[loop.label];
      int64_t tile = (e + std::min(loop.count, e) - 1) / std::min(loop.count, e);
      loop.count = (e + tile - 1) / tile;
      e = tile;
    }
    group.erase(std::remove_if(group.begin(), group.end(),
                               [](const TileLoop &l) { return l.count <= 1; }),
                group.end());
  }
}

/// Shrinks the largest dimension of x's tile (among `only`'s labels, when
/// given) by one step, in the deepest group enclosing x's read that may hold a
/// loop over that label. False when no loop can shrink it.
bool shrinkTile(const Context &ctx, const NestArray &x, unsigned readGroup,
                const std::map<std::string, int64_t> &localExtents, TileNest &nest,
                const std::vector<std::string> *only = nullptr) {
  std::string label;
  unsigned group = 0;
  int64_t largest = 1, entering = 1;
  for (const std::string &l : x.labels) {
    if (only && std::find(only->begin(), only->end(), l) == only->end())
      continue;
    int64_t e = tileExtent(nest, l, localExtents.at(l), readGroup);
    if (e <= largest)
      continue;
    for (unsigned g : groupsFor(ctx, nest.order, l)) {
      if (g > readGroup || (!label.empty() && label == l && g < group))
        continue;
      largest = e, label = l, group = g;
      entering = g == 0 ? localExtents.at(l) : tileExtent(nest, l, localExtents.at(l), g - 1);
    }
  }
  if (label.empty())
    return false;
  auto &loops = nest.groups[group];
  auto it = std::find_if(loops.begin(), loops.end(),
                         [&](const TileLoop &t) { return t.label == label; });
  int64_t count = it == loops.end() ? 1 : it->count;
  // The next smaller tile, with the fewest tiles that give it (no empty tile).
  int64_t tile = (entering + count - 1) / count - 1;
  count = (entering + tile - 1) / tile;
  if (it == loops.end())
    loops.push_back({label, count});
  else
    it->count = count;
  normalizeLoops(nest, localExtents);
  return true;
}

/// Rounding tile counts up to integers per label can leave tiles just over
/// their limit (ragged tiles are ceil-sized); shrink tiles until they fit.
/// Per array: the largest dimension of each offending tile. Shared: the
/// thickness of the larger input panel first (a K label: no extra I/O,
/// docs/Derivations.md D29), then C's tile. False when nothing can shrink.
bool fitBuffers(const Context &ctx, const NestArray (&arrays)[3],
                const std::map<std::string, int64_t> &localExtents, TileNest &nest,
                TileMemory memory) {
  const auto &extents = ctx.problem.extents;
  const double limit = ctx.machine.tileLimit(memory);
  auto bytes = [&](Operand x) {
    return tileBufferBytes(nest, x, arrays[static_cast<int>(x)], extents, ctx.machine.elemBytes);
  };
  auto shrink = [&](Operand x, const std::vector<std::string> *only = nullptr) {
    return shrinkTile(ctx, arrays[static_cast<int>(x)], nest.readGroup(x), localExtents, nest,
                      only);
  };
  for (int iteration = 0; iteration < 4096; ++iteration) {
    if (memory == TileMemory::Shared) {
      if (bytes(Operand::A) + bytes(Operand::B) + bytes(Operand::C) <= limit)
        return true;
      Operand panel = bytes(Operand::A) >= bytes(Operand::B) ? Operand::A : Operand::B;
      Operand other = panel == Operand::A ? Operand::B : Operand::A;
      if (!shrink(panel, &ctx.macro.K) && !shrink(other, &ctx.macro.K) && !shrink(Operand::C))
        return false;
      continue;
    }
    std::optional<Operand> over;
    for (Operand x : {Operand::A, Operand::B, Operand::C})
      if (bytes(x) > limit) {
        over = x;
        break;
      }
    if (!over)
      return true;
    if (!shrink(*over))
      return false;
  }
  return false;
}

/// A candidate of the model turned into a plan over labels, or nullopt when the
/// realized tiles cannot fit.
std::optional<ContractionPlan> realize(const Context &ctx, const Candidate &model,
                                       const AlgorithmLayouts &layouts,
                                       const std::optional<TileNest> &givenNest) {
  ContractionPlan plan;
  plan.inCore = model.inCore;
  plan.method = model.method;
  plan.algorithm = model.algorithm;
  plan.memory = model.memory;
  plan.layoutA = layouts.a, plan.layoutB = layouts.b, plan.layoutC = layouts.c;
  plan.redist = layouts.redist;
  const auto &extents = ctx.problem.extents;
  const int64_t e = ctx.machine.elemBytes;
  const NestArray (&arrays)[3] = layouts.arrays;
  if (model.inCore) {
    plan.nest.order = model.order;
    double total = 0;
    for (Operand x : {Operand::A, Operand::B, Operand::C}) {
      int i = static_cast<int>(x);
      plan.bufferBytes[i] = tileBufferBytes(plan.nest, x, arrays[i], extents, e);
      total += plan.bufferBytes[i];
    }
    if (total > ctx.machine.memBytes)
      return std::nullopt;
    plan.commBytes = model.commBytes;
    plan.seconds = model.seconds;
    return plan;
  }
  // Tiles split what one process holds of each label: ceil(extent / blocks). A
  // label cannot have more tiles than that (the lowering's tile geometry).
  std::map<std::string, int64_t> localExtents;
  for (const NestArray &a : arrays)
    for (const std::string &l : a.labels) {
      auto it = a.parts.find(l);
      int64_t parts = it == a.parts.end() ? 1 : it->second;
      int64_t local = tc_layout::ceilDiv(extents.at(l), parts);
      auto [entry, fresh] = localExtents.insert({l, local});
      if (!fresh)
        entry->second = std::min(entry->second, local);
    }
  auto attempt = [&](TileNest nest) -> std::optional<ContractionPlan> {
    if (!givenNest)
      normalizeLoops(nest, localExtents);
    if (!givenNest && !fitBuffers(ctx, arrays, localExtents, nest, model.memory))
      return std::nullopt;
    ContractionPlan p = plan;
    p.nest = nest;
    for (int i = 0; i < 3; ++i)
      p.bufferBytes[i] = tileBufferBytes(nest, static_cast<Operand>(i), arrays[i], extents, e);
    const double limit = ctx.machine.tileLimit(model.memory);
    if (model.memory == TileMemory::Shared
            ? p.bufferBytes[0] + p.bufferBytes[1] + p.bufferBytes[2] > limit
            : *std::max_element(p.bufferBytes, p.bufferBytes + 3) > limit)
      return std::nullopt;
    const ModelView &view = layouts.model;
    std::optional<Candidate> exact =
        evaluateTiling(view.sizes, view.machine, model.method, view.algorithm, nest.order,
                       realizedCounts(nest, ctx.macro), model.memory);
    if (!exact)
      return std::nullopt;
    p.diskBytes = exact->diskBytes;
    p.commBytes = exact->commBytes;
    p.seconds = exact->seconds;
    return p;
  };
  if (givenNest)
    return attempt(*givenNest);
  std::optional<ContractionPlan> exact =
      attempt(buildTileNest(model.order, model.tiles, ctx.macro, extents, true));
  std::optional<ContractionPlan> tight =
      attempt(buildTileNest(model.order, model.tiles, ctx.macro, extents, false));
  // Prefer divisors (no ragged tiles) unless they cost more than 5% extra.
  if (exact && (!tight || exact->seconds <= 1.05 * tight->seconds))
    return exact;
  return tight;
}

/// The loops of a group sorted by label (then count): a #tc.plan group is a
/// dictionary, so its loops come back in this order.
std::vector<TileLoop> sortedLoops(std::vector<TileLoop> loops) {
  std::sort(loops.begin(), loops.end(), [](const TileLoop &a, const TileLoop &b) {
    return a.label != b.label ? a.label < b.label : a.count < b.count;
  });
  return loops;
}

bool sameLoops(const TileNest &a, const TileNest &b) {
  if (a.order != b.order)
    return false;
  for (size_t g = 0; g < a.groups.size(); ++g)
    if (sortedLoops(a.groups[g]) != sortedLoops(b.groups[g]))
      return false;
  return true;
}

std::string describe(const PlanDecisions &d) {
  std::ostringstream os;
  if (d.inCore)
    os << " in_core = " << (*d.inCore ? "true" : "false");
  if (d.method)
    os << " method = " << toString(*d.method);
  if (d.algorithm)
    os << " algorithm = " << toString(*d.algorithm);
  if (d.order)
    os << " order = " << toString(*d.order);
  if (d.grid)
    os << " grid = " << gridList(*d.grid);
  if (d.nest)
    os << " and the given loops";
  return os.str();
}

} // namespace

MacroIndicesOrError macroIndicesOf(const ContractionProblem &problem) {
  auto shape = [&](const std::vector<std::string> &labels) {
    LabeledShape s{labels, {}};
    for (const std::string &l : labels)
      s.extents.push_back(problem.extents.at(l));
    return s;
  };
  IndexSpaceOrError space = buildIndexSpace({shape(problem.labelsA), shape(problem.labelsB)},
                                            shape(problem.labelsC));
  if (!space) {
    MacroIndicesOrError out;
    out.error = space.error;
    return out;
  }
  return mapToMacroIndices(*space.space, problem.labelsA, problem.labelsB, problem.labelsC);
}

ContractionProblem withoutOneInputLabels(const ContractionProblem &problem) {
  MacroIndicesOrError macro = macroIndicesOf(problem);
  ContractionProblem core = problem;
  if (!macro)
    return core;
  auto drop = [](std::vector<std::string> &labels, std::optional<Layout> &given,
                 const std::vector<std::string> &summed) {
    for (const std::string &l : summed) {
      labels.erase(std::remove(labels.begin(), labels.end(), l), labels.end());
      if (given)
        std::replace(given->dims.begin(), given->dims.end(), l,
                     std::string(Layout::kReplicated));
    }
  };
  drop(core.labelsA, core.givenA, macro.value.sumA);
  drop(core.labelsB, core.givenB, macro.value.sumB);
  return core;
}

PlanResult planContraction(const ContractionProblem &problem, const MachineModel &machine,
                           const PlanDecisions &decisions) {
  PlanResult result;
  for (const auto &[name, layout] :
       {std::pair{"A", &problem.givenA}, {"B", &problem.givenB}, {"C", &problem.requiredC}})
    if (*layout && (*layout)->procs() != machine.procs) {
      result.error = std::string("the layout of ") + name + " " + (*layout)->str() + " spans " +
                     std::to_string((*layout)->procs()) + " processes but the machine has " +
                     std::to_string(machine.procs);
      return result;
    }
  MacroIndicesOrError macro = macroIndicesOf(problem);
  if (!macro) {
    result.error = macro.error;
    return result;
  }
  if (!macro.value.sumA.empty() || !macro.value.sumB.empty()) {
    result = planContraction(withoutOneInputLabels(problem), machine, decisions);
    std::vector<std::string> summed = macro.value.sumA;
    summed.insert(summed.end(), macro.value.sumB.begin(), macro.value.sumB.end());
    result.remarks.push_back("labels " + joined(summed) +
                             " of one input only are summed out of it as it is loaded");
    return result;
  }
  Context ctx{problem, machine, macro.value, result.remarks};
  // A given grid: at most P processes, and fewer only for COSMA, the one
  // algorithm that leaves processes idle (Kwasniewski et al. section 7.1).
  if (decisions.grid) {
    const int64_t procs = gridProcs(*decisions.grid);
    if (procs > machine.procs) {
      result.error = "the plan's grid " + gridList(*decisions.grid) + " has " +
                     std::to_string(procs) + " processes but the machine has " +
                     std::to_string(machine.procs);
      return result;
    }
    if (procs < machine.procs && decisions.algorithm &&
        *decisions.algorithm != ParallelAlgorithm::Cosma) {
      result.error = std::string("algorithm = ") + toString(*decisions.algorithm) +
                     " runs on every process, but the plan's grid " +
                     gridList(*decisions.grid) + " has " + std::to_string(procs) +
                     " of the machine's " + std::to_string(machine.procs) +
                     " (only cosma leaves processes idle)";
      return result;
    }
  }
  auto onGrid = [&](const ContractionPlan &plan) {
    return !decisions.grid || plan.layoutA.grid == *decisions.grid;
  };

  if (!isPerfectSquare(machine.procs) &&
      (!decisions.algorithm || *decisions.algorithm == ParallelAlgorithm::Rotation))
    result.remarks.push_back("rotation skipped: P = " + std::to_string(machine.procs) +
                             " is not a perfect square");
  PlanOptions options;
  options.allowInCore = decisions.inCore.value_or(true) && !decisions.nest;
  options.outsideOnlyWhenRemoteFits = decisions.method != CommMethod::Inside;
  std::vector<Candidate> models = enumerateCandidates(macro.value.sizes, machine, options);
  // COSMA's sequential schedule competes with Gao et al.'s tilings
  // (docs/Derivations.md D29).
  for (const Candidate &c : residentCCandidates(macro.value.sizes, machine, options))
    models.push_back(c);
  // Batch (D30): the one-process candidates of each process's share of the
  // batch values, for a layout that distributes a batch label.
  auto addBatchModels = [&]() {
    if ((macro.value.L.empty() && !(ctx.allowRagged && nothingToSplit(macro.value))) ||
        decisions.nest ||
        (decisions.algorithm && *decisions.algorithm != ParallelAlgorithm::Batch))
      return;
    std::optional<AlgorithmLayouts> batch = batchLayouts(ctx);
    if (!batch)
      return;
    const ModelView &share = batch->model;
    std::vector<Candidate> local = enumerateCandidates(share.sizes, share.machine, options);
    for (const Candidate &c : residentCCandidates(share.sizes, share.machine, options))
      local.push_back(c);
    for (Candidate c : local)
      if (c.algorithm == ParallelAlgorithm::Accumulation) {
        c.algorithm = ParallelAlgorithm::Batch;
        models.push_back(c);
      }
  };
  addBatchModels();
  if (decisions.nest && decisions.method && decisions.algorithm && decisions.order) {
    // The nest is given: evaluate exactly that (the model's tiles are unused).
    models = {Candidate{*decisions.method, *decisions.algorithm, *decisions.order, {}}};
    models.front().memory = decisions.memory.value_or(TileMemory::PerArray);
  }

  std::map<ParallelAlgorithm, std::optional<AlgorithmLayouts>> layouts;
  auto addGaoCandidates = [&]() {
    for (const Candidate &model : models) {
      if ((decisions.inCore && *decisions.inCore != model.inCore) ||
          (decisions.method && !model.inCore &&
           *decisions.method != model.method) ||
          (decisions.algorithm && *decisions.algorithm != model.algorithm) ||
          (decisions.order && !model.inCore &&
           *decisions.order != model.order) ||
          (decisions.memory && !model.inCore &&
           *decisions.memory != model.memory))
        continue;
      auto found = layouts.find(model.algorithm);
      if (found == layouts.end())
        found =
            layouts
                .emplace(model.algorithm, chooseLayouts(ctx, model.algorithm))
                .first;
      if (!found->second)
        continue;
      if (std::optional<ContractionPlan> plan =
              realize(ctx, model, *found->second, decisions.nest);
          plan && onGrid(*plan))
        result.candidates.push_back(*plan);
    }
  };
  addGaoCandidates();

  // COSMA beside Gao et al.'s algorithms, in core only: like their in-core
  // plans it ignores a method and an order (they bind out-of-core plans), and
  // a given nest rules it out.
  // COSMA and PUMMA multiply matrices: batch labels have no place in their
  // grids or panels.
  const MacroIndices &m = macro.value;
  const bool batched = !m.L.empty() || !m.sumA.empty() || !m.sumB.empty();
  if (batched && (!decisions.algorithm || *decisions.algorithm == ParallelAlgorithm::Cosma ||
                  *decisions.algorithm == ParallelAlgorithm::Pumma))
    result.remarks.push_back(
        "cosma and pumma skipped: batch labels " + joined(m.L) +
        " (in A, B and C) and labels of one input " + joined(m.sumA) + ", " +
        joined(m.sumB) + " are not part of their schedules");
  const bool cosmaAllowed = !batched &&
      (!decisions.algorithm || *decisions.algorithm == ParallelAlgorithm::Cosma) &&
      decisions.inCore.value_or(true) && !decisions.nest &&
      (!decisions.grid || decisions.grid->size() == 3);
  if (cosmaAllowed)
    if (std::optional<ContractionPlan> plan =
            planCosma(problem, macro.value, machine, result.remarks, decisions.grid))
      result.candidates.push_back(*plan);
  // PUMMA likewise (in core; block-cyclic layouts given are used in place).
  const bool pummaAllowed = !batched &&
      (!decisions.algorithm || *decisions.algorithm == ParallelAlgorithm::Pumma) &&
      decisions.inCore.value_or(true) && !decisions.nest;
  if (pummaAllowed)
    if (std::optional<ContractionPlan> plan =
            planPumma(problem, macro.value, machine, result.remarks, decisions.roll);
        plan && onGrid(*plan))
      result.candidates.push_back(*plan);

  // No label has an extent of at least the grid's: distribute one anyway,
  // some processes holding empty blocks.
  if (result.candidates.empty()) {
    const size_t remarks = result.remarks.size();
    ctx.allowRagged = true;
    layouts.clear();
    addBatchModels();
    addGaoCandidates();
    result.remarks.resize(remarks); // the same skips again, said once
    if (!result.candidates.empty())
      result.remarks.push_back(
          "no label has an extent of at least the grid's: some "
          "processes hold empty blocks");
  }
  if (result.candidates.empty()) {
    // Every array can be tiled down to one element, so no plan fits exactly when
    // the per-array budget is below one element; A is the first array to miss it.
    const double budget = machine.tileBudget();
    if (budget < static_cast<double>(machine.elemBytes)) {
      std::ostringstream os;
      os << "no plan fits in memory: array A needs at least " << machine.elemBytes
         << " bytes per process for one tile but its budget is " << budget << " bytes ("
         << machine.tileFraction << " of " << machine.memBytes << " bytes); at least "
         << static_cast<double>(machine.elemBytes) / machine.tileFraction
         << " bytes of memory per process are needed";
      result.error = os.str();
    }
    // Plans that exist with memory to spare were refused for memory: say so.
    constexpr double kRoomy = 1e30;
    if (result.error.empty() && machine.memBytes < kRoomy) {
      MachineModel roomy = machine;
      roomy.memBytes = kRoomy;
      if (!planContraction(problem, roomy, decisions).candidates.empty()) {
        std::ostringstream os;
        if (describe(decisions).empty())
          os << "no plan fits in memory: none of the algorithms' tiles and buffers fit in "
             << machine.memBytes << " bytes per process on " << machine.procs
             << " processes; raise mem or use more processes";
        else
          os << "no plan satisfies the given decisions:" << describe(decisions) << " in "
             << machine.memBytes << " bytes per process (with more memory one does)";
        result.error = os.str();
      }
    }
    if (result.error.empty())
      result.error = "no plan satisfies the given decisions" +
                     (describe(decisions).empty() ? std::string(" (none: every "
                                                                "algorithm was skipped)")
                                                  : std::string(":") + describe(decisions));
    return result;
  }
  const bool iContiguous = decisions.iContiguous.value_or(prefersIContiguous(problem));
  for (ContractionPlan &plan : result.candidates)
    plan.iContiguous = iContiguous;
  size_t best = 0;
  for (size_t i = 1; i < result.candidates.size(); ++i)
    if (result.candidates[i].totalSeconds() < result.candidates[best].totalSeconds())
      best = i;
  result.chosen = best;
  return result;
}

std::string preferredLabel(const ContractionProblem &problem,
                           const std::vector<std::string> &members, int64_t parts) {
  std::string best;
  double bestScore = -1;
  for (const std::string &l : members)
    if (double score = labelPreference(problem.extents.at(l), parts); score > bestScore)
      best = l, bestScore = score;
  return best;
}

double RankVolumes::maxSent() const {
  return sent.empty() ? 0 : *std::max_element(sent.begin(), sent.end());
}
double RankVolumes::maxReceived() const {
  return received.empty() ? 0 : *std::max_element(received.begin(), received.end());
}

bool sameDecisions(const PlanDecisions &a, const PlanDecisions &b) {
  if (a.inCore != b.inCore || a.method != b.method || a.algorithm != b.algorithm ||
      a.order != b.order || a.memory != b.memory || a.iContiguous != b.iContiguous ||
      a.roll != b.roll || a.grid != b.grid || a.nest.has_value() != b.nest.has_value())
    return false;
  return !a.nest || sameLoops(*a.nest, *b.nest);
}

bool choiceStands(const PlanDecisions &searched, const ContractionPlan &chosen,
                  const PlanDecisions &now) {
  auto keeps = [](const auto &was, const auto &is) { return !was || is == was; };
  if (!keeps(searched.inCore, now.inCore) || !keeps(searched.method, now.method) ||
      !keeps(searched.algorithm, now.algorithm) || !keeps(searched.order, now.order) ||
      !keeps(searched.memory, now.memory) || !keeps(searched.iContiguous, now.iContiguous) ||
      !keeps(searched.roll, now.roll) || !keeps(searched.grid, now.grid) ||
      (searched.nest && !(now.nest && sameLoops(*searched.nest, *now.nest))))
    return false;
  // A grid restricts the candidates to those on it.
  if (now.grid && chosen.layoutA.grid != *now.grid)
    return false;
  // The storage order takes no part in the search: it only has to agree.
  if (now.iContiguous && *now.iContiguous != chosen.iContiguous)
    return false;
  PlanDecisions searchedRest = searched, nowRest = now;
  searchedRest.iContiguous = nowRest.iContiguous = std::nullopt;
  if (sameDecisions(searchedRest, nowRest))
    return true;
  // Other algorithms may gain candidates under `now` (out-of-core ones where
  // in-core was enough, inside ones where outside was, [G] 2.1), one that
  // `chosen` has does not: `chosen` proves its enumeration was the full one.
  if (now.algorithm != chosen.algorithm)
    return false;
  // planContraction's filter: method and order bind out-of-core plans only.
  if ((now.inCore && *now.inCore != chosen.inCore) ||
      (now.method && !chosen.inCore && *now.method != chosen.method) ||
      (now.order && !chosen.inCore && *now.order != chosen.nest.order) ||
      (now.memory && !chosen.inCore && *now.memory != chosen.memory))
    return false;
  if (now.nest)
    return !chosen.inCore && now.method && now.order && sameLoops(*now.nest, chosen.nest);
  return true;
}

} // namespace mlir::tc
