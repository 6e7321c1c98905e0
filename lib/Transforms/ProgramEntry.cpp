//===- ProgramEntry.cpp - the program's entry, tc_main --------------------===//
#include "ProgramEntry.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

func::FuncOp mlir::tc::createLoweredFunction(func::FuncOp planned) {
  OpBuilder b(planned);
  auto lowered = func::FuncOp::create(b, planned.getLoc(), planned.getSymName(),
                                      b.getFunctionType({}, {}));
  StringRef machine = tc::TCDialect::getMachineAttrName();
  if (Attribute attr = planned->getAttr(machine))
    lowered->setAttr(machine, attr);
  return lowered;
}

LogicalResult mlir::tc::appendToProgramEntry(ModuleOp module, ArrayRef<StringAttr> functions) {
  OpBuilder b(module.getContext());
  Location loc = module.getLoc();
  Operation *existing = module.lookupSymbol("tc_main");
  auto entry = dyn_cast_or_null<func::FuncOp>(existing);
  if (existing && (!entry || entry.isExternal() || entry.getNumArguments() ||
                   entry.getNumResults()))
    return existing->emitError()
           << "'tc_main' is the program's entry, which tc generates: a function "
              "with a body, no arguments and no results; rename this symbol";
  if (!entry) {
    b.setInsertionPointToEnd(module.getBody());
    entry = func::FuncOp::create(b, loc, "tc_main", b.getFunctionType({}, {}));
    b.setInsertionPointToStart(entry.addEntryBlock());
    func::ReturnOp::create(b, loc);
  }
  b.setInsertionPoint(entry.getBody().back().getTerminator());
  for (StringAttr name : functions)
    func::CallOp::create(b, loc, name.getValue(), TypeRange{}, ValueRange{});
  return success();
}
