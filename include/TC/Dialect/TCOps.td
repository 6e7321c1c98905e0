//===- TCOps.td - tc operations ---------------------------*- tablegen -*-===//
#ifndef TC_OPS_TD
#define TC_OPS_TD

include "TC/Dialect/TCDialect.td"
include "TC/Dialect/TCAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TC_LabelListAttr : TypedArrayAttrBase<StrArrayAttr, "one label list per input">;

// Ops whose operands and result carry one index label per dimension. They share the
// custom syntax
//   [%init] [labels] (`+=` | `=`) [scale `*`] %in0[labels] (`*` %inN[labels])*
//       attr-dict `:` type(in0) (`,` type(inN))* `->` type(result)
// and one verifier (TCOps.cpp: verifyLabeledOp).
class TC_LabeledOp<string mnemonic, list<Trait> traits = []>
    : TC_Op<mnemonic, traits # [Pure, AttrSizedOperandSegments]> {
  let arguments = (ins
    Variadic<AnyRankedTensor>:$inputs,
    Optional<AnyRankedTensor>:$init,
    TC_LabelListAttr:$input_labels,
    StrArrayAttr:$result_labels,
    // A coefficient multiplying the product (a term's `0.5 *`), written before
    // the first input; 1 is not written.
    DefaultValuedAttr<F64Attr, "1.0">:$scale);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  code labeledOpDecl = [{
    /// Labels of input `i`, one per dimension.
    ::mlir::ArrayAttr getLabelsOfInput(unsigned i) {
      return ::llvm::cast<::mlir::ArrayAttr>(getInputLabels()[i]);
    }
  }];
  let extraClassDeclaration = labeledOpDecl;
}

def TC_ContractOp : TC_LabeledOp<"contract"> {
  let summary = "Binary tensor contraction C[...] (+)= A[...] * B[...]";
  let description = [{
    Multiplies two tensors element-wise over the union of their labels and sums over
    every label absent from the result: Gao et al.'s `C(I,J) += A(I,K) * B(J,K)` up to
    any permutation of the labels of each operand. With no summed label it is a pure
    product (outer or Hadamard), Cociorva et al.'s multiplication formula.

    ```mlir
    // C[a,b,c,d] += sum_{m,n} A[a,b,m,n] * B[c,d,m,n]
    %r = tc.contract %C[a, b, c, d] += %A[a, b, m, n] * %B[c, d, m, n]
           : tensor<8x8x4x4xf64>, tensor<8x8x4x4xf64> -> tensor<8x8x8x8xf64>
    // a fresh result: T[i, j] = sum_k X[i, k] * Y[k, j]
    %t = tc.contract [i, j] = %X[i, k] * %Y[k, j]
           : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
    ```

    With `+=` the result is the accumulator `%C` plus the contraction; with `=` it is
    the contraction alone. A coefficient before the first input scales the
    product (the tile contractions' BLAS alpha):

    ```mlir
    %r = tc.contract %R[a, b, i, j] += 5.000000e-01 * %V[a, b, c, d] * %T[c, d, i, j]
           : tensor<6x6x6x6xf64>, tensor<6x6x4x4xf64> -> tensor<6x6x4x4xf64>
    ```
  }];
  let extraClassDeclaration = labeledOpDecl # [{
    ::mlir::Value getLhs() { return getInputs()[0]; }
    ::mlir::Value getRhs() { return getInputs()[1]; }
  }];
}

def TC_SumOp : TC_LabeledOp<"sum"> {
  let summary = "Summation over indices S[...] (+)= X[...]";
  let description = [{
    Sums one tensor over every label absent from the result (Cociorva et al.'s
    summation formula); the remaining labels may be permuted.

    ```mlir
    // S[a, i] = sum_c X[a, c, i]
    %s = tc.sum [a, i] = %X[a, c, i] : tensor<4x5x6xf64> -> tensor<4x6xf64>
    ```
  }];
  let extraClassDeclaration = labeledOpDecl # [{
    ::mlir::Value getSource() { return getInputs()[0]; }
  }];
}

def TC_MultiContractOp : TC_LabeledOp<"multi_contract"> {
  let summary = "Unfactored multi-operand contraction";
  let description = [{
    The product of two or more tensors summed over every label absent from the result,
    as a user writes it before operation minimization factors it into binary
    contractions (the TCE's first stage). Cociorva et al.'s running example:

    ```mlir
    %S = tc.multi_contract [a, b, i, j] =
           %A[a, c, i, k] * %B[b, e, f, l] * %C[d, f, j, k] * %D[c, d, e, l]
           : tensor<...>, tensor<...>, tensor<...>, tensor<...> -> tensor<...>
    ```
  }];
}

def TC_RedistributeOp : TC_Op<"redistribute", [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "Explicit redistribution of an array between two distributions";
  let description = [{
    Moves a tensor from one distribution to another over the same logical processor
    grid (Gao et al. section 2.3, `Redist(X, dist1, dist2)`; Cociorva et al. section
    3.2, `MoveCost`). The value is unchanged; only its placement differs.

    ```mlir
    %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[*, b]>
           : tensor<8x8xf64>
    ```

    The labels name the dimensions of `%x`; every distribution has one entry per grid
    dimension and distributes only labels of `%x`. Redistributing to the same
    distribution folds away.
  }];
  let arguments = (ins AnyRankedTensor:$source, StrArrayAttr:$labels,
                   TC_GridAttr:$grid, TC_DistAttr:$from, TC_DistAttr:$to);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source custom<Labels>($labels) `on` $grid `from` $from `to` $to attr-dict `:` type($source)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Iterative methods
//===----------------------------------------------------------------------===//

def TC_IterateOp : TC_Op<"iterate", [RecursiveMemoryEffects]> {
  let summary = "Statements repeated until a scalar converges (an iterative method)";
  let description = [{
    The body runs at most `max` times. Its block arguments are the tensors it
    carries from one iteration to the next (`with`: their values before the
    first); its `tc.yield` gives each carried tensor's next value, then the
    values of further tensors the program reads after the loop. The results
    are the yielded values of the last iteration. With `until result K
    converges to TOL` the loop stops after the first iteration whose result K
    (a scalar, rank 0) differs from the previous iteration's by less than TOL.
    With `diis N` the carried tensors' next values are extrapolated from the
    last N iterations' (Pulay's DIIS, docs/Derivations.md D41) before the
    next iteration reads them.
    The body reads values defined above it (a program's inputs and earlier
    statements) as they are; tc-outline-loops turns it into statements the
    program's entry repeats.

    ```mlir
    %t, %e = tc.iterate max 50 until result 1 converges to 1.000000e-10
        with (%t0 = %guess) -> (tensor<8x4xf64>, tensor<f64>) {
      %r = tc.contract ...
      %e1 = tc.contract ...
      tc.yield %r, %e1 : tensor<8x4xf64>, tensor<f64>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inits,
                   ConfinedAttr<I64Attr, [IntMinValue<1>]>:$max,
                   OptionalAttr<I64Attr>:$converge, OptionalAttr<F64Attr>:$tolerance,
                   OptionalAttr<I64Attr>:$diis);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    YieldOp getYield();
  }];
}

def TC_YieldOp : TC_Op<"yield", [Pure, Terminator, HasParent<"IterateOp">]> {
  let summary = "The values one iteration of a tc.iterate leaves";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

include "TC/Dialect/TCTileOps.td"

#endif // TC_OPS_TD
