//===- ProgramEntry.cpp - the program's entry, tc_main --------------------===//
#include "ProgramEntry.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

func::FuncOp mlir::tc::createLoweredFunction(func::FuncOp planned) {
  OpBuilder b(planned);
  auto lowered = func::FuncOp::create(b, planned.getLoc(), planned.getSymName(),
                                      b.getFunctionType({}, {}));
  for (StringRef name : tc::TCDialect::getStatementMarkNames())
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
  for (StringAttr name : functions) {
    // A statement of a program (tc-split-program) starts by saying so.
    auto callee = module.lookupSymbol<func::FuncOp>(name);
    auto statement = callee ? callee->getAttrOfType<StringAttr>(
                                  tc::TCDialect::getStatementAttrName())
                            : StringAttr();
    if (statement && !callee.isExternal()) {
      b.setInsertionPointToStart(&callee.getBody().front());
      tc::BeginStatementOp::create(b, callee.getLoc(), statement.getValue(),
                                   callee->hasAttr(tc::TCDialect::getIntermediateAttrName()),
                                   callee->hasAttr(tc::TCDialect::getInMemoryAttrName()),
                                   callee->hasAttr(tc::TCDialect::getReciprocalAttrName()),
                                   callee->hasAttr(tc::TCDialect::getKeepInputsAttrName()));
    }
  }
  // The entry is rebuilt whole: every function it calls, in the order of
  // the module (the program's order, whichever lowering made them), the
  // statements of one loop (#tc.loop) repeated until tc.end_iteration says
  // stop.
  llvm::SetVector<StringRef> callees;
  entry.walk([&](func::CallOp call) { callees.insert(call.getCallee()); });
  for (StringAttr name : functions)
    callees.insert(name.getValue());
  llvm::DenseMap<StringRef, unsigned> position;
  for (auto [i, f] : llvm::enumerate(module.getOps<func::FuncOp>()))
    position[f.getSymName()] = i;
  SmallVector<StringRef> order(callees.begin(), callees.end());
  llvm::stable_sort(
      order, [&](StringRef x, StringRef y) { return position.lookup(x) < position.lookup(y); });
  Block &body = entry.getBody().front();
  SmallVector<Operation *> old;
  for (Operation &op : body.without_terminator())
    old.push_back(&op);
  for (Operation *op : llvm::reverse(old))
    op->erase();
  auto loopOf = [&](StringRef callee) {
    auto f = module.lookupSymbol<func::FuncOp>(callee);
    return f ? f->getAttrOfType<tc::LoopAttr>(tc::TCDialect::getLoopAttrName()) : tc::LoopAttr();
  };
  b.setInsertionPoint(body.getTerminator());
  for (size_t i = 0; i < order.size();) {
    tc::LoopAttr loop = loopOf(order[i]);
    if (!loop) {
      func::CallOp::create(b, loc, order[i++], TypeRange{}, ValueRange{});
      continue;
    }
    // do { statements; } while (tc.end_iteration)
    auto whileOp = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
    OpBuilder inner(whileOp.getContext());
    inner.setInsertionPointToStart(inner.createBlock(&whileOp.getBefore()));
    tc::BeginIterationOp::create(inner, loc, loop);
    for (; i < order.size() && loopOf(order[i]) == loop; ++i)
      func::CallOp::create(inner, loc, order[i], TypeRange{}, ValueRange{});
    Value again = tc::EndIterationOp::create(inner, loc, inner.getI1Type(), loop);
    scf::ConditionOp::create(inner, loc, again, ValueRange{});
    inner.setInsertionPointToStart(inner.createBlock(&whileOp.getAfter()));
    scf::YieldOp::create(inner, loc);
  }
  return success();
}
