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
  Count
};
inline constexpr llvm::StringLiteral kKeys[Count] = {
    "procs", "mem", "net_bw", "disk_bw", "elem_bytes", "bcast_factor", "reduce_factor",
    "flop_rate"};
} // namespace machine_field

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
