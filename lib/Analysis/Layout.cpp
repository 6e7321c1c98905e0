//===- Layout.cpp - block distributions and redistribution cost ----------===//
#include "TC/Analysis/Layout.h"
#include "TC/Analysis/ProcessorGrid.h"
#include "TC/Layout/Ownership.h"
#include "TC/Layout/RedistributionTraffic.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace mlir::tc {

int64_t Layout::procs() const { return gridProcs(grid); }

int64_t Layout::gridDimOf(const std::string &label) const {
  for (size_t d = 0; d < dims.size(); ++d)
    if (dims[d] == label)
      return static_cast<int64_t>(d);
  return -1;
}

int64_t Layout::parts(const std::string &label) const {
  int64_t n = 1;
  for (size_t d = 0; d < dims.size(); ++d)
    if (dims[d] == label)
      n *= grid[d];
  return n;
}

bool Layout::isCyclic() const {
  return std::any_of(cyclic.begin(), cyclic.end(), [](int64_t b) { return b > 0; });
}

int64_t Layout::paddedLocal(const std::string &label, int64_t extent) const {
  int64_t n = extent;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] != label)
      continue;
    int64_t nb = cyclicBlock(d);
    n = nb > 0 ? (((n + nb - 1) / nb + grid[d] - 1) / grid[d]) * nb
               : (n + grid[d] - 1) / grid[d];
  }
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
    std::vector<std::tuple<int64_t, std::string, int64_t>> out;
    for (size_t d = 0; d < l.dims.size(); ++d)
      if (l.grid[d] > 1)
        out.emplace_back(l.grid[d], l.dims[d], l.cyclicBlock(d));
    return out;
  };
  return significant(*this) == significant(other);
}

std::string Layout::str() const {
  std::string s = gridList(grid) + " (";
  for (size_t d = 0; d < dims.size(); ++d)
    s += (d ? ", " : "") + dims[d];
  s += ")";
  if (isCyclic()) {
    s += " cyclic [";
    for (size_t d = 0; d < grid.size(); ++d)
      s += (d ? ", " : "") + std::to_string(cyclicBlock(d));
    s += "]";
  }
  return s;
}

int64_t canonicalCyclicBlock(int64_t block, int64_t extent, int64_t parts) {
  return block == tc_layout::ceilDiv(extent, parts) ? 0 : block;
}

Layout canonicalBlocks(const Layout &layout, const std::map<std::string, int64_t> &extents) {
  Layout out = layout;
  for (size_t d = 0; d < out.cyclic.size() && d < out.dims.size(); ++d) {
    auto it = extents.find(out.dims[d]);
    if (it != extents.end())
      out.cyclic[d] = canonicalCyclicBlock(out.cyclic[d], it->second, out.grid[d]);
  }
  if (!out.isCyclic())
    out.cyclic.clear();
  return out;
}

double localBytes(const Layout &layout, const std::vector<std::string> &labels,
                  const std::map<std::string, int64_t> &extents, int64_t elemBytes) {
  double bytes = static_cast<double>(elemBytes);
  for (const std::string &label : labels)
    bytes *= static_cast<double>(layout.paddedLocal(label, extents.at(label)));
  return bytes;
}

void redistributionVolumes(const Layout &from, const Layout &to,
                           const std::vector<std::string> &labels,
                           const std::map<std::string, int64_t> &extents, int64_t elemBytes,
                           std::vector<double> &sent, std::vector<double> &received) {
  auto holding = [&](const Layout &layout) {
    std::vector<int64_t> ext;
    for (const std::string &l : labels)
      ext.push_back(extents.at(l));
    tc_layout::ArrayLayout h = tc_layout::ArrayLayout::whole(
        layout.isReplicated() ? tc_layout::Holding::Replicated : tc_layout::Holding::Distributed,
        ext, layout.grid);
    for (size_t d = 0; d < labels.size(); ++d) {
      h.gridDim[d] = layout.gridDimOf(labels[d]);
      h.cyclic[d] = h.gridDim[d] >= 0 ? layout.cyclicBlock(h.gridDim[d]) : 0;
    }
    return h;
  };
  tc_layout::RedistributionTraffic t = redistributionTraffic(holding(from), holding(to));
  sent.clear();
  received.clear();
  for (size_t r = 0; r < t.sent.size(); ++r) {
    sent.push_back(static_cast<double>(t.sent[r] * elemBytes));
    received.push_back(static_cast<double>(t.received[r] * elemBytes));
  }
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
