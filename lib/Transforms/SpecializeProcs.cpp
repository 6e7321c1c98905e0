//===- SpecializeProcs.cpp - the tc-specialize-procs pass -----------------===//
//
// One executable for several process counts: every function holding
// contractions is copied once per count, each copy carrying its own machine, so
// that each is planned and lowered for its P; tc-lower-to-runtime makes the
// entry run the copy for the run's MPI_Comm_size.
//
//===----------------------------------------------------------------------===//
#include "MachineSetup.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallSet.h"

namespace mlir::tc {
#define GEN_PASS_DEF_SPECIALIZEPROCS
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

bool holdsContractions(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return isa<ContractOp, SumOp, MultiContractOp, RedistributeOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct SpecializeProcsPass : public tc::impl::SpecializeProcsBase<SpecializeProcsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (specializeProcs.empty())
      return;
    llvm::SmallSet<int64_t, 8> seen;
    for (int64_t p : specializeProcs) {
      if (p < 1 || !seen.insert(p).second) {
        module.emitError() << "specialize-procs: " << p
                           << (p < 1 ? " is not a process count (at least 1)"
                                     : " appears twice");
        return signalPassFailure();
      }
    }
    SmallVector<func::FuncOp> work;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && holdsContractions(func))
        work.push_back(func);
    for (func::FuncOp func : work) {
      MachineAttr machine = getEnclosingMachine(func);
      if (!machine) {
        func.emitError() << "@" << func.getSymName()
                         << ": specializing for process counts needs a machine model "
                            "(run tc-set-machine first)";
        return signalPassFailure();
      }
      if (!SymbolTable::symbolKnownUseEmpty(func, module)) {
        func.emitError() << "@" << func.getSymName()
                         << " is called; only the program's entry functions (called by "
                            "none) can be specialized for process counts";
        return signalPassFailure();
      }
      Operation *after = func;
      for (int64_t p : specializeProcs) {
        std::string name = (func.getSymName() + ".p" + Twine(p)).str();
        if (Operation *clash = module.lookupSymbol(name)) {
          clash->emitError() << "'" << name << "' is the name of @" << func.getSymName()
                             << " specialized for " << p << " processes; rename this symbol";
          return signalPassFailure();
        }
        func::FuncOp copy = func.clone();
        copy.setSymName(name);
        copy->setAttr(TCDialect::getMachineAttrName(), withProcsAndMemory(machine, p, machine.getMemBytes()));
        module.getBody()->getOperations().insertAfter(after->getIterator(), copy);
        after = copy;
      }
      func.erase();
    }
  }
};

} // namespace
