//===- PlanPipeline.cpp - the tc-plan pipeline ----------------------------===//
//
// Planning in the order its decisions depend on each other: machine; Cociorva et
// al.'s fusion and distribution of operator trees; Gao et al.'s algorithm and
// distributions, read order and tiles of single contractions; then the report.
//
//===----------------------------------------------------------------------===//
#include "TC/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::tc::buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options) {
  SetMachineOptions machine;
  machine.machineFile = options.machineFile;
  machine.procs = options.procs;
  machine.mem = options.mem;
  machine.netBw = options.netBw;
  machine.diskBw = options.diskBw;
  machine.elemBytes = options.elemBytes;
  machine.bcastFactor = options.bcastFactor;
  machine.reduceFactor = options.reduceFactor;
  machine.volumes = options.volumes;
  pm.addPass(createSetMachine(machine));
  FuseDistributeOptions fusion;
  fusion.machineFile = options.machineFile;
  fusion.maxGridDims = options.maxGridDims;
  fusion.latency = options.latency;
  fusion.flopRate = options.flopRate;
  fusion.virtualPartitioning = options.virtualPartitioning;
  fusion.firstSlice = options.firstSlice;
  pm.addPass(createFuseDistribute(fusion));
  pm.addPass(createSelectAlgorithm());
  pm.addPass(createPlaceIO());
  pm.addPass(createSolveTiles());
  PlanReportOptions report;
  report.jsonPath = options.report;
  report.tablePath = options.table;
  pm.addPass(createPlanReport(report));
}

void mlir::tc::registerTCPipelines() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "tc-plan",
      "Plan every contraction (Gao et al.): machine model, algorithm and "
      "distributions, read order, tiles, and optionally a report",
      buildPlanPipeline);
}
