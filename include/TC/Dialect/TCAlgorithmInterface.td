//===- TCAlgorithmInterface.td - a parallel algorithm's plan attribute -*- tablegen -*-===//
//
// Each parallel algorithm records its own plan parameters in its own attribute
// (#tc.gao, #tc.cosma, #tc.pumma, #tc.batch), the `algorithm` of #tc.plan.
// The attribute checks the plan's common fields against what the algorithm
// computes on, so #tc.plan's verifier holds no per-algorithm rule
// (docs/Architecture.md).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ALGORITHM_INTERFACE_TD
#define TC_ALGORITHM_INTERFACE_TD

include "mlir/IR/OpBase.td"

def TC_AlgorithmAttrInterface : AttrInterface<"AlgorithmAttrInterface"> {
  let cppNamespace = "::mlir::tc";
  let description = [{
    The `algorithm` of a `#tc.plan`: which parallel algorithm runs the
    contraction, with that algorithm's own parameters. Inside `#tc.plan` an
    algorithm without parameters prints as its bare keyword (`rotation`,
    `cosma`, `batch`, ...), one with parameters as its attribute
    (`#tc.cosma<rounds = {k = 4}>`).
  }];
  let methods = [
    InterfaceMethod<"The algorithm (the key of the planner and lowering registries).",
      "::mlir::tc::ParallelAlgorithm", "getKind">,
    InterfaceMethod<"Whether it carries parameters beyond its kind.",
      "bool", "hasParameters">,
    InterfaceMethod<[{
        Checks the plan's common fields (grid, distributions, in_core) against
        what the algorithm computes on; fields absent are not checked.
      }], "::llvm::LogicalResult", "verifyPlan",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "const ::mlir::tc::PlanView &":$plan)>,
  ];
}

#endif // TC_ALGORITHM_INTERFACE_TD
