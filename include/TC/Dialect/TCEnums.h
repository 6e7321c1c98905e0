//===- TCEnums.h - tc enumerations ------------------------------*- C++ -*-===//
//
// The dialect's own enums (TCEnums.td) and the planners' decisions
// (TC/Analysis/Decisions.h, declared once in Decisions.td), which tc's
// attributes parse and print as their keywords.
//
//===----------------------------------------------------------------------===//
#ifndef TC_DIALECT_TCENUMS_H
#define TC_DIALECT_TCENUMS_H

#include "TC/Analysis/Decisions.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <type_traits>

#include "TC/Dialect/TCEnums.h.inc"

namespace mlir::tc {

/// A decision enum's summary (the error messages' name for it) and values.
template <typename E> struct DecisionEnumInfo;

#define TC_DECISION_ENUM(E, SUMMARY)                                                               \
  template <> struct DecisionEnumInfo<E> {                                                         \
    static constexpr llvm::StringLiteral summary = SUMMARY;                                        \
    static constexpr unsigned maxValue = getMaxEnumValFor##E();                                    \
    static std::optional<E> fromValue(unsigned v) { return symbolize##E(v); }                      \
  };
TC_DECISION_ENUM(CommMethod, "communication method")
TC_DECISION_ENUM(ParallelAlgorithm, "parallel algorithm")
TC_DECISION_ENUM(Operand, "operand")
TC_DECISION_ENUM(TileMemory, "how out-of-core tiles share memory")
TC_DECISION_ENUM(ReadOrder, "disk read order")
TC_DECISION_ENUM(SumVariant, "partial-sum combination")
TC_DECISION_ENUM(BlockSchedule, "how a block-sparse task pool runs")
#undef TC_DECISION_ENUM

template <typename E, typename = void> struct IsDecisionEnum : std::false_type {};
template <typename E>
struct IsDecisionEnum<E, std::void_t<decltype(DecisionEnumInfo<E>::summary)>> : std::true_type {};

/// "[a, b, c]": E's keywords.
template <typename E> std::string decisionKeywords() {
  std::string list = "[";
  for (unsigned v = 0; v <= DecisionEnumInfo<E>::maxValue; ++v)
    if (std::optional<E> value = DecisionEnumInfo<E>::fromValue(v))
      list += (list.size() > 1 ? ", " : "") + stringifyEnum(*value).str();
  return list + "]";
}

template <typename E, std::enable_if_t<IsDecisionEnum<E>::value, int> = 0>
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, E value) {
  return os << stringifyEnum(value);
}

} // namespace mlir::tc

namespace mlir {

/// A decision enum as a parameter of a tc attribute: its keyword.
template <typename E> struct FieldParser<E, std::enable_if_t<tc::IsDecisionEnum<E>::value, E>> {
  static FailureOr<E> parse(AsmParser &parser) {
    SMLoc loc = parser.getCurrentLocation();
    std::string keyword;
    if (failed(parser.parseKeywordOrString(&keyword)))
      return failure();
    if (std::optional<E> value = tc::symbolizeEnum<E>(keyword))
      return *value;
    return parser.emitError(loc) << "expected one of " << tc::decisionKeywords<E>() << " for "
                                 << tc::DecisionEnumInfo<E>::summary << ", got: " << keyword;
  }
};

template <typename E>
struct FieldParser<std::optional<E>,
                   std::enable_if_t<tc::IsDecisionEnum<E>::value, std::optional<E>>> {
  static FailureOr<std::optional<E>> parse(AsmParser &parser) {
    FailureOr<E> value = FieldParser<E>::parse(parser);
    if (failed(value))
      return failure();
    return std::optional<E>(*value);
  }
};

} // namespace mlir

#endif // TC_DIALECT_TCENUMS_H
