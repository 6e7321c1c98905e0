//===- ProcessorGrid.cpp - logical grids and distribution tuples ----------===//
#include "TC/Analysis/ProcessorGrid.h"

#include <functional>
#include <sstream>

namespace mlir::tc {

std::vector<Grid> logicalGrids(int64_t procs, int maxDims) {
  if (procs <= 1)
    return {Grid{1}};
  std::vector<Grid> grids;
  Grid current;
  // Factors in non-increasing order: each factorization once.
  std::function<void(int64_t, int64_t)> split = [&](int64_t rest, int64_t largest) {
    if (rest == 1) {
      grids.push_back(current);
      return;
    }
    if (static_cast<int>(current.size()) == maxDims)
      return;
    for (int64_t f = std::min(rest, largest); f >= 2; --f)
      if (rest % f == 0) {
        current.push_back(f);
        split(rest / f, f);
        current.pop_back();
      }
  };
  split(procs, procs);
  return grids;
}

std::string gridString(const Grid &grid) {
  std::string s;
  for (size_t d = 0; d < grid.size(); ++d)
    s += (d ? "x" : "") + std::to_string(grid[d]);
  return s;
}

std::string gridList(const Grid &grid) {
  std::string s;
  for (size_t d = 0; d < grid.size(); ++d)
    s += (d ? ", " : "") + std::to_string(grid[d]);
  return "[" + s + "]";
}

int64_t gridProcs(const Grid &grid) {
  int64_t n = 1;
  for (int64_t e : grid)
    n *= e;
  return n;
}

int64_t gridRank(const Grid &grid, const std::vector<int64_t> &z) {
  int64_t r = 0;
  for (size_t d = 0; d < grid.size(); ++d)
    r = r * grid[d] + z[d];
  return r;
}

bool nextCoordinates(const Grid &grid, std::vector<int64_t> &z) {
  size_t d = 0;
  while (d < grid.size() && ++z[d] == grid[d])
    z[d++] = 0;
  return d < grid.size();
}

std::vector<int64_t> Distribution::gridDims(const Grid &grid,
                                            const std::vector<int> &indices) const {
  std::vector<int64_t> out;
  for (int i : indices) {
    int64_t g = -1;
    for (size_t d = 0; d < grid.size(); ++d)
      if (entry[d] == i)
        g = static_cast<int64_t>(d);
    out.push_back(g);
  }
  return out;
}

uint32_t Distribution::key() const {
  uint32_t k = 0;
  for (int8_t e : entry)
    k = (k << 8) | static_cast<uint8_t>(e);
  return k;
}

int64_t Distribution::parts(const Grid &grid, int i) const {
  int64_t n = 1;
  for (size_t d = 0; d < grid.size(); ++d)
    if (entry[d] == i)
      n *= grid[d];
  return n;
}

IndexSet Distribution::distributed(const Grid &grid) const {
  IndexSet set = 0;
  for (size_t d = 0; d < grid.size(); ++d)
    if (entry[d] >= 0)
      set |= indexBit(entry[d]);
  return set;
}

bool Distribution::noReplication(const Grid &grid) const {
  for (size_t d = 0; d < grid.size(); ++d)
    if (entry[d] == kReplicated && grid[d] > 1)
      return false;
  return true;
}

Distribution Distribution::project(const Grid &grid, IndexSet dimens) const {
  Distribution out = *this;
  for (size_t d = 0; d < grid.size(); ++d)
    if (out.entry[d] >= 0 && !contains(dimens, out.entry[d]))
      out.entry[d] = kReplicated;
  return out;
}

Distribution Distribution::withReplicated(const Grid &grid, IndexSet set) const {
  Distribution out = *this;
  for (size_t d = 0; d < grid.size(); ++d)
    if (out.entry[d] >= 0 && contains(set, out.entry[d]))
      out.entry[d] = kReplicated;
  return out;
}

std::string Distribution::str(const Grid &grid, const OperatorTree &tree) const {
  std::string s = "<";
  for (size_t d = 0; d < grid.size(); ++d) {
    s += d ? "," : "";
    if (entry[d] == kReplicated)
      s += "*";
    else if (entry[d] == kFirstSlice)
      s += "1";
    else
      s += tree.indexName(entry[d]);
  }
  return s + ">";
}

std::optional<Distribution> parseDistribution(const std::string &text, const Grid &grid,
                                              const OperatorTree &tree) {
  if (text.size() < 2 || text.front() != '<' || text.back() != '>')
    return std::nullopt;
  Distribution out;
  std::stringstream stream(text.substr(1, text.size() - 2));
  std::string item;
  size_t d = 0;
  while (std::getline(stream, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (d >= grid.size())
      return std::nullopt;
    if (item == "*")
      out.entry[d] = Distribution::kReplicated;
    else if (item == "1")
      out.entry[d] = Distribution::kFirstSlice;
    else if (int id = tree.findIndex(item); id >= 0)
      out.entry[d] = static_cast<int8_t>(id);
    else
      return std::nullopt;
    ++d;
  }
  if (d != grid.size())
    return std::nullopt;
  return out;
}

std::vector<Distribution> enumerateDistributions(const Grid &grid, IndexSet indices,
                                                 bool replicated, bool firstSlice) {
  std::vector<Distribution> out;
  Distribution current;
  std::function<void(size_t, IndexSet)> fill = [&](size_t d, IndexSet used) {
    if (d == grid.size()) {
      out.push_back(current);
      return;
    }
    if (replicated || grid[d] == 1) {
      current.entry[d] = Distribution::kReplicated;
      fill(d + 1, used);
    }
    if (firstSlice && grid[d] > 1) {
      current.entry[d] = Distribution::kFirstSlice;
      fill(d + 1, used);
    }
    if (grid[d] == 1)
      return;
    for (int i = 0; i < 64; ++i)
      if (contains(indices, i) && !contains(used, i)) {
        current.entry[d] = static_cast<int8_t>(i);
        fill(d + 1, used | indexBit(i));
      }
  };
  fill(0, 0);
  return out;
}

} // namespace mlir::tc
