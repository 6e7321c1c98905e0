//===- CommCostModel.cpp - Mcost: the cost of one redistribution ----------===//
#include "TC/Analysis/CommCostModel.h"

#include <algorithm>
#include <cmath>

namespace mlir::tc {

namespace {
/// The block of index `i` a process at `z` has under `dist`, as [lo, hi) in units
/// of 1/scale of the index range (scale divisible by every part count).
std::pair<int64_t, int64_t> blockOf(const Grid &grid, const Distribution &dist,
                                    const std::vector<int64_t> &z, int i, int64_t scale) {
  for (size_t d = 0; d < grid.size(); ++d)
    if (dist.entry[d] == i) {
      int64_t width = scale / grid[d];
      return {z[d] * width, (z[d] + 1) * width};
    }
  return {0, scale};
}

bool holdsNothing(const Grid &grid, const Distribution &dist, const std::vector<int64_t> &z) {
  for (size_t d = 0; d < grid.size(); ++d)
    if (dist.entry[d] == Distribution::kFirstSlice && z[d] != 0)
      return true;
  return false;
}

/// Length of the intersection of two [lo, hi) ranges.
int64_t common(std::pair<int64_t, int64_t> x, std::pair<int64_t, int64_t> y) {
  return std::max<int64_t>(0, std::min(x.second, y.second) - std::max(x.first, y.first));
}

/// Steps `k` over the coordinates along the grid dimensions `from` splits (the
/// others stay 0); false after the last.
bool nextSourceBlock(const Grid &grid, const Distribution &from, std::vector<int64_t> &k) {
  size_t d = 0;
  while (d < grid.size() && (from.entry[d] < 0 || ++k[d] == grid[d])) {
    k[d] = 0;
    ++d;
  }
  return d < grid.size();
}

/// The indices either tuple distributes.
std::vector<int> movedIndices(const Grid &grid, const Distribution &from, const Distribution &to) {
  std::vector<int> out;
  for (int i = 0; i < 64; ++i)
    if (contains(from.distributed(grid) | to.distributed(grid), i))
      out.push_back(i);
  return out;
}
} // namespace

ExchangeShape exchangeShape(const Grid &grid, const Distribution &from,
                            const Distribution &to) {
  ExchangeShape worst;
  std::vector<int> indices = movedIndices(grid, from, to);
  std::vector<int64_t> z(grid.size(), 0);
  do {
    if (holdsNothing(grid, to, z))
      continue;
    double overlap = holdsNothing(grid, from, z) ? 0.0 : 1.0, blocks = 1;
    for (int i : indices) {
      int64_t pf = from.parts(grid, i), pt = to.parts(grid, i), scale = pf * pt;
      auto need = blockOf(grid, to, z, i, scale);
      auto have = blockOf(grid, from, z, i, scale);
      overlap *= static_cast<double>(common(need, have)) /
                 static_cast<double>(need.second - need.first);
      // from-blocks of i (width scale/pf) meeting the needed range
      int64_t width = scale / pf;
      blocks *= static_cast<double>((need.second - 1) / width - need.first / width + 1);
    }
    worst.receivedFraction = std::max(worst.receivedFraction, 1.0 - overlap);
    worst.messages = std::max(worst.messages, blocks - (overlap > 0 ? 1 : 0));
  } while (nextCoordinates(grid, z));
  return worst;
}

ExchangeVolumes exchangeVolumes(const Grid &grid, const Distribution &from,
                                const Distribution &to) {
  int64_t procs = gridProcs(grid);
  ExchangeVolumes out{std::vector<double>(procs, 0.0), std::vector<double>(procs, 0.0)};
  std::vector<int> indices = movedIndices(grid, from, to);
  std::vector<int64_t> z(grid.size(), 0);
  do {
    if (holdsNothing(grid, to, z))
      continue;
    // Every block of the source distribution: its coordinates along the grid
    // dimensions `from` splits, the receiver's elsewhere (0 along `1`).
    std::vector<int64_t> sender = z, k(grid.size(), 0);
    do {
      for (size_t d = 0; d < grid.size(); ++d)
        if (from.entry[d] >= 0)
          sender[d] = k[d];
        else if (from.entry[d] == Distribution::kFirstSlice)
          sender[d] = 0;
      double overlap = 1; // undistributed indices: the whole range, a factor of 1
      for (int i : indices) {
        int64_t pf = from.parts(grid, i), pt = to.parts(grid, i), scale = pf * pt;
        overlap *= static_cast<double>(common(blockOf(grid, to, z, i, scale),
                                              blockOf(grid, from, sender, i, scale))) /
                   static_cast<double>(scale);
      }
      int64_t toRank = gridRank(grid, z), fromRank = gridRank(grid, sender);
      if (overlap > 0 && fromRank != toRank) {
        out.received[toRank] += overlap;
        out.sent[fromRank] += overlap;
      }
    } while (nextSourceBlock(grid, from, k));
  } while (nextCoordinates(grid, z));
  return out;
}

double localElemsAfter(double localElems, const Grid &grid, const Distribution &from,
                       const Distribution &to) {
  IndexSet indices = from.distributed(grid) | to.distributed(grid);
  double ratio = 1;
  for (int i = 0; i < 64; ++i)
    if (contains(indices, i))
      ratio *= static_cast<double>(from.parts(grid, i)) / static_cast<double>(to.parts(grid, i));
  return localElems * ratio;
}

double AnalyticCommCost::mcost(double localElems, const Grid &grid, const Distribution &from,
                               const Distribution &to) const {
  if (grid != cachedGrid) {
    cache.clear();
    cachedGrid = grid;
  }
  uint64_t key = (static_cast<uint64_t>(from.key()) << 32) | to.key();
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, exchangeShape(grid, from, to)).first;
  const ExchangeShape &shape = it->second;
  double received = shape.receivedFraction * localElemsAfter(localElems, grid, from, to);
  return shape.messages * latency + received * static_cast<double>(elemBytes) / bandwidth;
}

