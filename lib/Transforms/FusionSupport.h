//===- FusionSupport.h - IR <-> operator tree for the fusion passes -*- C++ -*-===//
//
// tc-fuse-distribute and the report only translate: a function's tc.contract and
// tc.sum ops into an OperatorTree (Cociorva et al. section 2), a machine file into
// a CommCostModel, and the planner's FusionPlan into #tc.fusion attributes and
// back.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_FUSIONSUPPORT_H
#define TC_LIB_TRANSFORMS_FUSIONSUPPORT_H

#include "TC/Analysis/FusionPlanner.h"
#include "TC/Dialect/TCAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <memory>

namespace mlir::tc {

/// A function's operator tree and, per node, the IR it came from.
struct FunctionTree {
  OperatorTree tree;
  std::vector<Value> values;       ///< the array of each node
  std::vector<Operation *> ops;    ///< the producing tc op (null for inputs)
};

/// True when `func` holds two or more tc.contract/tc.sum ops (an operator tree
/// for tc-fuse-distribute rather than one contraction for Gao's planner).
bool hasOperatorTree(func::FuncOp func);

/// The operator tree of `func`: inputs are its arguments (and other values not
/// produced by tc ops), every tc.contract/tc.sum a node; emits an error naming the
/// op when the ops do not form one tree (a result used twice, or not by the
/// return). Arrays are named as their HDF5 datasets: an input by its `tc.name`
/// argument attribute, else A, B, C, ... by position; the result by the `tc.name`
/// result attribute, else R; intermediates T1, T2, ... in program order.
FailureOr<FunctionTree> buildFunctionTree(func::FuncOp func);

/// Mcost for the planner: the measured table of `machineFile` (tc-calibrate's
/// "mcost" key) over the analytic model, or the analytic model alone. Latency and
/// flop rate come from the options when > 0, else from the file, else defaults;
/// the slice I/O latency and call overhead from the options when >= 0, else the
/// file's io_latency / call_overhead, else 1e-4 s and 1e-6 s.
struct FusionCostSetup {
  std::shared_ptr<const CommCostModel> comm;
  FusionMachine machine;
  double latency = 0;
  size_t measuredPairs = 0;
  double stagingBytes = 0; ///< kept out of machine.memBytes for the runtime's buffers
};
FailureOr<FusionCostSetup> loadFusionCosts(ModuleOp module, StringRef machineFile,
                                           double latencyOption, double flopRateOption,
                                           double ioLatencyOption, double callOverheadOption);

/// Bytes a fused program stages redistributions and slice I/O in (the
/// runtime's chunk): a sixteenth of the memory, between 1 KiB and 4 MiB. Send
/// and receive buffers make two of them, which planning for the runtime
/// (volumes = runtime) keeps out of the memory it gives the arrays.
int64_t fusedStagingChunk(double memBytes);

/// #tc.dist of a distribution over `grid`.
DistAttr toDistAttr(MLIRContext *ctx, const OperatorTree &tree, const Grid &grid,
                    const Distribution &dist);

/// The #tc.fusion of node `id` of `plan`.
FusionAttr toFusionAttr(MLIRContext *ctx, const OperatorTree &tree, const FusionPlan &plan,
                        int id);

/// The #tc.fusion attribute of node `id` (on its op or function argument).
FusionAttr getFusionAttr(func::FuncOp func, const FunctionTree &tree, int id);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_FUSIONSUPPORT_H
