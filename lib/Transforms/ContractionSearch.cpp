//===- ContractionSearch.cpp - Gao et al.'s search on every contraction ---===//
#include "ContractionSearch.h"

#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "TC/Dialect/TCDialect.h"

using namespace mlir;
using namespace mlir::tc;

LogicalResult mlir::tc::planEachContraction(
    ModuleOp module, bool emitRemarks,
    llvm::function_ref<void(ContractOp, const ContractionProblem &, const PlanResult &)>
        onPlanned) {
  FailureOr<MachineModel> machine = getMachineModel(module);
  if (failed(machine))
    return failure();
  bool failedAny = false;
  module.walk([&](ContractOp op) {
    // Formulas of an operator tree are planned together by tc-fuse-distribute.
    if (op->hasAttr(TCDialect::getFusionAttrName()))
      return;
    FailureOr<ContractionProblem> problem = buildProblem(op);
    if (failed(problem)) {
      failedAny = true;
      return;
    }
    PlanResult result = planContraction(*problem, *machine, readDecisions(getPlan(op)));
    if (emitRemarks)
      for (const std::string &remark : result.remarks)
        op.emitRemark() << remark;
    if (!result.chosen) {
      op.emitError() << result.error;
      failedAny = true;
      return;
    }
    onPlanned(op, *problem, result);
  });
  return failure(failedAny);
}

LogicalResult mlir::tc::recordPlanFields(ModuleOp module, PlanFields fields,
                                         bool emitRemarks) {
  return planEachContraction(module, emitRemarks, [&](ContractOp op,
                                                      const ContractionProblem &,
                                                      const PlanResult &r) {
    op->setAttr(TCDialect::getPlanAttrName(),
                mergePlan(op.getContext(), getPlan(op), r.candidates[*r.chosen], fields));
  });
}
