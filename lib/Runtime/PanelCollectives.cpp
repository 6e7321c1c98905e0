//===- PanelCollectives.cpp - tiles of nested-block (split) arrays --------===//
//
// COSMA (Kwasniewski et al., SC'19, section 7) keeps a dimension of an array in
// nested blocks: its block along one grid dimension is split again along a
// second grid dimension g (TC_RT_ARRAY_DIM_SPLIT_DIM), so the q = grid[g]
// processes of a group along g (the same coordinates in every other grid
// dimension) share one block of the compute view and each stores one sub-block.
// Inputs are all-gathered along g a tile (round) at a time, partial results
// reduced along g back to the sub-blocks.
//
// A slab array (rows of dimension 0 dealt out over a one-dimensional grid)
// reduces the same way over the whole grid, each member's part the tile's
// rows in its slab.
//
// The gather is a direct exchange between the q members of a group, the
// reduce-scatter a ring (GroupExchange.h: with uneven sub-blocks the busiest
// member then receives less); a member's part is the tile inside its
// sub-block, clipped to the block. The start/wait pair lets a program gather
// the next round's tile while it computes on the current one (COSMA section
// 7.3). A rank past the grid (idle) is in no group: its gathers leave the
// buffer zero, its reductions do nothing.
//
//===----------------------------------------------------------------------===//
#include "GroupExchange.h"

#include <algorithm>
#include <cstring>

namespace tc_rt {
namespace {

// Tags of their own: a pending gather never matches another call's messages
// on the same (Cartesian, per grid shape) communicator.
const int kGatherTag = 21;
const int kReduceScatterTag = 22;

/// The group along the split grid dimension of `a`; of a slab array (inside
/// accumulation's result, D53), every process of its one-dimensional grid.
Group splitGroup(const DistArray &a, const char *call) {
  if (a.slabsOnLine())
    return groupAlong(a, 0);
  if (a.splitDimension() < 0)
    fail(std::string(call) + ": array '" + a.name +
         "' has no split dimension (TC_RT_ARRAY_DIM_SPLIT_DIM) and is no slab array");
  return groupAlong(a, a.splitGridDim());
}

Shape tileShape(const DistArray &a, const int64_t *desc, const char *call) {
  TileDescView tile(desc);
  if (tile.rank() != a.rank())
    fail(std::string(call) + ": a tile of rank " + std::to_string(tile.rank()) + " for array '" +
         a.name + "' of rank " + std::to_string(a.rank()));
  if (tile.rootOnly())
    fail(std::string(call) + ": a root_only tile description for array '" + a.name + "'");
  Shape shape = tile.shape();
  for (int64_t e : shape)
    if (e < 0)
      fail(std::string(call) + ": a tile of shape " + str(shape) + " for array '" + a.name +
           "'");
  return shape;
}

/// Each member's part of the tile (buffer -> packed index), by coordinate.
std::vector<Selection> memberParts(const DistArray &a, const Group &grp, const Shape &shape,
                                   const int64_t *offsets) {
  std::vector<Selection> parts;
  for (int m = 0; m < grp.size(); ++m) {
    TilePart p = tilePart(a, shape, offsets, grp.coords[m]);
    Selection sel;
    for (size_t i = 0; i < shape.size(); ++i)
      sel.push_back(p.empty() ? Runs{} : Runs{{p.bufStart[i], 0, p.len[i]}});
    parts.push_back(sel);
  }
  return parts;
}

} // namespace
} // namespace tc_rt

using namespace tc_rt;

extern "C" void *tc_rt_gather_tile_start(void *array, void *buf, const int64_t *desc,
                                         const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_gather_tile_start");
  const char *call = "tc_rt_gather_tile_start";
  DistArray &a = *static_cast<DistArray *>(array);
  Shape shape = tileShape(a, desc, call);
  std::memset(buf, 0, product(shape) * a.elemBytes());
  if (a.idle) // past the grid: in no group, the buffer stays zero
    return nullptr;
  Group grp = splitGroup(a, call);
  // Own part: from storage into its place in the tile (disk reads counted).
  TilePart own = tilePart(a, shape, offsets);
  return withElement(a.elem, [&](auto zero) -> Request * {
    using T = decltype(zero);
    T *tile = static_cast<T *>(buf);
    transferBox(a, true, own.storeStart, own.len, tile, shape, own.bufStart,
                tileName(shape, offsets) + " to gather");
    return startGather(a, grp, tile, shape, memberParts(a, grp, shape, offsets), kGatherTag,
                       call);
  });
}

extern "C" void tc_rt_wait(void *request) {
  tc_rt::TraceScope trace("tc_rt_wait");
  if (!request)
    return;
  auto *req = static_cast<Request *>(request);
  req->finish();
  delete req;
}

extern "C" void tc_rt_gather_tile(void *array, void *buf, const int64_t *desc,
                                  const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_gather_tile");
  tc_rt_wait(tc_rt_gather_tile_start(array, buf, desc, offsets));
}

extern "C" void tc_rt_reduce_scatter_tile(void *array, void *buf, const int64_t *desc,
                                          const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_reduce_scatter_tile");
  const char *call = "tc_rt_reduce_scatter_tile";
  DistArray &a = *static_cast<DistArray *>(array);
  Shape shape = tileShape(a, desc, call);
  if (a.idle)
    return;
  Group grp = splitGroup(a, call);
  if (grp.size() == 1)
    return;
  std::vector<Selection> parts = memberParts(a, grp, shape, offsets);
  withElement(a.elem, [&](auto zero) {
    using T = decltype(zero);
    T *tile = static_cast<T *>(buf);
    const Selection &own = parts[grp.me];
    ringReduceScatter<T>(a, grp, tile, shape, parts, kReduceScatterTag, call,
                         [&](int64_t lo, int64_t hi, T *sum) {
                           Selection rows = rowsOf(own, lo, hi);
                           copyBoxes(tile, shape, sum, lengths(rows), rows, /*xToY=*/false);
                         });
  });
}
