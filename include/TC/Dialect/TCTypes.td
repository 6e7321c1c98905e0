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

    The type carries the array's element type and its layout (`#tc.layout`,
    include/TC/Layout/ArrayLayout.h): its extents, the processor grid and how
    the processes hold it, which the ops using the handle check against and
    tc-lower-to-runtime encodes into the runtime's descriptor.

    ```mlir
    !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
    !tc.array<f32, #tc.layout<replicated [8] on [4] dims [-1] skew [-1]>>
    ```

    The examples of the tile-level ops write such a type through an alias
    named after the array (`!A = !tc.array<f64, #tc.layout<...>>`).
  }];
  let parameters = (ins
    AttrOrTypeParameter<"::mlir::Type", "element type, f32 or f64">:$elementType,
    AttrOrTypeParameter<"::mlir::tc::ArrayLayoutAttr", "how the processes hold it">:$layout);
  let assemblyFormat = "`<` $elementType `,` qualified($layout) `>`";
  let extraClassDeclaration = [{
    /// Number of dimensions (one offset each in the tile ops).
    int64_t getRank() const { return getLayout().getRank(); }
    /// Number of processor-grid dimensions.
    int64_t getGridRank() const { return getLayout().getGridRank(); }
  }];
  let genVerifyDecl = 1;
}

def TC_BlockArrayType : TypeDef<TC_Dialect, "BlockArray"> {
  let mnemonic = "block_array";
  let summary = "Handle to the bricks of a block-sparse tensor a process holds";
  let description = [{
    What a lowered program holds of a block-sparse tensor (its type, with the
    `#tc.blocks` encoding, is the parameter): the present blocks ("bricks",
    Krishnamoorthy et al. section 2) this process is home of, created by
    `tc.block_array` and used by `tc.block_stage` and `tc.block_store`. Lowers
    to an opaque pointer into the runtime.

    ```mlir
    !tc.block_array<tensor<6x6xf64, #tc.blocks<[[4, 2], [4, 2]], symmetry = 0>>>
    ```
  }];
  let parameters = (ins
    AttrOrTypeParameter<"::mlir::RankedTensorType", "the block-sparse tensor type">:$tensorType);
  let assemblyFormat = "`<` $tensorType `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::mlir::tc::BlocksAttr getBlocks() const {
      return ::llvm::cast<::mlir::tc::BlocksAttr>(getTensorType().getEncoding());
    }
  }];
}

def TC_TransferType : TypeDef<TC_Dialect, "Transfer"> {
  let mnemonic = "transfer";
  let summary = "Handle to a tile transfer in flight";
  let description = [{
    Started by `tc.gather_tile_start` and completed by `tc.wait`, so that a
    program computes on one tile while the next one arrives (double buffering,
    Kwasniewski et al. section 7.3). Lowers to an opaque pointer into the
    runtime; each transfer is waited for exactly once.
  }];
}

#endif // TC_TYPES_TD
