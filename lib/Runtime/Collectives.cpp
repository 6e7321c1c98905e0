//===- Collectives.cpp - shifts, broadcasts and reductions ----------------===//
//
// Every transfer is an MPI_Sendrecv written out here, so the counters
// see exactly the bytes each process sends and receives:
//   shift (Cannon, [G] 2.2):        S per step
//   all-gather of P slabs (ring):   S (P-1)/P  (broadcast of [G] 5.2)
//   all-reduce, P a power of two:   S log2 P   (recursive doubling, [G] 5.3)
//   all-reduce, other P (ring):     2 S (P-1)/P
// The out-of-core versions work on chunks of chunk_bytes: read, transfer, write.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "KeptTensors.h"
#include "StridedCopy.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cstring>

namespace tc_rt {
namespace {

const int kTag = 7;

template <typename T>
void sendrecv(const T *send, int64_t ns, int dest, T *recv, int64_t nr, int src, MPI_Comm comm) {
  if (ns > INT32_MAX || nr > INT32_MAX)
    fail("message of more than 2^31 elements");
  MPI_Sendrecv(send, static_cast<int>(ns), Element<T>::mpi(), dest, kTag, recv,
               static_cast<int>(nr), Element<T>::mpi(), src, kTag, comm, MPI_STATUS_IGNORE);
  counters().bytesSent += static_cast<double>(sizeof(T)) * ns;
  counters().bytesReceived += static_cast<double>(sizeof(T)) * nr;
}

/// One step of a circular shift along grid dim `g` (receive from +1, send to
/// -1): `received` gets the neighbour's n elements of what `sent` is here.
template <typename T> void shiftStep(const T *sent, T *received, int64_t n, MPI_Comm comm, int g) {
  // MPI_Cart_shift(+1) names (source = coord-1, dest = coord+1); this shift sends
  // to coord-1 and receives from coord+1.
  int dest, src;
  MPI_Cart_shift(comm, g, 1, &dest, &src);
  sendrecv(sent, n, dest, received, n, src, comm);
}

/// The same step in place: into a pooled buffer and copied back, because
/// MPI_Sendrecv_replace packs into a temporary it allocates on every call,
/// whose first touch costs more than the message on some VMs (bench/README.md,
/// PUMMA vs pdgemm). Pieces of at most `piece` elements, each sent before the
/// neighbour's takes its place: the buffer is one piece, not a second copy of
/// the data (README, "Memory").
template <typename T>
void shiftInPlace(T *data, int64_t n, MPI_Comm comm, int g, const Shape &grid, int64_t piece) {
  if (grid[g] == 1 || n == 0)
    return;
  Buffer<T> received(std::min(n, piece));
  for (int64_t o = 0; o < n; o += piece) {
    const int64_t m = std::min(piece, n - o);
    shiftStep(data + o, received.data(), m, comm, g);
    std::memcpy(data + o, received.data(), m * sizeof(T));
  }
}

} // namespace

template <typename T> void allreduceOver(T *data, int64_t n, MPI_Comm comm) {
  int P = 1, r = 0;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  if (P == 1 || n == 0)
    return;
  Buffer<T> tmp;
  if ((P & (P - 1)) == 0) {
    tmp.resize(n);
    for (int mask = 1; mask < P; mask <<= 1) {
      int partner = r ^ mask;
      sendrecv(data, n, partner, tmp.data(), n, partner, comm);
      for (int64_t i = 0; i < n; ++i)
        data[i] += tmp[i];
    }
    return;
  }
  // Ring: reduce-scatter then all-gather over P segments.
  auto seg = [&](int s) {
    return std::pair<int64_t, int64_t>(tc_layout::balancedStart(n, P, s),
                                       tc_layout::balancedLength(n, P, s));
  };
  int next = (r + 1) % P, prev = (r + P - 1) % P;
  tmp.resize(n / P + 1);
  for (int step = 0; step < P - 1; ++step) {
    auto [so, sn] = seg((r - step + P) % P);
    auto [ro, rn] = seg((r - step - 1 + 2 * P) % P);
    sendrecv(data + so, sn, next, tmp.data(), rn, prev, comm);
    for (int64_t i = 0; i < rn; ++i)
      data[ro + i] += tmp[i];
  }
  for (int step = 0; step < P - 1; ++step) {
    auto [so, sn] = seg((r + 1 - step + P) % P);
    auto [ro, rn] = seg((r - step + P) % P);
    sendrecv(data + so, sn, next, data + ro, rn, prev, comm);
  }
}

template void allreduceOver<double>(double *, int64_t, MPI_Comm);
template void allreduceOver<float>(float *, int64_t, MPI_Comm);

namespace {
/// In-place sum over all ranks.
template <typename T> void allreduce(T *data, int64_t n) { allreduceOver(data, n, MPI_COMM_WORLD); }
} // namespace
} // namespace tc_rt

