//===- tc-plugin.cpp - tc as an mlir-opt plugin ---------------------------===//
#include "TC/Conversion/Passes.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Pipelines/Pipelines.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

/// Entry point for --load-dialect-plugin: the dialect, plus the passes and the
/// tc-compile pipeline so that one flag suffices.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TC", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::tc::TCDialect>();
            mlir::tc::registerTCPasses();
            mlir::tc::registerTCConversionPasses();
            mlir::tc::registerTCCompilePipeline();
          }};
}

/// Entry point for --load-pass-plugin: the passes and the tc-compile pipeline.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TCPasses", LLVM_VERSION_STRING,
          []() {
            mlir::tc::registerTCPasses();
            mlir::tc::registerTCConversionPasses();
            mlir::tc::registerTCCompilePipeline();
          }};
}
