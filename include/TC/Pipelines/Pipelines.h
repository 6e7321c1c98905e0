//===- Pipelines.h - tc's compile pipeline ----------------------*- C++ -*-===//
//
// tc-compile: tc IR (as imported, or contraction-shaped linalg) to the LLVM
// dialect, planned for and calling tc's runtime. tcc runs it; so can any MLIR
// compiler that embeds tc (buildTCCompilePipeline) or mlir-opt with tc's plugin.
//
//===----------------------------------------------------------------------===//
#ifndef TC_PIPELINES_PIPELINES_H
#define TC_PIPELINES_PIPELINES_H

#include "TC/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace tc {

/// The options of tc-compile: every option of tc-plan (forwarded to the
/// planning pass that declares it), plus the lowering's. Defaults are those of
/// the passes, except that volumes are the bytes tc's runtime moves.
struct TCCompileOptions : public PassPipelineOptions<TCCompileOptions> {
  // Machine (tc-set-machine).
  PassOptions::Option<std::string> machineFile{
      *this, "machine-file", llvm::cl::value_desc("FILE"),
      llvm::cl::desc("JSON machine file (tc-set-machine; the measured costs for "
                     "tc-fuse-distribute); tc-calibrate writes one")};
  PassOptions::Option<std::string> defaultMachineFile{
      *this, "default-machine-file", llvm::cl::value_desc("FILE"),
      llvm::cl::desc("Machine file for the measured bandwidths, flop rate and "
                     "costs that nothing else gives (tc-calibrate's)")};
  PassOptions::Option<int64_t> procs{
      *this, "procs", llvm::cl::value_desc("P"), llvm::cl::desc("Number of MPI processes"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> mem{
      *this, "mem", llvm::cl::value_desc("SIZE"),
      llvm::cl::desc("Memory per process, e.g. 64MB or 1GiB (out of core below it)")};
  PassOptions::Option<std::string> netBw{
      *this, "net-bw", llvm::cl::value_desc("RATE"), llvm::cl::desc("Network bandwidth per process, e.g. 200MB/s")};
  PassOptions::Option<std::string> diskBw{
      *this, "disk-bw", llvm::cl::value_desc("RATE"), llvm::cl::desc("Disk bandwidth per process, e.g. 8MB/s")};
  PassOptions::Option<int64_t> elemBytes{
      *this, "elem-bytes", llvm::cl::value_desc("N"), llvm::cl::desc("Bytes per tensor element (default 8)"),
      llvm::cl::init(0)};
  PassOptions::Option<double> bcastFactor{
      *this, "bcast-factor", llvm::cl::value_desc("X"),
      llvm::cl::desc("Multiplier on broadcast volumes (default 1)"),
      llvm::cl::init(0)};
  PassOptions::Option<double> reduceFactor{
      *this, "reduce-factor", llvm::cl::value_desc("X"),
      llvm::cl::desc("Multiplier on reduction volumes (default 1)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> volumes{
      *this, "volumes", llvm::cl::value_desc("V"),
      llvm::cl::desc("Volume accounting: runtime (the bytes tc's runtime moves) "
                     "or paper (the papers' formulas)"),
      llvm::cl::init("runtime")};
  PassOptions::Option<double> flopRate{
      *this, "flop-rate", llvm::cl::value_desc("F"),
      llvm::cl::desc("Flop/s per process (default: the machine file's, else 1e9)"),
      llvm::cl::init(0)};
  PassOptions::ListOption<int64_t> specializeProcs{
      *this, "specialize-procs", llvm::cl::value_desc("P,..."),
      llvm::cl::desc("Process counts to plan every function for (e.g. 1,2,4); the "
                     "program runs the plan for its MPI_Comm_size "
                     "(tc-specialize-procs)")};

  // Products of several tensors (tc-minimize-operations, tc-check-rewrites).
  PassOptions::Option<double> tolerance{
      *this, "tolerance", llvm::cl::value_desc("X"),
      llvm::cl::desc("Relative flop difference within which the tree with the "
                     "smaller largest intermediate is preferred"),
      llvm::cl::init(0.02)};
  PassOptions::Option<bool> checkRewrites{
      *this, "check-rewrites", llvm::cl::value_desc("B"),
      llvm::cl::desc("Debug mode: evaluate the program on small random arrays "
                     "before and after each rewrite (tc-check-rewrites)"),
      llvm::cl::init(false)};

  // Block-sparse contractions (tc-plan-block-sparse).
  PassOptions::Option<double> imbalance{
      *this, "imbalance", llvm::cl::value_desc("X"),
      llvm::cl::desc("Largest excess of a process's flops over the average"),
      llvm::cl::init(0.05)};
  PassOptions::Option<std::string> assignment{
      *this, "assignment", llvm::cl::value_desc("A"),
      llvm::cl::desc("Task assignment: hypergraph (Krishnamoorthy et al.) or "
                     "next-task (the locality-oblivious baseline)"),
      llvm::cl::init("hypergraph")};
  PassOptions::Option<double> cacheBytes{
      *this, "cache-bytes", llvm::cl::value_desc("N"),
      llvm::cl::desc("Bytes per process caching remote bricks out of core "
                     "(default -1: what the busiest stage leaves of mem)"),
      llvm::cl::init(-1)};
  PassOptions::Option<std::string> partitioner{
      *this, "partitioner", llvm::cl::value_desc("P"),
      llvm::cl::desc("Hypergraph partitioner: builtin (no MPI), one the tool registered "
                     "(zoltan in tc-opt and tcc), or default (the last registered)"),
      llvm::cl::init("default")};

  // Operator trees (tc-fuse-distribute).
  PassOptions::Option<int> maxGridDims{
      *this, "max-grid-dims", llvm::cl::value_desc("N"),
      llvm::cl::desc("Largest logical grid rank searched"), llvm::cl::init(2)};
  PassOptions::Option<double> latency{
      *this, "latency", llvm::cl::value_desc("S"),
      llvm::cl::desc("Seconds per message (default: the machine file's, else 1e-5)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> virtualPartitioning{
      *this, "virtual-partitioning", llvm::cl::value_desc("B"),
      llvm::cl::desc("lcm virtual partitioning of fused loops"),
      llvm::cl::init(true)};
  PassOptions::Option<double> ioLatency{
      *this, "io-latency", llvm::cl::value_desc("S"),
      llvm::cl::desc("Seconds per slice read or written (default: the machine "
                     "file's, else 1e-4)"),
      llvm::cl::init(-1)};
  PassOptions::Option<double> callOverhead{
      *this, "call-overhead", llvm::cl::value_desc("S"),
      llvm::cl::desc("Seconds per local contraction call in a fused loop "
                     "(default: the machine file's, else 1e-6)"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> fusion{
      *this, "fusion", llvm::cl::value_desc("B"), llvm::cl::desc("Search loop fusions"), llvm::cl::init(true)};
  PassOptions::Option<bool> firstSlice{
      *this, "first-slice", llvm::cl::value_desc("B"), llvm::cl::desc("Allow '1' in distributions"),
      llvm::cl::init(true)};

  // Report (tc-plan-report).
  PassOptions::Option<std::string> reportPath{
      *this, "report", llvm::cl::value_desc("FILE"),
      llvm::cl::desc("Write the planner's JSON report to this file ('-': stdout)")};
  PassOptions::Option<std::string> tablePath{
      *this, "table", llvm::cl::value_desc("FILE"),
      llvm::cl::desc("Write the planner's table of candidate plans to this file "
                     "('-': stdout)")};

  // Lowering.
  PassOptions::Option<std::string> tileContraction{
      *this, "tile-contraction", llvm::cl::value_desc("K"),
      llvm::cl::desc("How a local tile contraction runs: runtime (permute + BLAS) "
                     "or linalg (a linalg.generic on subviews, compiled to loops)"),
      llvm::cl::init("runtime")};
  PassOptions::Option<bool> lowerToLLVM{
      *this, "lower-to-llvm", llvm::cl::value_desc("B"),
      llvm::cl::desc("Lower to the LLVM dialect (false: stop at the tile-level tc "
                     "ops of tc-lower-plan and tc-lower-fused)"),
      llvm::cl::init(true)};

  /// The options of tc-plan, which forwards each to its pass.
  PlanPipelineOptions planOptions() const;

  /// Every option's declaration, in name order: a driver makes a flag of each
  /// (tcc's --NAME VALUE).
  SmallVector<const llvm::cl::Option *> declarations() const;
};

/// Adds tc-compile's passes to `pm` (on a builtin.module): tc-raise-linalg,
/// tc-plan, tc-lower-plan, tc-lower-fused, then tc-lower-to-runtime and the
/// upstream conversions to the LLVM dialect.
void buildTCCompilePipeline(OpPassManager &pm, const TCCompileOptions &options);

/// Registers tc-compile (for tc-opt, mlir-opt's plugin and other drivers).
void registerTCCompilePipeline();

} // namespace tc
} // namespace mlir

#endif // TC_PIPELINES_PIPELINES_H
