//===- DistArray.cpp - which elements a process holds ---------------------===//
//
// The layout arithmetic of a distributed array as the runtime holds it: its
// blocks (TC/Layout/Ownership.h), sub-blocks of split dimensions, slabs,
// block-cyclic rows, and the part of a tile that lies in a process's block.
// The data path is ScratchIO.cpp, the C entry points ArrayEntryPoints.cpp.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

namespace tc_rt {

int64_t product(const Shape &s) {
  int64_t p = 1;
  for (int64_t v : s)
    p *= v;
  return p;
}

using tc_layout::ceilDiv;

/// Coordinates as the runtime's calls take them.
static std::vector<int> narrow(const std::vector<int64_t> &c) {
  return std::vector<int>(c.begin(), c.end());
}

std::vector<int> DistArray::coordsOf(int rank) const { return narrow(ArrayLayout::coordsOf(rank)); }

std::vector<int> DistArray::replicaCoordsOf(int rank) const {
  return narrow(ArrayLayout::replicaCoordsOf(rank));
}

int64_t DistArray::blockStart(int d, const std::vector<int> &at) const {
  if (isCyclic(d))
    fail("internal error: the block start of cyclic dimension " + std::to_string(d) +
         " of array '" + name + "'");
  int64_t p = parts(d);
  if (p == 1 || at.empty())
    return 0;
  return tc_layout::blockStart(extents[d], p, blockIndex(d, at));
}

int64_t DistArray::blockIndex(int d, const std::vector<int> &at) const {
  if (at.empty())
    return 0;
  const int64_t g = gridDim[d];
  return ArrayLayout::blockIndex(d, at, g >= 0 ? shifts[g] : 0);
}

int64_t DistArray::blockLen(int d, const std::vector<int> &at) const {
  if (at.empty())
    return 0;
  return tc_layout::blockLength(extents[d], parts(d), blockIndex(d, at));
}

int64_t DistArray::cyclicCoord(int d, const std::vector<int> &at) const {
  int g = static_cast<int>(gridDim[d]);
  return (at[g] + shifts[g]) % grid[g];
}

int64_t DistArray::localLen(int d, const std::vector<int> &at) const {
  if (!isCyclic(d) || at.empty())
    return blockLen(d, at);
  return tc_layout::cyclicLength(extents[d], cyclic[d], parts(d), cyclicCoord(d, at));
}

Runs DistArray::heldRuns(int d, const std::vector<int> &at) const {
  Runs runs;
  if (at.empty())
    return runs;
  if (isCyclic(d)) {
    // Block I = c + k G is the k-th held (Choi, Dongarra, Walker, section 2).
    int64_t nb = cyclic[d], G = parts(d);
    for (int64_t k = 0, I = cyclicCoord(d, at); I * nb < extents[d]; ++k, I += G)
      runs.push_back({k * nb, I * nb, std::min(nb, extents[d] - I * nb)});
    return runs;
  }
  int64_t len = subLen(d, at);
  if (len > 0)
    runs.push_back({0, blockStart(d, at) + subStart(d, at), len});
  return runs;
}

Selection DistArray::runsOf(int r, bool loading) const {
  Selection sel;
  std::vector<int> at = coordsOf(r); // none past the grid: nothing held
  for (int d = 0; d < rank(); ++d) {
    if (kind == Holding::Distributed) {
      sel.push_back(heldRuns(d, at));
      continue;
    }
    int64_t lo = 0, hi = extents[d];
    bool slab = d == 0 && (kind == Holding::Slab || (kind == Holding::Gathered && loading));
    if (slab)
      std::tie(lo, hi) = slabRange(r);
    // A slab is stored from row 0; a GATHERED array's slab sits at its place.
    Runs runs;
    if (hi > lo)
      runs.push_back({kind == Holding::Slab ? 0 : lo, lo, hi - lo});
    sel.push_back(runs);
  }
  return sel;
}

int64_t layoutNumber(const std::vector<int64_t> &key) {
  static std::map<std::vector<int64_t>, int64_t> numbers;
  return numbers.emplace(key, static_cast<int64_t>(numbers.size())).first->second;
}

void setLayoutKey(DistArray &a) {
  a.layoutKey = ArrayDesc{a}.encode();
  a.layoutId = layoutNumber(a.layoutKey);
}

int64_t heldImage(const tc_layout::ArrayLayout &layout, const std::vector<int64_t> &key,
                  const Shape &shifts) {
  // A gathered array's load fills a slab, all of it on a grid of one process.
  if (layout.kind != Holding::Distributed && layout.kind != Holding::Replicated &&
      !(layout.kind == Holding::Gathered && layout.procs() == 1))
    return -1;
  // Worked out once per layout and shifts (a loop creates the same arrays in
  // every iteration), numbered once per image.
  static std::map<std::vector<int64_t>, int64_t> byLayout;
  static std::map<Shape, int64_t> byImage;
  std::vector<int64_t> at = key;
  for (size_t g = 0; g < shifts.size(); ++g)
    at.push_back(shifts[g] % layout.grid[g]);
  auto it = byLayout.find(at);
  if (it != byLayout.end())
    return it->second;
  DistArray a;
  static_cast<tc_layout::ArrayLayout &>(a) = layout;
  a.shifts = shifts;
  // Per rank its padded block and, per storage dimension, the dataset
  // dimension it is and the runs from storage to global index.
  Shape image;
  for (int r = 0; r < ctx().size; ++r) {
    const Shape block = a.inGrid(r) ? a.paddedBlock() : Shape(a.rank(), 0);
    image.insert(image.end(), block.begin(), block.end());
    const Selection held = a.runsOf(r, /*loading=*/false);
    for (int d = 0; d < a.rank(); ++d) {
      image.push_back(a.datasetPlace(d));
      image.push_back(static_cast<int64_t>(held[d].size()));
      for (const Run &x : held[d])
        image.insert(image.end(), {x.from, x.to, x.len});
    }
  }
  const int64_t number = byImage.emplace(std::move(image), byImage.size()).first->second;
  return byLayout.emplace(std::move(at), number).first->second;
}

int DistArray::splitGridDim() const {
  const int64_t d = splitDimension();
  return d < 0 ? -1 : static_cast<int>(splitDim[d]);
}

// Balanced sub-blocks (COSMA splits its intervals so, Kwasniewski et al.
// section 7.1): a block of L rows split q ways gives the first L mod q members
// floor(L / q) + 1 rows and the others floor(L / q), so no member of a group
// holds nothing while another holds a whole padded sub-block.
int64_t DistArray::subStart(int d, const std::vector<int> &at) const {
  if (splitDim[d] < 0 || at.empty())
    return 0;
  return tc_layout::balancedStart(blockLen(d, at), grid[splitDim[d]], at[splitDim[d]]);
}

int64_t DistArray::subLen(int d, const std::vector<int> &at) const {
  if (splitDim[d] < 0)
    return blockLen(d, at);
  if (at.empty())
    return 0;
  return tc_layout::balancedLength(blockLen(d, at), grid[splitDim[d]], at[splitDim[d]]);
}

std::pair<int64_t, int64_t> DistArray::slabRange(int rank) const {
  const int64_t lo = std::min(extents[0], tc_layout::blockStart(extents[0], ctx().size, rank));
  return {lo, lo + tc_layout::blockLength(extents[0], ctx().size, rank)};
}

bool TilePart::empty() const {
  return std::any_of(len.begin(), len.end(), [](int64_t l) { return l <= 0; });
}

namespace {

/// The rank at grid coordinates `at` of a slab array (row-major, as
/// MPI_Cart_create without reordering numbers them): whose slab it holds.
int slabHolder(const DistArray &a, const std::vector<int> &at) {
  if (at.empty() || at == a.coords)
    return ctx().rank;
  int rank = 0;
  for (size_t g = 0; g < a.grid.size(); ++g)
    rank = rank * static_cast<int>(a.grid[g]) + at[g];
  return rank;
}

} // namespace

TilePart tilePart(const DistArray &a, const Shape &shape, const int64_t *offsets,
                  const std::vector<int> &at) {
  TilePart t;
  const int d = a.rank();
  t.storeStart.resize(d);
  t.len.resize(d);
  t.bufStart.assign(d, 0);
  for (int i = 0; i < d; ++i) {
    int64_t lo = offsets[i], hi = std::min(offsets[i] + shape[i], a.localLen(i, at));
    // Storage holds only rows [s0, s1) of the block: this process's slab of dim
    // 0 (TC_RT_SLAB), or the sub-block at `at` of a split dimension.
    bool slab = i == 0 && a.kind == Holding::Slab;
    bool split = a.splitDim[i] >= 0;
    if (slab || split) {
      auto [s0, s1] = slab ? a.slabRange(slabHolder(a, at))
                           : std::pair<int64_t, int64_t>(a.subStart(i, at),
                                                         a.subStart(i, at) + a.subLen(i, at));
      int64_t slo = std::max(lo, s0), shi = std::min(hi, s1);
      t.bufStart[i] = slo - lo;
      t.storeStart[i] = slo - s0;
      t.len[i] = std::max<int64_t>(0, shi - slo);
    } else {
      t.storeStart[i] = lo;
      t.len[i] = std::max<int64_t>(0, hi - lo);
    }
    if (t.len[i] != shape[i])
      t.whole = false;
  }
  return t;
}

std::string tileName(const Shape &shape, const int64_t *offsets) {
  Shape o(offsets, offsets + shape.size());
  return "tile at " + str(o) + " of shape " + str(shape);
}

} // namespace tc_rt
