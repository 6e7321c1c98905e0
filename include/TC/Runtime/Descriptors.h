//===- Descriptors.h - the compiler/runtime ABI of tc -----------*- C -*-===//
//
// The static descriptions a compiled tc program passes to its runtime
// (include/TC/Runtime/Runtime.h), declared once for both sides: the compiler
// encodes them (tc-lower-to-runtime emits them as int64 constants), the runtime
// decodes them. A description is a flat array of int64_t; its layout is fixed by
// the offsets below and by the static_asserts at the end of the C part.
//
// Rule: any change to a layout, to an enum value or to a tc_rt_* signature
// bumps TC_RT_API_VERSION. A program records the version it was compiled for
// and calls tc_rt_check_abi(TC_RT_API_VERSION) first; an old program then stops
// with a message instead of misreading a description.
//
// The C part (offsets, enums, size helpers) is plain C11; the
// C++ part adds encoders (structs of named fields -> std::vector<int64_t>) and
// decoders (views with named accessors over const int64_t *). The fixed
// fields' offsets, types and accessors are declared once, in
// DescriptorFields.def, for both parts. docs/RuntimeABI.md describes the
// contract.
//
//===----------------------------------------------------------------------===//
#ifndef TC_RUNTIME_DESCRIPTORS_H
#define TC_RUNTIME_DESCRIPTORS_H

#include <stdint.h>
#include <string.h>

/// The version of the descriptor layouts and of the tc_rt_* calls.
#define TC_RT_API_VERSION 11

#ifdef __cplusplus
#define TC_RT_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define TC_RT_INLINE inline
#else
#define TC_RT_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define TC_RT_INLINE static inline
#endif

/// Array kinds (how the computation sees an array, Gao et al. Table 1). The
/// values are the positions of the kind names of tc.array.
enum tc_rt_kind {
  TC_RT_DISTRIBUTED = 0, ///< a block per process on the grid
  TC_RT_REPLICATED = 1,  ///< whole on every process (accumulation's C)
  TC_RT_SLAB = 2,        ///< inside replication: stored in P slabs of dim 0,
                         ///< tiles assembled by tc_rt_broadcast_tile
  TC_RT_GATHERED = 3,    ///< outside replication: whole on every process after
                         ///< tc_rt_allgather_array (loads only its own slab)
};
/// How tc_rt_array fills an array: from the input (HDF5 or random; an
/// intermediate of an earlier statement, tc_rt_begin_statement), with zeros,
/// from the input on rank 0 and zeros elsewhere (accumulation's C), or with
/// ones (the constant factor of a one-tensor term, R += c * X).
enum tc_rt_init {
  TC_RT_INIT_INPUT = 0,
  TC_RT_INIT_ZERO = 1,
  TC_RT_INIT_ROOT_INPUT = 2,
  TC_RT_INIT_ONES = 3
};
/// Where a statement's result goes (tc_rt_begin_statement): the output file,
/// or, as an intermediate later statements read, the run's intermediates file
/// or every rank's memory (replicated, when the plan left room for it).
enum tc_rt_result {
  TC_RT_RESULT_OUTPUT = 0,
  TC_RT_RESULT_FILE = 1,
  TC_RT_RESULT_MEMORY = 2
};
/// Element types: of an array (its storage, tiles, messages, HDF5 dataset) and
/// of the buffers of tc_rt_tile_contract and tc_rt_allreduce_tile.
enum tc_rt_elem { TC_RT_F64 = 0, TC_RT_F32 = 1 };

/// The offsets of every fixed field (enum tc_rt_<record>_field), from their
/// one declaration, DescriptorFields.def: TC_RT_TILE_RANK, TC_RT_TILE_ROOT_ONLY,
/// then TC_RT_TILE_SHAPE where the variable part starts, and so on.
#define TC_RT_RECORD(Record, record, PREFIX) enum tc_rt_##record##_field {
#define TC_RT_FIELD(PREFIX, NAME, offset, Type, accessor, doc) TC_RT_##PREFIX##_##NAME = offset,
#define TC_RT_FIELDS(PREFIX, NAME, offset, count, Type, accessor, doc)                            \
  TC_RT_##PREFIX##_##NAME = offset,
#define TC_RT_END(PREFIX, NAME, offset) TC_RT_##PREFIX##_##NAME = offset };
#include "TC/Runtime/DescriptorFields.def"

//===-- tc_rt_array ---------------------------------------------------------===//
// [rank, kind, init, on_disk, elem, first_slice, grid_rank, grid[grid_rank],
//  then per dimension d < rank: extent, grid_dim, skew_dim, file_dim, split_dim,
//  cyclic]
/// Where the fields of dimension `d` start.
TC_RT_INLINE int64_t tc_rt_array_dim(const int64_t *desc, int64_t d) {
  return TC_RT_ARRAY_GRID + desc[TC_RT_ARRAY_GRID_RANK] + TC_RT_ARRAY_DIM_FIELDS * d;
}
/// Where the summed dimensions start (after the last dimension's fields): their
/// count k, then k pairs (dimension of the HDF5 dataset, extent). An input
/// whose dataset has these dimensions too is summed over them as it is loaded
/// (labels of one input only, docs/Derivations.md D30).
TC_RT_INLINE int64_t tc_rt_array_summed(int64_t rank, int64_t grid_rank) {
  return TC_RT_ARRAY_GRID + grid_rank + TC_RT_ARRAY_DIM_FIELDS * rank;
}
TC_RT_INLINE int64_t tc_rt_array_size(const int64_t *desc) {
  int64_t at = tc_rt_array_summed(desc[TC_RT_ARRAY_RANK], desc[TC_RT_ARRAY_GRID_RANK]);
  return at + 1 + 2 * desc[at];
}

