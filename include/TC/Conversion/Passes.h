//===- Passes.h - tc conversion passes --------------------------*- C++ -*-===//
#ifndef TC_CONVERSION_PASSES_H
#define TC_CONVERSION_PASSES_H

#include "TC/Dialect/TCDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tc {

#define GEN_PASS_DECL
#include "TC/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TC/Conversion/Passes.h.inc"

} // namespace mlir::tc

#endif // TC_CONVERSION_PASSES_H
