//===- tc-opt.cpp - the tc optimizer driver -------------------------------===//
//
// mlir-opt with the tc dialect and passes added: every upstream dialect, pass and
// extension is registered, so anything mlir-opt runs, tc-opt runs too.
//
//===----------------------------------------------------------------------===//
#include "TC/Conversion/Passes.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Partition/ZoltanPartitioner.h"
#include "TC/Pipelines/Pipelines.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<mlir::tc::TCDialect>();
  mlir::tc::registerTCPasses();
  mlir::tc::registerTCConversionPasses();
  mlir::tc::registerTCCompilePipeline();
  // tc's planning tool links MPI for Zoltan; the mlir-opt plugin does not and
  // partitions with the builtin one.
  mlir::tc::registerZoltanPartitioner();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tc optimizer driver\n", registry));
}
