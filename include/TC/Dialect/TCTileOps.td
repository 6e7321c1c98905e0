//===- TCTileOps.td - tile-level tc operations ------------*- tablegen -*-===//
//
// The ops a planned tc.contract lowers to (tc-lower-plan): distributed arrays,
// tile reads and writes, circular shifts, broadcasts, reductions and local tile
// contractions on static memref buffers. Each lowers to one runtime call
// (tc-lower-to-runtime; include/TC/Runtime/Runtime.h).
//
//===----------------------------------------------------------------------===//
#ifndef TC_TILE_OPS_TD
#define TC_TILE_OPS_TD

include "TC/Dialect/TCDialect.td"
include "TC/Dialect/TCTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// MPI traffic, disk files and the run's counters: the state of tc's runtime
// that tile ops act on besides their operands. Declared so that upstream
// passes (buffer hoisting, CSE, DCE) keep tile ops in order around each other
// while moving plain memref code freely.
def TC_RuntimeResource : Resource<"::mlir::tc::RuntimeResource">;
defvar RuntimeRead = MemRead<TC_RuntimeResource>;
defvar RuntimeWrite = MemWrite<TC_RuntimeResource>;
// An out-of-core collective or a partial-sum combination: the array is read
// and rewritten through MPI (and disk).
defvar ArrayCollective = [MemRead, MemWrite, RuntimeRead, RuntimeWrite];

def TC_TileBuffer : MemRefRankOf<[F64, F32], [0, 1, 2, 3, 4, 5, 6, 7, 8]> {
  let summary = "statically shaped f64 or f32 memref (a tile buffer)";
}

def TC_ArrayOp : TC_Op<"array", [MemoryEffects<[RuntimeRead, RuntimeWrite]>]> {
  let summary = "This process's part of a distributed array, with its initial value";
  let description = [{
    Creates the process's part of array `name` (the HDF5 dataset and `--input`
    key), held as its type's layout says (`#tc.layout`: extents, processor
    grid, and how each dimension is split, skewed, split again or dealt
    block-cyclically over it).

    `init` (`#tc.array_init`): `input`, `zero`, `ones` or `root_input` (rank 0
    holds the initial value, the others zero: accumulation). `on_disk`: stored
    in a scratch file instead of memory. `storage`: an in-memory array may live
    in a buffer of its padded block's shape, which the program then uses as the
    array's tile (in-core plans: tile reads and writes cost no copy).

    ```mlir
    %A = tc.array "A" init input {on_disk}
           : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
    %C = tc.array "C" init root_input storage %buf : memref<64x64xf64>
           : !tc.array<f64, #tc.layout<replicated [64, 64] on [4] dims [-1, -1] skew [-1, -1]>>
    ```
  }];
  let arguments = (ins StrAttr:$name, TC_ArrayInitKindAttr:$init, UnitAttr:$on_disk,
                   Arg<Optional<TC_TileBuffer>, "buffer the array adopts", [MemWrite]>:$storage);
  let results = (outs Res<TC_ArrayType, "", [MemAlloc]>:$result);
  // An enum attribute prints its own leading space, hence the empty literal.
  let assemblyFormat = [{
    $name `init` `` $init (`storage` $storage^ `:` type($storage))? attr-dict `:`
    qualified(type($result))
  }];
  let extraClassDeclaration = [{
    ::mlir::tc::ArrayLayoutAttr getLayout() { return getType().getLayout(); }
  }];
  let hasVerifier = 1;
}

