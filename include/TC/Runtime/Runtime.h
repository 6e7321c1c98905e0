//===- Runtime.h - C ABI of tc's MPI / out-of-core runtime ------*- C -*-===//
//
// The calls that lowered tc programs make (one per tile-level tc op, see
// lib/Conversion/TCToRuntime). docs/RuntimeABI.md describes the contract.
//
// Calling convention: plain C calls (func.call of an external function, no
// llvm.emit_c_interface). A buffer (a statically shaped, identity-layout
// memref of f64 or f32) arrives as `void *`, its elements of the type of the
// array it belongs to (tc_rt_elem in the array's description; in the
// description itself for tc_rt_allreduce_tile and tc_rt_tile_contract): the
// aligned pointer the compiler extracts with
// memref.extract_aligned_pointer_as_index and turns into a pointer (index ->
// i64 -> llvm.inttoptr). The memref's offset is not added, so the element at
// index (0, ..., 0) must sit at that pointer. Static descriptions are constant
// int64 arrays (private memref.globals) passed by address, laid out as
// include/TC/Runtime/Descriptors.h declares; offsets are int64 arrays filled at
// run time; names are NUL-terminated; an array is the opaque handle tc_rt_array
// returned. Every failure prints a message naming the rank, the array, the file
// and the tile, removes partial output and ends every rank with a non-zero exit
// (MPI_Abort).
//
//===----------------------------------------------------------------------===//
#ifndef TC_RUNTIME_RUNTIME_H
#define TC_RUNTIME_RUNTIME_H

#include "TC/Runtime/Descriptors.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Refuses to run a program compiled for another ABI: unless compiled_version
/// is this runtime's TC_RT_API_VERSION, rank 0 prints both versions and every
/// rank exits with a non-zero status. Generated programs call it first.
void tc_rt_check_abi(int64_t compiled_version);

/// Refuses to run on another number of processes than the program was planned
/// for (`procs`, its machine's): rank 0 prints both numbers and every rank exits
/// with a non-zero status. Generated programs call it after tc_rt_check_abi.
void tc_rt_check_procs(int64_t procs);

/// A program planned for several process counts (tc-specialize-procs) registers
/// each with tc_rt_plan_for_procs, then asks tc_rt_select_procs which to run:
/// the run's process count if it was planned for, else rank 0 lists the planned
/// counts and every rank exits with a non-zero status. Called in place of
/// tc_rt_check_procs, after tc_rt_check_abi.
void tc_rt_plan_for_procs(int64_t procs);
int64_t tc_rt_select_procs(void);

/// Per-rank predictions of a fused program, on top of tc_rt_plan: bytes each
/// rank sends and receives (n = the number of processes planned for).
void tc_rt_plan_per_rank(const double *sent, const double *received, int64_t n);
/// Per-rank disk predictions (bytes read and written), on top of tc_rt_plan.
void tc_rt_plan_disk_per_rank(const double *disk, int64_t n);

/// Creates an array and loads its initial contents (phase "load"); every rank
/// calls it (it ends with a barrier over all ranks).
/// desc: an array description (tc_rt::ArrayDesc, TC_RT_ARRAY_*). Its grid may
/// have fewer processes than the run (never more): ranks 0..G-1 form the grid
/// (G its product, row-major coordinates), and ranks G.. are idle for this
/// array (COSMA's idle ranks, Kwasniewski et al. section 7.1). Only a
/// distributed array may leave ranks idle. An idle rank holds none of it (a
/// zero-sized block in every dimension; no memory, no scratch file), loads and
/// stores nothing, and its calls on the array that act within the grid (tile
/// reads and writes, gathers, reductions, shifts, panel collectives, partial
/// sums) return at once, moving no bytes (a gather leaves the buffer zero). It
/// still takes part in what spans every rank: array creation, redistribution,
/// the output file and the report.

