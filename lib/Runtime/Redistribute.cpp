//===- Redistribute.cpp - moving an array between distributions -----------===//
//
// Stages 1 and 3 of Gao et al.'s Overhead(PA) (section 2.3): an array arrives in
// one distribution and the algorithm needs another. Every element a process needs
// comes from the process that holds its block in the source distribution and has
// the receiver's coordinates along the grid dimensions the source does not split
// (so replicas share the sending), or from the process's own copy. P-1 rounds of
// pairwise exchanges (round k: send to rank+k, receive from rank-k), each in
// chunks of rows bounded by chunk_bytes, so out-of-core arrays stay out of core.
// What moves between two processes is, per dimension, the overlap of the run
// lists they hold (one run per block, one per owned block of a block-cyclic
// dimension): any two layouts, only real elements, packed in global order.
// Either array's grid may leave ranks idle (holding nothing of it): every
// rank takes part in the rounds. The two arrays may store the tensor's
// dimensions in different orders (an intermediate handed from the statement
// that computed it to one that reads it, KeptTensors.cpp): overlaps are taken
// and messages packed in the dataset's order, each side permuting its chunk.
// What each rank sends and receives depends on the two layouts alone: it is
// worked out once per pair (a loop hands the same tensors over every
// iteration; a CCSD iteration at small bases spent more on it than on moving
// the elements).
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <algorithm>
#include <array>
#include <map>

