//===- RedistributionTraffic.cpp - what a redistribution moves, per rank -===//
#include "TC/Analysis/RedistributionTraffic.h"

#include <cassert>
#include <cstddef>

namespace mlir::tc {

namespace {

int64_t procsOf(const std::vector<int64_t> &grid) {
  int64_t p = 1;
  for (int64_t g : grid)
    p *= g;
  return p;
}

std::vector<int64_t> coordsOf(const std::vector<int64_t> &grid, int64_t rank) {
  std::vector<int64_t> c(grid.size());
  for (size_t g = grid.size(); g-- > 0;) {
    c[g] = rank % grid[g];
    rank /= grid[g];
  }
  return c;
}

/// The class of element i of a dimension: the block (or slab) it is in; 0
/// when every rank holds the whole dimension.
int64_t classOf(const HeldDim &d, const std::vector<int64_t> &grid, int64_t P, int64_t i) {
  if (d.slab)
    return i / ((d.extent + P - 1) / P);
  if (d.gridDim < 0)
    return 0;
  const int64_t G = grid[d.gridDim];
  return d.cyclic > 0 ? (i / d.cyclic) % G : i / ((d.extent + G - 1) / G);
}

/// The class of the elements rank `r` (at `c`) holds of a dimension.
int64_t classHeld(const HeldDim &d, const std::vector<int64_t> &grid, const std::vector<int64_t> &c,
                  int64_t r) {
  if (d.slab)
    return r;
  if (d.gridDim < 0)
    return 0;
  int64_t b = c[d.gridDim] + (d.skewDim >= 0 ? c[d.skewDim] : 0);
  return b % grid[d.gridDim];
}

int64_t classes(const HeldDim &d, const std::vector<int64_t> &grid, int64_t P) {
  return d.slab ? P : d.gridDim < 0 ? 1 : grid[d.gridDim];
}

/// True when a rank at `c` holds (some of) an array held on the first slice of
/// the grid dimensions in `firstSlice` (DistArray::coordsOf non-empty).
bool onSlice(int64_t firstSlice, const std::vector<int64_t> &c) {
  for (size_t g = 0; g < c.size(); ++g)
    if ((firstSlice >> g) & 1 && c[g] != 0)
      return false;
  return true;
}

} // namespace

RedistributionTraffic redistributionTraffic(const ArrayHolding &from, const ArrayHolding &to) {
  assert(from.dims.size() == to.dims.size() && "one array");
  const int64_t P = procsOf(from.grid);
  assert(P == procsOf(to.grid) && "the same ranks");
  // count[d][a][b]: elements of dimension d in source class a and destination
  // class b; what two ranks share is the product over dimensions.
  std::vector<std::vector<std::vector<int64_t>>> count;
  for (size_t d = 0; d < from.dims.size(); ++d) {
    const HeldDim &s = from.dims[d], &t = to.dims[d];
    std::vector<std::vector<int64_t>> m(classes(s, from.grid, P),
                                        std::vector<int64_t>(classes(t, to.grid, P), 0));
    for (int64_t i = 0; i < s.extent; ++i)
      ++m[classOf(s, from.grid, P, i)][classOf(t, to.grid, P, i)];
    count.push_back(std::move(m));
  }
  // The grid dimensions the source splits: a holder sends to a rank that
  // differs from it only along them (elsewhere the rank has its own replica).
  std::vector<bool> splits(from.grid.size(), false);
  if (from.distributed)
    for (const HeldDim &s : from.dims)
      if (s.gridDim >= 0)
        splits[s.gridDim] = true;
  auto shared = [&](int64_t h, const std::vector<int64_t> &ch, int64_t r,
                    const std::vector<int64_t> &cr) {
    int64_t n = 1;
    for (size_t d = 0; d < count.size() && n > 0; ++d)
      n *= count[d][classHeld(from.dims[d], from.grid, ch, h)]
                   [classHeld(to.dims[d], to.grid, cr, r)];
    return n;
  };
  RedistributionTraffic t;
  t.sent.assign(P, 0);
  t.received.assign(P, 0);
  t.kept.assign(P, 0);
  std::vector<std::vector<int64_t>> coords;
  for (int64_t r = 0; r < P; ++r)
    coords.push_back(coordsOf(from.grid, r));
  std::vector<std::vector<int64_t>> toCoords;
  for (int64_t r = 0; r < P; ++r)
    toCoords.push_back(coordsOf(to.grid, r));
  // Off a first slice a rank holds nothing: of the source it keeps and sends
  // nothing, of the destination it keeps and receives nothing. As a receiver
  // it takes its elements from the replica with its coordinates, 0 along the
  // source's first slices (DistArray::replicaCoordsOf).
  std::vector<bool> holdsFrom(P), holdsTo(P);
  std::vector<std::vector<int64_t>> want = coords;
  for (int64_t r = 0; r < P; ++r) {
    holdsFrom[r] = onSlice(from.firstSlice, coords[r]);
    holdsTo[r] = onSlice(to.firstSlice, toCoords[r]);
    for (size_t g = 0; g < from.grid.size(); ++g)
      if ((from.firstSlice >> g) & 1)
        want[r][g] = 0;
  }
  for (int64_t r = 0; r < P; ++r)
    if (holdsFrom[r] && holdsTo[r])
      t.kept[r] = shared(r, coords[r], r, toCoords[r]);
  if (!from.distributed)
    return t;
  for (int64_t h = 0; h < P; ++h)
    for (int64_t r = 0; r < P; ++r) {
      if (h == r || !holdsFrom[h] || !holdsTo[r])
        continue;
      bool sameBlock = true, sends = true;
      for (size_t g = 0; g < from.grid.size(); ++g) {
        if (coords[h][g] == want[r][g])
          continue;
        if (splits[g])
          sameBlock = false;
        else
          sends = false;
      }
      // A rank holding the source has its own copy of its block.
      if (!sends || (sameBlock && holdsFrom[r]))
        continue;
      const int64_t n = shared(h, coords[h], r, toCoords[r]);
      t.sent[h] += n;
      t.received[r] += n;
    }
  return t;
}

} // namespace mlir::tc
