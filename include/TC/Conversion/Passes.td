//===- Passes.td - tc conversion passes -------------------*- tablegen -*-===//
//
// Passes that convert tc ops into other dialects. Each has its patterns in a
// populate function of include/TC/Conversion/<Name>/<Name>.h, for compilers that
// run them inside their own conversion.
//
//===----------------------------------------------------------------------===//
#ifndef TC_CONVERSION_PASSES_TD
#define TC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// LinalgToTC
//===----------------------------------------------------------------------===//

def RaiseLinalgToTC : Pass<"tc-raise-linalg"> {
  let summary = "Raise contraction-shaped linalg ops to tc.contract";
  let description = [{
    Rewrites every linalg op on static f32 or f64 tensors that has the shape
    of the contraction interface (two inputs and one init, projected-
    permutation indexing maps, a multiply-add body, at least one reduction
    loop): `linalg.matmul`, `linalg.batch_matmul`, `linalg.contract` and such a
    `linalg.generic`, into `tc.contract %init[out] += %a[..] * %b[..]` with one
    label per loop (`d0`, `d1`, ...), or the `=` form when the init is a
    `linalg.fill` of zero. So a compiler that produces linalg can hand its
    contractions to `tc-plan` and `tc-lower-plan`. Other linalg ops, and
    contractions on buffers or dynamic shapes, are left alone.

    The pattern is public: `populateLinalgToTCPatterns` in
    `include/TC/Conversion/LinalgToTC/LinalgToTC.h`.
  }];
  let dependentDialects = ["::mlir::tc::TCDialect"];
}

//===----------------------------------------------------------------------===//
// TCToLinalg
//===----------------------------------------------------------------------===//

def ConvertTCToLinalg : Pass<"tc-convert-to-linalg"> {
  let summary = "Lower tc contractions to linalg (the serial reference)";
  let description = [{
    Rewrites every `tc.contract`, `tc.sum` and `tc.multi_contract` into one
    `linalg.generic` over the op's index space: one loop per label, result labels
    parallel and summed labels reductions, a body that multiplies the inputs and adds
    into the output. A `+=` accumulator becomes the generic's init; `=` starts from a
    zero-filled `tensor.empty`.

    This is the serial, single-process meaning of a tc program: the oracle the
    distributed lowering is checked against, and the way to run tc IR through
    upstream bufferization and code generation. `tc.redistribute` only moves data
    between processes, so on one process it is the identity and is replaced by its
    source.

    With `use-contract`, a binary `tc.contract` becomes the named
    `linalg.contract` instead, with the same indexing maps (its iterator types
    are implied by them), which `--linalg-generalize-named-ops` turns back into
    the `linalg.generic` above. `linalg.contract` needs at least one label summed
    over both inputs and no label summed over one input alone; a `tc.contract`
    without that form (an outer or Hadamard product, a one-sided sum) still
    becomes a `linalg.generic`.

    The patterns are public: `populateTCToLinalgConversionPatterns` in
    `include/TC/Conversion/TCToLinalg/TCToLinalg.h`.
  }];
  let options = [
    Option<"useContract", "use-contract", "bool", /*default=*/"false",
           "Lower binary tc.contract to linalg.contract instead of linalg.generic">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

//===----------------------------------------------------------------------===//
// TCToRuntime
//===----------------------------------------------------------------------===//

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
    another runtime ABI stops with a clear error, and, when the module has a
    `tc.machine`, of `tc_rt_check_procs(procs)`, so a run on another number of
    processes does too. Functions planned for several process counts (each with
    a `tc.machine` of its own, `tc-specialize-procs`) are run only for the
    run's: `tc_main` registers every count (`tc_rt_plan_for_procs`), asks for
    the run's (`tc_rt_select_procs`, which refuses a count not planned for) and
    guards each call with an `scf.if`. Against the machine of each function, an
    array on a grid of more
    processes, a non-distributed array on a grid of fewer (only distributed
    arrays leave processes idle, as COSMA's grids may) and per-rank predictions
    of another length are errors. The result lowers to LLVM with the upstream
    conversions.

    With `tile-contraction=linalg` the local tile contractions become linalg
    instead of runtime calls (`populateTileContractToLinalgPatterns`: a
    `memref.subview` per sub-tile and one `linalg.generic`), for compilers that
    generate that kernel themselves; `--convert-linalg-to-loops` (or their own
    pipeline) takes it from there. The runtime then counts no flops for them.
  }];
  let options = [
    Option<"tileContraction", "tile-contraction", "std::string", /*default=*/"\"runtime\"",
           "How a local tile contraction runs: runtime (tc_rt_tile_contract, "
           "permute + BLAS) or linalg (a linalg.generic on subviews)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // TC_CONVERSION_PASSES_TD
