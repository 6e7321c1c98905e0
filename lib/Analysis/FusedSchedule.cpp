//===- FusedSchedule.cpp - the loop nest of a fused operator tree ---------===//
#include "TC/Analysis/FusedSchedule.h"
#include "TC/Analysis/RedistributionTraffic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace mlir::tc {

namespace {

constexpr int kProgram = -1;

class ScheduleBuilder {
public:
  ScheduleBuilder(const OperatorTree &tree, const FusionPlan &plan) : tree(tree), plan(plan) {}

  FusedSchedule build() {
    FusedSchedule out;
    assignOwners();
    out.program = emitRegion(kProgram);
    out.error = error;
    return out;
  }

private:
  IndexSet levelOf(int node) const { return plan.nodes[node].edge.fused; }
  /// Loops open when a region starts: its node's fusion with its consumer (the
  /// program starts with none).
  IndexSet regionStart(int region) const { return region == kProgram ? 0 : levelOf(region); }

  /// The region producing each node: the nearest consumer up the tree whose own
  /// fused loops the node is fused on too (else it would be produced per
  /// iteration of loops it does not depend on).
  void assignOwners() {
    for (int id : tree.postOrder()) {
      int region = tree.node(id).parent;
      while (region != kProgram && !isSubset(regionStart(region), levelOf(id)))
        region = tree.node(region).parent;
      owned[region].push_back(id); // post-order: producers before consumers
    }
  }

  /// Blocks of loop `index` in `region`: lcm(p_v, p_u) of the edges fusing it
  /// there, the region's own and those of the arrays it produces ([C]
  /// 3.2(iii) virtual partitioning; p_v = p_u without), which must agree; the
  /// loop then runs over extent / lcm values, each a slice of one element per
  /// virtual block.
  int64_t loopParts(int region, int index) {
    int64_t parts = 0;
    auto consider = [&](int node) {
      const FusionEdge &edge = plan.nodes[node].edge;
      if (!contains(edge.fused, index))
        return;
      int64_t p = virtualParts(plan.grid, edge, index);
      if (parts && p != parts)
        error = "loop '" + tree.indexName(index) + "' is split into " + std::to_string(parts) +
                " and " + std::to_string(p) + " virtual blocks by the fusions it serves";
      parts = p;
    };
    if (region != kProgram)
      consider(region);
    for (int g : owned[region])
      consider(g);
    if (parts)
      return parts;
    int node = region == kProgram ? tree.root() : region;
    return plan.nodes[node].decision.compute.parts(plan.grid, index);
  }

  std::vector<ScheduleItem> emitRegion(int region) {
    std::vector<ScheduleItem> outer;
    IndexSet start = regionStart(region);
    std::vector<IndexSet> levels = {start};
    for (int g : owned[region])
      levels.push_back(levelOf(g));
    if (!orderAsChain(levels)) {
      error = "the fusions at '" +
              (region == kProgram ? std::string("the program") : tree.node(region).name) +
              "' do not nest";
      return outer;
    }
    if (region != kProgram)
      outer.push_back(item(ScheduleItem::Kind::Zero, region));
    std::vector<ScheduleItem> *container = &outer;
    IndexSet open = start;
    for (IndexSet level : levels) {
      for (int t = 0; t < tree.numIndices(); ++t)
        if (contains(level & ~open, t)) {
          ScheduleItem loop = item(ScheduleItem::Kind::Loop, -1);
          loop.index = t;
          loop.parts = loopParts(region, t);
          loop.trips = (tree.extent(t) + loop.parts - 1) / loop.parts;
          container->push_back(std::move(loop));
          container = &container->back().body;
        }
      open = level;
      for (int g : owned[region])
        if (levelOf(g) == level)
          emitProduction(g, *container);
    }
    if (region == kProgram)
      return outer;
    container->push_back(item(ScheduleItem::Kind::Contract, region));
    const FusionPlan::Node &n = plan.nodes[region];
    if (n.decision.variant != SumVariant::None)
      outer.push_back(item(ScheduleItem::Kind::Combine, region));
    if (!(n.edge.produced == n.edge.consumed))
      outer.push_back(item(ScheduleItem::Kind::Redistribute, region));
    if (tree.node(region).parent < 0)
      outer.push_back(item(ScheduleItem::Kind::Store, region));
    return outer;
  }

  void emitProduction(int node, std::vector<ScheduleItem> &into) {
    if (!tree.node(node).isInput()) {
      for (ScheduleItem &i : emitRegion(node))
        into.push_back(std::move(i));
      return;
    }
    into.push_back(item(ScheduleItem::Kind::Load, node));
    const FusionEdge &edge = plan.nodes[node].edge;
    if (!(edge.produced == edge.consumed))
      into.push_back(item(ScheduleItem::Kind::Redistribute, node));
  }

  static ScheduleItem item(ScheduleItem::Kind kind, int node) {
    ScheduleItem i;
    i.kind = kind;
    i.node = node;
    return i;
  }

