//===- TCCompile.cpp - the tc-compile pipeline ----------------------------===//
//
// The passes tcc runs, as one registered pipeline, so that a compiler embedding
// tc lowers a program exactly as tcc does.
//
//===----------------------------------------------------------------------===//
#include "TC/Pipelines/Pipelines.h"

#include "TC/Conversion/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::tc;

PlanPipelineOptions TCCompileOptions::planOptions() const {
  PlanPipelineOptions forwarded;
#define GEN_PIPELINE_FORWARDING
#include "TC/Pipelines/TCCompileOptions.h.inc"
  return forwarded;
}

SmallVector<const llvm::cl::Option *> TCCompileOptions::declarations() const {
  SmallVector<const llvm::cl::Option *> result;
  for (const auto &entry : OptionsMap)
    result.push_back(entry.second);
  llvm::sort(result, [](const llvm::cl::Option *a, const llvm::cl::Option *b) {
    return a->ArgStr < b->ArgStr;
  });
  return result;
}

void mlir::tc::buildTCCompilePipeline(OpPassManager &pm,
                                      const TCCompileOptions &options) {
  pm.addPass(createRaiseLinalgToTC());
  // tc-plan itself (not its passes), so that its passes share one analysis
  // manager as they do when tc-plan runs alone.
  pm.addPass(createPlanPipeline(options.planOptions()));
  pm.addPass(createLowerPlan());
  pm.addPass(createLowerFused());
  pm.addPass(createReuseKeptStorage());
  if (!options.lowerToLLVM)
    return;

  LowerToRuntimeOptions runtime;
  runtime.tileContraction = options.tileContraction;
  pm.addPass(createLowerToRuntime(runtime));
  // Local kernels generated as linalg are compiled to loops here; their
  // subviews' address arithmetic is affine.
  bool linalgKernels = options.tileContraction == "linalg";
  if (linalgKernels)
    pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  if (linalgKernels)
    pm.addPass(createLowerAffinePass());
  // Generic allocation functions, which tc's runtime implements with its
  // buffer pool (lib/Runtime/BufferPool.h): buffers stay mapped across stages.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tc::registerTCCompilePipeline() {
  // Once: mlir-opt may load the plugin as dialect and as pass plugin.
  static bool registered = [] {
    PassPipelineRegistration<TCCompileOptions>(
        "tc-compile",
        "Compile tc IR (or contraction-shaped linalg) to the LLVM dialect: "
        "plan every contraction and operator tree (tc-plan), lower the plans "
        "to tiling loops and calls of tc's runtime, then to LLVM",
        buildTCCompilePipeline);
    return true;
  }();
  (void)registered;
}
