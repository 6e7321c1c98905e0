//===- tc-plugin.cpp - tc as an mlir-opt plugin ---------------------------===//
#include "TC/Conversion/Passes.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

/// Entry point for --load-dialect-plugin: the dialect, plus the passes so that one
/// flag suffices.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TC", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::tc::TCDialect>();
            mlir::tc::registerTCPasses();
            mlir::tc::registerTCConversionPasses();
          }};
}

/// Entry point for --load-pass-plugin.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TCPasses", LLVM_VERSION_STRING,
          []() {
            mlir::tc::registerTCPasses();
            mlir::tc::registerTCConversionPasses();
          }};
}
