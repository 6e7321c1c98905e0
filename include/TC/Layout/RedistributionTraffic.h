//===- RedistributionTraffic.h - what a redistribution moves, per rank -*- C++ -*-===//
//
// Gao et al.'s stages 1 and 3 ([G] section 2.3): an input arrives in one
// distribution and the algorithm needs another (or the result is required in
// another). The runtime (lib/Runtime/Redistribute.cpp) moves every element a
// rank needs from the holder of its source block that shares the receiver's
// coordinates along every grid dimension the source does not split (replicas
// share the sending; a replicated source sends nothing), and copies what the
// rank already holds. This gives each rank's elements sent, received and kept
// (copied locally) exactly, for arrays held as the runtime holds them: blocks
// along grid dimensions (contiguous or block-cyclic, Cannon's pre-skew
// included), whole, or dealt out in dim-0 slabs one per rank, and arrays held
// on the first slice of some grid dimensions only (`1`, [C] 3.1; D32): the
// ranks off the slice hold nothing and receive from the replica on the slice
// that shares their other coordinates. The two layouts may store the
// tensor's dimensions in different orders (an intermediate handed from the
// statement that computed it to one that reads it). Header-only, in the
// layout library: the planners predict with it and the runtime predicts its
// hand-overs with it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LAYOUT_REDISTRIBUTIONTRAFFIC_H
#define TC_LAYOUT_REDISTRIBUTIONTRAFFIC_H

#include "TC/Layout/ArrayLayout.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tc_layout {

/// Elements each rank sends, receives and copies locally (row-major rank
/// order) moving an array from `from` to `to` (one tensor, maybe stored in
/// another order of its dimensions; the same number of ranks).
struct RedistributionTraffic {
  std::vector<int64_t> sent, received, kept;
};
/// Held as the runtime holds them (the layout library: blocks, cyclic blocks,
/// skew, a split block's balanced sub-blocks, slabs, first slices). `procs`: the run's processes
/// (by default the larger grid's); a rank past a layout's grid holds none of it and receives from
/// the replica at coordinate 0 of the grid dimensions the source does not
/// split.
inline RedistributionTraffic redistributionTraffic(const ArrayLayout &from, const ArrayLayout &to,
                                                   int64_t procs = 0) {
  assert(from.datasetExtents() == to.datasetExtents() && "one array");
  const int64_t P = std::max({procs, from.procs(), to.procs()});
  // The two may store the tensor's dimensions in different orders: source
  // dimension d is destination dimension same[d].
  std::vector<int64_t> same(from.rank());
  for (int64_t d = 0; d < from.rank(); ++d)
    for (int64_t e = 0; e < to.rank(); ++e)
      if (to.datasetPlace(e) == from.datasetPlace(d))
        same[d] = e;
  // count[d][a][b]: elements of dimension d in source class a and destination
  // class b; what two ranks share is the product over dimensions.
  std::vector<std::vector<std::vector<int64_t>>> count;
  for (int64_t d = 0; d < from.rank(); ++d) {
    std::vector<std::vector<int64_t>> m(from.classes(d),
                                        std::vector<int64_t>(to.classes(same[d]), 0));
    for (int64_t i = 0; i < from.extents[d]; ++i)
      ++m[from.classOf(d, i)][to.classOf(same[d], i)];
    count.push_back(std::move(m));
  }
  // The grid dimensions the source splits (into blocks or sub-blocks): a
  // holder sends to a rank that differs from it only along them (elsewhere
  // the rank has its own replica).
  std::vector<bool> splits(from.grid.size(), false);
  if (from.distributed())
    for (int64_t d = 0; d < from.rank(); ++d)
      for (int64_t g : {from.gridDim[d], from.subParts(d) > 1 ? from.splitDim[d] : int64_t(-1)})
        if (g >= 0)
          splits[g] = true;
  auto shared = [&](int64_t h, const std::vector<int64_t> &ch, int64_t r,
                    const std::vector<int64_t> &cr) {
    int64_t n = 1;
    for (size_t d = 0; d < count.size() && n > 0; ++d)
      n *= count[d][from.classHeld(d, ch, h)][to.classHeld(same[d], cr, r)];
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
    if (want[r].empty()) // past the source's grid
      want[r].assign(from.grid.size(), 0);
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

} // namespace tc_layout

#endif // TC_LAYOUT_REDISTRIBUTIONTRAFFIC_H
