//===- TCToLinalg.h - tc ops to linalg --------------------------*- C++ -*-===//
//
// The serial meaning of tc ops as linalg: the tc-convert-to-linalg pass and its
// patterns, public so that another compiler can run them in its own conversion.
//
//===----------------------------------------------------------------------===//
#ifndef TC_CONVERSION_TCTOLINALG_TCTOLINALG_H
#define TC_CONVERSION_TCTOLINALG_TCTOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace tc {

#define GEN_PASS_DECL_CONVERTTCTOLINALG
#include "TC/Conversion/Passes.h.inc"

/// Adds one conversion pattern per tc op with a serial meaning:
///   - tc.contract, tc.sum, tc.multi_contract -> linalg.generic (one loop per
///     label, summed labels reductions), after a zero-filled tensor.empty for `=`;
///   - with `useContract`, a binary tc.contract that linalg.contract can express
///     (see tc-convert-to-linalg) -> linalg.contract with the same indexing maps;
///   - tc.redistribute -> its source (on one process it moves nothing).
/// The patterns create arith, linalg and tensor ops, which the caller's
/// ConversionTarget must accept, and change no types.
void populateTCToLinalgConversionPatterns(RewritePatternSet &patterns,
                                          bool useContract = false);

/// Adds the pattern turning a local tile contraction (tc.tile_contract, on
/// buffers) into memref.subviews of its three sub-tiles (offsets, the labels'
/// extents, its steps as strides) and one linalg.generic adding alpha times
/// the product into C's: for compilers that generate the local kernel
/// themselves (tc-lower-to-runtime's tile-contraction=linalg). It creates
/// arith, linalg and memref ops.
void populateTileContractToLinalgPatterns(RewritePatternSet &patterns);

} // namespace tc
} // namespace mlir

#endif // TC_CONVERSION_TCTOLINALG_TCTOLINALG_H
