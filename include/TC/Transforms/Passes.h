//===- Passes.h - tc passes -------------------------------------*- C++ -*-===//
#ifndef TC_TRANSFORMS_PASSES_H
#define TC_TRANSFORMS_PASSES_H

#include "TC/Dialect/TCDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tc {

#define GEN_PASS_DECL
#include "TC/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TC/Transforms/Passes.h.inc"

/// Options of the tc-plan pipeline: the machine (as tc-set-machine takes it) and
/// where to write the report (as tc-plan-report takes it).
struct PlanPipelineOptions : public PassPipelineOptions<PlanPipelineOptions> {
  Option<std::string> machineFile{*this, "machine-file",
                                  llvm::cl::desc("JSON machine file to read")};
  Option<int64_t> procs{*this, "procs", llvm::cl::desc("Number of processes"),
                        llvm::cl::init(0)};
  Option<std::string> mem{*this, "mem",
                          llvm::cl::desc("Memory per process, e.g. 64MB or 1GiB")};
  Option<std::string> netBw{*this, "net-bw",
                            llvm::cl::desc("Network bandwidth, e.g. 200MB/s")};
  Option<std::string> diskBw{*this, "disk-bw",
                             llvm::cl::desc("Disk bandwidth, e.g. 8MB/s")};
  Option<int64_t> elemBytes{*this, "elem-bytes",
                            llvm::cl::desc("Bytes per element (default 8)"),
                            llvm::cl::init(0)};
  Option<double> bcastFactor{*this, "bcast-factor",
                             llvm::cl::desc("Multiplier on broadcast volumes (default 1)"),
                             llvm::cl::init(0)};
  Option<double> reduceFactor{*this, "reduce-factor",
                              llvm::cl::desc("Multiplier on reduction volumes (default 1)"),
                              llvm::cl::init(0)};
  Option<std::string> volumes{*this, "volumes",
                              llvm::cl::desc("Volume accounting: paper or runtime")};
  Option<int> maxGridDims{*this, "max-grid-dims",
                          llvm::cl::desc("Largest logical grid rank tc-fuse-distribute searches"),
                          llvm::cl::init(2)};
  Option<double> latency{*this, "latency",
                         llvm::cl::desc("Seconds per message in the analytic Mcost"),
                         llvm::cl::init(0)};
  Option<double> flopRate{*this, "flop-rate",
                          llvm::cl::desc("Flop/s per process for CalcCost"), llvm::cl::init(0)};
  Option<bool> virtualPartitioning{
      *this, "virtual-partitioning",
      llvm::cl::desc("tc-fuse-distribute: allow lcm virtual partitioning"), llvm::cl::init(true)};
  Option<bool> firstSlice{*this, "first-slice",
                          llvm::cl::desc("tc-fuse-distribute: allow '1' in distributions"),
                          llvm::cl::init(true)};
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("Write the JSON plan report here ('-': stdout)")};
  Option<std::string> table{*this, "table",
                            llvm::cl::desc("Write the plan table here ('-': stdout)")};
};

/// tc-set-machine, tc-fuse-distribute, tc-select-algorithm, tc-place-io, tc-solve-tiles, tc-plan-report.
void buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options);

/// Registers the tc-plan pipeline.
void registerTCPipelines();

} // namespace mlir::tc

#endif // TC_TRANSFORMS_PASSES_H