//===-- tc_rt_read_tile, tc_rt_write_tile, tc_rt_broadcast_tile -------------===//
// (and tc_rt_gather_tile(_start), tc_rt_reduce_scatter_tile)
// [rank, root_only, shape[rank]]: the shape of the tile buffer. root_only (read
// only, 0 for the others): ranks other than 0 zero the buffer after reading.
TC_RT_INLINE int64_t tc_rt_tile_size(int64_t rank) { return TC_RT_TILE_SHAPE + rank; }

//===-- tc_rt_shift_tile ----------------------------------------------------===//
// [rank, grid_dim, shape[rank], subshape[rank]]: the buffer's shape, then the
// shape of the sub-tile (at the call's offsets) that moves along grid_dim.
TC_RT_INLINE int64_t tc_rt_shift_subshape(const int64_t *desc) {
  return TC_RT_SHIFT_SHAPE + desc[TC_RT_SHIFT_RANK];
}
TC_RT_INLINE int64_t tc_rt_shift_size(int64_t rank) { return TC_RT_SHIFT_SHAPE + 2 * rank; }

//===-- tc_rt_allreduce_tile ------------------------------------------------===//
// [rank, elem, shape[rank]]
TC_RT_INLINE int64_t tc_rt_allreduce_size(int64_t rank) { return TC_RT_ALLREDUCE_SHAPE + rank; }

//===-- tc_rt_tile_contract -------------------------------------------------===//
// [rank_a, rank_b, rank_c, elem, alpha, shape_a..., shape_b..., shape_c...,
//  labels_a..., labels_b..., labels_c..., steps_a..., steps_b..., steps_c...,
//  num_labels, extent[num_labels]]
// Labels are ids in [0, num_labels); extent[l] is the sub-tile extent of label
// l. Along dimension d an operand's sub-tile takes every steps[d]-th element
// from its offset on (1: contiguous). The call's offsets hold A's, then B's,
// then C's sub-tile offsets. alpha holds the bits of the IEEE double that
// scales the product (C += alpha * A * B; a term's coefficient).
enum tc_rt_operand { TC_RT_OPERAND_A = 0, TC_RT_OPERAND_B = 1, TC_RT_OPERAND_C = 2 };
/// The contraction's alpha, and the descriptor entry holding it.
TC_RT_INLINE double tc_rt_contract_alpha(const int64_t *desc) {
  double alpha;
  memcpy(&alpha, &desc[TC_RT_CONTRACT_ALPHA], sizeof alpha);
  return alpha;
}
TC_RT_INLINE int64_t tc_rt_contract_alpha_bits(double alpha) {
  int64_t bits;
  memcpy(&bits, &alpha, sizeof bits);
  return bits;
}
/// Where operand `x`'s entries start among the shapes (and among the labels,
/// and in the offsets argument): after the operands before it.
TC_RT_INLINE int64_t tc_rt_contract_before(const int64_t *desc, int64_t x) {
  int64_t n = 0;
  for (int64_t y = 0; y < x; ++y)
    n += desc[TC_RT_CONTRACT_RANK + y];
  return n;
}
TC_RT_INLINE int64_t tc_rt_contract_shape(const int64_t *desc, int64_t x) {
  return TC_RT_CONTRACT_SHAPES + tc_rt_contract_before(desc, x);
}
TC_RT_INLINE int64_t tc_rt_contract_labels(const int64_t *desc, int64_t x) {
  return TC_RT_CONTRACT_SHAPES + tc_rt_contract_before(desc, 3) + tc_rt_contract_before(desc, x);
}
TC_RT_INLINE int64_t tc_rt_contract_steps(const int64_t *desc, int64_t x) {
  return TC_RT_CONTRACT_SHAPES + 2 * tc_rt_contract_before(desc, 3) + tc_rt_contract_before(desc, x);
}
/// The num_labels entry; the extents follow it.
TC_RT_INLINE int64_t tc_rt_contract_num_labels(const int64_t *desc) {
  return TC_RT_CONTRACT_SHAPES + 3 * tc_rt_contract_before(desc, 3);
}
TC_RT_INLINE int64_t tc_rt_contract_size(int64_t rank_a, int64_t rank_b, int64_t rank_c,
                                         int64_t num_labels) {
  return TC_RT_CONTRACT_SHAPES + 3 * (rank_a + rank_b + rank_c) + 1 + num_labels;
}

//===-- tc_rt_load_slice, tc_rt_store_slice ---------------------------------===//
// [rank, extents[rank]]: the whole tensor the array is a slice of.
TC_RT_INLINE int64_t tc_rt_slice_size(int64_t rank) { return TC_RT_SLICE_EXTENTS + rank; }

//===-- tc_rt_gather_cyclic, tc_rt_reduce_cyclic ----------------------------===//
// [rank, dim, modulus, shape[rank]]: the panel of the blocks I = residue (mod
// modulus) of cyclic dimension `dim`, in a buffer of shape `shape`.
TC_RT_INLINE int64_t tc_rt_panel_size(int64_t rank) { return TC_RT_PANEL_SHAPE + rank; }

