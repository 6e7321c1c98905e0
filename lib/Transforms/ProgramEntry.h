//===- ProgramEntry.h - the program's entry, tc_main ------------*- C++ -*-===//
//
// The runtime's main() calls `tc_main`, which calls every lowered function in
// program order. tc-lower-plan and tc-lower-fused both add to it, in either
// order, so both go through this one helper.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_PROGRAMENTRY_H
#define TC_LIB_TRANSFORMS_PROGRAMENTRY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::tc {

/// Appends calls of `functions` (no arguments, no results) to `tc_main`,
/// creating it when the module has none; fails with an error when the module
/// has a `tc_main` tc did not make (a declaration, another op, a signature).
LogicalResult appendToProgramEntry(ModuleOp module, ArrayRef<StringAttr> functions);

/// The function a lowering builds in place of `planned` (created before it):
/// same name and location, no arguments or results (the program's entry calls
/// it), and the machine of its own it was planned for, if any
/// (tc-specialize-procs), which tc-lower-to-runtime dispatches on.
func::FuncOp createLoweredFunction(func::FuncOp planned);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_PROGRAMENTRY_H
