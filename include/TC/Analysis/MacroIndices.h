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
/// in the result (I, J) or in A (K). Empty I or J (pure reduction, outer product
/// over one side) and empty K (pure product) are allowed; their extent is 1.
struct MacroIndices {
  std::vector<std::string> I, J, K;
  MacroSizes sizes; ///< products of the member extents
};

struct MacroIndicesOrError {
  MacroIndices value;
  std::string error; ///< empty on success
  explicit operator bool() const { return error.empty(); }
};

/// Maps a well-formed binary contraction (see buildIndexSpace) onto
/// C(I,J) += A(I,K) * B(J,K). Fails, naming the label, for labels the model does
/// not cover: a label in A, B and C (batch) or in only one input (summed alone).
MacroIndicesOrError mapToMacroIndices(const IndexSpace &space,
                                      const std::vector<std::string> &lhs,
                                      const std::vector<std::string> &rhs,
                                      const std::vector<std::string> &result);

} // namespace mlir::tc

#endif // TC_ANALYSIS_MACROINDICES_H
