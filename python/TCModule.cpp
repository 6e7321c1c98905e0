//===- TCModule.cpp - tc's compiler as a Python extension (tc._tc) --------===//
//
// The in-process half of tc's Python front end (docs/Python.md): a program's
// tensors, its plan (tc-plan's JSON report and table), its IR after each
// stage, and its executable (lib/Driver), every diagnostic raised as
// tc._tc.CompileError with file, line and column. The package python/tc
// builds the user-facing objects on these functions.
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Driver/Driver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace py = pybind11;
using namespace mlir;

namespace {

/// A failed parse, plan or compile: every error diagnostic, one per line.
struct CompileFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "NAME:LINE:COL: " of a location in the program (or nothing).
std::string where(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
            std::to_string(file.getColumn()) + ": ");
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string w = where(inner); !w.empty())
        return w;
  if (auto named = dyn_cast<NameLoc>(loc))
    return where(named.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return where(callSite.getCaller());
  return "";
}

/// A program parsed in its own context, its diagnostics collected: errors to
/// raise, warnings to return (remarks are the planner's, kept out).
class Session {
public:
  Session(const std::string &source, const std::string &name, bool tce) {
    tc::registerCompileDialects(registry);
    context.emplace(registry);
    context->printOpOnDiagnostic(false);
    handler.emplace(&*context, [this](Diagnostic &diag) {
      std::string line = where(diag.getLocation());
      switch (diag.getSeverity()) {
      case DiagnosticSeverity::Error:
        errors.push_back(line + "error: " + diag.str());
        break;
      case DiagnosticSeverity::Warning:
        warnings.push_back(line + "warning: " + diag.str());
        break;
      default:
        return;
      }
      for (Diagnostic &note : diag.getNotes())
        (diag.getSeverity() == DiagnosticSeverity::Error ? errors : warnings)
            .push_back(where(note.getLocation()) + "note: " + note.str());
    });
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, name),
                                 llvm::SMLoc());
    module = tc::parseProgram(sourceMgr, &*context,
                              tce ? tc::SourceLanguage::TCE : tc::SourceLanguage::MLIR);
    check(static_cast<bool>(module), "cannot parse " + name);
  }

  /// Raises the errors so far (or `what`) unless `ok`.
  void check(bool ok, const std::string &what) {
    if (ok && errors.empty())
      return;
    std::string message;
    for (const std::string &e : errors)
      message += e + "\n";
    throw CompileFailure(message.empty() ? what : message.substr(0, message.size() - 1));
  }

  std::string print() {
    std::string text;
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    module->print(os, flags);
    return text;
  }

  DialectRegistry registry;
  std::optional<MLIRContext> context;
  std::optional<ScopedDiagnosticHandler> handler;
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> errors, warnings;
};

/// Block-sparse plans partition with Zoltan, which starts MPI in this process
/// when it is not running (ZoltanPartitioner.cpp). Open MPI's singleton then
/// puts its own variables into the process's environment, and an mpirun that a
/// script later starts with that environment takes itself for a child of this
/// process and fails. This guard removes the variables MPI added during a call.
class KeepEnvironment {
public:
  KeepEnvironment() {
    for (char **e = environ; *e; ++e)
      before.insert(std::string(*e).substr(0, std::string(*e).find('=')));
  }
  ~KeepEnvironment() {
    std::vector<std::string> added;
    for (char **e = environ; *e; ++e) {
      std::string name = std::string(*e).substr(0, std::string(*e).find('='));
      if (!before.count(name) && (name.rfind("OMPI_", 0) == 0 || name.rfind("PMIX_", 0) == 0 ||
                                  name.rfind("OPAL_", 0) == 0 || name.rfind("ORTE_", 0) == 0))
        added.push_back(name);
    }
    for (const std::string &name : added)
      unsetenv(name.c_str());
  }

private:
  std::set<std::string> before;
};

/// tc-compile's option string with the calibrated machine file when it names none.
std::string withMachine(std::string options) {
  if (options.find("default-machine-file=") == std::string::npos)
    if (std::string file = tc::calibratedMachineFile(); !file.empty())
      options += " default-machine-file=" + file;
  return options;
}

/// A fresh temporary directory, removed with everything in it at scope exit.
class WorkDir {
public:
  WorkDir() {
    llvm::SmallString<128> dir;
    if (std::error_code error = llvm::sys::fs::createUniqueDirectory("tc-python", dir))
      throw std::runtime_error("cannot make a temporary directory: " + error.message());
    path = dir.str().str();
  }
  ~WorkDir() { llvm::sys::fs::remove_directories(path); }
  std::string path;
};

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One tensor of an entry function: its name, role, shape, element type and,
/// block-sparse, its segments and present blocks.
py::dict describeTensor(Type type, Attribute name, const char *role, const std::string &function) {
  auto tensor = cast<RankedTensorType>(type);
  py::dict d;
  d["name"] = name ? cast<StringAttr>(name).str() : std::string();
  d["role"] = role;
  d["function"] = function;
  d["shape"] = std::vector<int64_t>(tensor.getShape().begin(), tensor.getShape().end());
  d["dtype"] = tensor.getElementType().isF32() ? "float32" : "float64";
  if (auto blocks = dyn_cast_or_null<tc::BlocksAttr>(tensor.getEncoding())) {
    tc::BlockSparseShape shape = blocks.toShape();
    d["segments"] = shape.segments;
    d["blocks"] = shape.storedBlocks();
    if (shape.presence.restricted())
      d["flip"] = shape.presence.flip;
    if (!shape.presence.pairs.empty()) {
      py::list pairs;
      for (const tc::PairSymmetry &p : shape.presence.pairs)
        pairs.append(py::make_tuple(p.first, p.second, p.antisymmetric));
      d["pairs"] = pairs;
    }
  }
  return d;
}

