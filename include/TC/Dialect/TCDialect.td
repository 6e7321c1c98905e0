//===- TCDialect.td - the tc dialect ----------------------*- tablegen -*-===//
#ifndef TC_DIALECT_TD
#define TC_DIALECT_TD

include "mlir/IR/OpBase.td"

def TC_Dialect : Dialect {
  let name = "tc";
  let cppNamespace = "::mlir::tc";
  let summary = "Tensor contractions with named indices, planned for MPI and out-of-core execution";
  let description = [{
    The `tc` dialect expresses tensor-contraction programs, the building blocks of
    quantum-chemistry methods such as coupled cluster, with named index labels:

    ```mlir
    %r = tc.contract %C[a, b, c, d] += %A[a, b, m, n] * %B[c, d, m, n]
           : tensor<8x8x4x4xf64>, tensor<8x8x4x4xf64> -> tensor<8x8x8x8xf64>
    ```

    Every operand carries one label per dimension; a label's extent is the size of the
    dimension it names and must agree everywhere the label appears. Labels absent from
    the result are summed over. Values are builtin tensors of `f32` or `f64` with
    static shapes, so other compilers can hand tc their tensors directly.

    Attributes describe the parallel machine and data layout: `#tc.grid` (a logical
    processor grid), `#tc.dist` (an array's distribution over a grid) and `#tc.machine`
    (the machine model the planners use), and `#tc.plan` (how one contraction runs). A
    module may carry its machine model as the `tc.machine` attribute, and a
    `tc.contract` its plan as the `tc.plan` attribute.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute holding the machine model.
    static constexpr ::llvm::StringLiteral getMachineAttrName() { return "tc.machine"; }
    /// Name of the attribute holding a contraction's plan (#tc.plan).
    static constexpr ::llvm::StringLiteral getPlanAttrName() { return "tc.plan"; }
    static constexpr ::llvm::StringLiteral getFusionAttrName() { return "tc.fusion"; }
    static constexpr ::llvm::StringLiteral getFusionPlanAttrName() { return "tc.fusion_plan"; }
    /// Name of the attribute holding a block-sparse contraction's plan.
    static constexpr ::llvm::StringLiteral getBlockPlanAttrName() { return "tc.block_plan"; }
    /// Name of the attribute tc-minimize-operations leaves on a product's last
    /// contraction: {before = f64, after = f64}, the flops of the product as
    /// one loop nest and of the tree it became.
    static constexpr ::llvm::StringLiteral getFlopsAttrName() { return "tc.flops"; }
    /// Name of a tensor: on a function argument or result (its HDF5 dataset),
    /// or on a tc.contract / tc.sum / tc.multi_contract, the tensor its result
    /// is (a program's intermediate or output, tc-split-program).
    static constexpr ::llvm::StringLiteral getNameAttrName() { return "tc.name"; }
    /// On a function argument: every element is 1 (the constant factor of a
    /// one-tensor term); the runtime fills its array instead of loading it.
    static constexpr ::llvm::StringLiteral getOnesAttrName() { return "tc.ones"; }
    /// On a function tc-split-program made: the statement it runs (a string
    /// naming it in the run's report).
    static constexpr ::llvm::StringLiteral getStatementAttrName() { return "tc.statement"; }
    /// On such a function: its result is an intermediate of the program, read
    /// by later statements, not an output.
    static constexpr ::llvm::StringLiteral getIntermediateAttrName() { return "tc.intermediate"; }
    /// On such a function, with tc.intermediate: its result is kept in memory
    /// (the plan left room for it), not in the intermediates file.
    static constexpr ::llvm::StringLiteral getInMemoryAttrName() { return "tc.in_memory"; }
    /// On such a function: the inputs it loads from the user's files are kept
    /// in memory where it loads them, so that every later load reads them
    /// from there (the plan left room for them): a loop, or a later
    /// statement, reads them no more.
    static constexpr ::llvm::StringLiteral getKeepInputsAttrName() { return "tc.keep_inputs"; }
    /// On a function result: the tensor is stored as an intermediate of the
    /// program for later functions to read by its tc.name (a value a loop
    /// carries or leaves, tc-outline-loops), not written to the output file.
    static constexpr ::llvm::StringLiteral getKeepAttrName() { return "tc.keep"; }
    /// What a statement's function says about it (its machine, loop, result
    /// and inputs: the attributes above tc-split-program and tc-outline-loops
    /// set), which its lowered function keeps until tc-lower-to-runtime has
    /// turned them into calls.
    static ::llvm::ArrayRef<::llvm::StringRef> getStatementMarkNames();
    /// On a function tc-outline-loops made, and on the statements
    /// tc-split-program cuts it into: the program it is a part of (its
    /// function's name). The parts of one program share intermediates' names
    /// and the memory that keeps them.
    static constexpr ::llvm::StringLiteral getProgramPartAttrName() { return "tc.part_of"; }
    /// On a tc.contract that copies a tensor (its product with a scalar of
    /// ones): its result is the element-wise reciprocal of the copy (`X = 1 /
    /// (...)` in tc's language). On a function tc-split-program made of one:
    /// the statement stores its result inverted.
    static constexpr ::llvm::StringLiteral getReciprocalAttrName() { return "tc.reciprocal"; }
    /// On such a function: the loop (#tc.loop) that repeats it.
    static constexpr ::llvm::StringLiteral getLoopAttrName() { return "tc.loop"; }
  private:
    void registerAttributes();
  public:
  }];
}

class TC_Op<string mnemonic, list<Trait> traits = []>
    : Op<TC_Dialect, mnemonic, traits>;

#endif // TC_DIALECT_TD
