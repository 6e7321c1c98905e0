//===- MacroIndices.cpp - a contraction as C(I,J) += A(I,K) B(J,K) --------===//
#include "TC/Analysis/MacroIndices.h"

namespace mlir::tc {

MacroIndicesOrError mapToMacroIndices(const IndexSpace &space,
                                      const std::vector<std::string> &lhs,
                                      const std::vector<std::string> &rhs,
                                      const std::vector<std::string> &result) {
  std::map<std::string, IndexRole> roles = classifyBinary(lhs, rhs, result);
  MacroIndicesOrError out;
  auto reject = [&](const std::string &label, const char *why) {
    out.error = "label '" + label + "' " + why +
                "; the out-of-core model (Gao et al. eq. 2.2) covers "
                "C(I,J) += A(I,K) * B(J,K) only";
    return out;
  };
  // I and J in result order; K in A's order.
  for (const std::string &label : result) {
    IndexRole role = roles.at(label);
    if (role == IndexRole::Batch)
      return reject(label, "appears in both inputs and the result (a batch index)");
    (role == IndexRole::I ? out.value.I : out.value.J).push_back(label);
  }
  for (const std::string &label : lhs) {
    IndexRole role = roles.at(label);
    if (role == IndexRole::SumA)
      return reject(label, "is summed but appears only in the first input");
    if (role == IndexRole::K)
      out.value.K.push_back(label);
  }
  for (const std::string &label : rhs)
    if (roles.at(label) == IndexRole::SumB)
      return reject(label, "is summed but appears only in the second input");
  auto extent = [&](const std::vector<std::string> &labels) {
    return static_cast<double>(space.volume(labels));
  };
  out.value.sizes = {extent(out.value.I), extent(out.value.J), extent(out.value.K)};
  return out;
}

} // namespace mlir::tc