/// name: NUL-terminated; the HDF5 dataset and the --input key.
/// storage: for an in-memory array, a buffer of the padded block's shape (of the
/// padded sub-block's, along a split dimension) to hold it (tiles read from it
/// in one piece then cost no copy), or null.
/// A dimension with a split (TC_RT_ARRAY_DIM_SPLIT_DIM s >= 0): its block, of
/// padded size B = ceil(extent / grid[grid_dim]), is split again into q =
/// grid[s] balanced sub-blocks, stored padded to S = ceil(B / q) rows: of a
/// block of L rows, the process at coordinate c along s stores the rows from
/// c floor(L / q) + min(c, L mod q) on, floor(L / q) of them plus one if
/// c < L mod q (none only when L < q). Rules,
/// checked here: a distributed array, at most one split dimension, that
/// dimension split along a grid dimension, and s a grid dimension no dimension
/// is split or skewed along.
/// A block-cyclic dimension (TC_RT_ARRAY_DIM_CYCLIC nb >= 1, along grid
/// dimension g with G = grid[g] processes): global element i is in block
/// I = i / nb, held at coordinate I mod G along g, at storage index
/// (I / G) nb + i mod nb. Its storage is padded to ceil(ceil(extent / nb) / G) nb
/// rows on every process; the real rows (the owned blocks in order, only the
/// last block of the extent partial) are a prefix. Rules, checked here: a
/// distributed array, the dimension split along a grid dimension, and an array
/// with a cyclic dimension has no skew and no split dimension.
void *tc_rt_array(const int64_t *desc, const char *name, void *storage);

/// This process's coordinate along grid dimension `grid_dim` of `array`'s grid;
/// -1 on a rank the grid leaves idle.
int64_t tc_rt_grid_coord(void *array, int64_t grid_dim);

/// The plan's per-rank predictions and sizes (before the first tile op).
/// chunk_bytes bounds every staging and out-of-core collective buffer.
void tc_rt_plan(double predicted_disk_bytes, double predicted_comm_bytes,
                double flops, int64_t chunk_bytes);

/// Copies the tile at `offsets` (local block coordinates of the array's compute
/// view; storage coordinates for a cyclic dimension) into `buf` of shape `shape`
/// (row-major), clipped to the block (to the real local rows of a cyclic
/// dimension) and padded with zeros. desc: a tile description (tc_rt::TileDesc, TC_RT_TILE_*); with
/// root_only, ranks other than 0 zero the buffer after reading (inside
/// accumulation). Of a TC_RT_SLAB array (of an array with a split dimension)
/// only the rows in this process's slab (sub-block) are read, the rest is zero;
/// tc_rt_write_tile likewise writes only those.
void tc_rt_read_tile(void *array, void *buf, const int64_t *desc, const int64_t *offsets);
/// Writes back the clipped tile. desc as for tc_rt_read_tile (root_only 0).
void tc_rt_write_tile(void *array, void *buf, const int64_t *desc, const int64_t *offsets);

/// Circular shift of a sub-tile of `buf` one step along grid dimension
/// `grid_dim` of `array`'s grid: receive from coordinate +1, send to -1. The
/// sub-tile is at `offsets`. desc: tc_rt::ShiftTileDesc (TC_RT_SHIFT_*).
void tc_rt_shift_tile(void *array, void *buf, const int64_t *desc, const int64_t *offsets);
/// Completes a tile of a TC_RT_SLAB array read at `offsets`: every rank
/// contributes the rows of its slab (ring all-gather). desc as for
/// tc_rt_read_tile (root_only 0).
void tc_rt_broadcast_tile(void *array, void *buf, const int64_t *desc, const int64_t *offsets);
/// Element-wise sum of `buf` over all ranks (recursive doubling; ring when P is
/// not a power of two). desc: tc_rt::AllReduceTileDesc (TC_RT_ALLREDUCE_*).
void tc_rt_allreduce_tile(void *buf, const int64_t *desc);

