//===- ProgramEntry.cpp - the program's entry, tc_main --------------------===//
#include "ProgramEntry.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

func::FuncOp mlir::tc::createLoweredFunction(func::FuncOp planned) {
  OpBuilder b(planned);
  auto lowered = func::FuncOp::create(b, planned.getLoc(), planned.getSymName(),
                                      b.getFunctionType({}, {}));
  for (StringRef name : {tc::TCDialect::getMachineAttrName(),
                         tc::TCDialect::getStatementAttrName(),
                         tc::TCDialect::getIntermediateAttrName(),
                         tc::TCDialect::getInMemoryAttrName()})
    if (Attribute attr = planned->getAttr(name))
      lowered->setAttr(name, attr);
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
  for (StringAttr name : functions) {
    func::CallOp::create(b, loc, name.getValue(), TypeRange{}, ValueRange{});
    // A statement of a program (tc-split-program) starts by saying so.
    auto callee = module.lookupSymbol<func::FuncOp>(name);
    auto statement = callee ? callee->getAttrOfType<StringAttr>(
                                  tc::TCDialect::getStatementAttrName())
                            : StringAttr();
    if (statement && !callee.isExternal()) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&callee.getBody().front());
      tc::BeginStatementOp::create(b, callee.getLoc(), statement.getValue(),
                                   callee->hasAttr(tc::TCDialect::getIntermediateAttrName()),
                                   callee->hasAttr(tc::TCDialect::getInMemoryAttrName()));
    }
  }
  // Statements run in the order of their functions in the module (the
  // program's order), whichever lowering made them.
  llvm::DenseMap<StringRef, unsigned> position;
  for (auto [i, f] : llvm::enumerate(module.getOps<func::FuncOp>()))
    position[f.getSymName()] = i;
  SmallVector<func::CallOp> calls(entry.getBody().front().getOps<func::CallOp>());
  llvm::stable_sort(calls, [&](func::CallOp x, func::CallOp y) {
    return position.lookup(x.getCallee()) < position.lookup(y.getCallee());
  });
  for (func::CallOp call : calls)
    call->moveBefore(entry.getBody().back().getTerminator());
  return success();
}
