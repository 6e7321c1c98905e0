//===- Driver.cpp - compile a tc program into an executable ---------------===//
#include "TC/Driver/Driver.h"

#include "TC/Dialect/TCDialect.h"
#include "TC/Frontend/ImportTCE.h"
#include "TC/Partition/ZoltanPartitioner.h"
#include "TC/Pipelines/Pipelines.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tc {

void registerCompileDialects(DialectRegistry &registry) {
  registerZoltanPartitioner();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<TCDialect>();
  registerAllToLLVMIRTranslations(registry);
}

std::string calibratedMachineFile() {
  std::optional<std::string> envFile = llvm::sys::Process::GetEnv("TC_MACHINE_FILE");
  if (envFile && !envFile->empty())
    return *envFile;
  std::optional<std::string> config = llvm::sys::Process::GetEnv("XDG_CONFIG_HOME");
  if (!config || config->empty())
    config = llvm::sys::Process::GetEnv("HOME").value_or("") + "/.config";
  std::string calibrated = *config + "/tc/machine.json";
  return llvm::sys::fs::is_regular_file(calibrated) ? calibrated : "";
}

SourceLanguage languageOfPath(StringRef path) {
  return path.ends_with(".tce") ? SourceLanguage::TCE : SourceLanguage::MLIR;
}

OwningOpRef<ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                                   SourceLanguage language) {
  if (language == SourceLanguage::TCE)
    return importTCE(sourceMgr, context);
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
}

LogicalResult runCompilePipeline(ModuleOp module, StringRef options) {
  auto parsed = TCCompileOptions::createFromString(options);
  if (!parsed)
    return module.emitError("invalid tc-compile options: ") << options;
  PassManager pm(module.getContext());
  buildTCCompilePipeline(pm, *parsed);
  return pm.run(module);
}

LogicalResult runPlanPipeline(ModuleOp module, StringRef options) {
  auto parsed = TCCompileOptions::createFromString(options);
  if (!parsed)
    return module.emitError("invalid tc-compile options: ") << options;
  PassManager pm(module.getContext());
  buildPlanPipeline(pm, parsed->planOptions());
  return pm.run(module);
}

bool writeLLVMIR(ModuleOp module, StringRef path, std::string &error) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule) {
    error = "the translation to LLVM IR failed";
    return false;
  }
  llvmModule->removeDebugIntrinsicDeclarations();
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return false;
  llvmModule->print(file->os(), nullptr);
  file->keep();
  return true;
}

Toolchain configuredToolchain(StringRef runtimeLib) {
  Toolchain tools{TC_DRIVER_CLANG, TC_DRIVER_MPICXX, {}, runtimeLib.str()};
  SmallVector<StringRef> libs;
  StringRef(TC_DRIVER_LINK_LIBS).split(libs, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef lib : libs)
    tools.linkLibs.push_back(lib.str());
  return tools;
}

StringRef runtimeLibraryName() { return TC_DRIVER_RUNTIME_NAME; }

SmallVector<std::string> objectCommand(const Toolchain &tools, StringRef llvmIR, StringRef object) {
  return {tools.clang, "-O2",        "-fPIC", "-Wno-override-module",
          "-c",        llvmIR.str(), "-o",    object.str()};
}

SmallVector<std::string> linkCommand(const Toolchain &tools, StringRef object, StringRef program,
                                     BuildKind kind) {
  SmallVector<std::string> link = {tools.mpicxx};
  // The host's entry is in the runtime archive, which nothing in the program
  // references.
  if (kind == BuildKind::SharedLibrary)
    link.append({"-shared", "-Wl,-u,tc_rt_embedded_run", "-Wl,-u,tc_rt_embedded_report"});
  link.append({object.str(), tools.runtimeLib});
  link.append(tools.linkLibs.begin(), tools.linkLibs.end());
  link.append({"-o", program.str()});
  return link;
}

int executeCommand(ArrayRef<std::string> command, std::string &error) {
  SmallVector<StringRef> args(command.begin(), command.end());
  int status = llvm::sys::ExecuteAndWait(command.front(), args, std::nullopt, {}, 0, 0, &error);
  if (status < 0) {
    error = command.front() + ": " + error;
    return 127;
  }
  if (status != 0)
    error = command.front() + " exited with status " + std::to_string(status);
  return status;
}

bool moveFile(StringRef from, StringRef to, std::string &error) {
  if (!llvm::sys::fs::rename(from, to))
    return true;
  llvm::ErrorOr<llvm::sys::fs::perms> perms = llvm::sys::fs::getPermissions(from);
  std::error_code code = llvm::sys::fs::copy_file(from, to);
  if (!code && perms)
    code = llvm::sys::fs::setPermissions(to, *perms);
  if (code) {
    error = ("cannot write " + to + ": " + code.message()).str();
    llvm::sys::fs::remove(to);
    return false;
  }
  return true;
}

bool compileToExecutable(ModuleOp module, StringRef options, const Toolchain &tools,
                         StringRef workDir, StringRef output, std::string &error, BuildKind kind) {
  if (failed(runCompilePipeline(module, options))) {
    error = "tc-compile failed";
    return false;
  }
  const std::string llvmIR = (workDir + "/prog.ll").str(), object = (workDir + "/prog.o").str(),
                    program = (workDir + "/prog").str();
  if (!writeLLVMIR(module, llvmIR, error))
    return false;
  if (executeCommand(objectCommand(tools, llvmIR, object), error) ||
      executeCommand(linkCommand(tools, object, program, kind), error))
    return false;
  return moveFile(program, output, error);
}

} // namespace mlir::tc
