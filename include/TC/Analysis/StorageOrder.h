//===- StorageOrder.h - which labels a contraction's local arrays keep contiguous -*- C++ -*-===//
//
// Beyond the papers (which count volumes, not how fast the local product runs):
// the runtime multiplies row-major tiles with OpenBLAS dgemm. When I (the labels
// of A and C, Gao et al.'s eq. 2.2) dwarfs J and K, C[I,J] += A[I,K] B[K,J] is a
// dgemm with a long M and short N and K, which OpenBLAS runs fastest with the
// long index contiguous (column-major); storing C as [J, I] and A as [K, I]
// gives it that shape (bench/README.md, 4-index: 131072 x 64 x 64 at 41 instead
// of 26-33 GFLOP/s per core). Plain C++ over the problem's labels and extents.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_STORAGEORDER_H
#define TC_ANALYSIS_STORAGEORDER_H

#include "TC/Analysis/ContractionPlanner.h"

namespace mlir::tc {

/// How much larger I must be than J and than K for I to be stored contiguous.
inline constexpr double kLongIRatio = 64;

/// True when A and C should be stored with the labels of I last (contiguous):
/// the volume of I (labels of A and C) is at least kLongIRatio times that of J
/// (labels of B and C) and of K (labels of A and B).
bool prefersIContiguous(const ContractionProblem &problem);

} // namespace mlir::tc

#endif // TC_ANALYSIS_STORAGEORDER_H
