//===- ProcessorGrid.h - logical grids and distribution tuples --*- C++ -*-===//
//
// Cociorva et al. section 3.1: P processes viewed as an n-dimensional grid
// p_1 x ... x p_n, and an array's distribution as an n-tuple whose entry d is an
// index (block-distributed along grid dimension d), `*` (replicated along d) or
// `1` (held only by processes with coordinate 1 along d). An index in the tuple
// but not in the array means `*`.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_PROCESSORGRID_H
#define TC_ANALYSIS_PROCESSORGRID_H

#include "TC/Analysis/OperatorTree.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

constexpr int kMaxGridDims = 4;

/// Extents of the grid dimensions, each >= 2 (a single [1] for one process).
using Grid = std::vector<int64_t>;

/// Every factorization of `procs` into 1..maxDims factors >= 2, each listed once
/// with its factors in non-increasing order (a tuple over 4x8 covers 8x4 by
/// permuting its entries).
std::vector<Grid> logicalGrids(int64_t procs, int maxDims);

std::string gridString(const Grid &grid); ///< "4x8"
std::string gridList(const Grid &grid);   ///< "[4, 8]", as plans and diagnostics print it
int64_t gridProcs(const Grid &grid);       ///< the product of the extents
/// The rank of the process at coordinates `z`, row-major (as MPI_Cart_create
/// numbers them without reordering).
int64_t gridRank(const Grid &grid, const std::vector<int64_t> &z);
/// Steps `z` to the next coordinates of the grid; false after the last.
bool nextCoordinates(const Grid &grid, std::vector<int64_t> &z);

struct Distribution {
  static constexpr int8_t kReplicated = -1; ///< `*`
  static constexpr int8_t kFirstSlice = -2; ///< `1`
  /// Entry per grid dimension: an index id, kReplicated or kFirstSlice.
  std::array<int8_t, kMaxGridDims> entry;

  Distribution() { entry.fill(kReplicated); }
  bool operator==(const Distribution &o) const { return entry == o.entry; }
  bool operator<(const Distribution &o) const { return entry < o.entry; }
  uint32_t key() const; ///< a hashable packing of the entries

  /// Number of blocks index `i` is split into over `grid` (1 when undistributed).
  int64_t parts(const Grid &grid, int i) const;
  /// Indices the tuple distributes.
  IndexSet distributed(const Grid &grid) const;
  /// [C] 3.3 NoRep: no `*` entry (inputs may start in such a distribution free).
  bool noReplication(const Grid &grid) const;
  /// The tuple as seen from an array with indices `dimens`: entries naming other
  /// indices become `*` ([C] 3.1).
  Distribution project(const Grid &grid, IndexSet dimens) const;
  /// The same tuple with the indices of `set` replaced by `*`.
  Distribution withReplicated(const Grid &grid, IndexSet set) const;
  /// For each of `indices`, the grid dimension distributing it, or -1.
  std::vector<int64_t> gridDims(const Grid &grid, const std::vector<int> &indices) const;
  /// "<b,*>" with the tree's index names.
  std::string str(const Grid &grid, const OperatorTree &tree) const;
};

/// Parses "<b,f>" / "<*,1>" against the tree's indices; nullopt when an entry is
/// unknown or the arity differs from the grid's.
std::optional<Distribution> parseDistribution(const std::string &text, const Grid &grid,
                                              const OperatorTree &tree);

/// Every tuple over `grid` whose entries are distinct indices of `indices`, or `*`
/// (when `replicated`), or `1` (when `firstSlice`).
std::vector<Distribution> enumerateDistributions(const Grid &grid, IndexSet indices,
                                                 bool replicated, bool firstSlice);

} // namespace mlir::tc

#endif // TC_ANALYSIS_PROCESSORGRID_H
