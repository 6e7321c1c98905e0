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
  // Generated from include/TC/Pipelines/Pipelines.td: tc-plan's options
  // (Passes.td), then the lowering's.
#define GEN_PIPELINE_OPTION_DECLS
#include "TC/Pipelines/TCCompileOptions.h.inc"

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
