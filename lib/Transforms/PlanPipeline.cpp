//===- PlanPipeline.cpp - the tc-plan pass --------------------------------===//
//
// Planning in the order its decisions depend on each other: machine (and, for
// several process counts, one copy of each function per count); operation
// minimization of products of several tensors; products shared by statements
// (tc-share-products) and the statements themselves (tc-split-program);
// Krishnamoorthy
// et al.'s schedules of block-sparse contractions; Cociorva et
// al.'s fusion and distribution of operator trees; Gao et al.'s algorithm and
// distributions, read order and tiles of single contractions; then the report.
// The passes run in one dynamic pipeline on the module, so they share its
// analysis manager and with it the one search of each contraction
// (ContractionSearch).
//
//===----------------------------------------------------------------------===//
#include "TC/Transforms/Passes.h"

namespace mlir::tc {
#define GEN_PASS_DEF_PLANPIPELINE
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// Adds the planning passes with `options`' values: PlanPipelineOptions or the
/// tc-plan pass itself, whose options are the same declarations (Passes.td) as
/// those of tc-set-machine, tc-fuse-distribute and tc-plan-report.
template <typename Options>
void addPlanPasses(OpPassManager &pm, const Options &options) {
  SetMachineOptions machine;
  machine.machineFile = options.machineFile;
  machine.defaultMachineFile = options.defaultMachineFile;
  machine.procs = options.procs;
  machine.mem = options.mem;
  machine.netBw = options.netBw;
  machine.diskBw = options.diskBw;
  machine.elemBytes = options.elemBytes;
  machine.bcastFactor = options.bcastFactor;
  machine.reduceFactor = options.reduceFactor;
  machine.volumes = options.volumes;
  machine.flopRate = options.flopRate;
  machine.latency = options.latency;
  pm.addPass(createSetMachine(machine));
  pm.addPass(createOutlineLoops());
  if (!options.specializeProcs.empty()) {
    SpecializeProcsOptions specialize;
    specialize.specializeProcs.assign(options.specializeProcs.begin(),
                                      options.specializeProcs.end());
    pm.addPass(createSpecializeProcs(specialize));
  }
  if (options.checkRewrites) {
    CheckRewritesOptions check;
    check.tolerance = options.tolerance;
    check.minSummedVolume = options.minSummedVolume;
    pm.addPass(createCheckRewrites(check));
  }
  MinimizeOperationsOptions minimize;
  minimize.tolerance = options.tolerance;
  pm.addPass(createMinimizeOperations(minimize));
  pm.addPass(createShareProducts());
  SharePermutedProductsOptions share;
  share.minSummedVolume = options.minSummedVolume;
  pm.addPass(createSharePermutedProducts(share));
  pm.addPass(createSplitProgram());
  PlanBlockSparseOptions blockSparse;
  blockSparse.imbalance = options.imbalance;
  blockSparse.assignment = options.assignment;
  blockSparse.partitioner = options.partitioner;
  blockSparse.cacheBytes = options.cacheBytes;
  pm.addPass(createPlanBlockSparse(blockSparse));
  FuseDistributeOptions fusion;
  fusion.machineFile = options.machineFile;
  fusion.defaultMachineFile = options.defaultMachineFile;
  fusion.maxGridDims = options.maxGridDims;
  fusion.latency = options.latency;
  fusion.virtualPartitioning = options.virtualPartitioning;
  fusion.ioLatency = options.ioLatency;
  fusion.callOverhead = options.callOverhead;
  fusion.fusion = options.fusion;
  fusion.firstSlice = options.firstSlice;
  pm.addPass(createFuseDistribute(fusion));
  SelectAlgorithmOptions select;
  select.planSweeps = options.planSweeps;
  pm.addPass(createSelectAlgorithm(select));
  pm.addPass(createPlaceIO());
  pm.addPass(createSolveTiles());
  PlanReportOptions report;
  report.reportPath = options.reportPath;
  report.tablePath = options.tablePath;
  pm.addPass(createPlanReport(report));
}

struct PlanPipelinePass : public tc::impl::PlanPipelineBase<PlanPipelinePass> {
  using Base::Base;
  template <typename Options>
  friend void addPlanPasses(OpPassManager &pm, const Options &options);

  void runOnOperation() override {
    OpPassManager pm(ModuleOp::getOperationName());
    addPlanPasses(pm, *this);
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};

} // namespace

void mlir::tc::buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options) {
  addPlanPasses(pm, options);
}
