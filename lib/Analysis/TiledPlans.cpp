//===- TiledPlans.cpp - plans made of tiling loops ------------------------===//
#include "TiledPlans.h"

#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <array>

namespace mlir::tc {

void addRedistribution(const PlanningContext &ctx, ParallelAlgorithm alg, AlgorithmLayouts &out) {
  const ContractionProblem &pb = ctx.problem;
  if (pb.givenA && alg != ParallelAlgorithm::ReplicationA)
    out.redist += redistributionCost(*pb.givenA, out.a, pb.labelsA, pb.extents, ctx.machine);
  if (pb.givenB && alg != ParallelAlgorithm::ReplicationB)
    out.redist += redistributionCost(*pb.givenB, out.b, pb.labelsB, pb.extents, ctx.machine);
  if (pb.requiredC)
    out.redist += redistributionCost(out.c, *pb.requiredC, pb.labelsC, pb.extents, ctx.machine);
}

void fillNestArrays(const PlanningContext &ctx, AlgorithmLayouts &out) {
  const std::vector<std::string> *labels[3] = {&ctx.problem.labelsA, &ctx.problem.labelsB,
                                               &ctx.problem.labelsC};
  const Layout *layouts[3] = {&out.a, &out.b, &out.c};
  for (int i = 0; i < 3; ++i) {
    out.arrays[i].labels = *labels[i];
    for (const std::string &l : *labels[i])
      out.arrays[i].parts[l] = layouts[i]->parts(l);
  }
}

bool nothingToSplit(const MacroIndices &m) {
  return m.I.empty() && m.J.empty() && m.K.empty() && m.L.empty();
}

namespace {

/// Groups that may hold a loop over `label` (docs/Derivations.md D4 table), below D4.
std::vector<unsigned> groupsFor(const PlanningContext &ctx, ReadOrder order,
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
bool shrinkTile(const PlanningContext &ctx, const NestArray &x, unsigned readGroup,
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
bool fitBuffers(const PlanningContext &ctx, const NestArray (&arrays)[3],
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
std::optional<ContractionPlan> realize(const PlanningContext &ctx, const Candidate &model,
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

} // namespace

std::optional<Candidate> givenNestModel(const PlanDecisions &d) {
  if (!(d.nest && d.method && d.algorithm && d.order))
    return std::nullopt;
  Candidate model{*d.method, *d.algorithm, *d.order, {}};
  model.memory = d.memory.value_or(TileMemory::PerArray);
  return model;
}

void addTiledCandidates(
    const PlanningContext &ctx, const std::vector<Candidate> &models,
    const std::function<std::optional<AlgorithmLayouts>(ParallelAlgorithm)> &layoutsOf,
    std::vector<ContractionPlan> &out) {
  const PlanDecisions &decisions = ctx.decisions;
  std::map<ParallelAlgorithm, std::optional<AlgorithmLayouts>> layouts;
  for (const Candidate &model : models) {
    if ((decisions.inCore && *decisions.inCore != model.inCore) ||
        (decisions.method && !model.inCore && *decisions.method != model.method) ||
        (decisions.algorithm && *decisions.algorithm != model.algorithm) ||
        (decisions.order && !model.inCore && *decisions.order != model.order) ||
        (decisions.memory && !model.inCore && *decisions.memory != model.memory))
      continue;
    auto found = layouts.find(model.algorithm);
    if (found == layouts.end())
      found = layouts.emplace(model.algorithm, layoutsOf(model.algorithm)).first;
    if (!found->second)
      continue;
    if (std::optional<ContractionPlan> plan =
            realize(ctx, model, *found->second, decisions.nest);
        plan && ctx.onGrid(*plan))
      out.push_back(*plan);
  }
}

} // namespace mlir::tc