//===-- tc_rt_block_array ---------------------------------------------------===//
// A block-sparse tensor (Krishnamoorthy et al. section 2): [rank, init,
// on_disk, elem, num_blocks, num_segments[rank], segment lengths (dimension 0's,
// then 1's, ...), then per present block: its segment ids[rank] and its home
// (the rank holding it)]. init is TC_RT_INIT_INPUT (an input file's group,
// or an earlier statement's intermediate), TC_RT_INIT_ZERO or TC_RT_INIT_ONES.
TC_RT_INLINE int64_t tc_rt_blocks_segments(const int64_t *d) {
  return TC_RT_BLOCKS_NUM_SEGMENTS + d[TC_RT_BLOCKS_RANK];
}
TC_RT_INLINE int64_t tc_rt_blocks_list(const int64_t *d) {
  int64_t at = tc_rt_blocks_segments(d);
  for (int64_t i = 0; i < d[TC_RT_BLOCKS_RANK]; ++i)
    at += d[TC_RT_BLOCKS_NUM_SEGMENTS + i];
  return at;
}

//===-- tc_rt_block_stage ---------------------------------------------------===//
// A block-sparse contraction's schedule (Krishnamoorthy et al. sections 5-6):
// [rank_a, rank_b, rank_c, num_tasks, num_stages, num_cached, alpha, labels_a[rank_a],
//  labels_b[rank_b], labels_c[rank_c], then per task: a, b, c (block indices in
//  each tensor's block list), rank, stage, step; then per cached read: stage, tensor
//  (0: A, 1: B), block, rank]. Labels are small integers: a label shared by two
// tensors has the same segments in both. A cached read is a remote brick a
// process holds from an earlier stage: its home does not send it. alpha holds
// the bits of the double scaling every task (C += alpha * A * B).
TC_RT_INLINE int64_t tc_rt_block_plan_tasks(const int64_t *d) {
  return TC_RT_BLOCK_PLAN_LABELS + d[0] + d[1] + d[2];
}
TC_RT_INLINE int64_t tc_rt_block_plan_cached(const int64_t *d) {
  return tc_rt_block_plan_tasks(d) + d[TC_RT_BLOCK_PLAN_NUM_TASKS] * TC_RT_BLOCK_TASK_FIELDS;
}

//===-- The layouts of TC_RT_API_VERSION 11 ---------------------------------===//
// A failing assert here means a layout changed: bump TC_RT_API_VERSION (old
// programs must be refused, not misread), then update the asserts. Version 7
// added the element type to the array, all-reduce and contraction descriptions,
// the array's first-slice grid dimensions and the contraction's steps; version 8
// the calls tc_rt_plan_for_procs and tc_rt_select_procs (no layout changed);
// version 9 the block-sparse descriptions and calls; version 10 the
// contraction's alpha, TC_RT_INIT_ONES and tc_rt_begin_statement (programs of
// several statements with intermediates); version 11 the block schedule's
// alpha (block-sparse programs).
TC_RT_STATIC_ASSERT(TC_RT_API_VERSION == 11,
                    "a new TC_RT_API_VERSION: fix its layouts in the asserts below");
#define TC_RT_LAYOUT(cond)                                                                         \
  TC_RT_STATIC_ASSERT(cond, "a tc runtime descriptor layout changed: bump TC_RT_API_VERSION")
TC_RT_LAYOUT(sizeof(int64_t) == 8);
TC_RT_LAYOUT(TC_RT_DISTRIBUTED == 0 && TC_RT_REPLICATED == 1 && TC_RT_SLAB == 2 &&
             TC_RT_GATHERED == 3);
TC_RT_LAYOUT(TC_RT_INIT_INPUT == 0 && TC_RT_INIT_ZERO == 1 && TC_RT_INIT_ROOT_INPUT == 2 &&
             TC_RT_INIT_ONES == 3);
TC_RT_LAYOUT(TC_RT_F64 == 0 && TC_RT_F32 == 1);
TC_RT_LAYOUT(TC_RT_RESULT_OUTPUT == 0 && TC_RT_RESULT_FILE == 1 && TC_RT_RESULT_MEMORY == 2);
TC_RT_LAYOUT(TC_RT_ARRAY_RANK == 0 && TC_RT_ARRAY_KIND == 1 && TC_RT_ARRAY_INIT == 2 &&
             TC_RT_ARRAY_ON_DISK == 3 && TC_RT_ARRAY_ELEM == 4 &&
             TC_RT_ARRAY_FIRST_SLICE == 5 && TC_RT_ARRAY_GRID_RANK == 6 && TC_RT_ARRAY_GRID == 7);
TC_RT_LAYOUT(TC_RT_ARRAY_DIM_EXTENT == 0 && TC_RT_ARRAY_DIM_GRID_DIM == 1 &&
             TC_RT_ARRAY_DIM_SKEW_DIM == 2 && TC_RT_ARRAY_DIM_FILE_DIM == 3 &&
             TC_RT_ARRAY_DIM_SPLIT_DIM == 4 && TC_RT_ARRAY_DIM_CYCLIC == 5 &&
             TC_RT_ARRAY_DIM_FIELDS == 6);
