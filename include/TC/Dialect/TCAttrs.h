//===- TCAttrs.h - tc attributes --------------------------------*- C++ -*-===//
#ifndef TC_DIALECT_TCATTRS_H
#define TC_DIALECT_TCATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "llvm/ADT/APFloat.h"

#include "TC/Analysis/BlockSparse.h"
#include "TC/Dialect/TCEnums.h"
#include "TC/Layout/ArrayLayout.h"

namespace mlir::tc {
struct PlanView;
/// `[` (integer (`,` integer)*)? `]`: #tc.layout's lists, empty for a scalar.
FailureOr<SmallVector<int64_t>> parseIntList(AsmParser &parser);
void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values);
} // namespace mlir::tc

#include "TC/Dialect/TCAlgorithmInterface.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TC/Dialect/TCAttrs.h.inc"

namespace mlir::tc {

/// The numeric parameters of #tc.machine, in their printed order: the
/// dialect's parser and tc-set-machine (options, machine files) name them
/// alike.
namespace machine_field {
enum Field : unsigned {
  Procs,
  Mem,
  NetBw,
  DiskBw,
  ElemBytes,
  BcastFactor,
  ReduceFactor,
  FlopRate,
  Latency,
  Count
};
inline constexpr llvm::StringLiteral kKeys[Count] = {"procs",         "mem",        "net_bw",
                                                     "disk_bw",       "elem_bytes", "bcast_factor",
                                                     "reduce_factor", "flop_rate",  "latency"};
} // namespace machine_field

/// The fields of a #tc.plan every algorithm's attribute checks itself against
/// (AlgorithmAttrInterface::verifyPlan); absent fields are null.
struct PlanView {
  BoolAttr inCore;
  GridAttr grid;
  DistAttr distA, distB, distC;
  /// Gao et al.'s tiling given: a method, read order, loops or memory rule.
  bool gaoTiling = false;
  bool isInCore() const { return inCore && inCore.getValue(); }
  bool isOutOfCore() const { return inCore && !inCore.getValue(); }
};

/// #tc.plan's `algorithm`: a bare keyword (the algorithm without parameters)
/// or an attribute implementing AlgorithmAttrInterface.
FailureOr<AlgorithmAttrInterface> parseAlgorithm(AsmParser &parser);
void printAlgorithm(AsmPrinter &printer, AlgorithmAttrInterface algorithm);
/// The algorithm's attribute with no parameters.
AlgorithmAttrInterface getAlgorithmAttr(MLIRContext *ctx, ParallelAlgorithm kind);

/// Checks `dist` against the grid it is used on and the labels of the array it
/// distributes: one entry per grid dimension, only labels the array has. `what`
/// names the distribution in the message (e.g. "'from' distribution").
LogicalResult verifyDistribution(function_ref<InFlightDiagnostic()> emitError,
                                 DistAttr dist, GridAttr grid,
                                 ArrayRef<StringRef> arrayLabels, StringRef what);

/// The machine `scope` is planned for: the `tc.machine` of `scope` or of the
/// nearest op around it (a function specialized for one process count by
/// tc-specialize-procs carries its own; otherwise the module's). Null if none.
MachineAttr getEnclosingMachine(Operation *scope);

} // namespace mlir::tc

#endif // TC_DIALECT_TCATTRS_H
