//===- CollectiveVolumes.cpp - what tc's collectives move, rank by rank ---===//
#include "TC/Analysis/CollectiveVolumes.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>

namespace mlir::tc {

namespace {

/// Rows of rank q's slab (a ceil-sized block of the rows).
int64_t slabRows(int64_t rows, int64_t P, int64_t q) {
  return tc_layout::blockLength(rows, P, q);
}

/// Length of segment q of the ring all-reduce of n elements (balanced).
int64_t segment(int64_t n, int64_t P, int64_t q) { return tc_layout::balancedLength(n, P, q); }

RankTraffic allReduceChunk(int64_t n, int64_t P, int64_t r) {
  if (P == 1 || n == 0)
    return {};
  if ((P & (P - 1)) == 0) { // recursive doubling: the whole chunk each step
    int64_t steps = 0;
    for (int64_t m = 1; m < P; m <<= 1)
      ++steps;
    return {n * steps, n * steps};
  }
  // Reduce-scatter sends every segment but r + 1's and receives all but r's;
  // the all-gather sends all but r + 2's and receives all but r + 1's.
  auto seg = [&](int64_t q) { return segment(n, P, ((q % P) + P) % P); };
  return {2 * n - seg(r + 1) - seg(r + 2), 2 * n - seg(r) - seg(r + 1)};
}

} // namespace

RankTraffic ringAllGather(int64_t rows, int64_t rowElems, int64_t P, int64_t r) {
  if (P == 1)
    return {};
  return {(rows - slabRows(rows, P, (r + 1) % P)) * rowElems,
          (rows - slabRows(rows, P, r)) * rowElems};
}

int64_t ringAllGatherDisk(int64_t rows, int64_t rowElems, bool scalar, int64_t P, int64_t r) {
  if (P == 1)
    return 0;
  if (scalar)
    return 1;
  RankTraffic t = ringAllGather(rows, rowElems, P, r);
  return t.sent + t.received;
}

RankTraffic allReduce(int64_t n, int64_t chunk, int64_t P, int64_t r) {
  RankTraffic total;
  for (int64_t o = 0; o < n; o += chunk) {
    RankTraffic t = allReduceChunk(std::min(chunk, n - o), P, r);
    total.sent += t.sent;
    total.received += t.received;
  }
  return total;
}

} // namespace mlir::tc