  const OperatorTree &tree;
  const FusionPlan &plan;
  std::map<int, std::vector<int>> owned;
  std::string error;
};

void print(const OperatorTree &tree, const std::vector<ScheduleItem> &items, int depth,
           std::string &out) {
  static const char *names[] = {"for", "zero", "load", "contract", "combine", "redistribute",
                                "store"};
  for (const ScheduleItem &i : items) {
    out += std::string(2 * depth, ' ');
    if (i.kind == ScheduleItem::Kind::Loop) {
      out += "for " + tree.indexName(i.index) + " (x" + std::to_string(i.trips) + "):\n";
      print(tree, i.body, depth + 1, out);
      continue;
    }
    out += std::string(names[static_cast<int>(i.kind)]) + " " + tree.node(i.node).name + "\n";
  }
}

} // namespace

FusedSchedule buildFusedSchedule(const OperatorTree &tree, const FusionPlan &plan) {
  return ScheduleBuilder(tree, plan).build();
}

namespace {

/// What tc_rt_redistribute moves for node's whole array from `from` to `to`,
/// in elements per rank; nullopt for a `1` entry (first slices), which the
/// fractions of exchangeVolumes model.
std::optional<RedistributionTraffic> wholeArrayTraffic(const OperatorTree &tree, const Grid &grid,
                                                       int node, const Distribution &from,
                                                       const Distribution &to) {
  auto holding = [&](const Distribution &d) -> std::optional<ArrayHolding> {
    ArrayHolding h;
    h.grid.assign(grid.begin(), grid.end());
    for (size_t g = 0; g < grid.size(); ++g)
      if (d.entry[g] == Distribution::kFirstSlice)
        return std::nullopt;
    for (int index : tree.node(node).dims) {
      HeldDim dim;
      dim.extent = tree.extent(index);
      for (size_t g = 0; g < grid.size(); ++g)
        if (d.entry[g] == index)
          dim.gridDim = static_cast<int64_t>(g);
      h.dims.push_back(dim);
    }
    return h;
  };
  std::optional<ArrayHolding> a = holding(from), b = holding(to);
  if (!a || !b)
    return std::nullopt;
  return redistributionTraffic(*a, *b);
}

} // namespace

ExchangeVolumes predictedCommBytes(const OperatorTree &tree, const FusionPlan &plan,
                                   const FusedSchedule &schedule, int64_t elemBytes) {
  int64_t procs = gridProcs(plan.grid);
  ExchangeVolumes bytes{std::vector<double>(procs, 0.0), std::vector<double>(procs, 0.0)};
  std::function<void(const std::vector<ScheduleItem> &, double, bool)> walk =
      [&](const std::vector<ScheduleItem> &items, double runs, bool inLoop) {
        for (const ScheduleItem &i : items) {
          if (i.kind == ScheduleItem::Kind::Loop) {
            walk(i.body, runs * static_cast<double>(i.trips), true);
            continue;
          }
          const FusionPlan::Node &n = plan.nodes[i.node];
          // Outside every loop the whole array moves: count it exactly, blocks
          // of uneven extents included (docs/Derivations.md D31).
          if (i.kind == ScheduleItem::Kind::Redistribute && !inLoop) {
            std::optional<RedistributionTraffic> exact =
                wholeArrayTraffic(tree, plan.grid, i.node, n.edge.produced, n.edge.consumed);
            if (exact) {
              for (int64_t r = 0; r < procs; ++r) {
                bytes.sent[r] += static_cast<double>(exact->sent[r] * elemBytes);
                bytes.received[r] += static_cast<double>(exact->received[r] * elemBytes);
              }
              continue;
            }
          }
          if (i.kind == ScheduleItem::Kind::Redistribute) {
            // The whole (reduced) array: a consumed block times its blocks.
            double whole = distSize(tree, plan.grid, i.node, n.edge.consumed, n.edge) *
                           static_cast<double>(elemBytes);
            for (int index : tree.node(i.node).dims)
              whole *= static_cast<double>(n.edge.consumed.parts(plan.grid, index));
            ExchangeVolumes v = exchangeVolumes(plan.grid, n.edge.produced, n.edge.consumed);
            for (int64_t r = 0; r < procs; ++r) {
              bytes.sent[r] += runs * v.sent[r] * whole;
              bytes.received[r] += runs * v.received[r] * whole;
            }
          }
          if (i.kind == ScheduleItem::Kind::Combine) {
            int64_t group = partialSumGroup(tree, plan.grid, i.node, n.decision.compute);
            double block = distSize(tree, plan.grid, i.node, n.edge.produced, n.edge) *
                           static_cast<double>(elemBytes);
            bool powerOfTwo = (group & (group - 1)) == 0;
            double times = powerOfTwo ? std::log2(static_cast<double>(group))
                                      : 2.0 * static_cast<double>(group - 1) / group;
            for (int64_t r = 0; r < procs; ++r) {
              bytes.sent[r] += runs * times * block;
              bytes.received[r] += runs * times * block;
            }
          }
        }
      };
  walk(schedule.program, 1.0, false);
  return bytes;
}

std::string scheduleString(const OperatorTree &tree, const FusedSchedule &schedule) {
  std::string out;
  print(tree, schedule.program, 0, out);
  return out;
}

} // namespace mlir::tc