/// Collectives of arrays with a split dimension (TC_RT_ARRAY_DIM_SPLIT_DIM, COSMA
/// nested blocks), among the q processes of this one's group along the array's
/// split grid dimension g (the same coordinates in every other grid dimension,
/// the same block). desc: a tile description (root_only 0) of the rank of the
/// array; offsets: the tile's block-relative position, as for tc_rt_read_tile.
/// Direct non-blocking messages between the members carry only real elements
/// (clipped to the block); an empty part is no message. Bytes are counted when
/// the messages start. With n_m the elements of the tile inside member m's
/// sub-block (clipped to the block), this process's counters grow by
///   gather:         sent (q-1) n_me * e,       received sum_{m != me} n_m * e
///   reduce-scatter: sent sum_{m != me} n_m * e, received (q-1) n_me * e
/// (e: the bytes of one element). With q = 1 the calls are local.
///
/// Starts assembling the tile at `offsets` in `buf` on every member: zero-fills
/// buf, copies this process's part from its storage (disk bytes read counted),
/// sends it to the q-1 others and receives theirs. Returns a request for
/// tc_rt_wait; until then buf must stay untouched. Several requests may be
/// outstanding (double buffering), on one buffer each.
void *tc_rt_gather_tile_start(void *array, void *buf, const int64_t *desc,
                              const int64_t *offsets);
/// Completes a request of tc_rt_gather_tile_start (null: nothing) and frees it:
/// buf then holds the whole tile, clipped to the block and padded with zeros.
void tc_rt_wait(void *request);
/// tc_rt_gather_tile_start, then tc_rt_wait.
void tc_rt_gather_tile(void *array, void *buf, const int64_t *desc, const int64_t *offsets);
/// `buf` holds, on every member, a partial sum of the tile at `offsets`.
/// Afterwards the part of buf inside this process's sub-block holds the sum over
/// the group (the rest of buf is unspecified). Storage is not written (follow
/// with tc_rt_write_tile, which writes that part).
void tc_rt_reduce_scatter_tile(void *array, void *buf, const int64_t *desc,
                               const int64_t *offsets);

/// PUMMA's panel collectives on a block-cyclic dimension (Choi, Dongarra,
/// Walker, section 2; notes 3.3 "MDB2, processor view", 3.4 "Processor view").
/// desc: tc_rt::CyclicPanelDesc (TC_RT_PANEL_*): `dim`, a cyclic dimension of the
/// array with block size nb along grid dimension g (G = grid[g]), the modulus M
/// >= 1 and the buffer's shape. The panel of residue r (0 <= r < M) is the blocks
/// I = r (mod M) of dim in ascending order: panel row t nb + x is global element
/// (r + t M) nb + x of dim. buf's shape: shape[dim] >= ceil(ceil(extent / nb) /
/// M) nb, every other dimension the padded local storage extent (storage
/// coordinates there). The group: the G processes with this one's coordinates
/// in every grid dimension but g. Direct non-blocking messages between members
/// carry only real elements (clipped to the extent and to the real local
/// lengths of the other dimensions); an empty part is no message. With n_m the
/// elements of the panel member m holds, this process's counters grow by
///   gather: sent (G-1) n_me * e,       received sum_{m != me} n_m * e
///   reduce: sent sum_{m != me} n_m * e, received (G-1) n_me * e
///
/// Every member gets the whole panel in buf (zero past the extent and in the
/// padding); each block comes from its holder's storage (disk reads counted).
/// (MDB2's columncast of B's rows matching A's rolled columns.)
void tc_rt_gather_cyclic(void *array, void *buf, const int64_t *desc, int64_t residue);
/// buf holds, on every member, a partial sum of the panel. Each member's storage
/// rows of the panel it holds are incremented by the sum over the group of
/// those rows (its own buf included); buf is unspecified afterwards. With G = 1
/// a local add. (A^T B's column reduction of partial C to its owners.)
void tc_rt_reduce_cyclic(void *array, void *buf, const int64_t *desc, int64_t residue);