using namespace tc_rt;

namespace {
template <typename T>
void shiftTile(DistArray &a, T *buf, const int64_t *desc, const int64_t *offsets) {
  ShiftTileDescView shift(desc);
  int d = static_cast<int>(shift.rank()), g = static_cast<int>(shift.gridDim());
  Shape shape = shift.shape(), sub = shift.subshape();
  if (shape == sub) {
    shiftInPlace(buf, product(shape), a.comm, g, a.grid, chunkElems(sizeof(T)));
    return;
  }
  Shape stride = rowMajorStrides(shape);
  T *view = buf;
  for (int i = 0; i < d; ++i)
    view += offsets[i] * stride[i];
  const int64_t n = product(sub);
  if (a.grid[g] == 1 || n == 0)
    return;
  // Piece by piece, packed, shifted into a second buffer and unpacked from it:
  // the two buffers share one chunk.
  const int64_t half = chunkElems(sizeof(T), 2);
  Buffer<T> packed(std::min(n, half)), received(std::min(n, half));
  forEachPiece(sub, half, [&](const Shape &start, const Shape &len) {
    T *corner = view;
    for (int i = 0; i < d; ++i)
      corner += start[i] * stride[i];
    const Shape packedStride = rowMajorStrides(len);
    const int64_t m = product(len);
    copyStrided(packed.data(), packedStride, corner, stride, len);
    shiftStep(packed.data(), received.data(), m, a.comm, g);
    copyStrided(corner, stride, received.data(), packedStride, len);
  });
}

/// A scalar is rank 0's slab (the others' are empty), passed around the ring
/// like any slab: the messages are those of an uneven all-gather.
template <typename T> void passScalarAround(T &v) {
  const int P = ctx().size, r = ctx().rank;
  const int next = (r + 1) % P, prev = (r + P - 1) % P;
  for (int k = 0; k < P - 1; ++k) {
    const bool sends = (r - k + P) % P == 0, receives = (r - k - 1 + 2 * P) % P == 0;
    sendrecv(&v, sends ? 1 : 0, next, &v, receives ? 1 : 0, prev, MPI_COMM_WORLD);
  }
}

template <typename T>
void broadcastTile(DistArray &a, T *buf, const int64_t *desc, const int64_t *offsets) {
  const int P = ctx().size, r = ctx().rank;
  Shape shape = TileDescView(desc).shape();
  if (shape.empty())
    return passScalarAround(*buf);
  int64_t rowElems = product(shape) / shape[0];
  // Rows of the tile that slab q holds, as [lo, hi) in tile coordinates.
  auto piece = [&](int q) {
    auto [s0, s1] = a.slabRange(q);
    int64_t lo = std::max(offsets[0], s0) - offsets[0];
    int64_t hi = std::min(offsets[0] + shape[0], s1) - offsets[0];
    return std::pair<int64_t, int64_t>(lo, std::max(lo, hi));
  };
  const int next = (r + 1) % P, prev = (r + P - 1) % P;
  for (int step = 0; step < P - 1; ++step) {
    auto [slo, shi] = piece((r - step + P) % P);
    auto [rlo, rhi] = piece((r - step - 1 + 2 * P) % P);
    sendrecv(buf + slo * rowElems, (shi - slo) * rowElems, next, buf + rlo * rowElems,
             (rhi - rlo) * rowElems, prev, MPI_COMM_WORLD);
  }
}

template <typename T> void allgatherArray(DistArray &a) {
  const int P = ctx().size, r = ctx().rank;
  int next = (r + 1) % P, prev = (r + P - 1) % P;
  if (a.rank() == 0) {
    // Forwarded from memory, so only rank 0 reads it and only the others
    // write it (docs/Derivations.md D31).
    T v = 0;
    if (r == 0)
      storageIO(a, true, &v, 0, 1, "the scalar to gather");
    passScalarAround(v);
    if (r != 0)
      storageIO(a, false, &v, 0, 1, "the gathered scalar");
    return;
  }
  int64_t rowElems = product(a.storeShape) / a.storeShape[0], s = a.slabRows();
  // What goes out and what comes in share one chunk.
  int64_t step = rowsPerChunk(a.storeShape, sizeof(T), 2);
  PooledVector<T> out, in;
  for (int k = 0; k < P - 1; ++k) {
    auto [slo, shi] = a.slabRange((r - k + P) % P);
    auto [rlo, rhi] = a.slabRange((r - k - 1 + 2 * P) % P);
    // Every rank makes the same number of transfers (over the largest slab), so
    // neighbours' calls pair up even when the last slabs are short or empty.
    for (int64_t c = 0; c < s; c += step) {
      int64_t ns = std::max<int64_t>(0, std::min(step, shi - slo - c)) * rowElems;
      int64_t nr = std::max<int64_t>(0, std::min(step, rhi - rlo - c)) * rowElems;
      int64_t so = (slo + c) * rowElems, ro = (rlo + c) * rowElems;
      if (!a.onDisk) { // in memory: straight from and into the storage
        sendrecv(a.mem<T>() + so, ns, next, a.mem<T>() + ro, nr, prev, MPI_COMM_WORLD);
        continue;
      }
      out.resize(ns);
      in.resize(nr);
      storageIO(a, true, out.data(), so, ns, "a slab to gather");
      sendrecv(out.data(), ns, next, in.data(), nr, prev, MPI_COMM_WORLD);
      storageIO(a, false, in.data(), ro, nr, "a gathered slab");
    }
  }
}

/// Calls fn(T{}) with T the element type of `array`.
template <typename Fn> void onArray(void *array, Fn &&fn) {
  DistArray &a = *static_cast<DistArray *>(array);
  withElement(a.elem, [&](auto zero) { fn(a, zero); });
}

} // namespace

