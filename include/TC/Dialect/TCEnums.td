//===- TCEnums.td - tc enumerations -----------------------*- tablegen -*-===//
//
// The closed sets of values tc's attributes and ops carry: the planners'
// decisions (declared in include/TC/Analysis/Decisions.td, which the analyses
// use directly; #tc.plan, #tc.fusion, #tc.block_plan), the volumes of
// #tc.machine, and how a tile-level array is held (tc.array). Every value
// prints as a bare keyword.
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
// The machine
//===----------------------------------------------------------------------===//

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
