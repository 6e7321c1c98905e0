//===- ContractionSearch.h - Gao et al.'s search on every contraction -*- C++ -*-===//
//
// The planning passes (tc-select-algorithm, tc-place-io, tc-solve-tiles) and the
// report run Gao et al.'s search ([G] section 2.3, notes A.10) on every
// contraction of the module that is not part of a fused operator tree, with the
// decisions already in its #tc.plan.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_CONTRACTIONSEARCH_H
#define TC_LIB_TRANSFORMS_CONTRACTIONSEARCH_H

#include "DecisionAttrs.h"

#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/FunctionExtras.h"

namespace mlir::tc {

/// Runs the planner on every tc.contract of `module` (but those tc-fuse-distribute
/// planned as part of an operator tree) with the decisions already
/// in its plan, emits the planner's errors (and, with `emitRemarks`, its remarks)
/// on the op, and hands the successful results to `onPlanned`. Fails if any
/// contraction failed.
LogicalResult planEachContraction(
    ModuleOp module, bool emitRemarks,
    llvm::function_ref<void(ContractOp, const ContractionProblem &, const PlanResult &)>
        onPlanned);

/// The body of tc-select-algorithm, tc-place-io and tc-solve-tiles: plans every
/// contraction and writes the chosen plan's `fields` into its #tc.plan.
LogicalResult recordPlanFields(ModuleOp module, PlanFields fields, bool emitRemarks);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_CONTRACTIONSEARCH_H
