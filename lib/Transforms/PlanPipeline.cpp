//===- PlanPipeline.cpp - the tc-plan pipeline ----------------------------===//
//
// Gao et al.'s planning in the order its decisions depend on each other: machine,
// then algorithm and distributions, then read order, then tiles; then the report.
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
