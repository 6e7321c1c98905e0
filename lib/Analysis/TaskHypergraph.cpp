//===- TaskHypergraph.cpp - task-brick hypergraphs and their metrics ------===//
#include "TC/Analysis/TaskHypergraph.h"

#include <algorithm>

using namespace mlir::tc;

std::vector<std::vector<int>> Hypergraph::vertexNets() const {
  std::vector<std::vector<int>> nets(vertexWeight.size());
  for (int j = 0; j < numNets(); ++j)
    for (int v : netPins[j])
      nets[v].push_back(j);
  return nets;
}

Hypergraph mlir::tc::taskBrickHypergraph(const BlockTaskPool &pool) {
  Hypergraph h;
  for (const BlockTask &t : pool.tasks)
    h.vertexWeight.push_back(t.flops);
  h.netPins.resize(pool.bricks.size());
  for (const Brick &b : pool.bricks)
    h.netCost.push_back(b.bytes);
  for (int v = 0; v < static_cast<int>(pool.tasks.size()); ++v) {
    const BlockTask &t = pool.tasks[v];
    for (int brick : {t.a, t.b, t.c})
      if (h.netPins[brick].empty() || h.netPins[brick].back() != v)
        h.netPins[brick].push_back(v);
  }
  return h;
}

Hypergraph mlir::tc::subHypergraph(const Hypergraph &h, const std::vector<int> &vertices,
                                   std::vector<int> *netOf) {
  std::vector<int> index(h.numVertices(), -1);
  Hypergraph sub;
  for (int i = 0; i < static_cast<int>(vertices.size()); ++i) {
    index[vertices[i]] = i;
    sub.vertexWeight.push_back(h.vertexWeight[vertices[i]]);
  }
  if (netOf)
    netOf->clear();
  for (int j = 0; j < h.numNets(); ++j) {
    std::vector<int> pins;
    for (int v : h.netPins[j])
      if (index[v] >= 0)
        pins.push_back(index[v]);
    if (pins.empty())
      continue;
    std::sort(pins.begin(), pins.end());
    sub.netCost.push_back(h.netCost[j]);
    sub.netPins.push_back(std::move(pins));
    if (netOf)
      netOf->push_back(j);
  }
  return sub;
}

double mlir::tc::memoryOf(const Hypergraph &h, const std::vector<int> &vertices) {
  std::vector<bool> in(h.numVertices(), false);
  for (int v : vertices)
    in[v] = true;
  double bytes = 0;
  for (int j = 0; j < h.numNets(); ++j)
    if (std::any_of(h.netPins[j].begin(), h.netPins[j].end(), [&](int v) { return in[v]; }))
      bytes += h.netCost[j];
  return bytes;
}

PartitionMetrics mlir::tc::measurePartition(const Hypergraph &h, const std::vector<int> &part,
                                            int parts) {
  PartitionMetrics m;
  m.internalCost.assign(parts, 0);
  m.weight.assign(parts, 0);
  for (int v = 0; v < h.numVertices(); ++v)
    m.weight[part[v]] += h.vertexWeight[v];
  for (int j = 0; j < h.numNets(); ++j) {
    std::vector<int> touched;
    for (int v : h.netPins[j])
      if (std::find(touched.begin(), touched.end(), part[v]) == touched.end())
        touched.push_back(part[v]);
    const int lambda = static_cast<int>(touched.size());
    m.connectivity.push_back(lambda);
    if (lambda == 1)
      m.internalCost[touched.front()] += h.netCost[j];
    if (lambda > 1) {
      m.cutNet += h.netCost[j];
      m.connectivityMinusOne += h.netCost[j] * (lambda - 1);
    }
  }
  return m;
}
