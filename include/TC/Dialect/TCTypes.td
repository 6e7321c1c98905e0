//===- TCTypes.td - tc types ------------------------------*- tablegen -*-===//
#ifndef TC_TYPES_TD
#define TC_TYPES_TD

include "TC/Dialect/TCDialect.td"
include "mlir/IR/AttrTypeBase.td"

def TC_ArrayType : TypeDef<TC_Dialect, "Array"> {
  let mnemonic = "array";
  let summary = "Handle to one process's part of a distributed array";
  let description = [{
    What a lowered program holds of a tensor: the block of it this process owns
    (in memory, or in a scratch file when the plan is out of core), created by
    `tc.array` and read and written a tile at a time by the tile-level ops.
    Lowers to an opaque pointer into the runtime.
  }];
}

#endif // TC_TYPES_TD
