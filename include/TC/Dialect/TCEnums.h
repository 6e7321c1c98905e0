//===- TCEnums.h - tc enumerations ------------------------------*- C++ -*-===//
#ifndef TC_DIALECT_TCENUMS_H
#define TC_DIALECT_TCENUMS_H

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

#include "TC/Dialect/TCEnums.h.inc"

#endif // TC_DIALECT_TCENUMS_H
