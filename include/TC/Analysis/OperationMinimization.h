//===- OperationMinimization.h - the cheapest binary tree of a product -*- C++ -*-===//
//
// The Tensor Contraction Engine's first stage (Lam, Sadayappan and Wenger;
// Cociorva et al. section 1): a product of n tensors summed over the labels
// absent from the result is evaluated as a tree of binary contractions, and
// the trees' flop counts differ by orders of magnitude. An exact search over
// subsets of operands (dynamic programming, 3^n steps: 6,561 for 8 operands)
// finds the tree with the fewest flops; among trees within `tolerance` of the
// fewest, the one whose largest intermediate is smallest (the memory-
// constrained fusion planner decides the rest). docs/Derivations.md D34.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_OPERATIONMINIMIZATION_H
#define TC_ANALYSIS_OPERATIONMINIMIZATION_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tc {

/// A product of tensors: each operand's labels (ids into `extents`) and the
/// result's; a label absent from the result is summed.
struct ProductProblem {
  std::vector<std::vector<int>> operands;
  std::vector<int> result;
  std::vector<double> extents;
};

/// One binary contraction of the tree: operands `lhs` and `rhs` (ids < n are
/// the problem's operands, n + k the k-th step's result), its result's labels
/// and its flops (2 x the product of every label it loops over).
struct ProductStep {
  int lhs, rhs;
  std::vector<int> labels;
  double flops;
};

struct ProductTree {
  std::vector<ProductStep> steps; ///< in evaluation order; the last is the result
  double flops = 0;
  double largestIntermediate = 0; ///< elements of the largest non-final step result
  std::string error;
};

/// Flops of evaluating the product as one loop nest over all its labels (n - 1
/// multiplications and an addition per point): what a tree is compared with.
double directFlops(const ProductProblem &p);

/// The tree with the fewest flops, ties (within `tolerance`, relative) broken
/// by the smallest largest intermediate. At most 16 operands.
ProductTree minimizeOperations(const ProductProblem &p, double tolerance = 0.02);

} // namespace mlir::tc

#endif // TC_ANALYSIS_OPERATIONMINIMIZATION_H
