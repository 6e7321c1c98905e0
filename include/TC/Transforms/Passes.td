//===- Passes.td - tc passes ------------------------------*- tablegen -*-===//
#ifndef TC_TRANSFORMS_PASSES_TD
#define TC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTCToLinalg : Pass<"tc-convert-to-linalg"> {
  let summary = "Lower tc contractions to linalg.generic (the serial reference)";
  let description = [{
    Rewrites every `tc.contract`, `tc.sum` and `tc.multi_contract` into one
    `linalg.generic` over the op's index space: one loop per label, result labels
    parallel and summed labels reductions, a body that multiplies the inputs and adds
    into the output. A `+=` accumulator becomes the generic's init; `=` starts from a
    zero-filled `tensor.empty`.

    This is the serial, single-process meaning of a tc program: the oracle the
    distributed lowering is checked against, and the way to run tc IR through
    upstream bufferization and code generation. `tc.redistribute` only moves data
    between processes, so on one process it is the identity and is replaced by its
    source.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // TC_TRANSFORMS_PASSES_TD
