//===- CollectiveVolumes.h - what tc's collectives move, rank by rank -*- C++ -*-===//
//
// The elements each rank sends and receives in the runtime's whole-array
// collectives (lib/Runtime/Collectives.cpp), exactly, uneven pieces included:
// the ring all-gather of an array dealt out in dim-0 slabs of ceil(rows / P)
// rows, and the in-place all-reduce of n elements in chunks (recursive
// doubling for P a power of two, else a ring reduce-scatter and all-gather
// over P segments of near-equal length). The model's per-process figures
// ([G] 4.2-4.3) are their averages; these are what each rank's counters show.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_COLLECTIVEVOLUMES_H
#define TC_ANALYSIS_COLLECTIVEVOLUMES_H

#include <cstdint>

namespace mlir::tc {

/// Elements sent and received by one rank.
struct RankTraffic {
  int64_t sent = 0, received = 0;
};

/// Ring all-gather over P ranks of `rows` rows of `rowElems` elements each,
/// rank q starting with rows [q s, min(rows, (q + 1) s)), s = ceil(rows / P);
/// a scalar (rows = 1, rowElems = 1) is rank 0's. Rank r sends every slab but
/// its successor's and receives every slab but its own.
RankTraffic ringAllGather(int64_t rows, int64_t rowElems, int64_t P, int64_t r);

/// Scratch elements rank r reads and writes in the out-of-core all-gather of
/// `rows` rows of `rowElems` (disk to disk): every slab it forwards is read,
/// every slab it receives written. A scalar (`scalar`; rows = rowElems = 1) is
/// forwarded from memory: rank 0 reads it, every other rank writes it.
int64_t ringAllGatherDisk(int64_t rows, int64_t rowElems, bool scalar, int64_t P, int64_t r);

/// The in-place all-reduce of `n` elements over P ranks, `chunk` elements at a
/// time (the runtime's staging chunks).
RankTraffic allReduce(int64_t n, int64_t chunk, int64_t P, int64_t r);

} // namespace mlir::tc

#endif // TC_ANALYSIS_COLLECTIVEVOLUMES_H
