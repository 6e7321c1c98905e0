//===- TCAlgorithms.td - each parallel algorithm's plan attribute -*- tablegen -*-===//
//
// One attribute per parallel algorithm: the `algorithm` of #tc.plan, holding
// the algorithm's own parameters and verifying the plan against it
// (TCAlgorithmInterface.td; lib/Dialect/TCAlgorithms.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ALGORITHMS_TD
#define TC_ALGORITHMS_TD

include "TC/Dialect/TCAlgorithmInterface.td"

class TC_AlgorithmAttr<string name, string attrMnemonic>
    : TC_Attr<name, attrMnemonic,
              [DeclareAttrInterfaceMethods<TC_AlgorithmAttrInterface>]>;

def TC_GaoAttr : TC_AlgorithmAttr<"Gao", "gao"> {
  let summary = "Gao et al.'s Table 1 algorithms";
  let description = [{
    One of Gao et al.'s parallel algorithms (section 2.2, Table 1), each with
    the inside and outside communication methods (section 2.1) and tiling
    loops: `rotation` (Cannon on a square 2-d grid), `replication_a`,
    `replication_b` (the named operand is whole on every process) or
    `accumulation` (the result is whole on every process and reduced). No
    parameters beyond the kind: inside `#tc.plan` it prints as the bare
    keyword (`algorithm = rotation`).
  }];
  let parameters = (ins AttrParameter<"::mlir::tc::ParallelAlgorithm", "one of Table 1's algorithms">:$algorithm);
  let assemblyFormat = "`<` $algorithm `>`";
  let genVerifyDecl = 1;
}

def TC_CosmaAttr : TC_AlgorithmAttr<"Cosma", "cosma"> {
  let summary = "Kwasniewski et al.'s communication-optimal schedule";
  let description = [{
    COSMA on a 3-d grid [pm, pn, pk] (docs/Derivations.md D27): the plan's
    `dist_a = <[i, *, k]>`, `dist_b = <[*, j, k]>`, `dist_c = <[i, j, *]>`
    are the compute views, each array stored split again along the grid
    dimension it is replicated along. Out of core (`in_core = false`,
    D56) the same rounds run with the stored sub-blocks in scratch files,
    memory holding C's partial sums and the panels; the plan then has no
    method, order, loops or memory (the verifier refuses them). COSMA's
    sequential schedule inside one process is Gao's loops with
    `memory = shared` (D29).

    - `rounds`: the loops over the process's K range, each array's panel
      gathered once per round (Kwasniewski et al. Algorithm 1 lines 6-7), a
      dictionary from K label to round count (>= 2); tc-solve-tiles fills it.

    ```mlir
    algorithm = #tc.cosma<rounds = {k = 4}>
    ```
  }];
  let parameters = (ins OptionalParameter<"::mlir::DictionaryAttr">:$rounds);
  let assemblyFormat = "(`<` struct(params)^ `>`)?";
  let genVerifyDecl = 1;
}

def TC_PummaAttr : TC_AlgorithmAttr<"Pumma", "pumma"> {
  let summary = "Choi, Dongarra and Walker's block-cyclic algorithm";
  let description = [{
    PUMMA on a 2-d grid, each array distributing one label per grid
    dimension, possibly block-cyclically (`#tc.dist ... cyclic [..]`); in core
    only. The layouts decide the variant (docs/Derivations.md D28).

    - `roll`: the input that moves along the grid (`a` or `b`); the rolled
      input holding K along the dimension it moves along gathers the other
      input's panels (MDB2), holding its free label there reduces C's partial
      panels (A^T B, A B^T). tc-select-algorithm fills it.

    ```mlir
    algorithm = #tc.pumma<roll = a>
    ```
  }];
  let parameters = (ins OptionalParameter<"std::optional<::mlir::tc::Operand>">:$roll);
  let assemblyFormat = "(`<` struct(params)^ `>`)?";
  let genVerifyDecl = 1;
}

def TC_BatchAttr : TC_AlgorithmAttr<"Batch", "batch"> {
  let summary = "A, B and C split alike along one batch label";
  let description = [{
    On a 1-d grid, `dist_a`, `dist_b` and `dist_c` all the same batch label (a
    label of A, B and C): each process contracts its own batch values with no
    communication, in core or with tiling loops (docs/Derivations.md D30).
  }];
}

#endif // TC_ALGORITHMS_TD
