//===- ArrayLayout.h - how a distributed array is held, in one place -*- C++ -*-===//
//
// The one description of a distributed array's layout: its extents in stored
// order, the processor grid, which grid dimension splits (and skews, splits
// again, deals block-cyclically) each dimension, which dataset dimension each
// holds, the dataset dimensions summed as it loads, and the grid dimensions it
// is held on the first slice of. `#tc.layout` (the type of every `tc.array`)
// is this struct as an attribute; tc-lower-to-runtime encodes it into the
// runtime's descriptor, the runtime's arrays are it, and the analyses that
// predict what a redistribution moves ask it who holds which element. Header-
// only and dependency-free (no MLIR, no MPI), like Ownership.h beneath it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LAYOUT_ARRAYLAYOUT_H
#define TC_LAYOUT_ARRAYLAYOUT_H

#include "TC/Layout/Ownership.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tc_layout {

/// How the processes hold the array (the values are the runtime ABI's
/// tc_rt_kind and the dialect's #tc.array_kind).
enum class Holding : int64_t {
  Distributed = 0, ///< a block per process of the grid (Gao et al. Table 1)
  Replicated = 1,  ///< whole on every process (accumulation's C)
  Slab = 2,        ///< inside replication: ceil(extent / P)-row slabs of dimension 0
  Gathered = 3,    ///< outside replication: whole after an all-gather of its slabs
};

struct ArrayLayout {
  Holding kind = Holding::Distributed;
  std::vector<int64_t> grid; ///< the processor grid's extents
  /// Per dimension (stored order): its extent, the grid dimension splitting it
  /// (-1: whole), the grid dimension whose coordinate skews its block index
  /// (-1: none; Cannon's initial alignment, [G] 2.2), the grid dimension
  /// splitting its block again into balanced sub-blocks (-1: none; COSMA,
  /// Kwasniewski et al. 7.6), its block-cyclic block size (0: contiguous;
  /// PUMMA, Choi, Dongarra, Walker 2) and the dataset dimension it holds.
  std::vector<int64_t> extents, gridDim, skewDim, splitDim, cyclic, fileDim;
  /// Dataset dimensions the array does not have, summed over as it loads
  /// (docs/Derivations.md D30): their positions in the dataset, their extents.
  std::vector<int64_t> summedFileDim, summedExtent;
  /// Bit g: only the processes at coordinate 0 along grid dimension g hold it
  /// (Cociorva et al.'s `1` entry, section 3.1); the others hold nothing.
  int64_t firstSlice = 0;

  /// A layout of `extents` on `grid`, every per-dimension entry at its default
  /// (whole, unskewed, unsplit, contiguous, in the dataset's order).
  static ArrayLayout whole(Holding kind, std::vector<int64_t> extents, std::vector<int64_t> grid) {
    ArrayLayout l;
    l.kind = kind;
    l.grid = std::move(grid);
    const size_t n = extents.size();
    l.extents = std::move(extents);
    l.gridDim.assign(n, -1);
    l.skewDim.assign(n, -1);
    l.splitDim.assign(n, -1);
    l.cyclic.assign(n, 0);
    for (size_t d = 0; d < n; ++d)
      l.fileDim.push_back(static_cast<int64_t>(d));
    return l;
  }

  int64_t rank() const { return static_cast<int64_t>(extents.size()); }
  int64_t gridRank() const { return static_cast<int64_t>(grid.size()); }
  /// Processes on the grid.
  int64_t procs() const {
    int64_t p = 1;
    for (int64_t g : grid)
      p *= g;
    return p;
  }
  bool distributed() const { return kind == Holding::Distributed; }
  /// A slab array on a one-dimensional grid: its slabs are the parts a tile
  /// is reduce-scattered onto over the whole grid (D53), as a split
  /// dimension's sub-blocks are along one grid dimension.
  bool slabsOnLine() const { return kind == Holding::Slab && grid.size() == 1; }
  bool isCyclic(int64_t d) const { return cyclic[d] > 0; }
  bool heldOnFirstSlice(int64_t g) const { return (firstSlice >> g) & 1; }
  /// Blocks of dimension `d` (1 unless split along the grid).
  int64_t parts(int64_t d) const { return distributed() && gridDim[d] >= 0 ? grid[gridDim[d]] : 1; }
  /// The dimension split again into sub-blocks, or -1.
  int64_t splitDimension() const {
    for (int64_t d = 0; d < rank(); ++d)
      if (splitDim[d] >= 0)
        return d;
    return -1;
  }
  /// Rows of dimension 0 in a full slab (slab and gathered arrays).
  int64_t slabRows() const { return ceilDiv(extents[0], procs()); }
  /// Padded rows of a (sub-)block of dimension `d`: ceil(extent / parts), and
  /// ceil of that over the splitting grid dimension when split again.
  int64_t subRows(int64_t d) const {
    const int64_t b = ceilDiv(extents[d], parts(d));
    return splitDim[d] < 0 ? b : ceilDiv(b, grid[splitDim[d]]);
  }
  /// Padded storage rows of dimension `d`, the same on every process holding
  /// the array: the largest share of a block-cyclic dimension, the (sub-)block,
  /// the slab, or the whole extent.
  int64_t storeRows(int64_t d) const {
    if (distributed() && isCyclic(d))
      return cyclicRows(extents[d], cyclic[d], parts(d));
    if (distributed())
      return subRows(d);
    if (kind == Holding::Slab && d == 0)
      return slabRows();
    return extents[d];
  }
  /// The padded block every holding process stores.
  std::vector<int64_t> paddedBlock() const {
    std::vector<int64_t> b;
    for (int64_t d = 0; d < rank(); ++d)
      b.push_back(storeRows(d));
    return b;
  }

