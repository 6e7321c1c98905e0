//===- Decisions.td - the planners' decisions, declared once -*- tablegen -*-===//
//
// The closed sets of values the planners decide: the one definition of each.
// The analyses use the generated C++ enums directly (Decisions.h: no MLIR,
// only llvm/ADT), and the dialect's attributes carry the same enums
// (TCEnums.td), printed as these keywords. The reports print their own
// spellings (toString in the analyses).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_DECISIONS_TD
#define TC_ANALYSIS_DECISIONS_TD

include "mlir/IR/EnumAttr.td"

// No underlying type: the generated header then needs only llvm/ADT (no
// FieldParser; TCEnums.h parses and prints these for the attributes).
class TC_Decision<string name, string summary, list<I32EnumCase> cases>
    : I32Enum<name, summary, cases> {
  let cppNamespace = "::mlir::tc";
  let underlyingType = "";
}

def TC_CommMethod : TC_Decision<"CommMethod", "communication method", [
    I32EnumCase<"Inside", 0, "inside">,
    I32EnumCase<"Outside", 1, "outside">]> {
  let description = [{
    Where communicated data lives (Gao et al. section 2.1): `inside`
    interleaves communication with the computation on in-core tiles,
    `outside` communicates disk to disk before or after it.
  }];
}

def TC_ParallelAlgorithm : TC_Decision<"ParallelAlgorithm", "parallel algorithm", [
    I32EnumCase<"Rotation", 0, "rotation">,
    I32EnumCase<"ReplicationA", 1, "replication_a">,
    I32EnumCase<"ReplicationB", 2, "replication_b">,
    I32EnumCase<"Accumulation", 3, "accumulation">,
    I32EnumCase<"Cosma", 4, "cosma">,
    I32EnumCase<"Pumma", 5, "pumma">,
    I32EnumCase<"Batch", 6, "batch">]> {
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

def TC_Operand : TC_Decision<"Operand", "operand", [
    I32EnumCase<"A", 0, "a">,
    I32EnumCase<"B", 1, "b">,
    I32EnumCase<"C", 2, "c">]> {
  let description = [{
    A contraction's operands: C = A * B (PUMMA's rolled input is `a` or `b`).
  }];
}

def TC_TileMemory : TC_Decision<"TileMemory", "how out-of-core tiles share memory", [
    I32EnumCase<"PerArray", 0, "per_array">,
    I32EnumCase<"Shared", 1, "shared">]> {
  let description = [{
    `per_array`: each array's tile within its third of the memory (Gao et al.
    section 2). `shared`: the three tiles together within the memory left
    after staging, COSMA's sequential schedule (Kwasniewski et al. section 5):
    a large tile of C resident, thin panels of A and B streamed past it
    (docs/Derivations.md D29).
  }];
}

def TC_ReadOrder : TC_Decision<"ReadOrder", "disk read order", [
    I32EnumCase<"ABC", 0>, I32EnumCase<"ACB", 1>,
    I32EnumCase<"BAC", 2>, I32EnumCase<"BCA", 3>,
    I32EnumCase<"CAB", 4>, I32EnumCase<"CBA", 5>]> {
  let description = [{
    The order of the three disk reads in the tiling-loop nest (Gao et al.
    section 3): the n-th letter names the array read at the top of group n.
  }];
}

def TC_SumVariant : TC_Decision<"SumVariant", "partial-sum combination", [
    I32EnumCase<"None", 0, "none">,
    I32EnumCase<"ToOne", 1, "to_one">,
    I32EnumCase<"ToAll", 2, "to_all">]> {
  let description = [{
    How a formula whose computation distributes a summed index combines its
    partial sums (Cociorva et al. section 3.3, variants 1 and 2): `to_one`
    reduces onto the first slice of the grid dimension (CalcCost_1,
    MoveCost_1), `to_all` onto every process (CalcCost_2, MoveCost_2);
    `none`: no summed index is distributed.
  }];
}

def TC_BlockSchedule : TC_Decision<"BlockSchedule", "how a block-sparse task pool runs", [
    I32EnumCase<"InMemory", 0, "in_memory">,
    I32EnumCase<"OneLevel", 1, "one_level">,
    I32EnumCase<"TwoLevel", 2, "two_level">,
    I32EnumCase<"InOrder", 3, "in_order">]> {
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

#endif // TC_ANALYSIS_DECISIONS_TD
