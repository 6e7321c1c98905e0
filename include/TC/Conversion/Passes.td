//===- Passes.td - tc conversion passes -------------------*- tablegen -*-===//
#ifndef TC_CONVERSION_PASSES_TD
#define TC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToRuntime : Pass<"tc-lower-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower tile-level tc ops to calls into tc's runtime";
  let description = [{
    Replaces every tile-level op (`tc.array`, `tc.read_tile`, `tc.write_tile`,
    `tc.shift_tile`, `tc.broadcast_tile`, `tc.allreduce_tile`, `tc.shift_array`,
    `tc.allgather_array`, `tc.allreduce_array`, `tc.tile_contract`, `tc.store`,
    `tc.predicted_volumes`) by one `func.call` of the matching `tc_rt_*` function
    of include/TC/Runtime/Runtime.h (`tc.load_slice`, `tc.store_slice`,
    `tc.finish_store`, `tc.zero_array`, `tc.combine_partial` and
    `tc.redistribute_array` likewise). Static descriptions (include/TC/Runtime/
    Descriptors.h) become private `memref.global` constants, one per distinct
    content; buffers are passed as their aligned pointers; offsets as a stack
    buffer of int64 in a `memref.alloca_scope` around the call.

    Built on the conversion framework: `!tc.array` becomes `!llvm.ptr` (the
    runtime's handle) wherever it appears, including function arguments and
    results, block arguments and `scf` loop-carried values, and every tc op is
    illegal afterwards. The patterns are public
    (`populateTCToRuntimeConversionPatterns`,
    include/TC/Conversion/TCToRuntime/TCToRuntime.h). `tc_main` starts with a
    call of `tc_rt_check_abi(TC_RT_API_VERSION)`, so a program linked against
    another runtime ABI stops with a clear error. The result lowers to LLVM with
    the upstream conversions.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

#endif // TC_CONVERSION_PASSES_TD