/// Out-of-core versions on a whole array, chunked by chunk_bytes.
void tc_rt_shift_array(void *array, int64_t grid_dim);
void tc_rt_allgather_array(void *array);
void tc_rt_allreduce_array(void *array);

/// Copies `source` into `destination`, the same array in another distribution
/// (all-to-all in P-1 pairwise rounds; chunked by chunk_bytes).
void tc_rt_redistribute(void *source, void *destination);

/// C[sub] += A[sub] * B[sub] on sub-tiles of three buffers.
/// desc: tc_rt::TileContractDesc (TC_RT_CONTRACT_*): shapes, label ids and
/// the sub-tiles' extent per label. offsets: of the sub-tiles in A, then B,
/// then C.
void tc_rt_tile_contract(const int64_t *desc, void *a, void *b, void *c,
                         const int64_t *offsets);

/// Writes the array to the output HDF5 file (phase "store"), or, in a
/// statement whose result is an intermediate, to the intermediates file.
void tc_rt_store(void *array);

/// A program of several statements (tc-split-program) calls this at the start
/// of each: `name` (NUL-terminated) names it in the report, which gives each
/// statement's counters and predictions. `result` (enum tc_rt_result) says
/// where the statement's stores go: the output file, or, for an intermediate
/// later statements load by its name instead of from --input, the run's
/// intermediates file (unnamed, next to --output, else in --scratch) or every
/// rank's memory (the whole tensor, assembled by an all-reduce).
void tc_rt_begin_statement(const char *name, int64_t result);

/// Fused programs (tc-lower-fused): `array` is the slice of a tensor with the
/// extents of desc (tc_rt::SliceDesc, TC_RT_SLICE_*) whose storage index i of
/// dimension d is tensor index i * (extent_d / array extent_d) + shift[d] (the
/// values of the loops it is fused on; rank entries). Reads this process's
/// block of it from the array's input.
void tc_rt_load_slice(void *array, const int64_t *desc, const int64_t *shift);
/// Writes this process's block of the slice into the output (created on the
/// first call); tc_rt_finish_store closes the output and renames it into place.
void tc_rt_store_slice(void *array, const int64_t *desc, const int64_t *shift);
void tc_rt_finish_store(void *array);
/// Clears an in-memory array.
void tc_rt_zero_array(void *array);
/// Sums an in-memory array over the processes that differ only along the grid
/// dimensions in the bit mask `grid_dims` (partial sums of distributed summed
/// indices, Cociorva et al. 3.3): recursive doubling or ring, bytes counted.
void tc_rt_combine_partial(void *array, int64_t grid_dims);

/// Block-sparse tensors (Krishnamoorthy et al.; docs/BlockSparse.md). desc:
/// tc_rt::BlockArrayDesc (TC_RT_BLOCKS_*). Each block's home holds it: in
/// memory, or (on_disk) in the input file (read each stage) or a scratch file
/// (a result). An input is read from the block-sparse HDF5 group `name`.
void *tc_rt_block_array(const int64_t *desc, const char *name);
/// Runs stage `stage` of a block-sparse contraction's schedule (desc:
/// tc_rt::BlockPlanDesc, TC_RT_BLOCK_PLAN_*): the homes read the stage's
/// bricks, send each rank the remote A and B bricks its tasks read, every task
/// is a dgemm on its blocks, partial sums of remote C bricks go to their homes
/// and the homes write the C bricks back (phase "compute", bytes counted).
void tc_rt_block_stage(const int64_t *desc, void *a, void *b, void *c, int64_t stage);
/// Writes a block-sparse array to the output file as an HDF5 group.
void tc_rt_block_store(void *array);

/// The program's entry, generated by the compiler.
void tc_main(void);

#ifdef __cplusplus
}
#endif

#endif // TC_RUNTIME_RUNTIME_H
