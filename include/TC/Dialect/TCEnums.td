//===- TCEnums.td - tc enumerations -----------------------*- tablegen -*-===//
//
// The closed sets of values tc's attributes and ops carry: the planners'
// decisions (#tc.plan, #tc.fusion, #tc.machine) and how a tile-level array is
// held (tc.array). Every value prints as a bare keyword. The analyses keep
// their own plain C++ enums (include/TC/Analysis); lib/Transforms/
// DecisionConversion maps between the two.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ENUMS_TD
#define TC_ENUMS_TD

include "TC/Dialect/TCDialect.td"
include "mlir/IR/EnumAttr.td"

// The enums are parameters of the tc attributes (EnumParameter) or, wrapped by
// TC_EnumAttr, attributes of ops; neither needs the IntegerAttr-backed form.
// All parse through the generated FieldParser, whose message names the summary
// and the allowed keywords rather than the C++ type.
class TC_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::tc";
  let genSpecializedAttr = 0;
  let parameterParser = "::mlir::FieldParser<" # cppType # ">::parse($_parser)";
}

class TC_EnumAttr<EnumInfo enumInfo, string attrMnemonic>
    : EnumAttr<TC_Dialect, enumInfo, attrMnemonic>;

//===----------------------------------------------------------------------===//
// Decisions of the planners
//===----------------------------------------------------------------------===//

def TC_CommMethodKind : TC_I32Enum<"CommMethodKind", "communication method", [
    I32EnumAttrCase<"Inside", 0, "inside">,
    I32EnumAttrCase<"Outside", 1, "outside">]> {
  let description = [{
    Where communicated data lives (Gao et al. section 2.1): `inside`
    interleaves communication with the computation on in-core tiles,
    `outside` communicates disk to disk before or after it.
  }];
}

def TC_AlgorithmKind : TC_I32Enum<"AlgorithmKind", "parallel algorithm", [
    I32EnumAttrCase<"Rotation", 0, "rotation">,
    I32EnumAttrCase<"ReplicationA", 1, "replication_a">,
    I32EnumAttrCase<"ReplicationB", 2, "replication_b">,
    I32EnumAttrCase<"Accumulation", 3, "accumulation">,
    I32EnumAttrCase<"Cosma", 4, "cosma">,
    I32EnumAttrCase<"Pumma", 5, "pumma">,
    I32EnumAttrCase<"Batch", 6, "batch">]> {
  let description = [{
    Gao et al.'s parallel algorithms (section 2.2, Table 1): `rotation`
    (Cannon on a square 2-D grid), `replication_a` and `replication_b` (the
    named operand is replicated) and `accumulation` (the result is replicated
    and reduced); and `cosma`, Kwasniewski et al.'s communication-optimal
    schedule on a 3-D grid [pm, pn, pk] (inputs all-gathered along the grid's
    j and i dimensions in rounds, partial results reduced along k;
    docs/Derivations.md D27); and `pumma`, Choi, Dongarra and Walker's
    block-cyclic algorithm on a 2-D grid (one input rolled along the grid, the
    other's panels gathered or C's partial panels reduced; D28); and `batch`,
    A, B and C split alike along one batch label (a label of all three) on a
    1-D grid: each process contracts its own batch values, with no
    communication (docs/Derivations.md D30).
  }];
}

def TC_InputKind : TC_I32Enum<"InputKind", "input operand", [
    I32EnumAttrCase<"A", 0, "a">,
    I32EnumAttrCase<"B", 1, "b">]> {
  let description = [{
    One of the two inputs of a contraction (PUMMA's rolled input).
  }];
}

def TC_BlockScheduleKind : TC_I32Enum<"BlockScheduleKind", "how a block-sparse task pool runs", [
    I32EnumAttrCase<"InMemory", 0, "in_memory">,
    I32EnumAttrCase<"OneLevel", 1, "one_level">,
    I32EnumAttrCase<"TwoLevel", 2, "two_level">,
    I32EnumAttrCase<"InOrder", 3, "in_order">]> {
  let description = [{
    `in_memory`: every brick in the processes' memory, tasks assigned by
    connectivity-1 (Krishnamoorthy et al. section 5). `one_level`, `two_level`:
    out of core, stages of tasks whose bricks fit in the aggregate memory,
    formed by memory-constrained bisection, stopping at parts that fit
    (one-level) or that have a read-once split into steps (two-level; section
    6, docs/Derivations.md D33). `in_order`: the locality-oblivious baseline
    (`tc-plan-block-sparse{assignment=next-task}`), stages of consecutive
    tasks in pool order.
  }];
}

def TC_TileMemoryKind : TC_I32Enum<"TileMemoryKind", "how out-of-core tiles share memory", [
    I32EnumAttrCase<"PerArray", 0, "per_array">,
    I32EnumAttrCase<"Shared", 1, "shared">]> {
  let description = [{
    `per_array`: each array's tile within its third of the memory (Gao et al.
    section 2). `shared`: the three tiles together within the memory left
    after staging, COSMA's sequential schedule (Kwasniewski et al. section 5):
    a large tile of C resident, thin panels of A and B streamed past it
    (docs/Derivations.md D29).
  }];
}

