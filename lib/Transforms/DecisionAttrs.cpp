//===- DecisionAttrs.cpp - planner decisions <-> their attributes ---------===//
#include "DecisionAttrs.h"

#include "TC/Dialect/TCDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tc;

PlanAttr mlir::tc::getPlan(ContractOp op) {
  if (auto plan = op->getAttrOfType<PlanAttr>(TCDialect::getPlanAttrName()))
    return plan;
  return PlanAttr::get(op.getContext(), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                       {});
}

PlanDecisions mlir::tc::readDecisions(PlanAttr plan) {
  PlanDecisions d;
  if (plan.getInCore())
    d.inCore = plan.getInCore().getValue();
  if (plan.getMethod())
    d.method = *plan.getMethod();
  d.algorithm = plan.getAlgorithmKind();
  if (plan.getOrder())
    d.order = *plan.getOrder();
  if (auto pumma = dyn_cast_if_present<PummaAttr>(plan.getAlgorithm()))
    if (pumma.getRoll())
      d.roll = *pumma.getRoll();
  if (plan.getGrid())
    d.grid = std::vector<int64_t>(plan.getGrid().getShape().begin(),
                                  plan.getGrid().getShape().end());
  if (plan.getLoops() && d.order) {
    TileNest nest;
    nest.order = *d.order;
    for (auto [g, group] : llvm::enumerate(plan.getLoops()))
      for (NamedAttribute loop : cast<DictionaryAttr>(group))
        nest.groups[g].push_back({loop.getName().getValue().str(),
                                  cast<IntegerAttr>(loop.getValue()).getInt()});
    d.nest = nest;
    // Loops written without a memory rule are Gao et al.'s tiles.
    d.memory = TileMemory::PerArray;
  }
  if (plan.getMemory())
    d.memory = *plan.getMemory();
  if (plan.getIContiguous())
    d.iContiguous = plan.getIContiguous().getValue();
  return d;
}

Layout mlir::tc::layoutOf(GridAttr grid, DistAttr dist) {
  Layout layout;
  layout.grid.assign(grid.getShape().begin(), grid.getShape().end());
  for (unsigned g = 0; g < layout.grid.size(); ++g) {
    StringRef label = dist.getDistributedLabel(g);
    layout.dims.push_back(label.empty() ? std::string(Layout::kReplicated) : label.str());
  }
  if (llvm::any_of(dist.getCyclicBlocks(), [](int64_t b) { return b > 0; }))
    layout.cyclic.assign(dist.getCyclicBlocks().begin(), dist.getCyclicBlocks().end());
  return layout;
}

static DistAttr toDist(MLIRContext *ctx, const Layout &layout) {
  SmallVector<StringAttr> dims;
  for (const std::string &d : layout.dims)
    dims.push_back(StringAttr::get(ctx, d));
  if (!layout.isCyclic())
    return DistAttr::get(ctx, dims);
  SmallVector<int64_t> blocks;
  for (size_t d = 0; d < layout.dims.size(); ++d)
    blocks.push_back(layout.cyclicBlock(d));
  return DistAttr::get(ctx, dims, {}, blocks);
}

