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
// that shares their other coordinates.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_REDISTRIBUTIONTRAFFIC_H
#define TC_ANALYSIS_REDISTRIBUTIONTRAFFIC_H

#include <cstdint>
#include <vector>

namespace mlir::tc {

/// How each rank holds one dimension of an array (the runtime's DistArray).
struct HeldDim {
  int64_t extent = 1;
  int64_t gridDim = -1; ///< blocks along this grid dimension; -1: whole
  int64_t skewDim = -1; ///< grid dimension whose coordinate is added to the block index
  int64_t cyclic = 0;   ///< block-cyclic block size along gridDim; 0: ceil-sized blocks
  bool slab = false;    ///< ceil(extent / P)-row slabs, slab r on rank r (dimension 0
                        ///< of a slab array)
};

/// An array on a grid of P = product(grid) ranks (row-major coordinates).
struct ArrayHolding {
  std::vector<int64_t> grid;
  bool distributed = true; ///< false: every rank holds all of it (replicated,
                           ///< gathered, slab): such a source sends nothing
  std::vector<HeldDim> dims;
  /// Bit g set: only the ranks at coordinate 0 along grid dimension g hold the
  /// array (a `1` entry; the runtime's DistArray::firstSlice). No dimension may
  /// be split along such a grid dimension.
  int64_t firstSlice = 0;
};

/// Elements each rank sends, receives and copies locally (row-major rank
/// order) moving an array from `from` to `to` (same extents, same number of
/// ranks).
struct RedistributionTraffic {
  std::vector<int64_t> sent, received, kept;
};
RedistributionTraffic redistributionTraffic(const ArrayHolding &from, const ArrayHolding &to);

} // namespace mlir::tc

#endif // TC_ANALYSIS_REDISTRIBUTIONTRAFFIC_H
