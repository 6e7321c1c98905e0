//===- TCTypes.h - tc types -------------------------------------*- C++ -*-===//
#ifndef TC_DIALECT_TCTYPES_H
#define TC_DIALECT_TCTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "TC/Dialect/TCAttrs.h"

#define GET_TYPEDEF_CLASSES
#include "TC/Dialect/TCTypes.h.inc"

#endif // TC_DIALECT_TCTYPES_H
