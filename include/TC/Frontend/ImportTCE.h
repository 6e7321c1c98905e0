//===- ImportTCE.h - the tensor-expression language -> tc IR ----*- C++ -*-===//
//
// `tc-translate --import-tce` and tcc read a program in tc's input language
// (docs/TCELanguage.md) through these: one function whose arguments are the
// program's inputs and whose results are its outputs (tc.name: their HDF5
// datasets), every term a tc.contract (two tensors), tc.multi_contract (more)
// or a tc.contract with a constant of ones (one tensor), with the term's
// coefficient and the statement's target as tc.name.
//
//===----------------------------------------------------------------------===//
#ifndef TC_FRONTEND_IMPORTTCE_H
#define TC_FRONTEND_IMPORTTCE_H

#include "TC/Frontend/TCEProgram.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::tc {

/// The module of a parsed program; `file` names the source in locations.
OwningOpRef<ModuleOp> buildTCEModule(const tce::Program &program, StringRef file,
                                     MLIRContext *context);

/// Parses the main buffer of `sourceMgr` and builds its module; on an error,
/// reports it at its line and column and returns null.
OwningOpRef<ModuleOp> importTCE(llvm::SourceMgr &sourceMgr, MLIRContext *context);

/// Registers `--import-tce` with mlir-translate's registry.
void registerImportTCETranslation();

} // namespace mlir::tc

#endif // TC_FRONTEND_IMPORTTCE_H