def TC_AllocStorageOp : TC_Op<"alloc_storage", [MemoryEffects<[RuntimeRead]>]> {
  let summary = "The storage of a statement's result that it also loads";
  let description = [{
    Allocates the storage buffer (the padded block) of array `name` of type
    `array`, loaded from the tensor's current value (`init input`): either
    the statement's result, which it stores, with no other array of that name
    in the statement, or, `read_only`, an operand nothing writes
    (tc-reuse-kept-storage decides). Where the runtime keeps the tensor in
    memory in that layout (an intermediate of the program, or for a
    read-only operand also a loop's input), the buffer is the kept value's
    own: loading the array then copies nothing, and a result's store keeps
    the buffer again. `memref.dealloc` frees it.

    ```mlir
    %buf = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [38, 38] on [2] dims [0, -1] skew [-1, -1]>> -> memref<19x38xf64>
    %W = tc.array "W" init input storage %buf : memref<19x38xf64> : !tc.array<...>
    ```
  }];
  let arguments = (ins StrAttr:$name, TypeAttrOf<TC_ArrayType>:$array, UnitAttr:$read_only);
  let results = (outs Res<TC_TileBuffer, "", [MemAlloc]>:$buffer);
  let assemblyFormat = "$name `:` $array `->` type($buffer) attr-dict";
  let hasVerifier = 1;
}

def TC_PredictedVolumesOp : TC_Op<"predicted_volumes", [MemoryEffects<[RuntimeWrite]>]> {
  let summary = "The plan's per-process predictions, for the run's report";
  let description = [{
    Records what the plan predicts for one contraction, per process: disk and
    network bytes ([G] D and V), the flops, and `chunk_bytes`, the buffer size
    the runtime may use for staging and out-of-core collectives (the tile budget).
    A program whose ranks move different amounts adds the bytes each rank
    sends and receives (`sent_per_rank`, `received_per_rank`, one entry per
    process) and may add the disk bytes each reads and writes
    (`disk_per_rank`); each rank adds its entries to the per-process figures.
  }];
  let arguments = (ins F64Attr:$disk_bytes, F64Attr:$comm_bytes, F64Attr:$flops,
                   I64Attr:$chunk_bytes, OptionalAttr<DenseF64ArrayAttr>:$sent_per_rank,
                   OptionalAttr<DenseF64ArrayAttr>:$received_per_rank,
                   OptionalAttr<DenseF64ArrayAttr>:$disk_per_rank);
  let assemblyFormat = "attr-dict";
}

class TC_TileIOOp<string mnemonic> : TC_Op<mnemonic> {
  let hasVerifier = 1;
}

def TC_ReadTileOp : TC_TileIOOp<"read_tile"> {
  let summary = "Read the tile at local offsets into a buffer (zero-padded)";
  let description = [{
    Copies the tile of `array` at the given offsets (in the process's block) into
    `buffer`, clipped to the block and padded with zeros. With `root_only`, every
    process but rank 0 then zeroes the buffer: inside accumulation ([G] 5.3)
    keeps C's previous value on one process only.

    ```mlir
    tc.read_tile %A[%i, %k] into %buf : !A, memref<32x32xf64>
    ```
  }];
  let arguments = (ins Arg<TC_ArrayType, "", [MemRead, RuntimeRead]>:$array,
                   Variadic<Index>:$offsets,
                   Arg<TC_TileBuffer, "", [MemWrite]>:$buffer, UnitAttr:$root_only);
  let assemblyFormat = [{
    $array `[` $offsets `]` `into` $buffer attr-dict `:` qualified(type($array)) `,` type($buffer)
  }];
}

def TC_WriteTileOp : TC_TileIOOp<"write_tile"> {
  let summary = "Write a buffer back to the tile at local offsets";
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead]>:$buffer,
                   Arg<TC_ArrayType, "", [MemWrite, RuntimeWrite]>:$array,
                   Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $buffer `into` $array `[` $offsets `]` attr-dict `:` type($buffer) `,` qualified(type($array))
  }];
}

def TC_BroadcastTileOp : TC_TileIOOp<"broadcast_tile"> {
  let summary = "Complete a tile of a slab-stored array from every process";
  let description = [{
    After `tc.read_tile` of a `slab` array, every process holds the rows of the
    tile in its slab; this all-gather gives every process the whole tile (inside
    replication, [G] 5.2).
  }];
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead, MemWrite]>:$buffer,
                   Arg<TC_ArrayType, "", [MemRead, RuntimeRead, RuntimeWrite]>:$array,
                   Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $buffer `from` $array `[` $offsets `]` attr-dict `:` type($buffer) `,` qualified(type($array))
  }];
}

