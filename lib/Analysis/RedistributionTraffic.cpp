//===- RedistributionTraffic.cpp - what a redistribution moves, per rank -===//
#include "TC/Analysis/RedistributionTraffic.h"

#include <cassert>
#include <cstddef>

namespace mlir::tc {

RedistributionTraffic redistributionTraffic(const tc_layout::ArrayLayout &from,
                                            const tc_layout::ArrayLayout &to) {
  assert(from.rank() == to.rank() && "one array");
  const int64_t P = from.procs();
  assert(P == to.procs() && "the same ranks");
  // count[d][a][b]: elements of dimension d in source class a and destination
  // class b; what two ranks share is the product over dimensions.
  std::vector<std::vector<std::vector<int64_t>>> count;
  for (int64_t d = 0; d < from.rank(); ++d) {
    std::vector<std::vector<int64_t>> m(from.classes(d), std::vector<int64_t>(to.classes(d), 0));
    for (int64_t i = 0; i < from.extents[d]; ++i)
      ++m[from.classOf(d, i)][to.classOf(d, i)];
    count.push_back(std::move(m));
  }
  // The grid dimensions the source splits: a holder sends to a rank that
  // differs from it only along them (elsewhere the rank has its own replica).
  std::vector<bool> splits(from.grid.size(), false);
  if (from.distributed())
    for (int64_t g : from.gridDim)
      if (g >= 0)
        splits[g] = true;
  auto shared = [&](int64_t h, const std::vector<int64_t> &ch, int64_t r,
                    const std::vector<int64_t> &cr) {
    int64_t n = 1;
    for (size_t d = 0; d < count.size() && n > 0; ++d)
      n *= count[d][from.classHeld(d, ch, h)][to.classHeld(d, cr, r)];
    return n;
  };
  RedistributionTraffic t;
  t.sent.assign(P, 0);
  t.received.assign(P, 0);
  t.kept.assign(P, 0);
  std::vector<std::vector<int64_t>> coords;
  for (int64_t r = 0; r < P; ++r)
    coords.push_back(from.gridCoords(r));
  std::vector<std::vector<int64_t>> toCoords;
  for (int64_t r = 0; r < P; ++r)
    toCoords.push_back(to.gridCoords(r));
  // Off a first slice a rank holds nothing: of the source it keeps and sends
  // nothing, of the destination it keeps and receives nothing. As a receiver
  // it takes its elements from the replica with its coordinates, 0 along the
  // source's first slices (DistArray::replicaCoordsOf).
  std::vector<bool> holdsFrom(P), holdsTo(P);
  std::vector<std::vector<int64_t>> want(P);
  for (int64_t r = 0; r < P; ++r) {
    holdsFrom[r] = from.holdsAt(coords[r]);
    holdsTo[r] = to.holdsAt(toCoords[r]);
    want[r] = from.replicaCoordsOf(r);
  }
  for (int64_t r = 0; r < P; ++r)
    if (holdsFrom[r] && holdsTo[r])
      t.kept[r] = shared(r, coords[r], r, toCoords[r]);
  if (!from.distributed())
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
