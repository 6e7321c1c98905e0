//===- Runtime.h - C ABI of tc's MPI / out-of-core runtime ------*- C -*-===//
//
// The calls that lowered tc programs make (one per tile-level tc op, see
// lib/Conversion/TCToRuntime). docs/RuntimeABI.md describes the contract.
//
// Calling convention: plain C calls (func.call of an external function, no
// llvm.emit_c_interface). A buffer (a statically shaped, identity-layout
// memref) arrives as `double *`: the aligned pointer the compiler extracts with
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

/// Per-rank predictions of a fused program, on top of tc_rt_plan: bytes each
/// rank sends and receives (n = the number of processes planned for).
void tc_rt_plan_per_rank(const double *sent, const double *received, int64_t n);

/// Creates an array and loads its initial contents (phase "load").
/// desc: an array description (tc_rt::ArrayDesc, TC_RT_ARRAY_*).
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
/// with zeros. desc: a tile description (tc_rt::TileDesc, TC_RT_TILE_*); with
/// root_only, ranks other than 0 zero the buffer after reading (inside
/// accumulation).
void tc_rt_read_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);
/// Writes back the clipped tile. desc as for tc_rt_read_tile (root_only 0).
void tc_rt_write_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);

/// Circular shift of a sub-tile of `buf` one step along grid dimension
/// `grid_dim` of `array`'s grid: receive from coordinate +1, send to -1. The
/// sub-tile is at `offsets`. desc: tc_rt::ShiftTileDesc (TC_RT_SHIFT_*).
void tc_rt_shift_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);
/// Completes a tile of a TC_RT_SLAB array read at `offsets`: every rank
/// contributes the rows of its slab (ring all-gather). desc as for
/// tc_rt_read_tile (root_only 0).
void tc_rt_broadcast_tile(void *array, double *buf, const int64_t *desc, const int64_t *offsets);
/// Element-wise sum of `buf` over all ranks (recursive doubling; ring when P is
/// not a power of two). desc: tc_rt::AllReduceTileDesc (TC_RT_ALLREDUCE_*).
void tc_rt_allreduce_tile(double *buf, const int64_t *desc);

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
void tc_rt_tile_contract(const int64_t *desc, double *a, double *b, double *c,
                         const int64_t *offsets);

/// Writes the array to the output HDF5 file (phase "store").
void tc_rt_store(void *array);

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

/// The program's entry, generated by the compiler.
void tc_main(void);

#ifdef __cplusplus
}
#endif

#endif // TC_RUNTIME_RUNTIME_H
