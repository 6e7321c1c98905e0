//===- tcc.cpp - compile a tc program into a native MPI executable --------===//
//
// tcc PROG.mlir|PROG.tce -o PROG [options]: reads the program (a .tce through
// tc's importer), runs the tc-compile pipeline and the translation to LLVM IR
// in process, then builds the executable with clang and the MPI compiler
// wrapper, linked with tc's runtime, OpenBLAS and HDF5. Its flags are
// tc-compile's options (TCCompileOptions) as --NAME VALUE, and its own.
//
//===----------------------------------------------------------------------===//
#include "TC/Driver/Driver.h"
#include "TC/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace mlir;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

namespace {

// tcc's own flags. They live in a subcommand of their own (never parsed by
// cl::ParseCommandLineOptions): tcc parses its command line itself, for its
// --NAME VALUE syntax and its messages, and prints --help from these
// declarations and tc-compile's.
cl::SubCommand tccFlags;

cl::opt<std::string> outputFile(
    "o", cl::sub(tccFlags), cl::value_desc("PROG"),
    cl::desc("The program to write (default: PROG without .mlir or .tce)"));
cl::opt<std::string> emit(
    "emit", cl::sub(tccFlags), cl::value_desc("mlir|llvm"),
    cl::desc("Stop after lowering and write MLIR (after tc-lower-plan) or LLVM IR "
             "to the -o file"));
cl::opt<bool> keepTemps("keep-temps", cl::sub(tccFlags),
                        cl::desc("Keep the intermediate files next to the output"));
cl::opt<bool> verbose(
    "verbose", cl::sub(tccFlags),
    cl::desc("Show the planner's remarks (why an algorithm was skipped)"));
cl::opt<bool> dryRun(
    "dry-run", cl::sub(tccFlags),
    cl::desc("Print the commands that do what tcc does (tc-translate, tc-opt and "
             "mlir-translate for its in-process steps), one per line, and run none"));

/// tcc's flag for a tc-compile option: the report files are --plan-report and
/// --plan-table; lower-to-llvm is --emit's.
std::optional<std::string> flagName(StringRef option) {
  if (option == "lower-to-llvm")
    return std::nullopt;
  if (option == "report" || option == "table")
    return ("plan-" + option).str();
  return option.str();
}

/// The tc-compile options given, in the order first given (a repeated option
/// keeps its place and takes the later value).
class GivenOptions {
public:
  void set(StringRef name, StringRef value) {
    for (auto &[given, old] : values)
      if (given == name) {
        old = value.str();
        return;
      }
    values.emplace_back(name.str(), value.str());
  }
  bool has(StringRef name) const {
    return llvm::any_of(values, [&](const auto &entry) { return entry.first == name; });
  }
  /// NAME=VALUE ..., a value with spaces in braces as MLIR's option parser takes it.
  std::string str() const {
    std::string result;
    for (const auto &[name, value] : values) {
      if (!result.empty())
        result += ' ';
      result += name + "=";
      result += StringRef(value).contains(' ') ? "{" + value + "}" : value;
    }
    return result;
  }

private:
  SmallVector<std::pair<std::string, std::string>> values;
};

/// "1,2,4-6" -> "1,2,4,5,6": increasing counts, each once.
std::optional<std::string> expandProcs(StringRef list) {
  std::set<int64_t> counts;
  SmallVector<StringRef> items;
  list.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [loText, hiText] = item.split('-');
    bool isRange = item.contains('-');
    uint64_t lo = 0, hi = 0;
    bool valid = !loText.empty() && llvm::all_of(loText, llvm::isDigit) &&
                 !loText.getAsInteger(10, lo) &&
                 (!isRange || (!hiText.empty() && llvm::all_of(hiText, llvm::isDigit) &&
                               !hiText.getAsInteger(10, hi)));
    if (!isRange)
      hi = lo;
    if (!valid || lo < 1 || hi < lo || hi > 4096) {
      llvm::errs() << "tcc: error: --procs " << list << ": '" << item
                   << "' is not a process count or a range A-B (1 <= A <= B <= 4096)\n";
      return std::nullopt;
    }
    for (uint64_t n = lo; n <= hi; ++n)
      counts.insert(n);
  }
  if (counts.empty()) {
    llvm::errs() << "tcc: error: --procs " << list << " names no process count\n";
    return std::nullopt;
  }
  return llvm::join(llvm::map_range(counts, [](int64_t n) { return std::to_string(n); }),
                    ",");
}

