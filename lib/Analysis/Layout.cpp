//===- Layout.cpp - block distributions and redistribution cost ----------===//
#include "TC/Analysis/Layout.h"
#include "TC/Analysis/ProcessorGrid.h"

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
  return block == (extent + parts - 1) / parts ? 0 : block;
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

namespace {
/// The grid dimension splitting `label` in `layout` into several blocks, or -1.
int splittingDim(const Layout &layout, const std::string &label) {
  int64_t d = layout.gridDimOf(label);
  return d >= 0 && layout.grid[d] > 1 ? static_cast<int>(d) : -1;
}
/// The coordinate along its grid dimension holding element i of `label`.
int64_t ownerOf(const Layout &layout, int d, int64_t extent, int64_t i) {
  int64_t nb = layout.cyclicBlock(d);
  if (nb > 0)
    return (i / nb) % layout.grid[d];
  return i / ((extent + layout.grid[d] - 1) / layout.grid[d]);
}
} // namespace

void redistributionVolumes(const Layout &from, const Layout &to,
                           const std::vector<std::string> &labels,
                           const std::map<std::string, int64_t> &extents, int64_t elemBytes,
                           std::vector<double> &sent, std::vector<double> &received) {
  const std::vector<int64_t> &grid = from.grid;
  const int64_t P = from.procs();
  sent.assign(P, 0);
  received.assign(P, 0);
  // count[l][a][b]: elements of label l at source coordinate a and destination
  // coordinate b (a single coordinate 0 where a layout does not distribute l).
  std::vector<std::vector<std::vector<double>>> count;
  std::vector<int> src, dst;
  for (const std::string &l : labels) {
    int s = splittingDim(from, l), t = splittingDim(to, l);
    int64_t e = extents.at(l);
    std::vector<std::vector<double>> m(s >= 0 ? grid[s] : 1,
                                       std::vector<double>(t >= 0 ? grid[t] : 1, 0));
    for (int64_t i = 0; i < e; ++i)
      m[s >= 0 ? ownerOf(from, s, e, i) : 0][t >= 0 ? ownerOf(to, t, e, i) : 0] += 1;
    count.push_back(m);
    src.push_back(s);
    dst.push_back(t);
  }
  auto coords = [&](int64_t rank) {
    std::vector<int64_t> c(grid.size());
    for (size_t g = grid.size(); g-- > 0;) {
      c[g] = rank % grid[g];
      rank /= grid[g];
    }
    return c;
  };
  std::vector<bool> splits(grid.size(), false);
  for (int s : src)
    if (s >= 0)
      splits[s] = true;
  for (int64_t h = 0; h < P; ++h) {
    std::vector<int64_t> ch = coords(h);
    for (int64_t r = 0; r < P; ++r) {
      if (h == r)
        continue;
      std::vector<int64_t> cr = coords(r);
      bool sameBlock = true, sends = true;
      for (size_t g = 0; g < grid.size(); ++g) {
        if (ch[g] == cr[g])
          continue;
        if (splits[g])
          sameBlock = false;
        else
          sends = false;
      }
      if (!sends || sameBlock)
        continue;
      double n = static_cast<double>(elemBytes);
      for (size_t l = 0; l < labels.size(); ++l)
        n *= count[l][src[l] >= 0 ? ch[src[l]] : 0][dst[l] >= 0 ? cr[dst[l]] : 0];
      sent[h] += n;
      received[r] += n;
    }
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
