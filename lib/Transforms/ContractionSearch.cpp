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

/// The layouts `problem`'s neighbours hold it in, as text to compare: the
/// statements before and after it, whose plans a later sweep may change
/// (tc-select-algorithm, D59).
static std::string neighboursOf(const ContractionProblem &problem) {
  std::string key;
  auto add = [&](const Layout &l) {
    for (int64_t g : l.grid)
      key += std::to_string(g) + ",";
    for (const std::string &d : l.dims)
      key += d + ",";
    for (int64_t c : l.cyclic)
      key += std::to_string(c) + ",";
    key += ";";
  };
  for (const std::optional<Layout> *held : {&problem.heldA, &problem.heldB, &problem.heldC}) {
    if (*held)
      add(**held);
    key += "|";
  }
  for (const ContractionProblem::Reader &r : problem.readers) {
    add(r.into);
    key += r.whole ? "w|" : "s|";
  }
  return key;
}

const PlanResult &ContractionSearch::search(ContractOp op, const ContractionProblem &problem,
                                            const MachineModel &machine,
                                            const PlanDecisions &decisions) {
  std::deque<Search> &done = searches[op.getOperation()];
  const std::string neighbours = neighboursOf(problem);
  for (const Search &s : done)
    if (sameDecisions(s.decisions, decisions) && s.neighbours == neighbours) {
      lastAnswered[op.getOperation()] = &s;
      return s.result;
    }
  Search s{decisions, neighbours, {}};
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
  lastAnswered[op.getOperation()] = &done.back();
  return done.back().result;
}

const PlanResult &ContractionSearch::choose(ContractOp op, const ContractionProblem &problem,
                                            const MachineModel &machine,
                                            const PlanDecisions &decisions) {
  auto stands = [&](const Search &s) {
    return s.result.chosen &&
           choiceStands(s.decisions, s.result.candidates[*s.result.chosen], decisions);
  };
  // The search whose choice was recorded, then the latest first: a later
  // sweep's search saw the neighbours as they are.
  if (const Search *last = lastAnswered.lookup(op.getOperation()); last && stands(*last))
    return last->result;
  const std::deque<Search> &done = searches[op.getOperation()];
  for (auto s = done.rbegin(); s != done.rend(); ++s)
    if (stands(*s))
      return s->result;
  return search(op, problem, machine, decisions);
}

LogicalResult mlir::tc::planEachContraction(
    ModuleOp module, ContractionSearch &search, bool emitRemarks,
    llvm::function_ref<void(ContractOp, const ContractionProblem &, const ContractionPlan &)>
        onPlanned,
    const llvm::DenseMap<Operation *, PlanAttr> *given) {
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
    PlanDecisions decisions = readDecisions(given ? given->lookup(op) : getPlan(op));
    const MachineModel forOp = forElementType(*machine, op.getResult().getType().getElementType());
    const PlanResult &result = emitRemarks || given ? search.search(op, *problem, forOp, decisions)
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

LogicalResult mlir::tc::planWithReaders(ModuleOp module, ContractionSearch &search,
                                        PlanFields fields, int sweeps) {
  llvm::DenseMap<Operation *, PlanAttr> given;
  module.walk([&](ContractOp op) { given[op] = getPlan(op); });
  if (failed(recordPlanFields(module, search, fields, /*emitRemarks=*/true)))
    return failure();
  // Each later sweep plans every contraction again from its given decisions,
  // its producers' plans of this sweep and its readers' of the last: a
  // choice that lowers its own cost and its hand-overs both ways lowers the
  // program's sum, so the sweeps end (D59).
  for (int sweep = 1; sweep < sweeps; ++sweep) {
    bool changed = false;
    auto record = [&](ContractOp op, const ContractionProblem &, const ContractionPlan &chosen) {
      PlanAttr next = mergePlan(op.getContext(), given.lookup(op), chosen, fields);
      changed |= next != getPlan(op);
      op->setAttr(TCDialect::getPlanAttrName(), next);
    };
    if (failed(planEachContraction(module, search, /*emitRemarks=*/false, record, &given)))
      return failure();
    if (!changed)
      break;
  }
  return success();
}