TC_RT_LAYOUT(TC_RT_TILE_RANK == 0 && TC_RT_TILE_ROOT_ONLY == 1 && TC_RT_TILE_SHAPE == 2);
// The compiler builds a shift description from a tile description (the flag
// slot holding the grid dimension) followed by the sub-tile's shape.
TC_RT_LAYOUT((int)TC_RT_SHIFT_RANK == (int)TC_RT_TILE_RANK &&
             (int)TC_RT_SHIFT_GRID_DIM == (int)TC_RT_TILE_ROOT_ONLY &&
             (int)TC_RT_SHIFT_SHAPE == (int)TC_RT_TILE_SHAPE);
TC_RT_LAYOUT(TC_RT_ALLREDUCE_RANK == 0 && TC_RT_ALLREDUCE_ELEM == 1 &&
             TC_RT_ALLREDUCE_SHAPE == 2);
TC_RT_LAYOUT(TC_RT_OPERAND_A == 0 && TC_RT_OPERAND_B == 1 && TC_RT_OPERAND_C == 2);
TC_RT_LAYOUT(TC_RT_CONTRACT_RANK == 0 && TC_RT_CONTRACT_ELEM == 3 &&
             TC_RT_CONTRACT_ALPHA == 4 && TC_RT_CONTRACT_SHAPES == 5);
TC_RT_LAYOUT(TC_RT_SLICE_RANK == 0 && TC_RT_SLICE_EXTENTS == 1);
TC_RT_LAYOUT(TC_RT_PANEL_RANK == 0 && TC_RT_PANEL_DIM == 1 && TC_RT_PANEL_MODULUS == 2 &&
             TC_RT_PANEL_SHAPE == 3);
TC_RT_LAYOUT(TC_RT_BLOCKS_RANK == 0 && TC_RT_BLOCKS_INIT == 1 && TC_RT_BLOCKS_ON_DISK == 2 &&
             TC_RT_BLOCKS_ELEM == 3 && TC_RT_BLOCKS_NUM_BLOCKS == 4 &&
             TC_RT_BLOCKS_NUM_SEGMENTS == 5);
TC_RT_LAYOUT(TC_RT_BLOCK_PLAN_RANK == 0 && TC_RT_BLOCK_PLAN_NUM_TASKS == 3 &&
             TC_RT_BLOCK_PLAN_NUM_STAGES == 4 && TC_RT_BLOCK_PLAN_NUM_CACHED == 5 &&
             TC_RT_BLOCK_PLAN_ALPHA == 6 && TC_RT_BLOCK_PLAN_LABELS == 7);
TC_RT_LAYOUT(TC_RT_BLOCK_CACHED_STAGE == 0 && TC_RT_BLOCK_CACHED_TENSOR == 1 &&
             TC_RT_BLOCK_CACHED_BLOCK == 2 && TC_RT_BLOCK_CACHED_RANK == 3 &&
             TC_RT_BLOCK_CACHED_FIELDS == 4);
TC_RT_LAYOUT(TC_RT_BLOCK_TASK_A == 0 && TC_RT_BLOCK_TASK_B == 1 && TC_RT_BLOCK_TASK_C == 2 &&
             TC_RT_BLOCK_TASK_RANK == 3 && TC_RT_BLOCK_TASK_STAGE == 4 &&
             TC_RT_BLOCK_TASK_STEP == 5 && TC_RT_BLOCK_TASK_FIELDS == 6);
#undef TC_RT_LAYOUT

#ifdef __cplusplus
//===-- C++: encoders and decoders ------------------------------------------===//
// Encoders are plain structs whose encode() gives the int64 sequence to pass
// (the compiler stores it as a constant); decoders are views over a description
// the runtime received. The namespace is the runtime's, tc_rt, like the C
// names: a namespace ::tc would make `tc` ambiguous in compiler code that uses
// mlir::tc.
#include "TC/Layout/ArrayLayout.h"

#include <cassert>
#include <cstddef>
#include <vector>

namespace tc_rt {

using Desc = std::vector<int64_t>;

static_assert(int(TC_RT_DISTRIBUTED) == int(tc_layout::Holding::Distributed) &&
                  int(TC_RT_REPLICATED) == int(tc_layout::Holding::Replicated) &&
                  int(TC_RT_SLAB) == int(tc_layout::Holding::Slab) &&
                  int(TC_RT_GATHERED) == int(tc_layout::Holding::Gathered),
              "tc_rt_kind is the layout library's Holding");

namespace detail {
inline Desc slice(const int64_t *d, int64_t at, int64_t n) { return Desc(d + at, d + at + n); }
inline void append(Desc &out, const Desc &v) { out.insert(out.end(), v.begin(), v.end()); }
inline bool allBelow(const Desc &v, size_t n) {
  for (int64_t x : v)
    if (x < 0 || x >= static_cast<int64_t>(n))
      return false;
  return true;
}
inline int64_t product(const Desc &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}
/// A field's value from its int64 slot, and back: enums and integers as they
/// are, bool as 0 or 1, double as its IEEE bits.
template <typename T>
T decode(int64_t v) {
  return static_cast<T>(v);
}
template <>
inline bool decode<bool>(int64_t v) {
  return v != 0;
}
template <>
inline double decode<double>(int64_t v) {
  double x;
  memcpy(&x, &v, sizeof x);
  return x;
}
template <typename T>
int64_t encode(T v) {
  return static_cast<int64_t>(v);
}
inline int64_t encode(bool v) { return v ? 1 : 0; }
inline int64_t encode(double v) { return tc_rt_contract_alpha_bits(v); }
} // namespace detail

/// <Record>Fields, for every record of DescriptorFields.def: its fixed fields
/// read from a description (`rank()`, `elem()`, ...; `rank(x)` per operand)
/// and written into one (`rank(out, v)`), and `size`, where its variable part
/// starts (the record's length when repeated). The views derive from them;
/// the encoders write through them.
#define TC_RT_RECORD(Record, record, PREFIX)                                                       \
  class Record##Fields {                                                                           \
  public:                                                                                          \
    explicit Record##Fields(const int64_t *desc) : d(desc) {}
#define TC_RT_FIELD(PREFIX, NAME, offset, Type, accessor, doc)                                     \
  Type accessor() const { return detail::decode<Type>(d[offset]); }                                \
  static void accessor(int64_t *out, Type v) { out[offset] = detail::encode(v); }
#define TC_RT_FIELDS(PREFIX, NAME, offset, count, Type, accessor, doc)                             \
  Type accessor(int x) const {                                                                     \
    assert(x >= 0 && x < (count));                                                                 \
    return detail::decode<Type>(d[(offset) + x]);                                                  \
  }                                                                                                \
  static void accessor(int64_t *out, int x, Type v) {                                              \
    assert(x >= 0 && x < (count));                                                                 \
    out[(offset) + x] = detail::encode(v);                                                         \
  }
#define TC_RT_END(PREFIX, NAME, offset)                                                            \
  static constexpr int64_t size = offset;                                                          \
                                                                                                   \
  protected:                                                                                       \
    const int64_t *d;                                                                              \
  };
