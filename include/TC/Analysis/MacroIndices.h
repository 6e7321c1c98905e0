//===- MacroIndices.h - a contraction as C(I,J) += A(I,K) B(J,K) -*- C++ -*-===//
//
// Gao et al. section 2 (eq. 2.2) treat every contraction as a generalized matrix
// multiplication over macro-indices: I = labels of A and C, J = labels of B and C,
// K = labels of A and B. This maps labels of any order onto that form.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_MACROINDICES_H
#define TC_ANALYSIS_MACROINDICES_H

#include "TC/Analysis/IndexSpace.h"
#include "TC/Analysis/OutOfCoreCostModel.h"

#include <string>
#include <vector>

namespace mlir::tc {

/// The macro-indices of a binary contraction, each in the order the labels appear
/// in the result (I, J, L) or in A (K, sumA) or B (sumB). Empty I or J (pure
/// reduction, outer product over one side) and empty K (pure product) are
/// allowed; their extent is 1. Batch labels L (in A, B and C) are a loop around
/// the contraction (docs/Derivations.md D30); labels in one input only (sumA,
/// sumB) are summed out of it before the contraction and take no part in the
/// model's sizes.
struct MacroIndices {
  std::vector<std::string> I, J, K;
  MacroSizes sizes; ///< products of the member extents
  std::vector<std::string> L, sumA, sumB;
};

struct MacroIndicesOrError {
  MacroIndices value;
  std::string error; ///< empty on success
  explicit operator bool() const { return error.empty(); }
};

/// Maps a well-formed binary contraction (see buildIndexSpace) onto
/// C(L,I,J) += A(L,I,K) * B(L,J,K), with the one-input labels apart.
MacroIndicesOrError mapToMacroIndices(const IndexSpace &space,
                                      const std::vector<std::string> &lhs,
                                      const std::vector<std::string> &rhs,
                                      const std::vector<std::string> &result);

} // namespace mlir::tc

#endif // TC_ANALYSIS_MACROINDICES_H
