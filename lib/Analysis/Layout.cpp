//===- Layout.cpp - block distributions and redistribution cost ----------===//
#include "TC/Analysis/Layout.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace mlir::tc {

int64_t Layout::procs() const {
  int64_t n = 1;
  for (int64_t extent : grid)
    n *= extent;
  return n;
}

int64_t Layout::parts(const std::string &label) const {
  int64_t n = 1;
  for (size_t d = 0; d < dims.size(); ++d)
    if (dims[d] == label)
      n *= grid[d];
  return n;
}

bool Layout::isReplicated() const {
  for (size_t d = 0; d < dims.size(); ++d)
    if (grid[d] > 1 && dims[d] != kReplicated && dims[d] != kFirstSlice)
      return false;
  return true;
}

bool Layout::samePartition(const Layout &other) const {
  auto significant = [](const Layout &l) {
    std::vector<std::pair<int64_t, std::string>> out;
    for (size_t d = 0; d < l.dims.size(); ++d)
      if (l.grid[d] > 1)
        out.emplace_back(l.grid[d], l.dims[d]);
    return out;
  };
  return significant(*this) == significant(other);
}

std::string Layout::str() const {
  std::string s = "[";
  for (size_t d = 0; d < grid.size(); ++d)
    s += (d ? ", " : "") + std::to_string(grid[d]);
  s += "] (";
  for (size_t d = 0; d < dims.size(); ++d)
    s += (d ? ", " : "") + dims[d];
  return s + ")";
}

double localBytes(const Layout &layout, const std::vector<std::string> &labels,
                  const std::map<std::string, int64_t> &extents, int64_t elemBytes) {
  double bytes = static_cast<double>(elemBytes);
  for (const std::string &label : labels) {
    int64_t n = extents.at(label), p = layout.parts(label);
    bytes *= static_cast<double>((n + p - 1) / p);
  }
  return bytes;
}

RedistCost &RedistCost::operator+=(const RedistCost &o) {
  diskBytes += o.diskBytes;
  commBytes += o.commBytes;
  seconds += o.seconds;
  return *this;
}

RedistCost redistributionCost(const Layout &from, const Layout &to,
                              const std::vector<std::string> &labels,
                              const std::map<std::string, int64_t> &extents,
                              const MachineModel &machine) {
  RedistCost cost;
  if (from.samePartition(to))
    return cost;
  const double fromLocal = localBytes(from, labels, extents, machine.elemBytes);
  const double toLocal = localBytes(to, labels, extents, machine.elemBytes);
  const double P = static_cast<double>(machine.procs);
  if (!from.isReplicated())
    cost.commBytes = toLocal * (P - 1) / P;
  if (std::max(fromLocal, toLocal) > machine.tileBudget())
    cost.diskBytes = fromLocal + toLocal;
  cost.seconds = cost.diskBytes / machine.diskBandwidth + cost.commBytes / machine.netBandwidth;
  return cost;
}

} // namespace mlir::tc
