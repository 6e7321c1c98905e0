//===- TCDialect.cpp - the tc dialect -------------------------------------===//
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tc;

#include "TC/Dialect/TCDialect.cpp.inc"

void TCDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "TC/Dialect/TCOps.cpp.inc"
      >();
}

/// Discardable `tc.*` attributes on other ops: `tc.machine` belongs on a module and
/// must hold a #tc.machine.
LogicalResult TCDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == getMachineAttrName()) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError() << "'" << getMachineAttrName()
                               << "' belongs on a builtin.module, not on '"
                               << op->getName() << "'";
    if (!isa<MachineAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getMachineAttrName()
                               << "' must be a #tc.machine attribute, got "
                               << attr.getValue();
    return success();
  }
  return op->emitOpError() << "unknown tc attribute '" << attr.getName().getValue()
                           << "'; tc defines only '" << getMachineAttrName()
                           << "' as a discardable attribute";
}
