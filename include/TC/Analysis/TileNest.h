//===- TileNest.h - the tiling-loop nest of one planned contraction -*- C++ -*-===//
//
// Gao et al. section 3 (Figure 3b; docs/Derivations.md D4): for a read order (X, Y, Z) the tiling
// loops fall into four groups, D1 = idx(X), D2 = idx(Y) \ idx(X), D3 = idx(Z) \
// idx(Y) and D4 = the rest; X is read inside D1, Y inside D2, Z inside D3, and C is
// written where it was read. This file turns the model's macro tile counts
// (It1, It2, Jt1, Jt2, Kt1) into loops over real labels, splitting each count
// across the member labels of its macro-index (preferring divisors of the
// extents, docs/Derivations.md D9 step 6), and measures the nest it builds: re-reads and the
// largest per-process buffer of every array.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_TILENEST_H
#define TC_ANALYSIS_TILENEST_H

#include "TC/Analysis/MacroIndices.h"
#include "TC/Analysis/OutOfCoreCostModel.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tc {

/// A tiling loop: `count` tiles of `label` (within the enclosing tile of it).
struct TileLoop {
  std::string label;
  int64_t count;
  bool operator==(const TileLoop &o) const { return label == o.label && count == o.count; }
};

struct TileNest {
  ReadOrder order = ReadOrder::CAB;
  /// D1..D4; loops of count 1 are left out.
  std::array<std::vector<TileLoop>, 4> groups;

  /// The array read in group `n` (0..2): the order's n-th letter.
  Operand readIn(unsigned n) const;
  /// The group whose body holds the read of `x` (and, for C, its write).
  unsigned readGroup(Operand x) const;
  /// Total tile count of `label` (product over all its loops).
  int64_t tiles(const std::string &label) const;
};

/// Where each macro tile count of the model sits for `order` (docs/Derivations.md D4 table):
/// the group index 0..3 of It1, It2, Jt1, Jt2, Kt1. It2 (ACB) and Jt2 (BCA) land
/// in D4, below every read, where they would only split in-memory work.
std::array<unsigned, 5> macroLoopGroups(ReadOrder order);

/// Splits a tile count across labels with the given extents: per-label counts,
/// each at most its extent, whose product is at least `count` (when the extents
/// allow). With `preferDivisors`, each label takes the smallest divisor of its
/// extent that covers what is left (exact tiles); otherwise the smallest count
/// (fewest tiles).
std::vector<int64_t> splitTileCount(double count, const std::vector<int64_t> &extents,
                                    bool preferDivisors);

/// The nest of `order` for the model's macro counts over the member labels of
/// `macro`. Counts in D4 are set to 1 (they change no I/O and no buffer).
TileNest buildTileNest(ReadOrder order, const TileCounts &counts,
                       const MacroIndices &macro,
                       const std::map<std::string, int64_t> &extents,
                       bool preferDivisors);

/// The macro counts a nest realizes (products of its loop counts per group).
TileCounts realizedCounts(const TileNest &nest, const MacroIndices &macro);

/// Per-array facts of a nest.
struct NestArray {
  std::vector<std::string> labels; ///< the array's labels
  /// Blocks each label is split into across processes for the in-memory tile
  /// (1 for a tile held whole on every process).
  std::map<std::string, int64_t> parts;
};

/// Extent of one tile of `label` (of full extent `extent`) inside the loops of
/// groups 0..lastGroup: the extent divided, with ceiling, by each enclosing loop.
int64_t tileExtent(const TileNest &nest, const std::string &label, int64_t extent,
                   unsigned lastGroup);

/// Largest per-process tile of `array` when read in `nest`, in bytes: per label,
/// the extent divided (with ceiling) by every enclosing loop, then by its parts.
double tileBufferBytes(const TileNest &nest, Operand x, const NestArray &array,
                       const std::map<std::string, int64_t> &extents, int64_t elemBytes);

/// How often `x` is read: the product of the counts of the loops that enclose its
/// read and do not index it ([G] section 3).
int64_t rereadCount(const TileNest &nest, Operand x, const NestArray &array);

} // namespace mlir::tc

#endif // TC_ANALYSIS_TILENEST_H
