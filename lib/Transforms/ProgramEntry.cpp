//===- ProgramEntry.cpp - the program's entry, tc_main --------------------===//
#include "ProgramEntry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

void mlir::tc::appendToProgramEntry(ModuleOp module, ArrayRef<StringAttr> functions) {
  OpBuilder b(module.getContext());
  Location loc = module.getLoc();
  auto entry = module.lookupSymbol<func::FuncOp>("tc_main");
  if (!entry) {
    b.setInsertionPointToEnd(module.getBody());
    entry = func::FuncOp::create(b, loc, "tc_main", b.getFunctionType({}, {}));
    b.setInsertionPointToStart(entry.addEntryBlock());
    func::ReturnOp::create(b, loc);
  }
  b.setInsertionPoint(entry.getBody().back().getTerminator());
  for (StringAttr name : functions)
    func::CallOp::create(b, loc, name.getValue(), TypeRange{}, ValueRange{});
}
