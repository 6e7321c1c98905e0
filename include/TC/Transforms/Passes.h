//===- Passes.h - tc passes -------------------------------------*- C++ -*-===//
#ifndef TC_TRANSFORMS_PASSES_H
#define TC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tc {

#define GEN_PASS_DECL
#include "TC/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TC/Transforms/Passes.h.inc"

} // namespace mlir::tc

#endif // TC_TRANSFORMS_PASSES_H
