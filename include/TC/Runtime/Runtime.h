//===- Runtime.h - C ABI of tc's MPI / out-of-core runtime ------*- C -*-===//
//
// The calls that lowered tc programs make (one per tile-level tc op, see
// lib/Conversion/TileOpsToRuntime). Arguments follow MLIR's bare-pointer memref
// calling convention: a statically shaped memref arrives as its element pointer.
// Static descriptions (shapes, grids, label ids) arrive as int64 arrays whose
// layout is given next to each function. Every failure prints a message naming
// the rank, the array, the file and the tile, removes partial output and ends
// every rank with a non-zero exit (MPI_Abort).
//
//===----------------------------------------------------------------------===//
#ifndef TC_RUNTIME_RUNTIME_H
#define TC_RUNTIME_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Array kinds (how the computation sees an array, Gao et al. Table 1).
enum tc_rt_kind {
  TC_RT_DISTRIBUTED = 0, ///< a block per process on the grid
  TC_RT_REPLICATED = 1,  ///< whole on every process (accumulation's C)
  TC_RT_SLAB = 2,        ///< inside replication: stored in P slabs of dim 0,
                         ///< tiles assembled by tc_rt_broadcast
  TC_RT_GATHERED = 3,    ///< outside replication: whole on every process after
                         ///< tc_rt_allgather_array (loads only its own slab)
};
enum tc_rt_init { TC_RT_INIT_INPUT = 0, TC_RT_INIT_ZERO = 1, TC_RT_INIT_ROOT_INPUT = 2 };

/// Per-rank predictions of a fused program, on top of tc_rt_plan: bytes each
/// rank sends and receives (n = the number of processes planned for).
void tc_rt_plan_per_rank(const double *sent, const double *received, int64_t n);

/// Creates an array and loads its initial contents (phase "load").
/// desc: [rank, kind, init, on_disk, grid_rank, grid..., then per dim:
///        extent, grid_dim (-1: none), skew_dim (-1: none), file_dim (the
///        dimension of the HDF5 dataset this storage dimension holds)]
/// name: NUL-terminated; the HDF5 dataset and the --input key.
/// storage: for an in-memory array, a buffer of the padded block's shape to hold
/// it (tiles read from it in one piece then cost no copy), or null.
void *tc_rt_array(const int64_t *desc, const char *name, double *storage);

/// The plan's per-rank predictions and sizes (before the first tile op).
/// chunk_bytes bounds every staging and out-of-core collective buffer.
void tc_rt_plan(double predicted_disk_bytes, double predicted_comm_bytes,
                double flops, int64_t chunk_bytes);

/// Copies the tile at `offsets` (local block coordinates of the array's compute
/// view) into `buf` of shape `shape` (row-major), clipped to the block and padded
/// with zeros. root_only: ranks other than 0 zero the buffer after reading
/// (inside accumulation). desc: [rank, root_only, shape...].
void tc_rt_read_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);
/// Writes back the clipped tile. desc as for tc_rt_read_tile.
void tc_rt_write_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);

/// Circular shift of a sub-tile of `buf` one step along grid dimension
/// `grid_dim` of `array`'s grid: receive from coordinate +1, send to -1.
/// desc: [rank, grid_dim, shape..., subshape...].
void tc_rt_shift_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);
/// Completes a tile of a TC_RT_SLAB array read at `offsets`: every rank
/// contributes the rows of its slab (ring all-gather). desc as for read_tile.
void tc_rt_broadcast_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);
/// Element-wise sum of `buf` over all ranks (recursive doubling; ring when P is
/// not a power of two). desc: [rank, shape...].
void tc_rt_allreduce_tile(double *buf, const int64_t *desc);

/// Out-of-core versions on a whole array, chunked by chunk_bytes.
void tc_rt_shift_array(void *array, int64_t grid_dim);
void tc_rt_allgather_array(void *array);
void tc_rt_allreduce_array(void *array);

/// Copies `source` into `destination`, the same array in another distribution
/// (all-to-all in P-1 pairwise rounds; chunked by chunk_bytes).
void tc_rt_redistribute(void *source, void *destination);

/// C[sub] += A[sub] * B[sub] on sub-tiles of three buffers.
/// desc: [rankA, rankB, rankC, shapeA..., shapeB..., shapeC..., labelsA...,
///        labelsB..., labelsC..., num_labels, extent per label id...]
/// offsets: offsets of the sub-tiles in A, then B, then C.
void tc_rt_tile_contract(const int64_t *desc, double *a, double *b, double *c,
                         const int64_t *offsets);

/// Writes the array to the output HDF5 file (phase "store").
void tc_rt_store(void *array);

/// Fused programs (tc-lower-fused): `array` is the slice of a tensor with
/// extents desc[1..desc[0]] whose storage index i of dimension d is tensor index
/// i * (extent_d / array extent_d) + shift[d] (the values of the loops it is
/// fused on). Reads this process's block of it from the array's input.
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

/// The program's entry, generated by the compiler.
void tc_main(void);

#ifdef __cplusplus
}
#endif

#endif // TC_RUNTIME_RUNTIME_H