#include "TC/Runtime/DescriptorFields.def"

//===-- tc_rt_array -----------------------------------------------------------===//

/// An array's description: its layout (include/TC/Layout/ArrayLayout.h, the
/// one the compiler's #tc.layout holds), how it starts and where it lives.
struct ArrayDesc {
  tc_layout::ArrayLayout layout;
  tc_rt_init init = TC_RT_INIT_INPUT;
  bool onDisk = false;
  tc_rt_elem elem = TC_RT_F64;

  Desc encode() const {
    const tc_layout::ArrayLayout &l = layout;
    const size_t n = l.extents.size();
    assert(l.gridDim.size() == n && l.skewDim.size() == n && l.splitDim.size() == n &&
           l.cyclic.size() == n && l.fileDim.size() == n &&
           l.summedFileDim.size() == l.summedExtent.size() && "one entry per dimension");
    Desc d(ArrayFields::size);
    ArrayFields::rank(d.data(), l.rank());
    ArrayFields::kind(d.data(), static_cast<tc_rt_kind>(l.kind));
    ArrayFields::init(d.data(), init);
    ArrayFields::onDisk(d.data(), onDisk);
    ArrayFields::elem(d.data(), elem);
    ArrayFields::firstSlice(d.data(), l.firstSlice);
    ArrayFields::gridRank(d.data(), l.gridRank());
    detail::append(d, l.grid);
    for (int64_t i = 0; i < l.rank(); ++i) {
      int64_t fields[ArrayDimFields::size];
      ArrayDimFields::extent(fields, l.extents[i]);
      ArrayDimFields::gridDim(fields, l.gridDim[i]);
      ArrayDimFields::skewDim(fields, l.skewDim[i]);
      ArrayDimFields::fileDim(fields, l.fileDim[i]);
      ArrayDimFields::splitDim(fields, l.splitDim[i]);
      ArrayDimFields::cyclic(fields, l.cyclic[i]);
      d.insert(d.end(), fields, fields + ArrayDimFields::size);
    }
    assert(static_cast<int64_t>(d.size()) == tc_rt_array_summed(l.rank(), l.gridRank()));
    d.push_back(static_cast<int64_t>(l.summedExtent.size()));
    for (size_t j = 0; j < l.summedExtent.size(); ++j) {
      d.push_back(l.summedFileDim[j]);
      d.push_back(l.summedExtent[j]);
    }
    assert(static_cast<int64_t>(d.size()) == tc_rt_array_size(d.data()));
    return d;
  }
};

class ArrayDescView : public ArrayFields {
public:
  explicit ArrayDescView(const int64_t *desc) : ArrayFields(desc) {}
  Desc grid() const { return detail::slice(d, TC_RT_ARRAY_GRID, gridRank()); }
  int64_t extent(int64_t dim) const { return field(dim).extent(); }
  int64_t gridDim(int64_t dim) const { return field(dim).gridDim(); }
  int64_t skew(int64_t dim) const { return field(dim).skewDim(); }
  int64_t fileDim(int64_t dim) const { return field(dim).fileDim(); }
  int64_t splitDim(int64_t dim) const { return field(dim).splitDim(); }
  int64_t cyclic(int64_t dim) const { return field(dim).cyclic(); }
  /// The extents of every dimension.
  Desc shape() const {
    Desc s;
    for (int64_t i = 0; i < rank(); ++i)
      s.push_back(extent(i));
    return s;
  }
  /// The layout it describes (the runtime checks it with verify()).
  tc_layout::ArrayLayout layout() const {
    tc_layout::ArrayLayout l;
    l.kind = static_cast<tc_layout::Holding>(kind());
    l.grid = grid();
    for (int64_t i = 0; i < rank(); ++i) {
      l.extents.push_back(extent(i));
      l.gridDim.push_back(gridDim(i));
      l.skewDim.push_back(skew(i));
      l.splitDim.push_back(splitDim(i));
      l.cyclic.push_back(cyclic(i));
      l.fileDim.push_back(fileDim(i));
    }
    const int64_t at = tc_rt_array_summed(rank(), gridRank());
    for (int64_t j = 0; j < d[at]; ++j) {
      l.summedFileDim.push_back(d[at + 1 + 2 * j]);
      l.summedExtent.push_back(d[at + 2 + 2 * j]);
    }
    l.firstSlice = firstSlice();
    return l;
  }
  ArrayDesc decode() const { return {layout(), init(), onDisk(), elem()}; }
  /// Number of int64 entries.
  int64_t size() const { return tc_rt_array_size(d); }

private:
  ArrayDimFields field(int64_t dim) const {
    assert(dim >= 0 && dim < rank());
    return ArrayDimFields(d + tc_rt_array_dim(d, dim));
  }
};