def TC_GatherTileOp : TC_TileIOOp<"gather_tile"> {
  let summary = "Assemble a tile of a split array from the processes sharing its block";
  let description = [{
    The processes along the `split` grid dimension of `array` each hold a
    sub-block of one block; this copies the tile at `offsets` (in the block)
    into `buffer`, clipped to the block and zero-padded, every process
    contributing the part in its sub-block (an all-gather by direct exchange:
    COSMA's broadcast of an input along one grid dimension, Kwasniewski et al.
    section 7.2).

    ```mlir
    tc.gather_tile %A[%c0, %k] into %buf : !A, memref<64x16xf64>
    ```
  }];
  let arguments = (ins Arg<TC_ArrayType, "", [MemRead, RuntimeRead, RuntimeWrite]>:$array,
                   Variadic<Index>:$offsets, Arg<TC_TileBuffer, "", [MemWrite]>:$buffer);
  let assemblyFormat = [{
    $array `[` $offsets `]` `into` $buffer attr-dict `:` qualified(type($array)) `,` type($buffer)
  }];
}

def TC_GatherTileStartOp : TC_TileIOOp<"gather_tile_start"> {
  let summary = "Start a tc.gather_tile; the buffer is complete after tc.wait";
  let description = [{
    `tc.gather_tile` in two halves, so that the program computes on another
    buffer while this one fills (double buffering, Kwasniewski et al. section
    7.3). The buffer must not be used before the `tc.wait` of the result.

    ```mlir
    %t = tc.gather_tile_start %A[%c0, %k] into %buf
           : !A, memref<64x16xf64> -> !tc.transfer
    tc.wait %t
    ```
  }];
  let arguments = (ins Arg<TC_ArrayType, "", [MemRead, RuntimeRead, RuntimeWrite]>:$array,
                   Variadic<Index>:$offsets, Arg<TC_TileBuffer, "", [MemWrite]>:$buffer);
  let results = (outs TC_TransferType:$transfer);
  let assemblyFormat = [{
    $array `[` $offsets `]` `into` $buffer attr-dict `:` qualified(type($array)) `,`
    type($buffer) `->` qualified(type($transfer))
  }];
}

def TC_WaitOp : TC_Op<"wait", [MemoryEffects<[MemWrite, RuntimeRead, RuntimeWrite]>]> {
  let summary = "Complete a transfer started by tc.gather_tile_start";
  let arguments = (ins TC_TransferType:$transfer);
  let assemblyFormat = "$transfer attr-dict";
}

def TC_ReduceScatterTileOp : TC_TileIOOp<"reduce_scatter_tile"> {
  let summary = "Sum partial tiles over the processes sharing a split array's block";
  let description = [{
    Every process along the `split` grid dimension of `array` holds in `buffer`
    a partial sum of the tile at `offsets` (in the block); afterwards the part
    of the buffer in each process's own sub-block holds the sum over them (the
    rest is unspecified), ready for `tc.write_tile`, which writes only that
    part. COSMA's reduction of partial C along the grid's k dimension
    (Kwasniewski et al. Algorithm 1 line 12), by direct exchange. A slab
    array on a one-dimensional grid (inside accumulation's result out of
    core, docs/Derivations.md D53) reduces over the whole grid, each
    process's part the tile's rows in its slab.

    ```mlir
    tc.reduce_scatter_tile %buf into %C[%c0, %c0] : memref<64x64xf64>, !C
    ```
  }];
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead, MemWrite]>:$buffer,
                   Arg<TC_ArrayType, "", [MemRead, RuntimeRead, RuntimeWrite]>:$array,
                   Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $buffer `into` $array `[` $offsets `]` attr-dict `:` type($buffer) `,` qualified(type($array))
  }];
}

def TC_ShiftTileOp : TC_Op<"shift_tile"> {
  let summary = "Circular shift of a sub-tile along a grid dimension";
  let description = [{
    Replaces the sub-tile of `buffer` at `offsets` with `sizes` by the one the
    next process along grid dimension `grid_dim` of `array`'s grid holds (and
    sends its own to the previous one): one step of Cannon's rotation inside the
    tiling loops ([G] 5.1).
  }];
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead, MemWrite]>:$buffer,
                   Variadic<Index>:$offsets, DenseI64ArrayAttr:$sizes, I64Attr:$grid_dim,
                   Arg<TC_ArrayType, "the grid's owner", [RuntimeRead, RuntimeWrite]>:$array);
  let assemblyFormat = [{
    $buffer `[` $offsets `]` `sizes` $sizes `along` $grid_dim `of` $array attr-dict
    `:` type($buffer) `,` qualified(type($array))
  }];
  let hasVerifier = 1;
}

