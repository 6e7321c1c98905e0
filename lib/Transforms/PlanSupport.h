//===- PlanSupport.h - IR <-> planner problem for the planning passes -*- C++ -*-===//
//
// The planning passes only translate: a tc.contract and its #tc.plan into a
// ContractionProblem and PlanDecisions, and the planner's choice back into fields
// of #tc.plan. This header holds that translation, shared by the passes.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_PLANSUPPORT_H
#define TC_LIB_TRANSFORMS_PLANSUPPORT_H

#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/Support/JSON.h"

namespace mlir::tc {

MachineModel toMachineModel(MachineAttr attr);

/// The module's machine model; emits an error on `module` when it has none.
FailureOr<MachineModel> getMachineModel(ModuleOp module);

/// Labels, extents and constrained layouts (from a producing or consuming
/// tc.redistribute) of a binary contraction; emits an error on failure.
FailureOr<ContractionProblem> buildProblem(ContractOp op);

/// The plan attached to `op`, or an empty #tc.plan.
PlanAttr getPlan(ContractOp op);

/// Decisions present in a plan.
PlanDecisions readDecisions(PlanAttr plan);

/// Fields of a plan the passes write.
struct PlanFields {
  bool algorithm = false; ///< in_core, method, algorithm, grid, dist_a/b/c
  bool order = false;
  bool tiles = false;     ///< loops and the predicted volumes
};

/// `old` with the requested fields taken from `plan` where `old` lacks them.
PlanAttr mergePlan(MLIRContext *ctx, PlanAttr old, const ContractionPlan &plan,
                   PlanFields fields);

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

/// The JSON object of a machine file; emits "machine file 'F': why" on `module`
/// when it cannot be read, is not JSON or is not an object.
FailureOr<llvm::json::Object> readMachineJson(ModuleOp module, StringRef path);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_PLANSUPPORT_H