//===-- tc_rt_read_tile, tc_rt_write_tile, tc_rt_broadcast_tile --------------===//

struct TileDesc {
  Desc shape;            ///< of the tile buffer
  bool rootOnly = false; ///< tc_rt_read_tile inside accumulation; else false

  Desc encode() const {
    Desc d(TileFields::size);
    TileFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    TileFields::rootOnly(d.data(), rootOnly);
    detail::append(d, shape);
    return d;
  }
};

class TileDescView : public TileFields {
public:
  explicit TileDescView(const int64_t *desc) : TileFields(desc) {}
  int64_t extent(int64_t dim) const { return d[TC_RT_TILE_SHAPE + dim]; }
  Desc shape() const { return detail::slice(d, TC_RT_TILE_SHAPE, rank()); }
  TileDesc decode() const { return {shape(), rootOnly()}; }
  int64_t size() const { return tc_rt_tile_size(rank()); }
};

//===-- tc_rt_shift_tile ------------------------------------------------------===//

struct ShiftTileDesc {
  int64_t gridDim = 0; ///< the grid dimension to shift along
  Desc shape;          ///< of the tile buffer
  Desc subshape;       ///< of the sub-tile that moves

  Desc encode() const {
    assert(shape.size() == subshape.size() && "a sub-tile of another rank");
    Desc d(ShiftTileFields::size);
    ShiftTileFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    ShiftTileFields::gridDim(d.data(), gridDim);
    detail::append(d, shape);
    detail::append(d, subshape);
    return d;
  }
};

class ShiftTileDescView : public ShiftTileFields {
public:
  explicit ShiftTileDescView(const int64_t *desc) : ShiftTileFields(desc) {}
  Desc shape() const { return detail::slice(d, TC_RT_SHIFT_SHAPE, rank()); }
  Desc subshape() const { return detail::slice(d, tc_rt_shift_subshape(d), rank()); }
  ShiftTileDesc decode() const { return {gridDim(), shape(), subshape()}; }
  int64_t size() const { return tc_rt_shift_size(rank()); }
};

//===-- tc_rt_allreduce_tile --------------------------------------------------===//

struct AllReduceTileDesc {
  Desc shape; ///< of the buffer summed over all ranks
  tc_rt_elem elem = TC_RT_F64;

  Desc encode() const {
    Desc d(AllReduceTileFields::size);
    AllReduceTileFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    AllReduceTileFields::elem(d.data(), elem);
    detail::append(d, shape);
    return d;
  }
};

class AllReduceTileDescView : public AllReduceTileFields {
public:
  explicit AllReduceTileDescView(const int64_t *desc) : AllReduceTileFields(desc) {}
  Desc shape() const { return detail::slice(d, TC_RT_ALLREDUCE_SHAPE, rank()); }
  /// Number of elements of the buffer.
  int64_t elements() const { return detail::product(shape()); }
  AllReduceTileDesc decode() const { return {shape(), elem()}; }
  int64_t size() const { return tc_rt_allreduce_size(rank()); }
};

//===-- tc_rt_tile_contract ---------------------------------------------------===//

struct TileContractDesc {
  /// One operand: its buffer's shape, the label id of each dimension and the
  /// step of its sub-tile along each (none: all 1).
  struct Operand {
    Desc shape, labels, steps;
  };
  Operand a, b, c;   ///< C[sub] += A[sub] * B[sub]
  Desc labelExtents; ///< sub-tile extent of each label id
  tc_rt_elem elem = TC_RT_F64;
  double alpha = 1.0; ///< C += alpha * A * B

  const Operand &operand(int x) const {
    return x == TC_RT_OPERAND_A ? a : x == TC_RT_OPERAND_B ? b : c;
  }

  Desc encode() const {
    const Operand *ops[] = {&a, &b, &c};
    Desc d(TileContractFields::size);
    for (int x = 0; x < 3; ++x) {
      assert(ops[x]->shape.size() == ops[x]->labels.size() && "one label per dimension");
      TileContractFields::rank(d.data(), x, static_cast<int64_t>(ops[x]->shape.size()));
    }
    TileContractFields::elem(d.data(), elem);
    TileContractFields::alpha(d.data(), alpha);
    for (const Operand *o : ops)
      detail::append(d, o->shape);
    for (const Operand *o : ops) {
      assert(detail::allBelow(o->labels, labelExtents.size()) && "no such label");
      detail::append(d, o->labels);
    }
    for (const Operand *o : ops) {
      assert((o->steps.empty() || o->steps.size() == o->shape.size()) && "one step per dimension");
      detail::append(d, o->steps.empty() ? Desc(o->shape.size(), 1) : o->steps);
    }
    d.push_back(static_cast<int64_t>(labelExtents.size()));
    detail::append(d, labelExtents);
    return d;
  }
};