def TC_GridCoordOp : TC_Op<"grid_coord", [Pure]> {
  let summary = "This process's coordinate along one grid dimension of an array's grid";
  let description = [{
    -1 on a process the grid leaves idle (a grid of fewer processes than the
    machine's: COSMA's, Kwasniewski et al. section 7.1), which holds none of the
    array.

    ```mlir
    %q = tc.grid_coord %C along 1 : !C
    ```
  }];
  let arguments = (ins TC_ArrayType:$array, I64Attr:$grid_dim);
  let results = (outs Index:$coord);
  let assemblyFormat = "$array `along` $grid_dim attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

def TC_GatherCyclicOp : TC_Op<"gather_cyclic"> {
  let summary = "Gather a residue class of an array's blocks along its grid dimension";
  let description = [{
    `dim` is a block-cyclic dimension of `array` (blocks of nb, dealt over grid
    dimension g). The panel is the blocks I of `dim` with I = `residue` mod
    `modulus`, in ascending order, nb rows each; every process of the group
    along g (the processes sharing its other coordinates) receives the whole
    panel into `buffer` (its other dimensions as the process's padded block),
    each block from its owner; rows past the extent are zero. PUMMA's MDB2
    column broadcast of B's blocks matching A's rolled columns (Choi, Dongarra,
    Walker section 3.1).

    ```mlir
    tc.gather_cyclic %B dim 0 residue %r modulo 3 into %panel
        : !A, memref<12x8xf64>
    ```
  }];
  let arguments = (ins Arg<TC_ArrayType, "", [MemRead, RuntimeRead, RuntimeWrite]>:$array,
                   I64Attr:$dim, Index:$residue, I64Attr:$modulus,
                   Arg<TC_TileBuffer, "", [MemWrite]>:$buffer);
  let assemblyFormat = [{
    $array `dim` $dim `residue` $residue `modulo` $modulus `into` $buffer attr-dict `:`
    qualified(type($array)) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def TC_ReduceCyclicOp : TC_Op<"reduce_cyclic"> {
  let summary = "Sum partial panels into the blocks' owners along the grid";
  let description = [{
    `buffer` holds, on every process of the group along `dim`'s grid dimension,
    a partial sum of the panel `tc.gather_cyclic` describes; each process adds
    the group's sum of the panel rows it owns into its block of `array`.
    PUMMA's column reduction of partial C blocks in C = A^T B (Choi, Dongarra,
    Walker section 3.2). `buffer` is unspecified afterwards.

    ```mlir
    tc.reduce_cyclic %panel into %C dim 0 residue %r modulo 3
        : memref<12x8xf64>, !A
    ```
  }];
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead, MemWrite]>:$buffer,
                   Arg<TC_ArrayType, "", [RuntimeRead, RuntimeWrite]>:$array,
                   I64Attr:$dim, Index:$residue, I64Attr:$modulus);
  let assemblyFormat = [{
    $buffer `into` $array `dim` $dim `residue` $residue `modulo` $modulus attr-dict `:`
    type($buffer) `,` qualified(type($array))
  }];
  let hasVerifier = 1;
}

def TC_AllReduceTileOp : TC_Op<"allreduce_tile", [MemoryEffects<[RuntimeRead, RuntimeWrite]>]> {
  let summary = "Sum a buffer over all processes";
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead, MemWrite]>:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def TC_ShiftArrayOp : TC_Op<"shift_array"> {
  let summary = "Out-of-core circular shift of a whole array";
  let description = [{
    Outside rotation ([G] 4.1): moves the process's whole block to the previous
    process along grid dimension `grid_dim`, disk to disk, a bounded chunk at a time.
  }];
  let arguments = (ins Arg<TC_ArrayType, "", ArrayCollective>:$array,
                   I64Attr:$grid_dim);
  let assemblyFormat = "$array `along` $grid_dim attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

def TC_AllGatherArrayOp : TC_Op<"allgather_array"> {
  let summary = "Out-of-core all-gather of a `gathered` array's slabs";
  let arguments = (ins Arg<TC_ArrayType, "", ArrayCollective>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
}

def TC_AllReduceArrayOp : TC_Op<"allreduce_array"> {
  let summary = "Out-of-core sum of a replicated array over all processes";
  let arguments = (ins Arg<TC_ArrayType, "", ArrayCollective>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
}

def TC_RedistributeArrayOp : TC_Op<"redistribute_array"> {
  let summary = "Copy an array into the same tensor's array in another distribution";
  let description = [{
    Stage 1 or 3 of Gao et al.'s Overhead(PA) (section 2.3): `source` and
    `destination` hold the same tensor in different distributions on one grid;
    every process receives the part of its destination block it does not hold
    (all-to-all in P-1 pairwise rounds, chunked), out of core when the arrays are.
  }];
  let arguments = (ins Arg<TC_ArrayType, "", [MemRead, RuntimeRead, RuntimeWrite]>:$source,
                   Arg<TC_ArrayType, "", [MemWrite]>:$destination);
  let assemblyFormat = [{
    $source `into` $destination attr-dict
    `:` qualified(type($source)) `,` qualified(type($destination))
  }];
  let hasVerifier = 1;
}

def TC_StoreOp : TC_Op<"store"> {
  let summary = "Write an array to the program's HDF5 output";
  let description = [{
    Stores the array as the statement's result: to the output file, the
    intermediates file, or (an intermediate kept in memory) kept where the
    statement computed it. A store ends the array's use: the runtime may keep
    the array's `storage` buffer as the kept value instead of copying it, so
    after the store the program only deallocates that buffer (verified: in the
    store's block, no later op but `memref.dealloc` uses it).
  }];
  let arguments = (ins Arg<TC_ArrayType, "", [MemRead, RuntimeWrite]>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

def TC_BeginStatementOp : TC_Op<"begin_statement",
                                 [MemoryEffects<[RuntimeRead, RuntimeWrite]>]> {
  let summary = "The start of one statement of a program of several";
  let description = [{
    A program of several statements (tc-split-program) runs one function per
    statement; each begins with this op, which names the statement in the
    run's report (counters and predictions per statement). With
    `intermediate` the statement's result is an intermediate of the program:
    its stores write the run's intermediates file, from which later
    statements' arrays of its name are loaded, instead of the output file;
    with `in_memory` too, it stays in memory instead (the plan left room for
    it): each rank keeps its part where the statement computed it, and a
    later statement redistributes what it needs (docs/Derivations.md D44). With `reciprocal` its stores write the
    element-wise reciprocal of the values (`X = 1 / (...)`). With
    `keep_inputs` (a statement of a loop, or the first to load an input a
    later statement loads too) the inputs it loads from the user's files
    stay in memory where it loaded them, and every later load of them
    redistributes from there (a block-sparse input: each home keeps its
    bricks).

    ```mlir
    tc.begin_statement "ccd_s2" {intermediate}
    tc.begin_statement "ccd_s3" {in_memory, intermediate, keep_inputs}
    ```
  }];
  let arguments = (ins StrAttr:$name, UnitAttr:$intermediate, UnitAttr:$in_memory,
                   UnitAttr:$reciprocal, UnitAttr:$keep_inputs);
  let assemblyFormat = "$name attr-dict";
  let hasVerifier = 1;
}

def TC_BeginIterationOp : TC_Op<"begin_iteration",
                                 [MemoryEffects<[RuntimeRead, RuntimeWrite]>]> {
  let summary = "The start of one iteration of a loop";
  let description = [{
    In the program's entry, before the statements of each iteration of
    `loop` (tc-outline-loops): the iteration's seconds and bytes are counted
    from here to its `tc.end_iteration`.

    ```mlir
    tc.begin_iteration #tc.loop<label = "ccd.tce:20", max = 50, converge = "E",
                                tolerance = 1.000000e-10 : f64>
    ```
  }];
  let arguments = (ins TC_LoopAttr:$loop);
  let assemblyFormat = "qualified($loop) attr-dict";
}

def TC_EndIterationOp : TC_Op<"end_iteration",
                               [MemoryEffects<[RuntimeRead, RuntimeWrite]>]> {
  let summary = "The end of one iteration of a loop: whether to run another";
  let description = [{
    In the program's entry, after the statements of one iteration of `loop`
    (tc-outline-loops): reports the iteration (its scalar, the change, its
    seconds and bytes) and yields true while the loop goes on: fewer than
    `max` iterations have run and, for a loop that converges, the scalar
    `converge` changed by at least `tolerance` since the previous iteration.
    Every rank gets the same answer (rank 0 reads the scalar).

    ```mlir
    %again = tc.end_iteration #tc.loop<label = "ccd.tce:20", max = 50, converge = "E",
                                        tolerance = 1.000000e-10 : f64>
    ```
  }];
  let arguments = (ins TC_LoopAttr:$loop);
  let results = (outs I1:$again);
  let assemblyFormat = "qualified($loop) attr-dict";
}

//===----------------------------------------------------------------------===//
// Block-sparse contractions (Krishnamoorthy et al., docs/BlockSparse.md)
//===----------------------------------------------------------------------===//

def TC_BlockArrayOp : TC_Op<"block_array", [MemoryEffects<[RuntimeRead, RuntimeWrite]>]> {
  let summary = "This process's bricks of a block-sparse tensor, with their initial value";
  let description = [{
    Creates the handle of block-sparse tensor `name` (the HDF5 group and
    `--input` key). `homes` gives, for each present block of the type's
    `#tc.blocks` encoding in row-major order of segment ids, the process
    holding it (its home). `init` is `input` (read from the file, or from
    the intermediate of that name an earlier statement stored), `zero`, or
    `ones` (the scalar factor of a one-tensor term).
    `on_disk`: the bricks stay in files between stages (an out-of-core
    schedule, [K] 6): an input's in its file, a result's in scratch.

    ```mlir
    %A = tc.block_array "A" homes [0, 1, 1] init input {on_disk}
           : !tc.block_array<tensor<6x6xf64, #tc.blocks<[[4, 2], [4, 2]], symmetry = 0>>>
    ```
  }];
  let arguments = (ins StrAttr:$name, DenseI64ArrayAttr:$homes,
                   TC_ArrayInitKindAttr:$init, UnitAttr:$on_disk);
  let results = (outs Res<TC_BlockArrayType, "", [MemAlloc]>:$result);
  let assemblyFormat = [{
    $name `homes` $homes `init` `` $init attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TC_BlockStageOp : TC_Op<"block_stage"> {
  let summary = "One stage of a block-sparse contraction's schedule: C += A * B on its tasks";
  let description = [{
    Runs the tasks of stage `stage` (an index, so that a loop runs the stages)
    of the schedule `tasks`: six integers per task, its A, B and C blocks
    (indices in each tensor's present blocks, row-major in segment ids), the
    process running it, its stage and its read-once step within the stage
    ([K] 6.2: bricks the stage's steps share are held for the whole stage,
    the others only for their step). The labels name each operand's
    dimensions (small integers; a label shared by two operands has the same
    segments in both). Per stage each home reads its bricks the stage touches,
    sends the remote A and B bricks to the processes whose tasks read them,
    the tasks run as grids of blocks (D46), and partial sums of remote C bricks
    go to their homes ([K] 5-6). `cached` lists four integers per read a
    process's cache of remote bricks serves ([K] 6): the stage, the tensor
    (0: A, 1: B), the block and the process; its home then sends nothing, and
    the process keeps a brick it received until its next read of it, when
    that read is one of these. `alpha` (default 1) scales every task's
    product, C += alpha * A * B: the contraction's coefficient. `reads` lists
    the tasks that read a block of a tensor with pair symmetries from its
    stored block (`#tc.blocks<..., antisymmetric = ...>`): per such task, its
    index, the dimension of A each dimension of A's stored block carries,
    the same for B, and the factor the product takes (the reads' signs, times
    2 per summed pair whose exchanged blocks the task also stands for).

    ```mlir
    tc.block_stage %s, %C[0, 1] += %A[0, 2] * %B[2, 1] tasks [0, 0, 0, 0, 0, 0] stages 1
      : !tc.block_array<...>, !tc.block_array<...>, !tc.block_array<...>
    ```
  }];
  let arguments = (ins Index:$stage,
                   Arg<TC_BlockArrayType, "", [RuntimeRead]>:$a,
                   Arg<TC_BlockArrayType, "", [RuntimeRead]>:$b,
                   Arg<TC_BlockArrayType, "", [RuntimeRead, RuntimeWrite]>:$c,
                   DenseI64ArrayAttr:$labels_a, DenseI64ArrayAttr:$labels_b,
                   DenseI64ArrayAttr:$labels_c, DenseI64ArrayAttr:$tasks, I64Attr:$stages,
                   OptionalAttr<DenseI64ArrayAttr>:$cached, OptionalAttr<F64Attr>:$alpha,
                   OptionalAttr<DenseI64ArrayAttr>:$reads);
  let assemblyFormat = [{
    $stage `,` $c `` $labels_c `+` `` `=` $a `` $labels_a `*` $b `` $labels_b `tasks` $tasks
    (`reads` $reads^)? (`cached` $cached^)? (`alpha` $alpha^)? `stages` $stages
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($c))
  }];
  let hasVerifier = 1;
}

def TC_BlockStoreOp : TC_Op<"block_store"> {
  let summary = "Write a block-sparse array to the program's HDF5 output";
  let arguments = (ins Arg<TC_BlockArrayType, "", [MemRead, RuntimeWrite]>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
}

def TC_TileContractOp : TC_Op<"tile_contract", [AttrSizedOperandSegments]> {
  let summary = "Local contraction of sub-tiles: C += A * B (permute + dgemm)";
  let description = [{
    Adds to the sub-tile of `c` the contraction of the sub-tiles of `a` and `b`.
    Each operand is a buffer, the offsets of its sub-tile and one label per
    dimension; `extents` gives each label's sub-tile extent. Labels shared by `a`
    and `b` but absent from `c` are summed; a label in all three is a batch
    label (one product per value, element-wise when it is the only kind); a
    label in one input only is summed out of that input first; `c` may be a
    scalar (rank 0). The runtime multiplies with OpenBLAS dgemm (sgemm for
    f32), a product with one row or column of C with gemv or dot and a small
    one (M N K up to a million) with libxsmm's generated kernels
    (docs/Derivations.md D55), permuting an operand only when its labels are
    not grouped. The
    optional `a_steps`, `b_steps` and `c_steps` give an operand's sub-tile a
    step per dimension: it takes every step-th element from its offset on (a
    virtually partitioned fused loop's slice of a block it does not slice,
    Cociorva et al. 3.2(iii)); by default every step is 1. `alpha` (default
    1) scales the product, C += alpha * A * B: the coefficient of the
    contraction's term (BLAS's alpha).

    ```mlir
    tc.tile_contract %c[%z, %z] ["i", "j"] += %a[%z, %z] ["i", "k"] * %b[%z, %z] ["k", "j"]
        extents {i = 32 : i64, j = 32 : i64, k = 16 : i64}
        : memref<32x32xf64>, memref<16x32xf64> -> memref<32x32xf64>
    ```
  }];
  let arguments = (ins Arg<TC_TileBuffer, "", [MemRead, MemWrite]>:$c,
                   Variadic<Index>:$c_offsets, StrArrayAttr:$c_labels,
                   Arg<TC_TileBuffer, "", [MemRead]>:$a, Variadic<Index>:$a_offsets,
                   StrArrayAttr:$a_labels,
                   Arg<TC_TileBuffer, "", [MemRead]>:$b, Variadic<Index>:$b_offsets,
                   StrArrayAttr:$b_labels,
                   DictionaryAttr:$extents,
                   OptionalAttr<DenseI64ArrayAttr>:$c_steps,
                   OptionalAttr<DenseI64ArrayAttr>:$a_steps,
                   OptionalAttr<DenseI64ArrayAttr>:$b_steps,
                   OptionalAttr<F64Attr>:$alpha);
  let assemblyFormat = [{
    $c `[` $c_offsets `]` $c_labels `+` `` `=` $a `[` $a_offsets `]` $a_labels
    `*` $b `[` $b_offsets `]` $b_labels `extents` $extents attr-dict
    `:` type($a) `,` type($b) `->` type($c)
  }];
  // Contiguous sub-tiles (every step 1), as most lowerings make them, scaled
  // by `alpha` (no attribute for 1).
  let builders = [
    OpBuilder<(ins "Value":$c, "ValueRange":$c_offsets, "ArrayAttr":$c_labels,
                   "Value":$a, "ValueRange":$a_offsets, "ArrayAttr":$a_labels,
                   "Value":$b, "ValueRange":$b_offsets, "ArrayAttr":$b_labels,
                   "DictionaryAttr":$extents, CArg<"double", "1.0">:$alpha), [{
      build($_builder, $_state, c, c_offsets, c_labels, a, a_offsets, a_labels, b, b_offsets,
            b_labels, extents, DenseI64ArrayAttr(), DenseI64ArrayAttr(), DenseI64ArrayAttr(),
            alpha == 1.0 ? FloatAttr() : $_builder.getF64FloatAttr(alpha));
    }]>
  ];
  let extraClassDeclaration = [{
    /// The product's coefficient (1 when no alpha is written).
    double getAlphaOrOne() { return getAlpha() ? getAlpha()->convertToDouble() : 1.0; }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fused operator trees (tc-lower-fused): slices of tensors.
//===----------------------------------------------------------------------===//

class TC_SliceIOOp<string mnemonic, list<MemoryEffect> arrayEffects>
    : TC_Op<mnemonic> {
  let arguments = (ins Arg<TC_ArrayType, "", arrayEffects>:$array,
                   DenseI64ArrayAttr:$tensor_extents, Variadic<Index>:$shift);
  let hasVerifier = 1;
}

def TC_LoadSliceOp : TC_SliceIOOp<"load_slice", [MemWrite, RuntimeRead]> {
  let summary = "Read this process's block of a slice of an input tensor";
  let description = [{
    `array` holds a slice of its input tensor (extents `tensor_extents`): index
    `i` of its dimension `d` is tensor index `i * (tensor_extents[d] /
    extent_d) + shift[d]`, where `shift` holds the values of the loops the array
    is fused on (0 elsewhere) and an extent below the tensor's is the number of
    blocks that dimension is split into (one index per block). Reads the
    process's block from the `--input` file (or `--random-inputs`).

    ```mlir
    tc.load_slice %D [1000, 1000, 70, 40] at [%z, %d, %z, %z] : !D
    ```
  }];
  let assemblyFormat = [{
    $array $tensor_extents `at` `[` $shift `]` attr-dict `:` qualified(type($array))
  }];
}

def TC_StoreSliceOp : TC_SliceIOOp<"store_slice", [MemRead, RuntimeWrite]> {
  let summary = "Write this process's block of a slice of the result";
  let description = [{
    The inverse of `tc.load_slice` for the result: writes the block into the
    output file (created on the first slice); `tc.finish_store` completes it.
  }];
  let assemblyFormat = [{
    $array $tensor_extents `at` `[` $shift `]` attr-dict `:` qualified(type($array))
  }];
}

def TC_FinishStoreOp : TC_Op<"finish_store"> {
  let summary = "Close the output written slice by slice and move it into place";
  let arguments = (ins Arg<TC_ArrayType, "", [RuntimeWrite]>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
}

def TC_ZeroArrayOp : TC_Op<"zero_array"> {
  let summary = "Clear an in-memory array (an accumulator of a fused loop nest)";
  let arguments = (ins Arg<TC_ArrayType, "", [MemWrite]>:$array);
  let assemblyFormat = "$array attr-dict `:` qualified(type($array))";
}

def TC_CombinePartialOp : TC_Op<"combine_partial"> {
  let summary = "Sum partial sums over grid dimensions";
  let description = [{
    Adds the array's block over the processes that differ only along the grid
    dimensions `grid_dims`, which distribute indices summed by the formula that
    produced it; every process then holds the sum (Cociorva et al. 3.3, the
    partial sums replicated, `*`).

    ```mlir
    tc.combine_partial %T along [1] : !T
    ```
  }];
  let arguments = (ins Arg<TC_ArrayType, "", ArrayCollective>:$array,
                   DenseI64ArrayAttr:$grid_dims);
  let assemblyFormat = "$array `along` $grid_dims attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

#endif // TC_TILE_OPS_TD
