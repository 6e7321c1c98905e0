//===- Pipelines.td - tc's registered pipelines ------------*- tablegen -*-===//
//
// A pipeline's options are those of the pass it forwards them to, declared
// once in that pass's TableGen, plus its own; tools/tc-tblgen
// -gen-pipeline-options makes the PassPipelineOptions members and the
// forwarding from them.
//
//===----------------------------------------------------------------------===//
#ifndef TC_PIPELINES_TD
#define TC_PIPELINES_TD

include "TC/Transforms/Passes.td"

class TC_Pipeline<string arg, Pass forwardedPass> {
  // The pipeline's registered name.
  string argument = arg;
  // The pass every option of which the pipeline takes and passes on.
  Pass forwarded = forwardedPass;
  // Options of `forwarded` with another default or description here (matched
  // by argument).
  list<Option> overrides = [];
  // The pipeline's own options, after the forwarded ones.
  list<Option> options = [];
}

def TCCompile : TC_Pipeline<"tc-compile", PlanPipeline> {
  let overrides = [
    Option<"volumes", "volumes", "std::string", /*default=*/"\"runtime\"",
           "Volume accounting: runtime (the bytes tc's runtime moves; the default "
           "here) or paper (the papers' formulas)", "llvm::cl::value_desc(\"V\")">,
  ];
  let options = [
    Option<"tileContraction", "tile-contraction", "std::string", /*default=*/"\"runtime\"",
           "How a local tile contraction runs: runtime (permute + BLAS) or linalg "
           "(a linalg.generic on subviews, compiled to loops)",
           "llvm::cl::value_desc(\"K\")">,
    Option<"lowerToLLVM", "lower-to-llvm", "bool", /*default=*/"true",
           "Lower to the LLVM dialect (false: stop at the tile-level tc ops of "
           "tc-lower-plan and tc-lower-fused)", "llvm::cl::value_desc(\"B\")">,
  ];
}

#endif // TC_PIPELINES_TD
