//===- TCToRuntime.h - tile-level tc ops to runtime calls ------*- C++ -*-===//
//
// The lowering of tc's tile-level ops onto the C ABI of tc's runtime
// (include/TC/Runtime/Runtime.h, descriptors in include/TC/Runtime/Descriptors.h),
// as conversion patterns another compiler can add to its own conversion.
//
//===----------------------------------------------------------------------===//
#ifndef TC_CONVERSION_TCTORUNTIME_TCTORUNTIME_H
#define TC_CONVERSION_TCTORUNTIME_TCTORUNTIME_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace mlir::tc {

#define GEN_PASS_DECL_LOWERTORUNTIME
#include "TC/Conversion/Passes.h.inc"

/// `!tc.array<...>` becomes `!llvm.ptr`, the runtime's opaque handle; every
/// other type is left as it is.
void populateTCToRuntimeTypeConversions(TypeConverter &converter);

/// One pattern per tile-level op (tc.array, tc.predicted_volumes, the tile,
/// array and slice ops, tc.tile_contract), each replacing the op by one call of
/// the matching `tc_rt_*` function (declared on first use). Static descriptions
/// become private constant `memref.global`s, buffers pass as their aligned
/// pointers, offsets as a stack buffer of int64.
void populateTCToRuntimeConversionPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Makes the program check, before anything else, that it runs against the
/// runtime ABI it was compiled for: a call of `tc_rt_check_abi` at the start of
/// `tc_main` (no-op when the module has no `tc_main`, or when it has the call).
void insertRuntimeABICheck(ModuleOp module);

/// Makes `tc_main` check the run's process count against the machines its
/// callees were planned for (each callee's `tc.machine`, else the module's).
/// One count P: a call of `tc_rt_check_procs(P)` (grids of fewer processes
/// leave the rest idle). Several (functions specialized by
/// tc-specialize-procs): `tc_rt_plan_for_procs` for each, `tc_rt_select_procs`
/// for the run's, and each call runs only when its callee's count is the run's.
/// Fails when a callee without a machine of its own sits among specialized
/// ones. Insert it before insertRuntimeABICheck, which then comes first.
LogicalResult insertProcessCountCheck(ModuleOp module);

} // namespace mlir::tc

#endif // TC_CONVERSION_TCTORUNTIME_TCTORUNTIME_H