def TC_ReadOrderKind : TC_I32Enum<"ReadOrderKind", "disk read order", [
    I32EnumAttrCase<"ABC", 0>, I32EnumAttrCase<"ACB", 1>,
    I32EnumAttrCase<"BAC", 2>, I32EnumAttrCase<"BCA", 3>,
    I32EnumAttrCase<"CAB", 4>, I32EnumAttrCase<"CBA", 5>]> {
  let description = [{
    The order of the three disk reads in the tiling-loop nest (Gao et al.
    section 3): the n-th letter names the array read at the top of group n.
  }];
}

def TC_PartialSumsKind : TC_I32Enum<"PartialSumsKind", "partial-sum combination", [
    I32EnumAttrCase<"ToOne", 0, "to_one">,
    I32EnumAttrCase<"ToAll", 1, "to_all">]> {
  let description = [{
    How a formula whose computation distributes a summed index combines its
    partial sums (Cociorva et al. section 3.3, variants 1 and 2): `to_one`
    reduces onto the first slice of the grid dimension, `to_all` onto every
    process.
  }];
}

def TC_VolumesKind : TC_I32Enum<"VolumesKind", "volume accounting", [
    I32EnumAttrCase<"Paper", 0, "paper">,
    I32EnumAttrCase<"Runtime", 1, "runtime">]> {
  let description = [{
    Which byte counts the cost models predict: `paper` uses the papers'
    formulas, `runtime` the bytes tc's runtime moves where the two differ.
  }];
}

//===----------------------------------------------------------------------===//
// Tile-level arrays. The values are the runtime's (enum tc_rt_kind and
// tc_rt_init in include/TC/Runtime/Descriptors.h), which the lowering passes on.
//===----------------------------------------------------------------------===//

def TC_ArrayKind : TC_I32Enum<"ArrayKind", "array kind", [
    I32EnumAttrCase<"Distributed", 0, "distributed">,
    I32EnumAttrCase<"Replicated", 1, "replicated">,
    I32EnumAttrCase<"Slab", 2, "slab">,
    I32EnumAttrCase<"Gathered", 3, "gathered">]> {
  let description = [{
    How the computation holds an array (Gao et al. Table 1): `distributed`
    (a block per process), `replicated` (whole on every process), `slab`
    (inside replication: P slabs of dimension 0, tiles completed by
    `tc.broadcast_tile`) or `gathered` (outside replication: whole on every
    process after `tc.allgather_array`).
  }];
}

def TC_ArrayInitKind : TC_I32Enum<"ArrayInitKind", "array initial value", [
    I32EnumAttrCase<"Input", 0, "input">,
    I32EnumAttrCase<"Zero", 1, "zero">,
    I32EnumAttrCase<"RootInput", 2, "root_input">,
    I32EnumAttrCase<"Ones", 3, "ones">]> {
  let description = [{
    An array's initial value: `input` (read from the program's input),
    `zero`, `root_input` (rank 0 holds the input, the others zero: the
    replicated result of accumulation), or `ones` (every element 1: the
    constant factor through which a one-tensor term `R += c * X[...]` runs as
    a contraction).
  }];
}

def TC_ArrayKindAttr : TC_EnumAttr<TC_ArrayKind, "array_kind">;
def TC_ArrayInitKindAttr : TC_EnumAttr<TC_ArrayInitKind, "array_init">;

#endif // TC_ENUMS_TD