//===----------------------------------------------------------------------===//
// --help
//===----------------------------------------------------------------------===//

/// "  --NAME VALUE" and the description, wrapped at 80 columns from column 23.
void printFlag(raw_ostream &os, const cl::Option &option, StringRef name) {
  std::string head = ("  " + Twine(name.size() == 1 ? "-" : "--") + name).str();
  if (option.getValueExpectedFlag() != cl::ValueDisallowed && !option.ValueStr.empty())
    head += " " + option.ValueStr.str();
  constexpr size_t column = 23, width = 80;
  os << head;
  size_t at = head.size();
  if (at + 1 >= column) {
    os << '\n';
    at = 0;
  }
  SmallVector<StringRef> words;
  option.HelpStr.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    if (at > column && at + 1 + word.size() > width) {
      os << '\n';
      at = 0;
    }
    if (at < column) {
      os.indent(column - at);
      at = column;
    } else {
      os << ' ';
      ++at;
    }
    os << word;
    at += word.size();
  }
  os << '\n';
}

void printHelp(const mlir::tc::TCCompileOptions &pipeline) {
  raw_ostream &os = llvm::outs();
  os << R"(usage: tcc PROG.mlir|PROG.tce -o PROG [pipeline options] [--keep-temps] [--emit mlir|llvm]
           [--dry-run]

Compiles the tensor contractions of PROG.mlir (tc, or linalg contractions) or
of PROG.tce (tc's tensor-expression language, docs/TCELanguage.md) into an MPI
program; a program of several statements runs them in order, intermediates
handed on in memory as --mem allows, else through an unnamed scratch file. Run
it as
  mpirun -np P ./PROG [--input NAME=FILE.h5 ...] [--random-inputs SEED]
                      [--output FILE.h5] [--scratch DIR] [--report FILE.json]
(./PROG --help explains these).

Pipeline options: each option NAME of the tc-compile pipeline (tc-opt --help,
docs/TCPipelines.md), given as --NAME VALUE (default: the module's tc.machine,
planned for tc's runtime). --procs also takes a list and/or ranges (1,2,4 or
1-8 or 2,4-6): one program with a plan per count, which runs the plan for its
mpirun -np and refuses any other (specialize-procs, procs the first).
--default-machine-file defaults to $TC_MACHINE_FILE, else
${XDG_CONFIG_HOME:-~/.config}/tc/machine.json when it exists (where tc-calibrate
writes); without one, 1GB/s and 200MB/s with a warning.
)";
  std::map<std::string, const cl::Option *> flags; // in tcc's names' order
  for (const cl::Option *option : pipeline.declarations())
    if (std::optional<std::string> name = flagName(option->ArgStr))
      flags[*name] = option;
  for (const auto &[name, option] : flags)
    printFlag(os, *option, name);
  os << "Other options:\n";
  for (const cl::Option *option : {static_cast<cl::Option *>(&outputFile),
                                   static_cast<cl::Option *>(&emit),
                                   static_cast<cl::Option *>(&keepTemps),
                                   static_cast<cl::Option *>(&verbose),
                                   static_cast<cl::Option *>(&dryRun)})
    printFlag(os, *option, option->ArgStr);
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

/// `word` as bash's printf %q writes it, so that --dry-run prints commands a
/// shell runs as they are.
std::string shellQuote(StringRef word) {
  if (word.empty())
    return "''";
  std::string result;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    bool quote = StringRef(" \t\n'\"\\|&;()<>!{}*[?]^$`,").contains(c) ||
                 (c == '~' && (i == 0 || word[i - 1] == '=' || word[i - 1] == ':')) ||
                 (c == '#' && i == 0);
    if (quote)
      result += '\\';
    result += c;
  }
  return result;
}