class TileContractDescView : public TileContractFields {
public:
  explicit TileContractDescView(const int64_t *desc) : TileContractFields(desc) {}
  Desc shape(int x) const { return detail::slice(d, tc_rt_contract_shape(d, x), rank(x)); }
  Desc labels(int x) const { return detail::slice(d, tc_rt_contract_labels(d, x), rank(x)); }
  Desc steps(int x) const { return detail::slice(d, tc_rt_contract_steps(d, x), rank(x)); }
  /// Where operand x's sub-tile offsets start in the call's offsets.
  int64_t offsetIndex(int x) const { return tc_rt_contract_before(d, x); }
  int64_t numLabels() const { return d[tc_rt_contract_num_labels(d)]; }
  int64_t labelExtent(int64_t label) const { return d[tc_rt_contract_num_labels(d) + 1 + label]; }
  Desc labelExtents() const {
    return detail::slice(d, tc_rt_contract_num_labels(d) + 1, numLabels());
  }
  TileContractDesc decode() const {
    return {{shape(TC_RT_OPERAND_A), labels(TC_RT_OPERAND_A), steps(TC_RT_OPERAND_A)},
            {shape(TC_RT_OPERAND_B), labels(TC_RT_OPERAND_B), steps(TC_RT_OPERAND_B)},
            {shape(TC_RT_OPERAND_C), labels(TC_RT_OPERAND_C), steps(TC_RT_OPERAND_C)},
            labelExtents(), elem(), alpha()};
  }
  int64_t size() const {
    return tc_rt_contract_size(rank(TC_RT_OPERAND_A), rank(TC_RT_OPERAND_B), rank(TC_RT_OPERAND_C),
                               numLabels());
  }
};

//===-- tc_rt_load_slice, tc_rt_store_slice -----------------------------------===//

struct SliceDesc {
  Desc extents; ///< of the whole tensor

  Desc encode() const {
    Desc d(SliceFields::size);
    SliceFields::rank(d.data(), static_cast<int64_t>(extents.size()));
    detail::append(d, extents);
    return d;
  }
};

class SliceDescView : public SliceFields {
public:
  explicit SliceDescView(const int64_t *desc) : SliceFields(desc) {}
  int64_t extent(int64_t dim) const { return d[TC_RT_SLICE_EXTENTS + dim]; }
  Desc shape() const { return detail::slice(d, TC_RT_SLICE_EXTENTS, rank()); }
  SliceDesc decode() const { return {shape()}; }
  int64_t size() const { return tc_rt_slice_size(rank()); }
};

//===-- tc_rt_gather_cyclic, tc_rt_reduce_cyclic ------------------------------===//

struct CyclicPanelDesc {
  int64_t dim = 0;     ///< the cyclic dimension the panel takes blocks of
  int64_t modulus = 1; ///< every modulus-th block (from the call's residue on)
  Desc shape;          ///< of the panel buffer

  Desc encode() const {
    assert(dim >= 0 && dim < static_cast<int64_t>(shape.size()) && "no such dimension");
    Desc d(CyclicPanelFields::size);
    CyclicPanelFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    CyclicPanelFields::dim(d.data(), dim);
    CyclicPanelFields::modulus(d.data(), modulus);
    detail::append(d, shape);
    return d;
  }
};

class CyclicPanelDescView : public CyclicPanelFields {
public:
  explicit CyclicPanelDescView(const int64_t *desc) : CyclicPanelFields(desc) {}
  int64_t extent(int64_t i) const { return d[TC_RT_PANEL_SHAPE + i]; }
  Desc shape() const { return detail::slice(d, TC_RT_PANEL_SHAPE, rank()); }
  CyclicPanelDesc decode() const { return {dim(), modulus(), shape()}; }
  int64_t size() const { return tc_rt_panel_size(rank()); }
};

//===-- tc_rt_block_array -----------------------------------------------------===//

struct BlockArrayDesc {
  int64_t init = TC_RT_INIT_INPUT, onDisk = 0, elem = TC_RT_F64;
  std::vector<Desc> segments; ///< per dimension, the segment lengths
  std::vector<Desc> blocks;   ///< per present block, its segment ids
  Desc homes;                 ///< per present block, the rank holding it

  Desc encode() const {
    assert(blocks.size() == homes.size() && "one home per block");
    Desc d(BlockArrayFields::size);
    BlockArrayFields::rank(d.data(), static_cast<int64_t>(segments.size()));
    BlockArrayFields::init(d.data(), static_cast<tc_rt_init>(init));
    BlockArrayFields::onDisk(d.data(), onDisk != 0);
    BlockArrayFields::elem(d.data(), static_cast<tc_rt_elem>(elem));
    BlockArrayFields::numBlocks(d.data(), static_cast<int64_t>(blocks.size()));
    for (const Desc &s : segments)
      d.push_back(static_cast<int64_t>(s.size()));
    for (const Desc &s : segments)
      detail::append(d, s);
    for (size_t i = 0; i < blocks.size(); ++i) {
      assert(blocks[i].size() == segments.size() && "a segment id per dimension");
      detail::append(d, blocks[i]);
      d.push_back(homes[i]);
    }
    return d;
  }
};

