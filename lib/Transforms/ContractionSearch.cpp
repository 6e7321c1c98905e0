//===- ContractionSearch.cpp - Gao et al.'s search, once per contraction --===//
#include "ContractionSearch.h"

#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/IR/Action.h"

using namespace mlir;
using namespace mlir::tc;

namespace {
/// One run of planContraction's search, as an action other tools can count,
/// log or (with a debug counter) skip.
struct PlannerSearchAction : public tracing::ActionImpl<PlannerSearchAction> {
  using Base = tracing::ActionImpl<PlannerSearchAction>;
  using Base::Base;
  static constexpr StringLiteral tag = "tc-planner-search";
};
} // namespace

const PlanResult &ContractionSearch::search(ContractOp op, const ContractionProblem &problem,
                                            const MachineModel &machine,
                                            const PlanDecisions &decisions) {
  std::deque<Search> &done = searches[op.getOperation()];
  for (const Search &s : done)
    if (sameDecisions(s.decisions, decisions))
      return s.result;
  Search s{decisions, {}};
  bool ran = false;
  IRUnit unit = op.getOperation();
  op.getContext()->executeAction<PlannerSearchAction>(
      [&] {
        s.result = planContraction(problem, machine, decisions);
        ran = true;
      },
      unit);
  if (!ran)
    s.result.error = "the planner's search was skipped (--mlir-debug-counter)";
  done.push_back(std::move(s));
  return done.back().result;
}

const PlanResult &ContractionSearch::choose(ContractOp op, const ContractionProblem &problem,
                                            const MachineModel &machine,
                                            const PlanDecisions &decisions) {
  for (const Search &s : searches[op.getOperation()])
    if (s.result.chosen &&
        choiceStands(s.decisions, s.result.candidates[*s.result.chosen], decisions))
      return s.result;
  return search(op, problem, machine, decisions);
}

LogicalResult mlir::tc::planEachContraction(
    ModuleOp module, ContractionSearch &search, bool emitRemarks,
    llvm::function_ref<void(ContractOp, const ContractionProblem &, const ContractionPlan &)>
        onPlanned) {
  bool failedAny = false;
  module.walk([&](ContractOp op) {
    // Formulas of an operator tree are planned together by tc-fuse-distribute,
    // block-sparse contractions by tc-plan-block-sparse.
    if (op->hasAttr(TCDialect::getFusionAttrName()) ||
        op->hasAttr(TCDialect::getBlockPlanAttrName()))
      return;
    // The function's own machine when specialized for a process count.
    FailureOr<MachineModel> machine = getMachineModel(op);
    if (failed(machine)) {
      failedAny = true;
      return;
    }
    FailureOr<ContractionProblem> problem = buildProblem(op);
    if (failed(problem)) {
      failedAny = true;
      return;
    }
    PlanDecisions decisions = readDecisions(getPlan(op));
    const MachineModel forOp = forElementType(*machine, op.getResult().getType().getElementType());
    const PlanResult &result = emitRemarks ? search.search(op, *problem, forOp, decisions)
                                           : search.choose(op, *problem, forOp, decisions);
    if (emitRemarks)
      for (const std::string &remark : result.remarks)
        op.emitRemark() << remark;
    if (!result.chosen) {
      op.emitError() << result.error;
      failedAny = true;
      return;
    }
    onPlanned(op, *problem, result.candidates[*result.chosen]);
  });
  return failure(failedAny);
}

LogicalResult mlir::tc::recordPlanFields(ModuleOp module, ContractionSearch &search,
                                         PlanFields fields, bool emitRemarks) {
  return planEachContraction(module, search, emitRemarks,
                             [&](ContractOp op, const ContractionProblem &,
                                 const ContractionPlan &chosen) {
                               op->setAttr(TCDialect::getPlanAttrName(),
                                           mergePlan(op.getContext(), getPlan(op), chosen,
                                                     fields));
                             });
}