/// An argument's name: its tc.name, else (a function of one contraction, as
/// the runtime names its arrays) A, B or C by its place in the contraction.
Attribute argumentName(func::FuncOp func, unsigned i, MLIRContext *context) {
  if (Attribute name = func.getArgAttr(i, "tc.name"))
    return name;
  for (Operation *user : func.getArgument(i).getUsers()) {
    auto contract = dyn_cast<tc::ContractOp>(user);
    if (!contract)
      continue;
    Value arg = func.getArgument(i);
    const char *role = arg == contract.getLhs()   ? "A"
                       : arg == contract.getRhs() ? "B"
                       : arg == contract.getInit() ? "C"
                                                   : nullptr;
    if (role)
      return StringAttr::get(context, role);
  }
  return {};
}

py::list tensors(const std::string &source, const std::string &name, bool tce) {
  Session s(source, name, tce);
  py::list out;
  for (auto func : s.module->getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    const std::string fn = func.getSymName().str();
    FunctionType type = func.getFunctionType();
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      out.append(describeTensor(type.getInput(i), argumentName(func, i, &*s.context), "input", fn));
    for (unsigned i = 0; i < type.getNumResults(); ++i) {
      Attribute result = func.getResultAttr(i, "tc.name");
      if (!result && type.getNumResults() == 1)
        result = StringAttr::get(&*s.context, "C");
      out.append(describeTensor(type.getResult(i), result, "output", fn));
    }
  }
  return out;
}

/// (JSON report, table, warnings) of tc-plan.
py::tuple plan(const std::string &source, const std::string &name, bool tce,
               const std::string &options) {
  KeepEnvironment environment;
  Session s(source, name, tce);
  WorkDir work;
  const std::string report = work.path + "/plan.json", table = work.path + "/plan.txt";
  std::string all = withMachine(options) + " report=" + report + " table=" + table;
  s.check(succeeded(tc::runPlanPipeline(*s.module, all)), "planning failed");
  return py::make_tuple(readFile(report), readFile(table), s.warnings);
}

/// The program's IR after `stage`: imported, planned, lowered (tile-level tc
/// ops and runtime calls, before LLVM), llvm (the LLVM dialect) or llvm-ir.
py::tuple stageIR(const std::string &source, const std::string &name, bool tce,
                  const std::string &options, const std::string &stage) {
  KeepEnvironment environment;
  Session s(source, name, tce);
  std::string all = withMachine(options);
  if (stage == "planned")
    s.check(succeeded(tc::runPlanPipeline(*s.module, all)), "planning failed");
  else if (stage == "lowered")
    s.check(succeeded(tc::runCompilePipeline(*s.module, all + " lower-to-llvm=false")),
            "lowering failed");
  else if (stage == "llvm" || stage == "llvm-ir")
    s.check(succeeded(tc::runCompilePipeline(*s.module, all)), "lowering failed");
  else if (stage != "imported")
    throw py::value_error("unknown stage '" + stage +
                          "': imported, planned, lowered, llvm or llvm-ir");
  if (stage != "llvm-ir")
    return py::make_tuple(s.print(), s.warnings);
  WorkDir work;
  std::string error, path = work.path + "/prog.ll";
  if (!tc::writeLLVMIR(*s.module, path, error))
    throw CompileFailure(error);
  return py::make_tuple(readFile(path), s.warnings);
}

/// Compiles into the executable `output` (or a shared library for a host's MPI
/// job, include/TC/Runtime/Embedding.h), linked with `runtimeLib`; the warnings.
std::vector<std::string> compile(const std::string &source, const std::string &name, bool tce,
                                 const std::string &options, const std::string &output,
                                 const std::string &runtimeLib, bool sharedLibrary) {
  KeepEnvironment environment;
  Session s(source, name, tce);
  WorkDir work;
  std::string error;
  bool ok = tc::compileToExecutable(
      *s.module, withMachine(options), tc::configuredToolchain(runtimeLib), work.path, output,
      error, sharedLibrary ? tc::BuildKind::SharedLibrary : tc::BuildKind::Executable);
  s.check(ok, error);
  return s.warnings;
}

} // namespace

PYBIND11_MODULE(_tc, m) {
  m.doc() = "tc's compiler in process: tensors, plans, IR and executables of a program";
  py::register_exception<CompileFailure>(m, "CompileError", PyExc_RuntimeError);
  m.def("tensors", &tensors, py::arg("source"), py::arg("name"), py::arg("tce"),
        "The entry functions' inputs and outputs: name, role, shape, dtype, blocks");
  m.def("plan", &plan, py::arg("source"), py::arg("name"), py::arg("tce"), py::arg("options"),
        "tc-plan's JSON report and table, and the warnings");
  m.def("stage_ir", &stageIR, py::arg("source"), py::arg("name"), py::arg("tce"),
        py::arg("options"), py::arg("stage"), "The IR after a stage, and the warnings");
  m.def("compile", &compile, py::arg("source"), py::arg("name"), py::arg("tce"), py::arg("options"),
        py::arg("output"), py::arg("runtime_lib"), py::arg("shared_library") = false,
        "Builds the executable (or a shared library a host loads); the warnings");
  m.attr("runtime_library_name") = tc::runtimeLibraryName().str();
  m.attr("module_to_libdir") = TC_PY_MODULE_TO_LIBDIR;
  m.attr("module_to_build_lib") = TC_PY_MODULE_TO_BUILD_LIB;
}
