//===- tc-translate.cpp - tc's translations -------------------------------===//
//
// `tc-translate --import-tce PROGRAM.tce` prints the tc IR of a program in tc's
// tensor-expression language (docs/TCELanguage.md); tcc runs it on .tce files.
//
//===----------------------------------------------------------------------===//
#include "TC/Frontend/ImportTCE.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::tc::registerImportTCETranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "tc translations"));
}
