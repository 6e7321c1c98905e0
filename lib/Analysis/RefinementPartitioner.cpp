//===- RefinementPartitioner.cpp - a hypergraph partitioner without MPI ---===//
#include "TC/Analysis/RefinementPartitioner.h"

#include <algorithm>
#include <deque>

using namespace mlir::tc;

namespace {

/// A partition being built: each net's pins per part and the parts it
/// touches (lambda_j), each part's weight.
struct State {
  const Hypergraph &h;
  const std::vector<std::vector<int>> &netsOf;
  const std::vector<double> &weight;
  int parts;
  std::vector<int> part;
  std::vector<std::vector<int>> pins; ///< net -> part -> pins there
  std::vector<int> lambda;
  std::vector<double> load;

  State(const Hypergraph &h, const std::vector<std::vector<int>> &netsOf,
        const std::vector<double> &weight, int parts)
      : h(h), netsOf(netsOf), weight(weight), parts(parts), part(h.numVertices(), -1),
        pins(h.numNets(), std::vector<int>(parts, 0)), lambda(h.numNets(), 0),
        load(parts, 0) {}

  void place(int v, int p) {
    part[v] = p;
    load[p] += weight[v];
    for (int j : netsOf[v])
      if (pins[j][p]++ == 0)
        ++lambda[j];
  }
  void remove(int v) {
    const int p = part[v];
    load[p] -= weight[v];
    for (int j : netsOf[v])
      if (--pins[j][p] == 0)
        --lambda[j];
    part[v] = -1;
  }

  /// The cost `metric` saves by moving placed vertex v to part q.
  double gain(int v, int q, CutMetric metric) const {
    const int p = part[v];
    double g = 0;
    for (int j : netsOf[v]) {
      const int leaves = pins[j][p] == 1, enters = pins[j][q] == 0;
      if (metric == CutMetric::Connectivity) {
        g += h.netCost[j] * (leaves - enters);
      } else {
        const int after = lambda[j] - leaves + enters;
        g += h.netCost[j] * ((lambda[j] > 1) - (after > 1));
      }
    }
    return g;
  }

  /// Bytes of v's nets part q already touches.
  double affinity(int v, int q) const {
    double a = 0;
    for (int j : netsOf[v])
      if (pins[j][q] > 0)
        a += h.netCost[j];
    return a;
  }
};

/// Vertices in breadth-first order over shared nets, so that a vertex's
/// neighbours are placed right after it and join its part while it has room.
std::vector<int> breadthFirst(const Hypergraph &h, const std::vector<std::vector<int>> &netsOf) {
  const int n = h.numVertices();
  std::vector<char> seen(n, 0), netSeen(h.numNets(), 0);
  std::vector<int> order;
  order.reserve(n);
  for (int start = 0; start < n; ++start) {
    if (seen[start])
      continue;
    std::deque<int> queue{start};
    seen[start] = 1;
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop_front();
      order.push_back(v);
      for (int j : netsOf[v]) {
        if (netSeen[j])
          continue;
        netSeen[j] = 1;
        for (int u : h.netPins[j])
          if (!seen[u]) {
            seen[u] = 1;
            queue.push_back(u);
          }
      }
    }
  }
  return order;
}

} // namespace

std::vector<int> RefinementPartitioner::partition(const Hypergraph &h,
                                                  const PartitionRequest &request) {
  const int n = h.numVertices(), parts = std::max(1, request.parts);
  if (n == 0)
    return {};
  std::vector<double> weight(n, 0);
  if (request.balanceNetCost) {
    for (int j = 0; j < h.numNets(); ++j)
      for (int v : h.netPins[j])
        weight[v] += h.netCost[j] / static_cast<double>(h.netPins[j].size());
  } else {
    weight = h.vertexWeight;
  }
  double total = 0;
  for (double w : weight)
    total += w;
  const double average = total / parts, cap = average * (1 + request.imbalance);
  const std::vector<std::vector<int>> netsOf = h.vertexNets();
  State s(h, netsOf, weight, parts);
  auto isFixed = [&](int v) {
    return v < static_cast<int>(request.fixed.size()) && request.fixed[v] >= 0;
  };
  for (int v = 0; v < n; ++v)
    if (isFixed(v))
      s.place(v, request.fixed[v] % parts);
  // Greedy: each vertex to the part its nets touch most among those still
  // under the average (else the lightest), ties to the lighter part.
  for (int v : breadthFirst(h, netsOf)) {
    if (isFixed(v))
      continue;
    int best = -1;
    double bestAffinity = -1;
    for (int q = 0; q < parts; ++q) {
      if (s.load[q] + weight[v] > average && s.load[q] > 0)
        continue;
      const double a = s.affinity(v, q);
      if (best < 0 || a > bestAffinity || (a == bestAffinity && s.load[q] < s.load[best]))
        best = q, bestAffinity = a;
    }
    if (best < 0)
      best = static_cast<int>(std::min_element(s.load.begin(), s.load.end()) - s.load.begin());
    s.place(v, best);
  }
  // Refinement (Fiduccia-Mattheyses-style passes): move single vertices to
  // the part that saves the most, while that part stays within the balance.
  double allNets = 0;
  for (double c : h.netCost)
    allNets += c;
  for (int pass = 0; pass < 16; ++pass) {
    bool moved = false;
    for (int v = 0; v < n; ++v) {
      if (isFixed(v))
        continue;
      const int p = s.part[v];
      int best = -1;
      double bestGain = 1e-12 * allNets; // a saving, not rounding
      for (int q = 0; q < parts; ++q) {
        if (q == p || s.load[q] + weight[v] > cap)
          continue;
        const double g = s.gain(v, q, request.metric);
        if (g > bestGain || (best >= 0 && g == bestGain && s.load[q] < s.load[best]))
          best = q, bestGain = g;
      }
      if (best >= 0) {
        s.remove(v);
        s.place(v, best);
        moved = true;
      }
    }
    if (!moved)
      break;
  }
  return s.part;
}
