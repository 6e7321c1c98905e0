//===- TCOps.h - tc operations ----------------------------------*- C++ -*-===//
#ifndef TC_DIALECT_TCOPS_H
#define TC_DIALECT_TCOPS_H

#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCTypes.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TC/Analysis/IndexSpace.h"

namespace mlir::tc {
/// The state of tc's runtime besides operands: MPI traffic, disk files,
/// counters. Tile ops that talk to other processes or to files read and write
/// it, so passes never reorder two of them.
struct RuntimeResource : public SideEffects::Resource::Base<RuntimeResource> {
  StringRef getName() final { return "tc.runtime"; }
};
} // namespace mlir::tc

#define GET_OP_CLASSES
#include "TC/Dialect/TCOps.h.inc"

namespace mlir::tc {

/// The index space of a labeled op (contract, sum, multi_contract): labels in loop
/// order (result labels first, then summed ones) with their extents, or why the op's
/// labels and types do not form one.
IndexSpaceOrError computeIndexSpace(TypeRange inputTypes, ArrayAttr inputLabels,
                                        ArrayAttr resultLabels, Type resultType);

/// The coefficient of a labeled op as an attribute for its builder: none for 1.
template <typename OpTy> FloatAttr scaleAttr(OpTy op) {
  return op.getScale().convertToDouble() == 1.0 ? FloatAttr() : op.getScaleAttr();
}

} // namespace mlir::tc

#endif // TC_DIALECT_TCOPS_H