/// One step of the compile: the command that does it (what --dry-run prints)
/// and, unless it runs that command, what tcc does in its place.
struct Step {
  SmallVector<std::string> command;
  std::function<int()> run;
};

/// Runs `command`; its exit status, 127 (said) if it could not start.
int execute(ArrayRef<std::string> command) {
  std::string error;
  int status = tc::executeCommand(command, error);
  if (status == 127)
    llvm::errs() << "tcc: error: " << error << "\n";
  return status;
}

/// Prints `op` (with locations when `debugInfo`) to `path`; the file is kept
/// only when complete.
int writeMLIR(Operation *op, StringRef path, bool debugInfo) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "tcc: error: " << error << "\n";
    return 1;
  }
  OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo();
  op->print(file->os(), flags);
  file->os() << '\n';
  file->keep();
  return 0;
}

/// tc-opt's diagnostics as tcc shows them: without the op (a module-level error
/// would print the whole module), the planner's remarks only with --verbose,
/// and a warning as its one line (tc-set-machine's note on default bandwidths
/// is about the module, whose excerpt would be its first line).
class Diagnostics {
public:
  Diagnostics(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgrHandler(sourceMgr, context) {
    context->printOpOnDiagnostic(false);
    if (verbose)
      return;
    // Registered after the source manager's handler, so it sees each first.
    filter.emplace(context, [this](Diagnostic &diag) -> LogicalResult {
      switch (diag.getSeverity()) {
      case DiagnosticSeverity::Remark:
        return success();
      case DiagnosticSeverity::Warning:
        sourceMgrHandler.emitDiagnostic(diag.getLocation(), diag.str(),
                                        diag.getSeverity(), /*displaySourceLine=*/false);
        for (Diagnostic &note : diag.getNotes())
          sourceMgrHandler.emitDiagnostic(note.getLocation(), note.str(),
                                          note.getSeverity());
        return success();
      default:
        return failure();
      }
    });
  }

private:
  SourceMgrDiagnosticHandler sourceMgrHandler;
  std::optional<ScopedDiagnosticHandler> filter;
};

/// The directory of the intermediate files, removed at exit unless kept.
class Temporaries {
public:
  explicit Temporaries(std::string dir) : dir(std::move(dir)) {}
  ~Temporaries() {
    if (keepTemps)
      llvm::errs() << "tcc: temporaries in " << dir << "\n";
    else
      llvm::sys::fs::remove_directories(dir);
  }
  std::string path(StringRef name) const { return (dir + "/" + name).str(); }

private:
  std::string dir;
};

/// What the command line asks for.
struct Invocation {
  std::string input, output;
  GivenOptions given; // tc-compile's options
};

/// Parses the command line in order, an error stopping at the argument it is
/// about; the exit status when tcc is done (--help, an error).
std::optional<int> parseCommandLine(int argc, char **argv,
                                    const mlir::tc::TCCompileOptions &pipeline,
                                    Invocation &invocation) {
  llvm::StringMap<StringRef> pipelineFlags; // tcc's flag -> tc-compile's option
  for (const cl::Option *option : pipeline.declarations())
    if (std::optional<std::string> name = flagName(option->ArgStr))
      pipelineFlags[*name] = option->ArgStr;
  GivenOptions &given = invocation.given;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      printHelp(pipeline);
      return 0;
    }
    auto value = [&]() -> std::optional<StringRef> {
      if (i + 1 >= argc || !*argv[i + 1]) {
        llvm::errs() << "tcc: error: " << arg << " needs a value\n";
        return std::nullopt;
      }
      return StringRef(argv[++i]);
    };
    if (!arg.starts_with("-")) {
      if (!invocation.input.empty()) {
        llvm::errs() << "tcc: error: more than one input file\n";
        return 2;
      }
      invocation.input = arg.str();
      continue;
    }
    // -o, or --NAME of every other flag.
    StringRef name = arg == "-o" ? "o" : arg.starts_with("--") ? arg.drop_front(2) : "";
    if (name == "o" && arg != "-o")
      name = "";
    if (cl::Option *own = name.empty() ? nullptr : tccFlags.OptionsMap.lookup(name)) {
      bool takesValue = own->getValueExpectedFlag() == cl::ValueRequired;
      std::optional<StringRef> text = takesValue ? value() : StringRef();
      if (!text)
        return 1;
      own->addOccurrence(i, name, *text);
      continue;
    }
    auto flag = name.empty() ? pipelineFlags.end() : pipelineFlags.find(name);
    if (flag == pipelineFlags.end()) {
      llvm::errs() << "tcc: error: unknown option '" << arg << "' (see --help)\n";
      return 2;
    }
    std::optional<StringRef> text = value();
    if (!text)
      return 1;
    StringRef option = flag->second;
    if (option == "tile-contraction" && *text != "runtime" && *text != "linalg") {
      llvm::errs() << "tcc: error: --tile-contraction " << *text << ": runtime or linalg\n";
      return 2;
    }
    // Several process counts: one plan each (specialize-procs); the module's
    // machine gets the first.
    if (option == "procs" &&
        (text->contains(',') || (!text->empty() && llvm::isDigit(text->front()) &&
                                 text->ltrim("0123456789").starts_with("-")))) {
      std::optional<std::string> counts = expandProcs(*text);
      if (!counts)
        return 2;
      given.set("procs", StringRef(*counts).split(',').first);
      given.set("specialize-procs", *counts);
      continue;
    }
    given.set(option, *text);
  }
  if (invocation.input.empty()) {
    llvm::errs() << "tcc: error: no input file (see --help)\n";
    return 2;
  }
  if (!dryRun && !llvm::sys::fs::is_regular_file(invocation.input)) {
    llvm::errs() << "tcc: error: cannot read " << invocation.input << "\n";
    return 2;
  }
  invocation.output = outputFile;
  if (invocation.output.empty()) {
    StringRef base = llvm::sys::path::filename(invocation.input);
    base.consume_back(".mlir");
    base.consume_back(".tce");
    invocation.output = base.str();
  }
  // The machine tc-calibrate measured (its default --output), for the
  // bandwidths, flop rate and costs that neither the options nor the module give.
  if (!given.has("default-machine-file"))
    if (std::string calibrated = tc::calibratedMachineFile(); !calibrated.empty())
      given.set("default-machine-file", calibrated);
  // --emit mlir stops at the tile-level tc ops (after tc-lower-plan).
  if (emit == "mlir")
    given.set("lower-to-llvm", "false");
  return std::nullopt;
}

} // namespace

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // No arguments: this only names the program in llvm::cl's messages (a bad
  // value of a tc-compile option).
  cl::ParseCommandLineOptions(1, argv);
  mlir::tc::TCCompileOptions pipeline;
  Invocation invocation;
  if (std::optional<int> status = parseCommandLine(argc, argv, pipeline, invocation))
    return *status;
  const std::string &input = invocation.input, &output = invocation.output;
  const GivenOptions &given = invocation.given;

  SmallString<128> tmpDir;
  if (std::error_code error = llvm::sys::fs::createUniqueDirectory("tcc", tmpDir)) {
    llvm::errs() << "tcc: error: cannot make a temporary directory: " << error.message()
                 << "\n";
    return 1;
  }
  Temporaries tmp(tmpDir.str().str());

  // tc's tools and runtime next to tcc: bin/ and lib/ of the installed prefix,
  // wherever it was moved, or of the build tree.
  std::string binDir = llvm::sys::path::parent_path(
                           llvm::sys::fs::getMainExecutable(argv[0], (void *)(intptr_t)&shellQuote))
                           .str();
  std::string runtimeLib = binDir + "/" TCC_BIN_TO_LIB "/" + tc::runtimeLibraryName().str();
  if (!llvm::sys::fs::exists(runtimeLib))
    runtimeLib = binDir + "/../lib/" + tc::runtimeLibraryName().str();
  const tc::Toolchain tools = tc::configuredToolchain(runtimeLib);

  DialectRegistry registry;
  tc::registerCompileDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  Diagnostics diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;

  std::string compileFlag = "--tc-compile";
  if (std::string options = given.str(); !options.empty())
    compileFlag += "=" + options;
  std::string programMLIR = input;
  SmallVector<Step> steps;

  // The input into the source manager (diagnostics point into it).
  auto readInput = [&]() {
    std::string error;
    auto file = openInputFile(input, &error);
    if (!file) {
      llvm::errs() << "tcc: error: " << error << "\n";
      return false;
    }
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    return true;
  };

  // A tensor-expression program: its tc IR, with locations in the .tce file.
  if (tc::languageOfPath(input) == tc::SourceLanguage::TCE) {
    programMLIR = tmp.path("prog.mlir");
    steps.push_back({{binDir + "/tc-translate", "--import-tce", "--mlir-print-debuginfo",
                      input, "-o", programMLIR},
                     [&]() -> int {
                       if (!readInput())
                         return 1;
                       module = tc::parseProgram(sourceMgr, &context, tc::SourceLanguage::TCE);
                       if (!module)
                         return 1;
                       return keepTemps ? writeMLIR(*module, programMLIR, true) : 0;
                     }});
  }

  // The steps run after this block: the files they name live here.
  std::string loweredMLIR = emit == "mlir" ? output : tmp.path("prog.llvm.mlir");
  std::string llvmIR = tmp.path("prog.ll"), object = tmp.path("prog.o"),
              program = tmp.path("prog");
  steps.push_back(
      {{binDir + "/tc-opt", programMLIR, compileFlag, "-o", loweredMLIR,
        "--mlir-print-op-on-diagnostic=false"},
       [&]() -> int {
         if (!module) {
           if (!readInput())
             return 1;
           module = tc::parseProgram(sourceMgr, &context, tc::SourceLanguage::MLIR);
           if (!module)
             return 1;
         }
         if (failed(tc::runCompilePipeline(*module, given.str())))
           return 1;
         if (emit == "mlir" || keepTemps)
           return writeMLIR(*module, loweredMLIR, false);
         return 0;
       }});

  if (emit != "mlir") {
    steps.push_back(
        {{TCC_MLIR_TRANSLATE, "--mlir-to-llvmir", loweredMLIR, "-o", llvmIR}, [&]() -> int {
           std::string error;
           if (tc::writeLLVMIR(*module, llvmIR, error))
             return 0;
           llvm::errs() << "tcc: error: " << error << "\n";
           return 1;
         }});
    if (emit == "llvm") {
      steps.push_back({{"cp", llvmIR, output}, [&]() -> int {
                         if (std::error_code error = llvm::sys::fs::copy_file(llvmIR, output)) {
                           llvm::errs() << "tcc: error: cannot write " << output << ": "
                                        << error.message() << "\n";
                           return 1;
                         }
                         return 0;
                       }});
    } else {
      SmallVector<std::string> compile = tc::objectCommand(tools, llvmIR, object);
      steps.push_back({compile, [compile] { return execute(compile); }});
      // Link into a temporary name first: a failed link leaves no half-written
      // program.
      SmallVector<std::string> link = tc::linkCommand(tools, object, program);
      steps.push_back({link, [link] { return execute(link); }});
      steps.push_back({{"mv", program, output}, [&] {
                         std::string error;
                         if (tc::moveFile(program, output, error))
                           return 0;
                         llvm::errs() << "tcc: error: " << error << "\n";
                         return 1;
                       }});
    }
  }

  for (Step &step : steps) {
    if (dryRun) {
      llvm::outs() << llvm::join(llvm::map_range(step.command, shellQuote), " ") << "\n";
      continue;
    }
    if (int status = step.run())
      return status;
  }
  return 0;
}
