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

#include "TC/Layout/ArrayLayout.h"

#include <cstdint>
#include <vector>

namespace mlir::tc {

/// Elements each rank sends, receives and copies locally (row-major rank
/// order) moving an array from `from` to `to` (same extents, same number of
/// ranks).
struct RedistributionTraffic {
  std::vector<int64_t> sent, received, kept;
};
/// Held as the runtime holds them (the layout library: blocks, cyclic blocks,
/// skew, slabs, first slices; a split's sub-blocks count as their block, which
/// its group shares).
RedistributionTraffic redistributionTraffic(const tc_layout::ArrayLayout &from,
                                            const tc_layout::ArrayLayout &to);

} // namespace mlir::tc

#endif // TC_ANALYSIS_REDISTRIBUTIONTRAFFIC_H