namespace tc_rt {
namespace {

/// The runs (storage -> global) `rank` holds of `a` (with `loading`, those a
/// load fills: a gathered array's slab), in the dataset's order of dimensions.
Selection heldBy(const DistArray &a, int rank, bool loading = false) {
  Selection held = a.runsOf(rank, loading), inDatasetOrder(held.size());
  for (size_t d = 0; d < held.size(); ++d)
    inDatasetOrder[a.datasetPlace(d)] = std::move(held[d]);
  return inDatasetOrder;
}

/// True if src's block held by `holder` is what `rank` must receive from it:
/// `rank` does not hold that block itself and `holder` has `rank`'s coordinates
/// along every grid dimension src does not split (a split grid dimension,
/// TC_RT_ARRAY_DIM_SPLIT_DIM, splits), 0 along src's first slices.
bool sends(const DistArray &src, int holder, int rank) {
  if (holder == rank || !src.inGrid(holder))
    return false;
  std::vector<int> h = src.coordsOf(holder), r = src.replicaCoordsOf(rank);
  const bool holdsSrc = src.inGrid(rank);
  bool sameBlock = true;
  for (size_t g = 0; g < src.grid.size(); ++g) {
    bool split =
        src.kind == Holding::Distributed &&
        (std::find(src.gridDim.begin(), src.gridDim.end(), int64_t(g)) != src.gridDim.end() ||
         src.splitGridDim() == static_cast<int>(g));
    // A rank past src's grid holds none of it and has no coordinates: the
    // holders at coordinate 0 of the grid dimensions src does not split send
    // it (one copy of each block, as the output writes). A rank off src's
    // first slice gets it from the replica on the slice that shares its other
    // coordinates.
    int want = r.empty() ? 0 : r[g];
    if (split && h[g] != want)
      sameBlock = false;
    if (!split && h[g] != want)
      return false;
  }
  return !holdsSrc || !sameBlock;
}

/// Chunks of an overlap (runs from source to destination storage): ranges of
/// rows of dim 0 in the packed (global) order, bounded by chunk_bytes.
int64_t numChunks(const Selection &ov, int64_t elemBytes) {
  if (elements(ov) == 0)
    return 0;
  Shape len = lengths(ov);
  const int64_t step = rowsPerChunk(len, elemBytes);
  return (len[0] + step - 1) / step;
}
Selection chunk(const Selection &ov, int64_t i, int64_t elemBytes) {
  Selection c = ov;
  int64_t step = rowsPerChunk(lengths(ov), elemBytes);
  c[0] = packedRange(ov[0], i * step, (i + 1) * step);
  return c;
}

/// One dimension of a chunk (runs from source to destination storage) as
/// runs from one side's storage (the source's when `source`) to the index in
/// the packed buffer.
Runs packedSide(const Runs &chunkRuns, bool source) {
  Runs side;
  for (const Run &x : chunkRuns)
    side.push_back({source ? x.from : x.to, 0, x.len});
  return packed(side, /*fromSide=*/true);
}

/// Moves chunk `c` of an overlap (dataset order) between `a`'s storage (its
/// source side when `source`, else its destination side) and the packed
/// buffer `buf` (dataset order), through `stored` (the chunk packed in a's
/// storage order) when a stores the dimensions in another order.
template <typename T>
void transferChunk(DistArray &a, bool source, const Selection &c, PooledVector<T> &buf,
                   PooledVector<T> &stored) {
  const size_t n = c.size();
  Selection runs(n); // per storage dimension, from storage (a's side) to the packed index
  Shape len(n);
  bool permuted = false;
  for (size_t d = 0; d < n; ++d) {
    const int64_t f = a.datasetPlace(d);
    permuted |= f != static_cast<int64_t>(d);
    runs[d] = packedSide(c[f], source);
    len[d] = total(c[f]);
  }
  const char *what = source ? "a block to redistribute" : "a redistributed block";
  if (source)
    buf.resize(elements(c));
  if (!permuted)
    return transferRuns(a, source, runs, buf.data(), len, what);
  // Storage dimension d is dimension datasetPlace(d) of the buffer.
  Shape packedStride = rowMajorStrides(lengths(c)), strideInBuf(n);
  for (size_t d = 0; d < n; ++d)
    strideInBuf[d] = packedStride[a.datasetPlace(d)];
  stored.resize(elements(c));
  if (source) {
    transferRuns(a, true, runs, stored.data(), len, what);
    copyStrided(buf.data(), strideInBuf, stored.data(), rowMajorStrides(len), len);
  } else {
    copyStrided(stored.data(), rowMajorStrides(len), buf.data(), strideInBuf, len);
    transferRuns(a, false, runs, stored.data(), len, what);
  }
}

/// A scalar (rank 0): its holders are the ranks in its grid (and on its first
/// slices), which a Selection of no dimensions cannot tell apart; one round per
/// peer, one element or none each way.
template <typename T> void redistributeScalar(DistArray &src, DistArray &dst) {
  const int P = ctx().size, me = ctx().rank;
  PooledVector<T> value(1), unused;
  const Selection scalar;
  if (src.inGrid(me) && dst.inGrid(me)) {
    transferChunk(src, true, scalar, value, unused);
    transferChunk(dst, false, scalar, value, unused);
  }
  for (int k = 1; k < P; ++k) {
    int to = (me + k) % P, from = (me - k + P) % P;
    const int ns = dst.inGrid(to) && sends(src, me, to) ? 1 : 0;
    const int nr = dst.inGrid(me) && sends(src, from, me) ? 1 : 0;
    PooledVector<T> out(1), in(1);
    if (ns)
      transferChunk(src, true, scalar, out, unused);
    MPI_Sendrecv(out.data(), ns, Element<T>::mpi(), to, 12, in.data(), nr, Element<T>::mpi(),
                 from, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    counters().bytesSent += static_cast<double>(sizeof(T)) * ns;
    counters().bytesReceived += static_cast<double>(sizeof(T)) * nr;
    if (nr)
      transferChunk(dst, false, scalar, in, unused);
  }
}

/// `a`'s storage strides per dimension of the dataset.
Shape datasetStrides(const DistArray &a) {
  const Shape stored = rowMajorStrides(a.storeShape);
  Shape strides(a.rank());
  for (int d = 0; d < a.rank(); ++d)
    strides[a.datasetPlace(d)] = stored[d];
  return strides;
}

/// A chunk of what a redistribution sends or receives in one call, with what
/// packing it in memory needs, worked out with the schedule.
struct Piece {
  Selection chunk;    ///< runs from source to destination storage (dataset order)
  Selection packed;   ///< this side's runs, from its storage to the packed index
  Shape packedStride; ///< of the packed buffer (the chunk in the dataset's order)
  int64_t elements = 0;
};

/// Piece `i` of `overlap` on its source side (`source`) or destination
/// side; what packing in memory needs only for an array `inMemory`.
Piece pieceOf(const Selection &overlap, int64_t i, int64_t elemBytes, bool source, bool inMemory) {
  Piece p;
  p.chunk = chunk(overlap, i, elemBytes);
  p.elements = elements(p.chunk);
  if (!inMemory)
    return p;
  p.packedStride = rowMajorStrides(lengths(p.chunk));
  for (const Runs &r : p.chunk)
    p.packed.push_back(packedSide(r, source));
  return p;
}

/// The local part of a redistribution between two arrays in memory, storage
/// to storage (strides per dimension of the dataset): one strided copy per
/// box (runs from src to dst storage, in the dataset's order of dimensions),
/// either storage order.
template <typename T>
void copyLocal(T *src, const Shape &srcStride, T *dst, const Shape &dstStride,
               const Selection &local) {
  const size_t n = local.size();
  forEachBox(local, [&](const Shape &from, const Shape &to, const Shape &len) {
    int64_t s = 0, t = 0;
    for (size_t i = 0; i < n; ++i) {
      s += from[i] * srcStride[i];
      t += to[i] * dstStride[i];
    }
    copyStrided(dst + t, dstStride, src + s, srcStride, len);
  });
}

/// Packs piece `p` from an array's storage in memory (strides per dimension
/// of the dataset) into `buf` (`toBuffer`), or unpacks `buf` into it: one
/// strided copy per box, either storage order. transferChunk's path for
/// arrays in memory, without the scratch I/O layer's calls per run (on two
/// processes, a tenth of a small CCSD iteration went to packing a few
/// hundred elements at a time).
template <typename T>
void packInMemory(T *storage, const Shape &stride, const Piece &p, T *buf, bool toBuffer) {
  const size_t n = p.packed.size();
  forEachBox(p.packed, [&](const Shape &stored, const Shape &packed, const Shape &len) {
    int64_t s = 0, at = 0;
    for (size_t i = 0; i < n; ++i) {
      s += stored[i] * stride[i];
      at += packed[i] * p.packedStride[i];
    }
    if (toBuffer)
      copyStrided(buf + at, p.packedStride, storage + s, stride, len);
    else
      copyStrided(storage + s, stride, buf + at, p.packedStride, len);
  });
}

/// What a redistribution from `src` to `dst` moves on this rank: the overlap
/// it holds of both, and per round (send to rank+k, receive from rank-k) what
/// it sends and receives, in as many calls (chunks) as the most chunks any
/// rank sends in that round (a pair's two sides then agree). Every rank works
/// out what each rank holds of either array from the layouts alone: the
/// rounds' lengths need no messages.
struct Schedule {
  struct Round {
    int to, from;
    Selection sent, received;
    int64_t calls;
    /// This rank's pieces, one per call while it has any (the calls after
    /// them send or receive nothing here).
    std::vector<Piece> sends, receives;
  };
  Selection local;
  std::vector<Round> rounds;
  Shape srcStride, dstStride; ///< the arrays' storage strides per dimension of the dataset
};

Schedule scheduleOf(const DistArray &src, const DistArray &dst, bool loading) {
  const int64_t e = src.elemBytes();
  const int P = ctx().size, me = ctx().rank;
  std::vector<Selection> srcHeld(P), dstHeld(P);
  for (int r = 0; r < P; ++r)
    srcHeld[r] = heldBy(src, r), dstHeld[r] = heldBy(dst, r, loading);
  Schedule s;
  s.local = overlap(srcHeld[me], dstHeld[me]);
  const Selection none(src.rank());
  auto sent = [&](int holder, int rank) {
    return sends(src, holder, rank) ? overlap(srcHeld[holder], dstHeld[rank]) : none;
  };
  for (int k = 1; k < P; ++k) {
    const int to = (me + k) % P, from = (me - k + P) % P;
    Schedule::Round round{to, from, sent(me, to), sent(from, me), 0};
    for (int r = 0; r < P; ++r)
      round.calls = std::max(round.calls, r == me     ? numChunks(round.sent, e)
                                          : r == from ? numChunks(round.received, e)
                                                      : numChunks(sent(r, (r + k) % P), e));
    for (int64_t i = 0; i < numChunks(round.sent, e); ++i)
      round.sends.push_back(pieceOf(round.sent, i, e, /*source=*/true, !src.onDisk));
    for (int64_t i = 0; i < numChunks(round.received, e); ++i)
      round.receives.push_back(pieceOf(round.received, i, e, /*source=*/false, !dst.onDisk));
    s.rounds.push_back(std::move(round));
  }
  s.srcStride = datasetStrides(src);
  s.dstStride = datasetStrides(dst);
  return s;
}

/// `src` to `dst`'s schedule, worked out once per pair of layouts (with the
/// arrays' shifts and slices, where they are held, the chunk size): a loop
/// hands the same tensors over between the same layouts in every iteration.
const Schedule &scheduleFor(const DistArray &src, const DistArray &dst, bool loading) {
  // Two arrays as created (unshifted whole tensors, a hand-over's) are known
  // by their layouts' numbers: no key to build.
  auto asCreated = [](const DistArray &a) {
    return a.layoutId >= 0 && a.sliceFull.empty() &&
           std::all_of(a.shifts.begin(), a.shifts.end(), [](int64_t s) { return s == 0; });
  };
  if (asCreated(src) && asCreated(dst)) {
    static std::map<std::array<int64_t, 6>, Schedule> byNumbers;
    const std::array<int64_t, 6> key{src.layoutId, dst.layoutId,    2 * src.onDisk + dst.onDisk,
                                     loading,      src.elemBytes(), ctx().chunkBytes};
    auto it = byNumbers.find(key);
    if (it == byNumbers.end())
      it = byNumbers.emplace(key, scheduleOf(src, dst, loading)).first;
    return it->second;
  }
  static std::map<std::vector<int64_t>, Schedule> known;
  std::vector<int64_t> key = src.layoutKey;
  auto append = [&](const Shape &v) {
    key.push_back(static_cast<int64_t>(v.size()));
    key.insert(key.end(), v.begin(), v.end());
  };
  append(dst.layoutKey);
  for (const DistArray *a : {&src, &dst}) {
    append(a->shifts);
    append(a->sliceFull);
    append(a->sliceShift);
    key.push_back(a->onDisk);
  }
  key.insert(key.end(), {loading, src.elemBytes(), ctx().chunkBytes, ctx().size});
  auto it = known.find(key);
  if (it == known.end())
    it = known.emplace(std::move(key), scheduleOf(src, dst, loading)).first;
  return it->second;
}

template <typename T> void redistribute(DistArray &src, DistArray &dst, bool loading) {
  if (src.rank() == 0)
    return redistributeScalar<T>(src, dst);
  const int64_t e = sizeof(T);
  const Schedule &s = scheduleFor(src, dst, loading);
  PooledVector<T> out, in, stored;
  // Local part: what this process already holds (anything it would otherwise
  // receive from a replica of its own block).
  if (!src.onDisk && !dst.onDisk && elements(s.local) > 0)
    copyLocal(src.mem<T>(), s.srcStride, dst.mem<T>(), s.dstStride, s.local);
  else
    for (int64_t i = 0; i < numChunks(s.local, e); ++i) {
      Selection c = chunk(s.local, i, e);
      transferChunk(src, true, c, in, stored);
      transferChunk(dst, false, c, in, stored);
    }
  for (const Schedule::Round &round : s.rounds)
    for (int64_t i = 0; i < round.calls; ++i) {
      static const Piece none;
      const Piece &sp = i < static_cast<int64_t>(round.sends.size()) ? round.sends[i] : none;
      const Piece &rp = i < static_cast<int64_t>(round.receives.size()) ? round.receives[i] : none;
      const int64_t ns = sp.elements, nr = rp.elements;
      out.resize(ns);
      in.resize(nr);
      if (ns && !src.onDisk)
        packInMemory(src.mem<T>(), s.srcStride, sp, out.data(), /*toBuffer=*/true);
      else if (ns)
        transferChunk(src, true, sp.chunk, out, stored);
      MPI_Sendrecv(out.data(), static_cast<int>(ns), Element<T>::mpi(), round.to, 11, in.data(),
                   static_cast<int>(nr), Element<T>::mpi(), round.from, 11, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      counters().bytesSent += static_cast<double>(e) * ns;
      counters().bytesReceived += static_cast<double>(e) * nr;
      if (nr && !dst.onDisk)
        packInMemory(dst.mem<T>(), s.dstStride, rp, in.data(), /*toBuffer=*/false);
      else if (nr)
        transferChunk(dst, false, rp.chunk, in, stored);
    }
}

} // namespace
} // namespace tc_rt

using namespace tc_rt;

extern "C" void tc_rt_redistribute(void *source, void *destination) {
  tc_rt::TraceScope trace("tc_rt_redistribute");
  DistArray &src = *static_cast<DistArray *>(source);
  DistArray &dst = *static_cast<DistArray *>(destination);
  redistributeArray(src, dst);
}

namespace tc_rt {

void redistributeArray(DistArray &src, DistArray &dst, bool loading) {
  if (src.datasetExtents() != dst.datasetExtents())
    fail("redistributing '" + src.name + "': extents " + str(src.datasetExtents()) + " and " +
         str(dst.datasetExtents()) + " (in the dataset's order) differ");
  if (src.elem != dst.elem)
    fail("redistributing '" + src.name + "': " + elementName(src.elem) + " elements into " +
         elementName(dst.elem) + " ones");
  // Which rank sends a block (`sends`) follows the grid; a slab's rows follow
  // the rank alone, and no plan redistributes from one.
  if (src.kind == Holding::Slab && src.rank() > 0 && ctx().size > 1)
    fail("redistributing '" + src.name + "': from a slab array (rows of dimension 0 per " +
         "process), which the runtime does not redistribute from");
  withElement(src.elem, [&](auto zero) { redistribute<decltype(zero)>(src, dst, loading); });
}

} // namespace tc_rt
