//===- Driver.h - compile a tc program into an executable -------*- C++ -*-===//
//
// The steps of a compile that tcc and the Python bindings share: parse a
// program (tc's language or MLIR), run tc-compile, translate to LLVM IR, and
// build a native MPI program with clang and the MPI compiler wrapper, linked
// with tc's runtime (docs/Python.md, tools/tcc).
//
//===----------------------------------------------------------------------===//
#ifndef TC_DRIVER_DRIVER_H
#define TC_DRIVER_DRIVER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace tc {

/// What a compile parses, transforms and translates: MLIR's dialects and
/// extensions, tc's, and the LLVM IR translations. Also registers the Zoltan
/// partitioner of block-sparse plans.
void registerCompileDialects(DialectRegistry &registry);

/// The machine file tc-calibrate writes, for options that name none: the
/// file $TC_MACHINE_FILE names, else ${XDG_CONFIG_HOME:-~/.config}/tc/
/// machine.json when it exists; "" when neither.
std::string calibratedMachineFile();

/// A program's text: tc's tensor-expression language or MLIR.
enum class SourceLanguage { TCE, MLIR };

/// TCE for a name ending in .tce, else MLIR.
SourceLanguage languageOfPath(StringRef path);

/// The module of the source manager's main buffer; null after a diagnostic.
OwningOpRef<ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                                   SourceLanguage language);

/// Runs tc-compile on `module` with `options` (its option string, NAME=VALUE
/// separated by spaces); failure after a diagnostic.
LogicalResult runCompilePipeline(ModuleOp module, StringRef options);

/// Runs tc-plan (planning only) on `module` with `options`, tc-compile's
/// option string: options of the lowering are accepted and ignored.
LogicalResult runPlanPipeline(ModuleOp module, StringRef options);

/// Writes `module` (in the LLVM dialect) as LLVM IR to `path`; false with
/// `error` set when it cannot.
bool writeLLVMIR(ModuleOp module, StringRef path, std::string &error);

/// The programs and libraries that build an executable from LLVM IR.
struct Toolchain {
  std::string clang, mpicxx;
  llvm::SmallVector<std::string> linkLibs; ///< OpenBLAS and HDF5
  std::string runtimeLib;                  ///< tc's runtime library
};

/// The toolchain tc was built with, linking `runtimeLib`.
Toolchain configuredToolchain(StringRef runtimeLib);

/// The runtime library's file name (libTCRuntime.a).
StringRef runtimeLibraryName();

/// What a compile builds: a program, or a shared library a host loads to run
/// it inside its own MPI job (include/TC/Runtime/Embedding.h).
enum class BuildKind { Executable, SharedLibrary };

/// clang's command compiling `llvmIR` into `object`.
llvm::SmallVector<std::string> objectCommand(const Toolchain &tools, StringRef llvmIR,
                                             StringRef object);
/// The MPI wrapper's command linking `object` with the runtime into `program`.
llvm::SmallVector<std::string> linkCommand(const Toolchain &tools, StringRef object,
                                           StringRef program,
                                           BuildKind kind = BuildKind::Executable);

/// Runs `command`; its exit status (127 if it could not start, with `error`
/// set).
int executeCommand(ArrayRef<std::string> command, std::string &error);

/// Moves `from` to `to`, copying when they are on different file systems;
/// false with `error` set when it cannot.
bool moveFile(StringRef from, StringRef to, std::string &error);

/// Every step after parsing: tc-compile with `options`, LLVM IR, the object
/// and the link, in `workDir`, the executable renamed to `output` only when
/// complete. False with `error` set (a pipeline failure has also emitted its
/// diagnostics).
bool compileToExecutable(ModuleOp module, StringRef options, const Toolchain &tools,
                         StringRef workDir, StringRef output, std::string &error,
                         BuildKind kind = BuildKind::Executable);

} // namespace tc
} // namespace mlir

#endif // TC_DRIVER_DRIVER_H