PlanAttr mlir::tc::mergePlan(MLIRContext *ctx, PlanAttr old, const ContractionPlan &plan,
                             PlanFields fields) {
  Builder b(ctx);
  auto keep = [](auto present, auto computed, bool decide) {
    return present ? present : (decide ? computed : decltype(present)());
  };
  BoolAttr inCore = keep(old.getInCore(), b.getBoolAttr(plan.inCore), fields.algorithm);
  std::optional<CommMethod> method = old.getMethod();
  if (!method && fields.algorithm && plan.tiled())
    method = plan.method;
  AlgorithmAttrInterface algorithm =
      keep(old.getAlgorithm(), getAlgorithmAttr(ctx, plan.algorithm), fields.algorithm);
  GridAttr grid = keep(old.getGrid(), GridAttr::get(ctx, plan.layoutA.grid), fields.algorithm);
  DistAttr distA = keep(old.getDistA(), toDist(ctx, plan.layoutA), fields.algorithm);
  DistAttr distB = keep(old.getDistB(), toDist(ctx, plan.layoutB), fields.algorithm);
  DistAttr distC = keep(old.getDistC(), toDist(ctx, plan.layoutC), fields.algorithm);
  std::optional<ReadOrder> order = old.getOrder();
  if (!order && fields.order && plan.tiled())
    order = plan.nest.order;
  ArrayAttr loops = old.getLoops();
  std::optional<TileMemory> memory = old.getMemory();
  // Recorded with the loops, and only when it departs from Gao et al.'s rule
  // (absent reads as per_array once loops are given).
  if (!memory && fields.tiles && !old.getLoops() && plan.tiled() &&
      plan.memory == TileMemory::Shared)
    memory = plan.memory;
  // The algorithm's own parameters are decided with it (PUMMA's roll) or with
  // the tiles (COSMA's rounds), unless given.
  if (auto pumma = dyn_cast_if_present<PummaAttr>(algorithm);
      pumma && !pumma.getRoll() && fields.algorithm &&
      plan.algorithm == ParallelAlgorithm::Pumma)
    algorithm = PummaAttr::get(ctx, plan.roll);
  FloatAttr disk = old.getDiskBytes(), comm = old.getCommBytes(), secs = old.getSeconds();
  if (fields.tiles) {
    if (!loops && plan.tiled()) {
      SmallVector<Attribute> groups;
      for (const auto &group : plan.nest.groups) {
        SmallVector<NamedAttribute> entries;
        for (const TileLoop &loop : group)
          entries.push_back(b.getNamedAttr(loop.label, b.getI64IntegerAttr(loop.count)));
        groups.push_back(b.getDictionaryAttr(entries));
      }
      loops = b.getArrayAttr(groups);
    }
    if (auto cosma = dyn_cast_if_present<CosmaAttr>(algorithm);
        cosma && !cosma.getRounds() && !plan.rounds.empty()) {
      SmallVector<NamedAttribute> entries;
      for (const TileLoop &r : plan.rounds)
        entries.push_back(b.getNamedAttr(r.label, b.getI64IntegerAttr(r.count)));
      algorithm = CosmaAttr::get(ctx, b.getDictionaryAttr(entries));
    }
    disk = b.getF64FloatAttr(plan.totalDiskBytes());
    comm = b.getF64FloatAttr(plan.totalCommBytes());
    secs = b.getF64FloatAttr(plan.totalSeconds());
  }
  // Recorded when it departs from the given order; absent reads as the same rule.
  BoolAttr iContiguous = old.getIContiguous();
  if (!iContiguous && fields.tiles && plan.iContiguous)
    iContiguous = b.getBoolAttr(true);
  return PlanAttr::get(ctx, inCore, method, algorithm, grid, distA, distB, distC, order,
                       loops, memory, disk, comm, secs, iContiguous);
}

DistAttr mlir::tc::toDistAttr(MLIRContext *ctx, const OperatorTree &tree, const Grid &grid,
                              const Distribution &dist) {
  SmallVector<StringAttr> dims;
  for (size_t d = 0; d < grid.size(); ++d) {
    int8_t e = dist.entry[d];
    if (e == Distribution::kReplicated)
      dims.push_back(StringAttr::get(ctx, DistAttr::kReplicated));
    else if (e == Distribution::kFirstSlice)
      dims.push_back(StringAttr::get(ctx, DistAttr::kFirstSlice));
    else
      dims.push_back(StringAttr::get(ctx, tree.indexName(e)));
  }
  return DistAttr::get(ctx, dims);
}

FusionAttr mlir::tc::toFusionAttr(MLIRContext *ctx, const OperatorTree &tree,
                                  const FusionPlan &plan, int id) {
  Builder b(ctx);
  const FusionPlan::Node &n = plan.nodes[id];
  const OperatorTree::Node &v = tree.node(id);
  ArrayAttr fused;
  if (n.edge.fused) {
    SmallVector<Attribute> names;
    for (int i : v.dims)
      if (contains(n.edge.fused, i))
        names.push_back(b.getStringAttr(tree.indexName(i)));
    fused = b.getArrayAttr(names);
  }
  return FusionAttr::get(
      ctx, GridAttr::get(ctx, plan.grid),
      v.isInput() ? DistAttr() : toDistAttr(ctx, tree, plan.grid, n.decision.compute),
      toDistAttr(ctx, tree, plan.grid, n.edge.produced),
      toDistAttr(ctx, tree, plan.grid, n.edge.consumed), fused, n.decision.variant,
      b.getF64FloatAttr(n.memBytes), b.getF64FloatAttr(n.commSeconds),
      v.isInput() ? FloatAttr() : b.getF64FloatAttr(n.calcSeconds));
}