class BlockArrayDescView : public BlockArrayFields {
public:
  explicit BlockArrayDescView(const int64_t *desc) : BlockArrayFields(desc) {}
  Desc segments(int64_t dim) const {
    int64_t at = tc_rt_blocks_segments(d);
    for (int64_t i = 0; i < dim; ++i)
      at += d[TC_RT_BLOCKS_NUM_SEGMENTS + i];
    return detail::slice(d, at, d[TC_RT_BLOCKS_NUM_SEGMENTS + dim]);
  }
  Desc block(int64_t i) const {
    return detail::slice(d, tc_rt_blocks_list(d) + i * (rank() + 1), rank());
  }
  int64_t home(int64_t i) const { return d[tc_rt_blocks_list(d) + i * (rank() + 1) + rank()]; }
  BlockArrayDesc decode() const {
    BlockArrayDesc x{d[TC_RT_BLOCKS_INIT], d[TC_RT_BLOCKS_ON_DISK], d[TC_RT_BLOCKS_ELEM], {}, {},
                     {}};
    for (int64_t i = 0; i < rank(); ++i)
      x.segments.push_back(segments(i));
    for (int64_t i = 0; i < numBlocks(); ++i) {
      x.blocks.push_back(block(i));
      x.homes.push_back(home(i));
    }
    return x;
  }
  int64_t size() const { return tc_rt_blocks_list(d) + numBlocks() * (rank() + 1); }
};

//===-- tc_rt_block_stage -----------------------------------------------------===//

struct BlockTaskEntry {
  int64_t a = 0, b = 0, c = 0, rank = 0, stage = 0, step = 0;
};

/// A read of a remote A (tensor 0) or B (1) block by `rank` in `stage` that
/// the rank's cache serves.
struct BlockCachedRead {
  int64_t stage = 0, tensor = 0, block = 0, rank = 0;
};

struct BlockPlanDesc {
  Desc labels[3]; ///< per operand (TC_RT_OPERAND_A, _B, _C)
  std::vector<BlockTaskEntry> tasks;
  int64_t stages = 1;
  std::vector<BlockCachedRead> cached;
  double alpha = 1.0; ///< C += alpha * A * B, every task

  Desc encode() const {
    Desc d(BlockPlanFields::size);
    for (int x = 0; x < 3; ++x)
      BlockPlanFields::rank(d.data(), x, static_cast<int64_t>(labels[x].size()));
    BlockPlanFields::numTasks(d.data(), static_cast<int64_t>(tasks.size()));
    BlockPlanFields::numStages(d.data(), stages);
    BlockPlanFields::numCached(d.data(), static_cast<int64_t>(cached.size()));
    BlockPlanFields::alpha(d.data(), alpha);
    for (const Desc &l : labels)
      detail::append(d, l);
    for (const BlockTaskEntry &t : tasks) {
      assert(t.stage >= 0 && t.stage < stages && "a task in no stage");
      int64_t fields[BlockTaskFields::size];
      BlockTaskFields::a(fields, t.a);
      BlockTaskFields::b(fields, t.b);
      BlockTaskFields::c(fields, t.c);
      BlockTaskFields::rank(fields, t.rank);
      BlockTaskFields::stage(fields, t.stage);
      BlockTaskFields::step(fields, t.step);
      d.insert(d.end(), fields, fields + BlockTaskFields::size);
    }
    for (const BlockCachedRead &c : cached) {
      int64_t fields[BlockCachedFields::size];
      BlockCachedFields::stage(fields, c.stage);
      BlockCachedFields::tensor(fields, c.tensor);
      BlockCachedFields::block(fields, c.block);
      BlockCachedFields::rank(fields, c.rank);
      d.insert(d.end(), fields, fields + BlockCachedFields::size);
    }
    return d;
  }
};

class BlockPlanDescView : public BlockPlanFields {
public:
  explicit BlockPlanDescView(const int64_t *desc) : BlockPlanFields(desc) {}
  Desc labels(int x) const {
    int64_t at = TC_RT_BLOCK_PLAN_LABELS;
    for (int y = 0; y < x; ++y)
      at += rank(y);
    return detail::slice(d, at, rank(x));
  }
  BlockTaskEntry task(int64_t i) const {
    BlockTaskFields t(d + tc_rt_block_plan_tasks(d) + i * BlockTaskFields::size);
    return {t.a(), t.b(), t.c(), t.rank(), t.stage(), t.step()};
  }
  BlockCachedRead cachedRead(int64_t i) const {
    BlockCachedFields c(d + tc_rt_block_plan_cached(d) + i * BlockCachedFields::size);
    return {c.stage(), c.tensor(), c.block(), c.rank()};
  }
  BlockPlanDesc decode() const {
    BlockPlanDesc x{{labels(0), labels(1), labels(2)}, {}, numStages(), {}, alpha()};
    for (int64_t i = 0; i < numTasks(); ++i)
      x.tasks.push_back(task(i));
    for (int64_t i = 0; i < numCached(); ++i)
      x.cached.push_back(cachedRead(i));
    return x;
  }
  int64_t size() const {
    return tc_rt_block_plan_cached(d) + numCached() * TC_RT_BLOCK_CACHED_FIELDS;
  }
};

} // namespace tc_rt
#endif // __cplusplus

#endif // TC_RUNTIME_DESCRIPTORS_H
