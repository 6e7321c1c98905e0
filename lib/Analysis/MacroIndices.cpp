//===- MacroIndices.cpp - a contraction as C(I,J) += A(I,K) B(J,K) --------===//
#include "TC/Analysis/MacroIndices.h"

namespace mlir::tc {

MacroIndicesOrError mapToMacroIndices(const IndexSpace &space,
                                      const std::vector<std::string> &lhs,
                                      const std::vector<std::string> &rhs,
                                      const std::vector<std::string> &result) {
  std::map<std::string, IndexRole> roles = classifyBinary(lhs, rhs, result);
  MacroIndicesOrError out;
  MacroIndices &m = out.value;
  // I, J and L in result order; K and sumA in A's order, sumB in B's.
  for (const std::string &label : result) {
    IndexRole role = roles.at(label);
    (role == IndexRole::Batch ? m.L : role == IndexRole::I ? m.I : m.J).push_back(label);
  }
  for (const std::string &label : lhs) {
    IndexRole role = roles.at(label);
    if (role == IndexRole::K || role == IndexRole::SumA)
      (role == IndexRole::K ? m.K : m.sumA).push_back(label);
  }
  for (const std::string &label : rhs)
    if (roles.at(label) == IndexRole::SumB)
      m.sumB.push_back(label);
  auto extent = [&](const std::vector<std::string> &labels) {
    return static_cast<double>(space.volume(labels));
  };
  m.sizes = {extent(m.I), extent(m.J), extent(m.K), extent(m.L)};
  return out;
}

} // namespace mlir::tc