double AnalyticCommCost::reduceCost(double localElems, int64_t group, bool toAll) const {
  if (group <= 1)
    return 0;
  double steps = std::ceil(std::log2(static_cast<double>(group)));
  double bytes = localElems * static_cast<double>(elemBytes);
  if (toAll)
    return 2 * steps * latency +
           2 * bytes * static_cast<double>(group - 1) / static_cast<double>(group) / bandwidth;
  return steps * latency + steps * bytes / bandwidth;
}

std::string commPatternKey(const Grid &grid, const Distribution &from,
                           const Distribution &to) {
  std::vector<int> order;
  auto name = [&](int8_t e) -> std::string {
    if (e == Distribution::kReplicated)
      return "*";
    if (e == Distribution::kFirstSlice)
      return "1";
    auto it = std::find(order.begin(), order.end(), e);
    if (it == order.end()) {
      order.push_back(e);
      it = order.end() - 1;
    }
    return "x" + std::to_string(it - order.begin());
  };
  auto tuple = [&](const Distribution &dist) {
    std::string s = "<";
    for (size_t d = 0; d < grid.size(); ++d)
      s += (d ? "," : "") + name(dist.entry[d]);
    return s + ">";
  };
  std::string key = gridString(grid) + ":" + tuple(from);
  return key + "->" + tuple(to);
}

double interpolate(const MeasuredCommCost::Points &points, double x) {
  if (points.empty())
    return 0;
  if (points.size() == 1)
    return points[0].first > 0 ? points[0].second * x / points[0].first : points[0].second;
  size_t hi = 1;
  while (hi + 1 < points.size() && points[hi].first < x)
    ++hi;
  const auto &[x0, y0] = points[hi - 1];
  const auto &[x1, y1] = points[hi];
  double y = x1 == x0 ? y1 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
  return std::max(0.0, y);
}

MeasuredCommCost::MeasuredCommCost(std::map<std::string, Points> table,
                                   std::shared_ptr<const CommCostModel> fallback,
                                   int64_t elemBytes)
    : table(std::move(table)), fallback(std::move(fallback)), elemBytes(elemBytes) {
  for (auto &[key, points] : this->table)
    std::sort(points.begin(), points.end());
}

double MeasuredCommCost::mcost(double localElems, const Grid &grid, const Distribution &from,
                               const Distribution &to) const {
  auto it = table.find(commPatternKey(grid, from, to));
  if (it == table.end()) {
    ++missCount;
    return fallback->mcost(localElems, grid, from, to);
  }
  return interpolate(it->second, localElems * static_cast<double>(elemBytes));
}

double MeasuredCommCost::reduceCost(double localElems, int64_t group, bool toAll) const {
  if (group <= 1)
    return 0;
  auto it = table.find((toAll ? "allreduce:" : "reduce:") + std::to_string(group));
  if (it == table.end()) {
    ++missCount;
    return fallback->reduceCost(localElems, group, toAll);
  }
  return interpolate(it->second, localElems * static_cast<double>(elemBytes));
}

} // namespace mlir::tc
