//===- ProgramCopies.h - a tensor copied as a contraction -------*- C++ -*-===//
//
// A program's passes copy a tensor where one value must be stored under two
// names (tc-split-program, tc-outline-loops): the copy is its product with a
// scalar of ones, planned and run like any contraction.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_PROGRAMCOPIES_H
#define TC_LIB_TRANSFORMS_PROGRAMCOPIES_H

#include "TC/Dialect/TCOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::tc {

/// A splat constant of ones (the constant factor of a copy or a one-tensor term).
bool isOnes(Value v);

/// The scalar of ones a copy of a tensor of `type` multiplies: block-sparse
/// (one block, no segment ids) when the tensor is.
RankedTensorType onesTypeFor(RankedTensorType type);

/// `value` copied: its product with the scalar `ones`, every label kept.
ContractOp createCopy(OpBuilder &b, Location loc, Value value, Value ones);

/// `value` copied into the tensor `name` (tc.name), its scalar of ones made
/// just before it.
ContractOp createNamedCopy(OpBuilder &b, Location loc, Value value, StringRef name);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_PROGRAMCOPIES_H