extern "C" void tc_rt_shift_tile(void *array, void *buf, const int64_t *desc,
                                 const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_shift_tile");
  onArray(array, [&](DistArray &a, auto zero) {
    if (!a.idle) // past the grid: nothing to shift, no neighbours
      shiftTile(a, static_cast<decltype(zero) *>(buf), desc, offsets);
  });
}

extern "C" void tc_rt_broadcast_tile(void *array, void *buf, const int64_t *desc,
                                     const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_broadcast_tile");
  onArray(array, [&](DistArray &a, auto zero) {
    broadcastTile(a, static_cast<decltype(zero) *>(buf), desc, offsets);
  });
}

extern "C" void tc_rt_allreduce_tile(void *buf, const int64_t *desc) {
  tc_rt::TraceScope trace("tc_rt_allreduce_tile");
  AllReduceTileDescView view(desc);
  withElement(view.elem(), [&](auto zero) {
    using T = decltype(zero);
    // A chunk at a time: the partner's part comes into one chunk, not into a
    // second copy of C's tile (README, "Memory").
    T *data = static_cast<T *>(buf);
    const int64_t n = view.elements(), piece = chunkElems(sizeof(T));
    for (int64_t o = 0; o < n; o += piece)
      allreduce(data + o, std::min(piece, n - o));
  });
}

extern "C" void tc_rt_shift_array(void *array, int64_t gridDim) {
  tc_rt::TraceScope trace("tc_rt_shift_array");
  DistArray &a = *static_cast<DistArray *>(array);
  int g = static_cast<int>(gridDim);
  if (g == a.splitGridDim() && a.grid[g] > 1)
    fail("tc_rt_shift_array: array '" + a.name + "' is split into sub-blocks along grid "
         "dimension " + std::to_string(g) + "; shifting along it would move them");
  a.shifts[g] += 1;
  if (a.grid[g] == 1 || a.idle)
    return;
  withElement(a.elem, [&](auto zero) {
    using T = decltype(zero);
    // The chunk read and the one received share one chunk.
    const int64_t half = chunkElems(sizeof(T), 2);
    forEachChunk<T>(a, 0, product(a.storeShape), half, false,
                    [&](T *data, int64_t n) { shiftInPlace(data, n, a.comm, g, a.grid, half); },
                    "a chunk to shift");
  });
}

extern "C" void tc_rt_allreduce_array(void *array) {
  tc_rt::TraceScope trace("tc_rt_allreduce_array");
  DistArray &a = *static_cast<DistArray *>(array);
  if (ctx().size == 1)
    return;
  withElement(a.elem, [&](auto zero) {
    using T = decltype(zero);
    // The chunk read and the partner's part received share one chunk (the
    // plan predicts the all-reduce of half chunks, LowerGaoProgram.cpp).
    forEachChunk<T>(a, 0, product(a.storeShape), chunkElems(sizeof(T), 2), false,
                    [&](T *data, int64_t n) { allreduce(data, n); }, "a chunk to reduce");
  });
}

extern "C" void tc_rt_allgather_array(void *array) {
  tc_rt::TraceScope trace("tc_rt_allgather_array");
  onArray(array, [&](DistArray &a, auto zero) {
    if (ctx().size > 1)
      allgatherArray<decltype(zero)>(a);
    keepGatheredInput(a);
  });
}
