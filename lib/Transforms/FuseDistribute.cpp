//===- FuseDistribute.cpp - the tc-fuse-distribute pass -------------------===//
//
// Cociorva et al. section 3.3 on every operator tree of the module: translate the
// function into an OperatorTree, run the planner (lib/Analysis/FusionPlanner),
// record its choice as #tc.fusion / #tc.fusion_plan.
//
//===----------------------------------------------------------------------===//
#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "TC/Analysis/Units.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tc {
#define GEN_PASS_DEF_FUSEDISTRIBUTE
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

struct FuseDistributePass : public tc::impl::FuseDistributeBase<FuseDistributePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> trees;
    module.walk([&](func::FuncOp func) {
      // A plan already there (by hand, or an earlier run) is kept as it is.
      if (hasOperatorTree(func) && !func->hasAttr(TCDialect::getFusionPlanAttrName()))
        trees.push_back(func);
    });
    if (trees.empty())
      return;
    if (maxGridDims < 1 || maxGridDims > kMaxGridDims) {
      module.emitError() << "tc-fuse-distribute max-grid-dims=" << static_cast<int>(maxGridDims)
                         << " is out of range 1.." << kMaxGridDims;
      return signalPassFailure();
    }
    for (func::FuncOp func : trees)
      if (failed(planFunction(module, func)))
        return signalPassFailure();
  }

  LogicalResult planFunction(ModuleOp module, func::FuncOp func) {
    // Statements are written formula by formula; the tree names each loop once.
    renameTreeLabels(func);
    FailureOr<FunctionTree> tree = buildFunctionTree(func);
    if (failed(tree))
      return failure();
    // Volumes in bytes of the tree's element type.
    // The calibrated default file's measured costs when no machine file is given.
    StringRef costsFile = machineFile.empty() ? StringRef(defaultMachineFile) : machineFile;
    FailureOr<FusionCostSetup> loaded = loadFusionCosts(func, tree->elementType(), costsFile,
                                                         latency, ioLatency, callOverhead);
    if (failed(loaded))
      return failure();
    const FusionCostSetup &costs = *loaded;
    FusionSearchOptions options;
    options.maxGridDims = maxGridDims;
    options.virtualPartitioning = virtualPartitioning;
    options.firstSlice = firstSlice;
    options.allowFusion = fusion;
    // Planned for tc's runtime, a plan must be one tc-lower-fused runs; in the
    // paper's volumes, the paper's search.
    FailureOr<MachineModel> model = getMachineModel(func);
    options.equalFusedBlocks = succeeded(model) && model->runtimeVolumes;
    FusionSearchResult result = planFusion(tree->tree, costs.machine, *costs.comm, options);
    if (!result.error.empty())
      return func.emitError() << "@" << func.getSymName() << ": " << result.error;
    if (!result.best) {
      InFlightDiagnostic diag = func.emitError();
      double mem = costs.machine.memBytes + costs.stagingBytes;
      diag << "no fusion and distribution of @" << func.getSymName() << " fits in "
           << formatBytes(mem) << " per process on " << costs.machine.procs << " processes";
      if (costs.stagingBytes > 0)
        diag << " (" << formatBytes(costs.machine.memBytes) << " for arrays after "
             << formatBytes(costs.stagingBytes) << " of runtime staging buffers)";
      double needed = result.smallestMemBytes + costs.stagingBytes;
      diag << "; the smallest plan needs " << formatBytes(needed) << " per process (about "
           << static_cast<int64_t>(std::ceil(needed))
           << " bytes: raise mem to at least that, or use more processes)";
      return diag;
    }
    const FusionPlan &plan = *result.best;
    MLIRContext *ctx = func.getContext();
    Builder b(ctx);
    for (size_t id = 0; id < tree->values.size(); ++id) {
      FusionAttr attr = toFusionAttr(ctx, tree->tree, plan, static_cast<int>(id));
      if (Operation *op = tree->ops[id])
        op->setAttr(TCDialect::getFusionAttrName(), attr);
      else if (auto arg = dyn_cast<BlockArgument>(tree->values[id]))
        func.setArgAttr(arg.getArgNumber(), TCDialect::getFusionAttrName(), attr);
    }
    func->setAttr(TCDialect::getFusionPlanAttrName(),
                  FusionPlanAttr::get(ctx, GridAttr::get(ctx, plan.grid),
                                      b.getF64FloatAttr(plan.memBytes),
                                      // the user's limit; staging comes out of it
                                      b.getF64FloatAttr(costs.machine.memBytes +
                                                        costs.stagingBytes),
                                      b.getF64FloatAttr(plan.commSeconds),
                                      b.getF64FloatAttr(plan.calcSeconds)));
    return success();
  }
};

} // namespace
