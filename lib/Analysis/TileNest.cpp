//===- TileNest.cpp - the tiling-loop nest of one planned contraction -----===//
#include "TC/Analysis/TileNest.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mlir::tc {

namespace {
using tc_layout::ceilDiv;

enum MacroLoop { It1 = 0, It2, Jt1, Jt2, Kt1 };

Operand operandOf(char letter) {
  return letter == 'A' ? Operand::A : letter == 'B' ? Operand::B : Operand::C;
}
} // namespace

Operand TileNest::readIn(unsigned n) const { return operandOf(toString(order)[n]); }

unsigned TileNest::readGroup(Operand x) const {
  for (unsigned n = 0; n < 3; ++n)
    if (readIn(n) == x)
      return n;
  return 0;
}

int64_t TileNest::tiles(const std::string &label) const {
  int64_t n = 1;
  for (const auto &group : groups)
    for (const TileLoop &loop : group)
      if (loop.label == label)
        n *= loop.count;
  return n;
}

std::array<unsigned, 5> macroLoopGroups(ReadOrder order) {
  // Rows of the docs/Derivations.md D4 table: groups of It1, It2, Jt1, Jt2, Kt1 (Kt2 = 1).
  switch (order) {
  case ReadOrder::ABC: return {0, 2, 1, 1, 0};
  case ReadOrder::ACB: return {0, 3, 1, 1, 0};
  case ReadOrder::BAC: return {1, 1, 0, 2, 0};
  case ReadOrder::BCA: return {1, 1, 0, 3, 0};
  case ReadOrder::CAB: return {0, 3, 0, 2, 1};
  case ReadOrder::CBA: return {0, 2, 0, 3, 1};
  }
  return {};
}

std::vector<int64_t> splitTileCount(double count, const std::vector<int64_t> &extents,
                                    bool preferDivisors) {
  std::vector<int64_t> counts(extents.size(), 1);
  // Largest extents first: they absorb a count with the least rounding.
  std::vector<size_t> byExtent(extents.size());
  std::iota(byExtent.begin(), byExtent.end(), 0);
  std::stable_sort(byExtent.begin(), byExtent.end(),
                   [&](size_t a, size_t b) { return extents[a] > extents[b]; });
  double left = count;
  for (size_t idx : byExtent) {
    if (left <= 1 + 1e-9)
      break;
    int64_t n = extents[idx];
    int64_t want = std::min<int64_t>(n, static_cast<int64_t>(std::ceil(left - 1e-9)));
    int64_t c = want;
    if (preferDivisors)
      while (n % c != 0)
        ++c;
    // The fewest tiles of the same size: no tile is left empty.
    c = ceilDiv(n, ceilDiv(n, c));
    counts[idx] = c;
    left /= static_cast<double>(c);
  }
  return counts;
}

TileNest buildTileNest(ReadOrder order, const TileCounts &counts,
                       const MacroIndices &macro,
                       const std::map<std::string, int64_t> &extents,
                       bool preferDivisors) {
  TileNest nest;
  nest.order = order;
  std::array<unsigned, 5> where = macroLoopGroups(order);
  auto place = [&](const std::vector<std::string> &labels, double first, unsigned g1,
                   double second, unsigned g2) {
    std::vector<int64_t> full;
    for (const std::string &l : labels)
      full.push_back(extents.at(l));
    std::vector<int64_t> c1 = splitTileCount(first, full, preferDivisors);
    // The second level splits what one first-level tile leaves of each label.
    std::vector<int64_t> rest;
    for (size_t i = 0; i < labels.size(); ++i)
      rest.push_back(ceilDiv(full[i], c1[i]));
    std::vector<int64_t> c2 =
        g2 == 3 ? std::vector<int64_t>(labels.size(), 1)
                : splitTileCount(second, rest, preferDivisors);
    for (size_t i = 0; i < labels.size(); ++i) {
      if (c1[i] > 1)
        nest.groups[g1].push_back({labels[i], c1[i]});
      if (c2[i] > 1)
        nest.groups[g2].push_back({labels[i], c2[i]});
    }
  };
  // Batch labels: the outermost loops, one value per tile (D30); every array
  // has them, so no read repeats.
  for (const std::string &l : macro.L)
    if (extents.at(l) > 1)
      nest.groups[0].push_back({l, extents.at(l)});
  place(macro.I, counts.It1, where[It1], counts.It2, where[It2]);
  place(macro.J, counts.Jt1, where[Jt1], counts.Jt2, where[Jt2]);
  place(macro.K, counts.Kt1, where[Kt1], 1, 3);
  return nest;
}

TileCounts realizedCounts(const TileNest &nest, const MacroIndices &macro) {
  std::array<unsigned, 5> where = macroLoopGroups(nest.order);
  auto product = [&](const std::vector<std::string> &labels, unsigned group) {
    double n = 1;
    for (const TileLoop &loop : nest.groups[group])
      if (std::find(labels.begin(), labels.end(), loop.label) != labels.end())
        n *= static_cast<double>(loop.count);
    return n;
  };
  TileCounts t;
  t.It1 = product(macro.I, where[It1]);
  t.It2 = product(macro.I, where[It2]);
  t.Jt1 = product(macro.J, where[Jt1]);
  t.Jt2 = product(macro.J, where[Jt2]);
  t.Kt1 = product(macro.K, where[Kt1]);
  // Loops in D4 split only in-memory work; the model has no count for them.
  // When both levels share a group (It1, It2 in D2 for BAC/BCA; Jt1, Jt2 in D2
  // for ABC/ACB) the group's loops are counted once, as the first level.
  if (where[It2] == 3 || where[It2] == where[It1])
    t.It2 = 1;
  if (where[Jt2] == 3 || where[Jt2] == where[Jt1])
    t.Jt2 = 1;
  return t;
}

int64_t tileExtent(const TileNest &nest, const std::string &label, int64_t extent,
                   unsigned lastGroup) {
  for (unsigned g = 0; g <= lastGroup && g < nest.groups.size(); ++g)
    for (const TileLoop &loop : nest.groups[g])
      if (loop.label == label)
        extent = ceilDiv(extent, loop.count);
  return extent;
}

double tileBufferBytes(const TileNest &nest, Operand x, const NestArray &array,
                       const std::map<std::string, int64_t> &extents, int64_t elemBytes) {
  const unsigned last = nest.readGroup(x);
  double bytes = static_cast<double>(elemBytes);
  for (const std::string &label : array.labels) {
    int64_t extent = tileExtent(nest, label, extents.at(label), last);
    auto parts = array.parts.find(label);
    if (parts != array.parts.end())
      extent = ceilDiv(extent, parts->second);
    bytes *= static_cast<double>(extent);
  }
  return bytes;
}

int64_t rereadCount(const TileNest &nest, Operand x, const NestArray &array) {
  const unsigned last = nest.readGroup(x);
  int64_t n = 1;
  for (unsigned g = 0; g <= last; ++g)
    for (const TileLoop &loop : nest.groups[g])
      if (std::find(array.labels.begin(), array.labels.end(), loop.label) ==
          array.labels.end())
        n *= loop.count;
  return n;
}

} // namespace mlir::tc