  /// Row-major coordinates of `rank` on the grid, whether it holds the array
  /// or not; none past the grid (MPI_Cart_create without reorder).
  std::vector<int64_t> gridCoords(int64_t rank) const {
    if (rank < 0 || rank >= procs())
      return {};
    std::vector<int64_t> c(grid.size());
    for (size_t g = grid.size(); g-- > 0;) {
      c[g] = rank % grid[g];
      rank /= grid[g];
    }
    return c;
  }
  /// True if a process at grid coordinates `c` holds the array (it is on
  /// every first slice).
  bool holdsAt(const std::vector<int64_t> &c) const {
    if (c.empty())
      return false;
    for (size_t g = 0; g < c.size(); ++g)
      if (heldOnFirstSlice(static_cast<int64_t>(g)) && c[g] != 0)
        return false;
    return true;
  }
  /// Coordinates of `rank` if it holds the array; none past the grid or off
  /// a first slice (it is idle for the array).
  std::vector<int64_t> coordsOf(int64_t rank) const {
    std::vector<int64_t> c = gridCoords(rank);
    return holdsAt(c) ? c : std::vector<int64_t>{};
  }
  /// Coordinates of the replica `rank` takes its elements from as a
  /// redistribution's receiver: its own, 0 along the first slices.
  std::vector<int64_t> replicaCoordsOf(int64_t rank) const {
    std::vector<int64_t> c = gridCoords(rank);
    for (size_t g = 0; g < c.size(); ++g)
      if (heldOnFirstSlice(static_cast<int64_t>(g)))
        c[g] = 0;
    return c;
  }
  /// Which block of dimension `d` (a distributed one, not cyclic) coordinates
  /// `c` hold after `shift` shifts along its grid dimension: the coordinate plus
  /// the skew's coordinate plus the shifts, modulo the blocks.
  template <typename Coords>
  int64_t blockIndex(int64_t d, const Coords &c, int64_t shift = 0) const {
    const int64_t p = parts(d);
    if (p == 1 || c.empty())
      return 0;
    return (c[gridDim[d]] + shift + (skewDim[d] >= 0 ? c[skewDim[d]] : 0)) % p;
  }

  /// Real elements of dimension `d` that coordinates `c` hold after `shift`
  /// shifts along its grid dimension: its block, its sub-block when split
  /// again, its blocks of a block-cyclic dimension, or the whole extent.
  int64_t heldLength(int64_t d, const std::vector<int64_t> &c, int64_t shift = 0) const {
    const int64_t p = parts(d);
    if (p == 1)
      return extents[d];
    if (c.empty())
      return 0;
    if (isCyclic(d))
      return cyclicLength(extents[d], cyclic[d], p, (c[gridDim[d]] + shift) % p);
    const int64_t len = blockLength(extents[d], p, blockIndex(d, c, shift));
    return splitDim[d] < 0 ? len : balancedLength(len, grid[splitDim[d]], c[splitDim[d]]);
  }
  /// Real elements process `rank` holds after shifts[g] shifts along each grid
  /// dimension g (none when empty): 0 when it is idle for the array, its slab
  /// of a slab array, all of a replicated or gathered one.
  int64_t heldElements(int64_t rank, const std::vector<int64_t> &shifts = {}) const {
    int64_t n = 1;
    if (kind == Holding::Slab) {
      if (extents.empty())
        return rank == 0 ? 1 : 0;
      n = blockLength(extents[0], procs(), rank);
      for (int64_t d = 1; d < this->rank(); ++d)
        n *= extents[d];
      return n;
    }
    const std::vector<int64_t> c = coordsOf(rank);
    if (c.empty())
      return 0;
    for (int64_t d = 0; d < this->rank(); ++d)
      n *= heldLength(d, c, shifts.empty() || gridDim[d] < 0 ? 0 : shifts[gridDim[d]]);
    return n;
  }

