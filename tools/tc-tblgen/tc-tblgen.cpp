//===- tc-tblgen.cpp - tc's TableGen backends -----------------------------===//
//
// -gen-pipeline-options: the options of a registered pipeline (a TC_Pipeline
// record, include/TC/Pipelines/Pipelines.td) from the pass whose options it
// forwards, so that each option is declared once, in that pass's TableGen.
// It emits two sections of one .inc file:
//   GEN_PIPELINE_OPTION_DECLS  the PassOptions::Option members of the
//                              pipeline's PassPipelineOptions struct: the
//                              forwarded pass's options (with `overrides`
//                              replacing some by argument), then its own;
//   GEN_PIPELINE_FORWARDING    statements copying every forwarded option into
//                              `forwarded`, the pass's options struct.
//
//===----------------------------------------------------------------------===//
#include "mlir/TableGen/Pass.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;
using mlir::tblgen::PassOption;

namespace {

enum class Action { PipelineOptions };

cl::opt<Action> action(cl::desc("Action to perform:"),
                       cl::values(clEnumValN(Action::PipelineOptions, "gen-pipeline-options",
                                             "Generate a pipeline's options")));

/// `s` as the body of a C++ string literal.
std::string escaped(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

void emitDeclaration(const PassOption &opt, raw_ostream &os) {
  os << "  ::mlir::detail::PassOptions::" << (opt.isListOption() ? "ListOption" : "Option") << "<"
     << opt.getType() << "> " << opt.getCppVariableName() << "{*this, \"" << opt.getArgument()
     << "\", ::llvm::cl::desc(\"" << escaped(opt.getDescription()) << "\")";
  if (std::optional<StringRef> value = opt.getDefaultValue(); value && !value->empty())
    os << ", ::llvm::cl::init(" << *value << ")";
  if (std::optional<StringRef> flags = opt.getAdditionalFlags(); flags && !flags->empty())
    os << ", " << *flags;
  os << "};\n";
}

bool emitPipelineOptions(raw_ostream &os, const RecordKeeper &records) {
  emitSourceFileHeader("Pipeline options", os, records);
  for (const Record *pipeline : records.getAllDerivedDefinitions("TC_Pipeline")) {
    mlir::tblgen::Pass forwarded(pipeline->getValueAsDef("forwarded"));
    StringMap<const Record *> overrides;
    for (const Record *o : pipeline->getValueAsListOfDefs("overrides"))
      overrides[o->getValueAsString("argument")] = o;
    for (const auto &[argument, o] : overrides)
      if (!llvm::any_of(forwarded.getOptions(), [&, &argument = argument](const PassOption &p) {
            return p.getArgument() == argument;
          }))
        PrintFatalError(o->getLoc(), "override of '" + argument.str() + "', which " +
                                         forwarded.getArgument().str() + " does not have");
    os << "// " << pipeline->getValueAsString("argument") << ": the options of "
       << forwarded.getArgument() << ", then its own.\n";
    os << "#ifdef GEN_PIPELINE_OPTION_DECLS\n";
    for (const PassOption &opt : forwarded.getOptions()) {
      auto it = overrides.find(opt.getArgument());
      emitDeclaration(it == overrides.end() ? opt : PassOption(it->second), os);
    }
    for (const Record *own : pipeline->getValueAsListOfDefs("options"))
      emitDeclaration(PassOption(own), os);
    os << "#undef GEN_PIPELINE_OPTION_DECLS\n#endif\n\n";
    os << "#ifdef GEN_PIPELINE_FORWARDING\n";
    for (const PassOption &opt : forwarded.getOptions()) {
      StringRef name = opt.getCppVariableName();
      if (opt.isListOption())
        os << "  forwarded." << name << ".assign(" << name << ".begin(), " << name << ".end());\n";
      else
        os << "  forwarded." << name << " = " << name << ";\n";
    }
    os << "#undef GEN_PIPELINE_FORWARDING\n#endif\n";
  }
  return false;
}

bool dispatch(raw_ostream &os, const RecordKeeper &records) {
  switch (action) {
  case Action::PipelineOptions:
    return emitPipelineOptions(os, records);
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &dispatch);
}
