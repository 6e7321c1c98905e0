//===- TCDialect.h - the tc dialect -----------------------------*- C++ -*-===//
#ifndef TC_DIALECT_TCDIALECT_H
#define TC_DIALECT_TCDIALECT_H

#include "mlir/IR/Dialect.h"

#include "TC/Dialect/TCDialect.h.inc"

#endif // TC_DIALECT_TCDIALECT_H