FusionAttr mlir::tc::getFusionAttr(func::FuncOp func, const FunctionTree &tree, int id) {
  if (Operation *op = tree.ops[id])
    return op->getAttrOfType<FusionAttr>(TCDialect::getFusionAttrName());
  if (auto arg = dyn_cast<BlockArgument>(tree.values[id]))
    return func.getArgAttrOfType<FusionAttr>(arg.getArgNumber(), TCDialect::getFusionAttrName());
  return {};
}

std::optional<Distribution> mlir::tc::toDistribution(DistAttr attr, const Grid &grid,
                                                     const OperatorTree &tree) {
  if (!attr || attr.getDims().size() != grid.size())
    return std::nullopt;
  Distribution d;
  for (auto [g, entry] : llvm::enumerate(attr.getDims())) {
    StringRef e = entry.getValue();
    if (e == DistAttr::kReplicated)
      d.entry[g] = Distribution::kReplicated;
    else if (e == DistAttr::kFirstSlice)
      d.entry[g] = Distribution::kFirstSlice;
    else if (int id = tree.findIndex(e.str()); id >= 0)
      d.entry[g] = static_cast<int8_t>(id);
    else
      return std::nullopt;
  }
  return d;
}

FailureOr<std::vector<NodeDecision>>
mlir::tc::readFusionDecisions(func::FuncOp func, const FunctionTree &tree, const Grid &grid) {
  std::vector<NodeDecision> decisions(tree.values.size());
  for (size_t id = 0; id < tree.values.size(); ++id) {
    FusionAttr attr = getFusionAttr(func, tree, static_cast<int>(id));
    const OperatorTree::Node &v = tree.tree.node(static_cast<int>(id));
    if (!attr)
      return func.emitError() << "array " << v.name << " of @" << func.getSymName()
                              << " has no #tc.fusion; run tc-fuse-distribute first";
    std::optional<Distribution> dist =
        toDistribution(v.isInput() ? attr.getInitial() : attr.getCompute(), grid, tree.tree);
    if (!dist)
      return func.emitError() << "the #tc.fusion of array " << v.name
                              << " names a distribution that does not fit its grid";
    NodeDecision &d = decisions[id];
    d.compute = *dist;
    d.variant = attr.getPartialSums();
    if (ArrayAttr fused = attr.getFused())
      for (Attribute l : fused) {
        StringRef label = cast<StringAttr>(l).getValue();
        int index = tree.tree.findIndex(label.str());
        if (index < 0)
          return func.emitError() << "the #tc.fusion of array " << v.name << " fuses '" << label
                                  << "', which is no index of the tree";
        d.fused |= indexBit(index);
      }
  }
  return decisions;
}

LogicalResult mlir::tc::checkRecordedEdges(func::FuncOp func, const FunctionTree &tree,
                                           const FusionPlan &plan) {
  for (size_t id = 0; id < tree.values.size(); ++id) {
    FusionAttr attr = getFusionAttr(func, tree, static_cast<int>(id));
    const FusionEdge &edge = plan.nodes[id].edge;
    for (auto [field, recorded, planned] :
         {std::tuple{"initial", attr.getInitial(), edge.produced},
          std::tuple{"final", attr.getFinal(), edge.consumed}}) {
      std::optional<Distribution> dist = toDistribution(recorded, plan.grid, tree.tree);
      if (dist && *dist == planned)
        continue;
      return func.emitError() << "the #tc.fusion of array " << tree.tree.node(id).name
                              << " records " << field << " = " << recorded
                              << ", but its decisions (compute, fused, partial_sums) give "
                              << toDistAttr(func.getContext(), tree.tree, plan.grid, planned)
                              << "; correct the attribute or let tc-fuse-distribute write it";
    }
  }
  return success();
}
