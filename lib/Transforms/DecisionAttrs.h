//===- DecisionAttrs.h - planner decisions <-> their attributes -*- C++ -*-===//
//
// The planners' decisions as the IR records them, both ways: Gao et al.'s plan of
// one contraction ([G] sections 2-5) as #tc.plan, and Cociorva et al.'s choice
// for each array of an operator tree ([C] section 3.3) as #tc.fusion. A decision
// written in the IR (by a pass, a user or another compiler) is read back into the
// planners' types to restrict a search or to lower the plan.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_DECISIONATTRS_H
#define TC_LIB_TRANSFORMS_DECISIONATTRS_H

#include "PlanProblems.h"

#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Analysis/FusionPlanner.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <vector>

namespace mlir::tc {

//===----------------------------------------------------------------------===//
// #tc.plan <-> ContractionPlan
//===----------------------------------------------------------------------===//

/// The plan attached to `op`, or an empty #tc.plan.
PlanAttr getPlan(ContractOp op);

/// Decisions present in a plan.
PlanDecisions readDecisions(PlanAttr plan);

/// A #tc.plan distribution over its grid: per grid dimension the distributed
/// label or "*".
Layout layoutOf(GridAttr grid, DistAttr dist);

/// Fields of a plan the passes write.
struct PlanFields {
  bool algorithm = false; ///< in_core, method, algorithm, grid, dist_a/b/c
  bool order = false;
  bool tiles = false;     ///< loops, the predicted volumes and i_contiguous
};

/// `old` with the requested fields taken from `plan` where `old` lacks them.
PlanAttr mergePlan(MLIRContext *ctx, PlanAttr old, const ContractionPlan &plan,
                   PlanFields fields);

//===----------------------------------------------------------------------===//
// #tc.fusion <-> FusionPlan
//===----------------------------------------------------------------------===//

/// #tc.dist of a distribution over `grid`.
DistAttr toDistAttr(MLIRContext *ctx, const OperatorTree &tree, const Grid &grid,
                    const Distribution &dist);

/// The #tc.fusion of node `id` of `plan`.
FusionAttr toFusionAttr(MLIRContext *ctx, const OperatorTree &tree, const FusionPlan &plan,
                        int id);

/// The #tc.fusion attribute of node `id` (on its op or function argument).
FusionAttr getFusionAttr(func::FuncOp func, const FunctionTree &tree, int id);

/// The distribution a #tc.dist names over `grid`, or none when it does not fit.
std::optional<Distribution> toDistribution(DistAttr attr, const Grid &grid,
                                           const OperatorTree &tree);

/// The decision of every node of `tree` as its #tc.fusion records it on `grid`;
/// emits an error on `func` when an array has none or names a distribution that
/// does not fit.
FailureOr<std::vector<NodeDecision>> readFusionDecisions(func::FuncOp func,
                                                         const FunctionTree &tree,
                                                         const Grid &grid);

/// The `initial` and `final` distributions each #tc.fusion records are those
/// `plan` (evaluated from the decisions) gives; emits an error naming the array
/// and the field otherwise, so that a hand-edited attribute is never ignored.
LogicalResult checkRecordedEdges(func::FuncOp func, const FunctionTree &tree,
                                 const FusionPlan &plan);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_DECISIONATTRS_H
