//===- ContractionSearch.h - Gao et al.'s search, once per contraction -*- C++ -*-===//
//
// Gao et al.'s search ([G] section 2.3, docs/Derivations.md D9) of each contraction, done once
// per pipeline run. tc-select-algorithm, tc-place-io and tc-solve-tiles each
// record a part of the chosen plan, and each asks again under the decisions
// recorded so far; the report asks for every candidate. ContractionSearch is an
// MLIR analysis of the module, kept by the passes that only record what it chose
// (markAnalysesPreserved), that keeps each search with the decisions it ran under
// and answers a later question from it when the choice stands
// (choiceStands, lib/Analysis/ContractionPlanner.h).
//
// Each search is an MLIR action tagged "tc-planner-search": count them with
// --mlir-debug-counter=tc-planner-search-skip=0 --mlir-print-debug-counter, or
// log them with --log-actions-to=-.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_CONTRACTIONSEARCH_H
#define TC_LIB_TRANSFORMS_CONTRACTIONSEARCH_H

#include "DecisionAttrs.h"

#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FunctionExtras.h"

#include <deque>

namespace mlir::tc {

class ContractionSearch {
public:
  explicit ContractionSearch(Operation *) {}

  /// The result of a search of `op` under exactly `decisions`, with the
  /// problem's neighbours as they are: its candidates, remarks and choice (or
  /// error).
  const PlanResult &search(ContractOp op, const ContractionProblem &problem,
                           const MachineModel &machine, const PlanDecisions &decisions);

  /// A result whose chosen plan is the one a search of `op` under `decisions`
  /// would choose: an earlier search's when its choice stands, else a new
  /// search's. Its candidates and remarks are those of the search that chose.
  const PlanResult &choose(ContractOp op, const ContractionProblem &problem,
                           const MachineModel &machine, const PlanDecisions &decisions);

private:
  struct Search {
    PlanDecisions decisions;
    /// The layouts the problem's neighbours hold it in (held operands,
    /// readers of the result): a search answers for these only.
    std::string neighbours;
    PlanResult result;
  };
  /// Every search of each op, in the order they ran (a deque: the results
  /// handed out stay where they are).
  llvm::DenseMap<Operation *, std::deque<Search>> searches;
  /// The search `search` last answered for each op: the one whose choice
  /// tc-select-algorithm recorded, which `choose` tries first (a sweep may
  /// return to an earlier search's neighbours, D59).
  llvm::DenseMap<Operation *, const Search *> lastAnswered;
};

/// Plans every tc.contract of `module` (but those tc-fuse-distribute planned as
/// part of an operator tree) with the decisions already in its plan, emits the
/// planner's errors on the op, and hands the chosen plans to `onPlanned`. With
/// `emitRemarks` (tc-select-algorithm), the plan comes from a search under
/// exactly these decisions, whose remarks are emitted on the op; otherwise
/// from `search.choose`. With `given`, the decisions are each op's plan there
/// (not the one in the IR) and the plan comes from a search under them with
/// the op's neighbours as they are now, without remarks. Fails if any
/// contraction failed.
LogicalResult planEachContraction(
    ModuleOp module, ContractionSearch &search, bool emitRemarks,
    llvm::function_ref<void(ContractOp, const ContractionProblem &, const ContractionPlan &)>
        onPlanned,
    const llvm::DenseMap<Operation *, PlanAttr> *given = nullptr);

/// The body of tc-select-algorithm, tc-place-io and tc-solve-tiles: plans every
/// contraction and writes the chosen plan's `fields` into its #tc.plan.
LogicalResult recordPlanFields(ModuleOp module, ContractionSearch &search, PlanFields fields,
                               bool emitRemarks);

/// The body of tc-select-algorithm: recordPlanFields, then up to `sweeps - 1`
/// more sweeps in which each contraction is planned again from the decisions
/// it was given, with the plans of the statements that read its result in
/// view (ContractionProblem::readers, D59), until no plan changes.
LogicalResult planWithReaders(ModuleOp module, ContractionSearch &search, PlanFields fields,
                              int sweeps);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_CONTRACTIONSEARCH_H
