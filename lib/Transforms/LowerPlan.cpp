//===- LowerPlan.cpp - the tc-lower-plan pass -----------------------------===//
//
// Every function holding one planned tc.contract becomes the program of its
// plan's algorithm (AlgorithmLowerings.h); the functions lowered join the
// program's entry.
//
//===----------------------------------------------------------------------===//
#include "AlgorithmLowerings.h"
#include "MachineSetup.h"
#include "ProgramEntry.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Transforms/Passes.h"

namespace mlir::tc {
#define GEN_PASS_DEF_LOWERPLAN
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

struct LowerPlanPass : public tc::impl::LowerPlanBase<LowerPlanPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, ContractOp>> work;
    bool failedAny = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func->hasAttr(TCDialect::getFusionPlanAttrName()))
        continue; // an operator tree: tc-lower-fused's
      SmallVector<ContractOp> contracts(func.getOps<ContractOp>());
      if (contracts.size() > 1) {
        func.emitOpError() << "has " << contracts.size()
                           << " tc.contract ops; tc-lower-plan lowers one per function";
        failedAny = true;
      } else if (contracts.size() == 1) {
        work.push_back({func, contracts.front()});
      }
    }
    if (failedAny)
      return signalPassFailure();
    if (work.empty())
      return;
    SmallVector<StringAttr> lowered;
    for (auto [func, op] : work) {
      StringAttr name = func.getSymNameAttr();
      FailureOr<MachineModel> machine = getMachineModel(func);
      if (failed(machine))
        return signalPassFailure();
      FailureOr<AlgorithmLowering> lowering = lookupAlgorithmLowering(op);
      if (failed(lowering) || failed(lowering->lower(op, func, *machine)))
        return signalPassFailure();
      lowered.push_back(name);
    }
    if (failed(appendToProgramEntry(module, lowered)))
      return signalPassFailure();
  }
};

} // namespace
