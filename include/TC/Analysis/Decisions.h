//===- Decisions.h - the planners' decisions --------------------*- C++ -*-===//
//
// The enums generated from Decisions.td, their one definition: the analyses
// decide in them and the dialect's attributes record them.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_DECISIONS_H
#define TC_ANALYSIS_DECISIONS_H

#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

#include "TC/Analysis/Decisions.h.inc"

namespace mlir::tc {

/// A, B, C: the operands of C = A * B in order.
inline constexpr Operand kOperands[] = {Operand::A, Operand::B, Operand::C};
/// The other input: B for A, A for B.
inline constexpr Operand otherInput(Operand x) { return x == Operand::A ? Operand::B : Operand::A; }

/// One T per operand, indexed by it.
template <typename T> struct PerOperand {
  T values[3] = {};
  T &operator[](Operand x) { return values[static_cast<unsigned>(x)]; }
  const T &operator[](Operand x) const { return values[static_cast<unsigned>(x)]; }
  T *begin() { return values; }
  T *end() { return values + 3; }
  const T *begin() const { return values; }
  const T *end() const { return values + 3; }
};

} // namespace mlir::tc

#endif // TC_ANALYSIS_DECISIONS_H
