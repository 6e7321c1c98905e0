//===- FusedSchedule.cpp - the loop nest of a fused operator tree ---------===//
#include "TC/Analysis/FusedSchedule.h"
#include "TC/Analysis/CollectiveVolumes.h"
#include "TC/Layout/ArrayLayout.h"
#include "TC/Layout/RedistributionTraffic.h"

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

/// Extent of dimension `index` of node's slice array: p_virtual along a fused index, one element
/// per virtual block (D32), else the index's extent.
int64_t sliceExtent(const OperatorTree &tree, const FusionPlan &plan, int node, int index) {
  const FusionEdge &edge = plan.nodes[node].edge;
  return contains(edge.fused, index) ? virtualParts(plan.grid, edge, index) : tree.extent(index);
}

} // namespace

tc_layout::ArrayLayout sliceLayout(const OperatorTree &tree, const FusionPlan &plan, int node,
                                   const Distribution &dist) {
  const std::vector<int> &dims = tree.node(node).dims;
  std::vector<int64_t> extents;
  for (int i : dims)
    extents.push_back(sliceExtent(tree, plan, node, i));
  tc_layout::ArrayLayout l = tc_layout::ArrayLayout::whole(tc_layout::Holding::Distributed, extents,
                                                           {plan.grid.begin(), plan.grid.end()});
  l.gridDim = dist.gridDims(plan.grid, dims);
  for (size_t g = 0; g < plan.grid.size(); ++g)
    if (dist.entry[g] == Distribution::kFirstSlice)
      l.firstSlice |= int64_t(1) << g;
  return l;
}

// Every rank's exact share (docs/Derivations.md D31, D32), not [C]'s per-process
// averages (D14, D16): a redistribution moves what tc_rt_redistribute moves of
// the slice arrays, uneven blocks and `1` entries included
// (redistributionTraffic); a combine is the runtime's all-reduce of the padded
// partial-sum block over its sub-grid (allReduce: recursive doubling, or the
// ring whose P segments differ by one element, so ranks differ).
ExchangeVolumes predictedCommBytes(const OperatorTree &tree, const FusionPlan &plan,
                                   const FusedSchedule &schedule, int64_t elemBytes) {
  const Grid &grid = plan.grid;
  int64_t procs = gridProcs(grid);
  ExchangeVolumes bytes{std::vector<double>(procs, 0.0), std::vector<double>(procs, 0.0)};
  auto add = [&](int64_t r, double runs, int64_t sent, int64_t received) {
    bytes.sent[r] += runs * static_cast<double>(sent * elemBytes);
    bytes.received[r] += runs * static_cast<double>(received * elemBytes);
  };
  std::function<void(const std::vector<ScheduleItem> &, double)> walk =
      [&](const std::vector<ScheduleItem> &items, double runs) {
        for (const ScheduleItem &i : items) {
          if (i.kind == ScheduleItem::Kind::Loop) {
            walk(i.body, runs * static_cast<double>(i.trips));
            continue;
          }
          const FusionPlan::Node &n = plan.nodes[i.node];
          if (i.kind == ScheduleItem::Kind::Redistribute) {
            tc_layout::RedistributionTraffic t =
                redistributionTraffic(sliceLayout(tree, plan, i.node, n.edge.produced),
                                      sliceLayout(tree, plan, i.node, n.edge.consumed));
            for (int64_t r = 0; r < procs; ++r)
              add(r, runs, t.sent[r], t.received[r]);
          }
          if (i.kind == ScheduleItem::Kind::Combine) {
            // tc_rt_combine_partial all-reduces the whole padded block over
            // the grid dimensions carrying summed indices (MPI_Cart_sub: a
            // rank's place is its row-major coordinate along them). A rank
            // off a first slice of the partial sums (a `1` entry of gamma)
            // holds none and takes no part.
            const Distribution &gamma = n.decision.compute;
            IndexSet summed = tree.node(i.node).summed();
            // The partial sums' array: the produced slice, replicated instead
            // of on a first slice along the combined grid dimensions (the
            // accumulator tc-lower-fused creates).
            tc_layout::ArrayLayout partial = sliceLayout(tree, plan, i.node, n.edge.produced);
            std::vector<bool> combined(grid.size(), false);
            for (size_t g = 0; g < grid.size(); ++g)
              if (gamma.entry[g] >= 0 && contains(summed, gamma.entry[g])) {
                combined[g] = true;
                partial.firstSlice &= ~(int64_t(1) << g);
              }
            int64_t elems = 1;
            for (int64_t rows : partial.paddedBlock())
              elems *= rows;
            for (int64_t r = 0; r < procs; ++r) {
              const std::vector<int64_t> coords = partial.gridCoords(r);
              if (!partial.holdsAt(coords))
                continue;
              int64_t group = 1, member = 0;
              for (size_t g = 0; g < grid.size(); ++g)
                if (combined[g]) {
                  member = member * grid[g] + coords[g];
                  group *= grid[g];
                }
              RankTraffic t = allReduce(elems, elems, group, member);
              add(r, runs, t.sent, t.received);
            }
          }
        }
      };
  walk(schedule.program, 1.0);
  return bytes;
}

std::string scheduleString(const OperatorTree &tree, const FusedSchedule &schedule) {
  std::string out;
  print(tree, schedule.program, 0, out);
  return out;
}

} // namespace mlir::tc
