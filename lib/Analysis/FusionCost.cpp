//===- FusionCost.cpp - Cociorva et al.'s size and cost formulas ----------===//
#include "TC/Analysis/FusionCost.h"

#include <numeric>

namespace mlir::tc {

int64_t virtualParts(const Grid &grid, const FusionEdge &edge, int t) {
  return std::lcm(edge.produced.parts(grid, t), edge.consumed.parts(grid, t));
}

bool fusedWithoutVirtualPartitioning(const Grid &grid, const FusionEdge &edge) {
  for (int t = 0; t < 64; ++t)
    if (contains(edge.fused, t) &&
        edge.produced.parts(grid, t) != edge.consumed.parts(grid, t))
      return false;
  return true;
}

bool fusedBlocksEqual(const OperatorTree &tree, const Grid &grid, const FusionEdge &edge) {
  for (int t = 0; t < tree.numIndices(); ++t)
    if (contains(edge.fused, t) && tree.extent(t) % virtualParts(grid, edge, t) != 0)
      return false;
  return true;
}

bool fusedLoopsAgree(const Grid &grid, const FusionEdge &a, const FusionEdge &b) {
  IndexSet common = a.fused & b.fused;
  for (int t = 0; common && t < 64; ++t)
    if (contains(common, t) && virtualParts(grid, a, t) != virtualParts(grid, b, t))
      return false;
  return true;
}

double distRange(const OperatorTree &tree, const Grid &grid, int i,
                 const Distribution &alpha, const FusionEdge &edge) {
  int64_t p = alpha.parts(grid, i);
  if (contains(edge.fused, i))
    return static_cast<double>(virtualParts(grid, edge, i) / p);
  return static_cast<double>(tree.extent(i)) / static_cast<double>(p);
}

double distSize(const OperatorTree &tree, const Grid &grid, int node,
                const Distribution &alpha, const FusionEdge &edge) {
  double size = 1;
  for (int i : tree.node(node).dims)
    size *= distRange(tree, grid, i, alpha, edge);
  return size;
}

double loopRange(const OperatorTree &tree, const Grid &grid, int i, const FusionEdge &edge) {
  if (!contains(edge.fused, i))
    return 1;
  return static_cast<double>(tree.extent(i)) /
         static_cast<double>(virtualParts(grid, edge, i));
}

double msgFactor(const OperatorTree &tree, const Grid &grid, int node, const FusionEdge &edge) {
  double factor = 1;
  for (int i : tree.node(node).dims)
    factor *= loopRange(tree, grid, i, edge);
  return factor;
}

double moveCost(const OperatorTree &tree, const Grid &grid, int node, const FusionEdge &edge,
                const CommCostModel &comm) {
  if (edge.produced == edge.consumed)
    return 0;
  return msgFactor(tree, grid, node, edge) *
         comm.mcost(distSize(tree, grid, node, edge.produced, edge), grid, edge.produced,
                    edge.consumed);
}

double arrayElems(const OperatorTree &tree, const Grid &grid, int node, const FusionEdge &edge,
                  bool bothBuffers) {
  double before = distSize(tree, grid, node, edge.produced, edge);
  double after = distSize(tree, grid, node, edge.consumed, edge);
  if (bothBuffers && !(edge.produced == edge.consumed))
    return before + after;
  return std::max(before, after);
}

double workingElems(const OperatorTree &tree, const Grid &grid, int node,
                    const Distribution &gamma, IndexSet loops) {
  const OperatorTree::Node &u = tree.node(node);
  std::vector<int> arrays = u.children;
  arrays.push_back(node);
  double total = 0;
  for (int a : arrays) {
    double slice = 1;
    for (int i : tree.node(a).dims)
      if (!contains(loops, i))
        slice *= static_cast<double>(tree.extent(i)) / static_cast<double>(gamma.parts(grid, i));
    total += slice;
  }
  return total;
}

double calcCost(const OperatorTree &tree, const Grid &grid, int node, const Distribution &gamma) {
  const OperatorTree::Node &v = tree.node(node);
  double ops = 1;
  for (int i = 0; i < tree.numIndices(); ++i)
    if (contains(v.indices, i))
      ops *= static_cast<double>(tree.extent(i)) / static_cast<double>(gamma.parts(grid, i));
  return ops;
}

int64_t partialSumGroup(const OperatorTree &tree, const Grid &grid, int node,
                        const Distribution &gamma) {
  IndexSet summed = tree.node(node).summed();
  int64_t group = 1;
  for (size_t d = 0; d < grid.size(); ++d)
    if (gamma.entry[d] >= 0 && contains(summed, gamma.entry[d]))
      group *= grid[d];
  return group;
}

Distribution producedDistribution(const OperatorTree &tree, const Grid &grid, int node,
                                  const Distribution &gamma, SumVariant variant) {
  const OperatorTree::Node &v = tree.node(node);
  Distribution out = gamma.project(grid, v.dimens);
  if (variant == SumVariant::ToOne)
    for (size_t d = 0; d < grid.size(); ++d)
      if (gamma.entry[d] >= 0 && contains(v.summed(), gamma.entry[d]))
        out.entry[d] = Distribution::kFirstSlice;
  return out;
}

} // namespace mlir::tc
