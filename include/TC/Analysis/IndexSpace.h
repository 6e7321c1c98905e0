//===- IndexSpace.h - labels, extents and index roles -----------*- C++ -*-===//
//
// The index space of a contraction: which labels exist, their extents, and which are
// summed. Plain C++ over labels and extents (no MLIR types) so that the dialect
// verifier, the planners and unit tests share one definition of a well-formed
// contraction.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_INDEXSPACE_H
#define TC_ANALYSIS_INDEXSPACE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

/// Extent of a dimension whose size is not known statically.
constexpr int64_t kDynamicExtent = -1;

/// One operand of a contraction: a label per dimension and the dimension sizes.
struct LabeledShape {
  std::vector<std::string> labels;
  std::vector<int64_t> extents;
};

/// The labels of a contraction with their extents.
struct IndexSpace {
  /// Every label in order of first appearance: result labels first, then the
  /// summed labels in the order the inputs mention them.
  std::vector<std::string> labels;
  /// Labels absent from the result, summed over (same order as in `labels`).
  std::vector<std::string> summed;
  std::map<std::string, int64_t> extents;

  int64_t extent(const std::string &label) const { return extents.at(label); }
  /// Product of the extents of `labels` (1 for none).
  int64_t volume(const std::vector<std::string> &labels) const;
};

/// An IndexSpace, or the reason the operands do not form one.
struct IndexSpaceOrError {
  std::optional<IndexSpace> space;
  std::string error;
  explicit operator bool() const { return space.has_value(); }
};

/// True if `label` can name an index: an identifier ([A-Za-z_][A-Za-z0-9_]*).
bool isValidLabel(const std::string &label);

/// Checks one operand on its own: one valid label per dimension, no label twice,
/// static extents. Returns the problem, naming the operand as `name`, or "".
std::string checkLabeledShape(const LabeledShape &shape, const std::string &name);

/// Checks that `inputs` and `result` form a contraction: one valid label per
/// dimension, no label twice in one operand, static extents, one extent per label
/// everywhere it appears, and every result label present in some input. Error
/// messages name the operand ("input #N" or "the result"), the label and the
/// conflicting values.
IndexSpaceOrError buildIndexSpace(const std::vector<LabeledShape> &inputs,
                                  const LabeledShape &result);

/// Role of a label in a binary contraction C = A * B, in the notation of Gao et al.
/// section 2 (eq. 2.2: C(I,J) = A(I,K) * B(J,K)).
enum class IndexRole {
  I,     ///< in A and C, not B (external index of A)
  J,     ///< in B and C, not A (external index of B)
  K,     ///< in A and B, not C (contracted)
  Batch, ///< in A, B and C (Hadamard-type pure product index)
  SumA,  ///< in A only: summed before the product
  SumB,  ///< in B only: summed before the product
};

const char *toString(IndexRole role);

/// Classifies every label of a binary contraction. Labels must come from a
/// well-formed contraction (see buildIndexSpace).
std::map<std::string, IndexRole>
classifyBinary(const std::vector<std::string> &lhs,
               const std::vector<std::string> &rhs,
               const std::vector<std::string> &result);

} // namespace mlir::tc

#endif // TC_ANALYSIS_INDEXSPACE_H
