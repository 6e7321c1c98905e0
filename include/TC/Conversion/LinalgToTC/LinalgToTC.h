//===- LinalgToTC.h - contraction-shaped linalg ops to tc -------*- C++ -*-===//
//
// Raising: a compiler that produces linalg (from StableHLO, torch-mlir or its
// own front end) hands its contractions to tc's planning and lowering. The
// tc-raise-linalg pass and its patterns, public for other compilers' drivers.
//
//===----------------------------------------------------------------------===//
#ifndef TC_CONVERSION_LINALGTOTC_LINALGTOTC_H
#define TC_CONVERSION_LINALGTOTC_LINALGTOTC_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace tc {

#define GEN_PASS_DECL_RAISELINALGTOTC
#include "TC/Conversion/Passes.h.inc"

/// Adds the pattern raising every linalg op with the contraction interface's
/// shape on tensors (two inputs, one init, projected-permutation indexing
/// maps, a multiply-add body, at least one reduction: linalg.matmul,
/// linalg.batch_matmul, linalg.contract, such a linalg.generic) of static f32
/// or f64 tensors to tc.contract: `%init[out] += %a[..] * %b[..]`, or `=` when
/// the init is a linalg.fill of zero. Labels are named after the loops (d0,
/// d1, ...).
void populateLinalgToTCPatterns(RewritePatternSet &patterns);

} // namespace tc
} // namespace mlir

#endif // TC_CONVERSION_LINALGTOTC_LINALGTOTC_H
