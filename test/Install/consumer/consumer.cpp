// Parses tc IR with the installed dialect, runs an installed tc pass on it,
// reuses the installed TCToLinalg patterns in a conversion of its own, and
// encodes a runtime description with the installed ABI header.
#include "TC/Conversion/Passes.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Runtime/Descriptors.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/raw_ostream.h"

static const char *kProgram = R"mlir(
func.func @matmul(%A: tensor<4x6xf64>, %B: tensor<6x5xf64>) -> tensor<4x5xf64> {
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}
)mlir";

extern "C" int64_t consumer_abi_version(void); // abi.c: the header from C

int main() {
  llvm::outs() << "tc runtime ABI " << consumer_abi_version() << ": tile description [";
  for (int64_t v : tc_rt::TileDesc{{4, 5}}.encode())
    llvm::outs() << " " << v;
  llvm::outs() << " ]\n";

  // Both pass libraries are linked: their passes are found by name.
  mlir::tc::registerTCPasses();
  mlir::tc::registerTCConversionPasses();
  if (!mlir::PassInfo::lookup("tc-set-machine") ||
      !mlir::PassInfo::lookup("tc-convert-to-linalg"))
    return 3;

  mlir::DialectRegistry registry;
  registry.insert<mlir::tc::TCDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  if (!module)
    return 1;
  module->print(llvm::outs());
  mlir::PassManager pm(&context);
  pm.addPass(mlir::tc::createConvertTCToLinalg());
  if (mlir::failed(pm.run(*module)))
    return 2;
  module->print(llvm::outs());

  // Another compiler's conversion: tc's patterns, this compiler's target.
  context.loadDialect<mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
                      mlir::tensor::TensorDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> other =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  mlir::ConversionTarget target(context);
  target.addIllegalDialect<mlir::tc::TCDialect>();
  target.addLegalDialect<mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
                         mlir::tensor::TensorDialect>();
  mlir::RewritePatternSet patterns(&context);
  mlir::tc::populateTCToLinalgConversionPatterns(patterns, /*useContract=*/true);
  if (mlir::failed(mlir::applyPartialConversion(*other, target, std::move(patterns))))
    return 4;
  other->print(llvm::outs());
  return 0;
}
