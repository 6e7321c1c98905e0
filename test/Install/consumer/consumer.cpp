// Parses tc IR with the installed dialect and runs an installed tc pass on it;
// encodes a runtime description with the installed ABI header.
#include "TC/Dialect/TCDialect.h"
#include "TC/Runtime/Descriptors.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
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
  return 0;
}