  /// Element classes of dimension `d` for who holds what: its blocks (or
  /// cyclic coordinates) when split along the grid, each block's balanced
  /// sub-blocks when split again, its slabs (one per process) as dimension 0
  /// of a slab array, otherwise one.
  int64_t classes(int64_t d) const {
    if (kind == Holding::Slab && d == 0)
      return procs();
    return parts(d) * subParts(d);
  }
  /// The class of element `i` of dimension `d`.
  int64_t classOf(int64_t d, int64_t i) const {
    if (kind == Holding::Slab && d == 0)
      return i / slabRows();
    const int64_t p = parts(d);
    if (isCyclic(d))
      return p == 1 ? 0 : (i / cyclic[d]) % p;
    const int64_t size = ceilDiv(extents[d], p), block = i / size, q = subParts(d);
    if (q == 1)
      return block;
    // The balanced sub-block of the block holding i: the first len mod q
    // are one longer.
    const int64_t offset = i - block * size, len = blockLength(extents[d], p, block);
    const int64_t small = len / q, longer = len % q;
    const int64_t sub = offset < longer * (small + 1)
                            ? offset / (small + 1)
                            : longer + (offset - longer * (small + 1)) / small;
    return block * q + sub;
  }
  /// The class of the elements of dimension `d` that process `rank` at grid
  /// coordinates `c` holds (before any shift).
  int64_t classHeld(int64_t d, const std::vector<int64_t> &c, int64_t rank) const {
    if (kind == Holding::Slab && d == 0)
      return rank;
    const int64_t q = subParts(d);
    return q == 1 ? blockIndex(d, c) : blockIndex(d, c) * q + c[splitDim[d]];
  }
  /// Sub-blocks of each block of dimension `d` (1 unless split again).
  int64_t subParts(int64_t d) const {
    return distributed() && splitDim[d] >= 0 && !isCyclic(d) ? grid[splitDim[d]] : 1;
  }

  /// The extents of the dataset the array loads from and stores to, in the
  /// dataset's order (`whole` in stored order: the extents of the tensor the
  /// array is a slice of, or its own).
  std::vector<int64_t> fileExtents(const std::vector<int64_t> &whole) const {
    std::vector<int64_t> f(extents.size() + summedExtent.size());
    for (size_t d = 0; d < extents.size(); ++d)
      f[fileDim[d]] = whole[d];
    for (size_t j = 0; j < summedExtent.size(); ++j)
      f[summedFileDim[j]] = summedExtent[j];
    return f;
  }

  /// Where stored dimension `d` comes among the array's own dimensions in the
  /// dataset's order (dimensions summed at load do not count): two layouts
  /// of one tensor that store its dimensions in different orders meet there.
  int64_t datasetPlace(int64_t d) const {
    int64_t place = 0;
    for (int64_t e = 0; e < rank(); ++e)
      place += fileDim[e] < fileDim[d];
    return place;
  }
  /// The array's extents in that order.
  std::vector<int64_t> datasetExtents() const {
    std::vector<int64_t> out(extents.size());
    for (int64_t d = 0; d < rank(); ++d)
      out[datasetPlace(d)] = extents[d];
    return out;
  }

  /// Why the layout is not one tc can hold, or empty. The rules the dialect
  /// verifies `#tc.layout` by and the runtime checks a descriptor by.
  std::string verify() const;
};

