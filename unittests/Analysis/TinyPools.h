//===- TinyPools.h - small block-sparse task pools for the tests --*- C++ -*-===//
#ifndef TC_UNITTESTS_ANALYSIS_TINYPOOLS_H
#define TC_UNITTESTS_ANALYSIS_TINYPOOLS_H

#include "TC/Analysis/BlockSparse.h"

namespace mlir::tc::pools {

/// C[i,j] = A[i,k] * B[k,j], two segments of one element per label, all
/// blocks present: 8 tasks, 4 bricks of 8 bytes per tensor.
inline BlockTaskPool tinyMatmul() {
  BlockContraction c;
  c.labelSegments = {{1, 1}, {1, 1}, {1, 1}};
  c.aLabels = {0, 2};
  c.bLabels = {2, 1};
  c.cLabels = {0, 1};
  return buildTaskPool(c, 8);
}

} // namespace mlir::tc::pools

#endif // TC_UNITTESTS_ANALYSIS_TINYPOOLS_H
