//===- Redistribute.cpp - moving an array between distributions -----------===//
//
// Stages 1 and 3 of Gao et al.'s Overhead(PA) (section 2.3): an array arrives in
// one distribution and the algorithm needs another. Every element a process needs
// comes from the process that holds its block in the source distribution and has
// the receiver's coordinates along the grid dimensions the source does not split
// (so replicas share the sending), or from the process's own copy. P-1 rounds of
// pairwise exchanges (round k: send to rank+k, receive from rank-k), each in
// chunks of rows bounded by chunk_bytes, so out-of-core arrays stay out of core.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <algorithm>

namespace tc::rt {
namespace {

struct Box {
  Shape start, len;
  bool empty() const {
    return std::any_of(len.begin(), len.end(), [](int64_t l) { return l <= 0; });
  }
};

/// The global box `rank` holds of `a` (its current block, or its sub-block of
/// a split dimension; everything when replicated; its slab when a slab).
Box heldBox(const DistArray &a, int rank) {
  Box b{Shape(a.rank(), 0), a.extents};
  if (a.kind == TC_RT_DISTRIBUTED) {
    std::vector<int> at = a.coordsOf(rank);
    for (int d = 0; d < a.rank(); ++d) {
      b.start[d] = a.blockStart(d, at) + a.subStart(d, at);
      b.len[d] = a.subLen(d, at);
    }
  }
  if (a.kind == TC_RT_SLAB) {
    auto [lo, hi] = a.slabRange(rank);
    b.start[0] = lo;
    b.len[0] = hi - lo;
  }
  return b;
}

Box intersect(const Box &x, const Box &y) {
  Box r{Shape(x.start.size()), Shape(x.start.size())};
  for (size_t d = 0; d < x.start.size(); ++d) {
    r.start[d] = std::max(x.start[d], y.start[d]);
    r.len[d] = std::min(x.start[d] + x.len[d], y.start[d] + y.len[d]) - r.start[d];
  }
  return r;
}

/// Storage coordinates of global `start` in `a` as held by this process.
Shape storageStart(const DistArray &a, const Box &held, const Shape &start) {
  Shape s(start.size());
  for (size_t d = 0; d < start.size(); ++d)
    s[d] = start[d] - held.start[d];
  return s;
}

/// True if src's block held by `holder` is what `rank` must receive from it:
/// `rank` does not hold that block itself and `holder` has `rank`'s coordinates
/// along every grid dimension src does not split (a split grid dimension,
/// TC_RT_ARRAY_DIM_SPLIT_DIM, splits).
bool sends(const DistArray &src, int holder, int rank) {
  if (holder == rank)
    return false;
  std::vector<int> h = src.coordsOf(holder), r = src.coordsOf(rank);
  bool sameBlock = true;
  for (size_t g = 0; g < src.grid.size(); ++g) {
    bool split = src.kind == TC_RT_DISTRIBUTED &&
                 (std::find(src.gridDim.begin(), src.gridDim.end(), int64_t(g)) !=
                      src.gridDim.end() ||
                  src.splitGridDim() == static_cast<int>(g));
    if (split && h[g] != r[g])
      sameBlock = false;
    if (!split && h[g] != r[g])
      return false;
  }
  return !sameBlock;
}

int64_t numChunks(const Box &box) {
  return box.empty() ? 0 : (box.len[0] + rowsPerChunk(box.len) - 1) / rowsPerChunk(box.len);
}

/// Rows [i * step, ...) of `box` as a box.
Box chunk(const Box &box, int64_t i) {
  Box c = box;
  int64_t step = rowsPerChunk(box.len);
  c.start[0] += i * step;
  c.len[0] = std::max<int64_t>(0, std::min(step, box.len[0] - i * step));
  return c;
}

} // namespace
} // namespace tc::rt

using namespace tc::rt;

extern "C" void tc_rt_redistribute(void *source, void *destination) {
  tc::rt::TraceScope trace("tc_rt_redistribute");
  DistArray &src = *static_cast<DistArray *>(source);
  DistArray &dst = *static_cast<DistArray *>(destination);
  if (src.extents != dst.extents)
    fail("redistributing '" + src.name + "': extents " + str(src.extents) + " and " +
         str(dst.extents) + " differ");
  const int P = ctx().size, me = ctx().rank;
  Box mySrc = heldBox(src, me), myDst = heldBox(dst, me);
  std::vector<double> out, in;
  // Local part: what this process already holds (anything it would otherwise
  // receive from a replica of its own block).
  Box local = intersect(mySrc, myDst);
  for (int64_t i = 0; i < numChunks(local); ++i) {
    Box c = chunk(local, i);
    in.resize(product(c.len));
    transferBox(src, true, storageStart(src, mySrc, c.start), c.len, in.data(), c.len,
                Shape(c.len.size(), 0), "a block to redistribute");
    transferBox(dst, false, storageStart(dst, myDst, c.start), c.len, in.data(), c.len,
                Shape(c.len.size(), 0), "a redistributed block");
  }
  for (int k = 1; k < P; ++k) {
    int to = (me + k) % P, from = (me - k + P) % P;
    Box sendBox{Shape(src.rank(), 0), Shape(src.rank(), 0)};
    Box recvBox = sendBox;
    if (sends(src, me, to))
      sendBox = intersect(mySrc, heldBox(dst, to));
    if (sends(src, from, me))
      recvBox = intersect(heldBox(src, from), myDst);
    // Both sides of every pair must make the same number of calls.
    long long n = std::max(numChunks(sendBox), numChunks(recvBox)), all;
    MPI_Allreduce(&n, &all, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    for (int64_t i = 0; i < all; ++i) {
      Box sc = chunk(sendBox, i), rc = chunk(recvBox, i);
      int64_t ns = sendBox.empty() ? 0 : product(sc.len);
      int64_t nr = recvBox.empty() ? 0 : product(rc.len);
      out.resize(ns);
      in.resize(nr);
      if (ns)
        transferBox(src, true, storageStart(src, mySrc, sc.start), sc.len, out.data(), sc.len,
                    Shape(sc.len.size(), 0), "a block to redistribute");
      MPI_Sendrecv(out.data(), static_cast<int>(ns), MPI_DOUBLE, to, 11, in.data(),
                   static_cast<int>(nr), MPI_DOUBLE, from, 11, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      counters().bytesSent += 8.0 * ns;
      counters().bytesReceived += 8.0 * nr;
      if (nr)
        transferBox(dst, false, storageStart(dst, myDst, rc.start), rc.len, in.data(), rc.len,
                    Shape(rc.len.size(), 0), "a redistributed block");
    }
  }
}