/// A list as `[a, b, c]` (the messages of verify(), the runtime's).
inline std::string str(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

namespace detail {
inline const char *name(Holding k) {
  switch (k) {
  case Holding::Distributed:
    return "distributed";
  case Holding::Replicated:
    return "replicated";
  case Holding::Slab:
    return "slab";
  case Holding::Gathered:
    return "gathered";
  }
  return "unknown";
}
} // namespace detail

inline std::string ArrayLayout::verify() const {
  using std::to_string;
  const size_t n = extents.size();
  const int64_t gr = gridRank();
  if (gridDim.size() != n || skewDim.size() != n || splitDim.size() != n || cyclic.size() != n ||
      fileDim.size() != n)
    return to_string(n) + " extents but " + to_string(gridDim.size()) + " grid dims, " +
           to_string(skewDim.size()) + " skews, " + to_string(splitDim.size()) + " splits, " +
           to_string(cyclic.size()) + " cyclic sizes and " + to_string(fileDim.size()) +
           " file dims";
  if (grid.empty())
    return "the grid has no dimension";
  for (int64_t g : grid)
    if (g < 1)
      return "grid " + str(grid) + " has an extent below 1";
  const std::string kindName = detail::name(kind);
  std::vector<bool> used(gr, false);
  for (size_t d = 0; d < n; ++d) {
    const std::string dim = "dimension " + to_string(d);
    if (extents[d] < 1)
      return dim + " has extent " + to_string(extents[d]);
    if (gridDim[d] < -1 || gridDim[d] >= gr)
      return dim + " is split along grid dimension " + to_string(gridDim[d]) + " of a " +
             to_string(gr) + "-d grid";
    if (gridDim[d] >= 0) {
      if (!distributed())
        return "a " + kindName + " array splits no dimension along the grid, but " + dim +
               " is split";
      if (used[gridDim[d]])
        return "grid dimension " + to_string(gridDim[d]) + " splits two dimensions";
      used[gridDim[d]] = true;
    }
    if (skewDim[d] != -1 &&
        (gridDim[d] < 0 || skewDim[d] < 0 || skewDim[d] >= gr || skewDim[d] == gridDim[d]))
      return dim + " is skewed by grid dimension " + to_string(skewDim[d]) +
             "; a skew needs a split dimension and another grid dimension";
  }
  int splits = 0;
  for (size_t d = 0; d < n; ++d) {
    const int64_t g = splitDim[d];
    if (g == -1)
      continue;
    if (g < 0 || g >= gr || gridDim[d] < 0 || used[g])
      return "dimension " + to_string(d) + " is split again along grid dimension " + to_string(g) +
             "; a split needs a distributed dimension and a grid dimension no " +
             "dimension is distributed along";
    for (size_t e = 0; e < n; ++e)
      if (skewDim[e] == g)
        return "dimension " + to_string(d) + " is split again along grid dimension " +
               to_string(g) + ", which skews dimension " + to_string(e);
    if (++splits > 1)
      return "more than one dimension is split again";
  }
  for (size_t d = 0; d < n; ++d) {
    if (cyclic[d] == 0)
      continue;
    if (cyclic[d] < 0 || gridDim[d] < 0)
      return "dimension " + to_string(d) + " has block-cyclic block size " + to_string(cyclic[d]) +
             "; a block-cyclic dimension is distributed, its block " + "size > 0";
    for (size_t e = 0; e < n; ++e)
      if (skewDim[e] != -1 || splitDim[e] != -1)
        return "an array with a block-cyclic dimension has no skew and no split";
  }
  if (firstSlice < 0 || (gr < 63 && firstSlice >= (int64_t(1) << gr)))
    return "first-slice mask " + to_string(firstSlice) + " names a grid dimension a " +
           to_string(gr) + "-d grid does not have";
  for (int64_t g = 0; g < gr; ++g) {
    if (!heldOnFirstSlice(g))
      continue;
    if (!distributed())
      return "a " + kindName + " array is held by every process, not a first slice";
    if (used[g])
      return "the array is split along grid dimension " + to_string(g) +
             ", which holds it on its first slice only";
  }
  if (summedFileDim.size() != summedExtent.size())
    return "one extent per summed file dimension is needed";
  for (int64_t e : summedExtent)
    if (e < 1)
      return "a summed file dimension has extent " + to_string(e);
  std::vector<bool> seen(n + summedFileDim.size(), false);
  auto mark = [&](int64_t f) {
    if (f < 0 || f >= static_cast<int64_t>(seen.size()) || seen[f])
      return false;
    seen[f] = true;
    return true;
  };
  for (int64_t f : fileDim)
    if (!mark(f))
      return std::string(summedFileDim.empty() ? "file dims" : "file dims and summed file dims") +
             " must be a permutation of 0.." + to_string(seen.size() - 1);
  for (int64_t f : summedFileDim)
    if (!mark(f))
      return "file dims and summed file dims must be a permutation of 0.." +
             to_string(seen.size() - 1);
  return "";
}

} // namespace tc_layout

#endif // TC_LAYOUT_ARRAYLAYOUT_H
