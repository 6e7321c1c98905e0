//===- Descriptors.h - the compiler/runtime ABI of tc -----------*- C -*-===//
//
// The static descriptions a compiled tc program passes to its runtime
// (include/TC/Runtime/Runtime.h), declared once for both sides: the compiler
// encodes them (tc-lower-to-runtime emits them as int64 constants), the runtime
// decodes them. A description is a flat array of int64_t: fixed fields, then
// variable parts whose lengths the fields before them give.
//
// Rule: any change to a layout, to an enum value or to a tc_rt_* signature
// bumps TC_RT_API_VERSION. A program records the version it was compiled for
// and calls tc_rt_check_abi(TC_RT_API_VERSION) first; an old program then stops
// with a message instead of misreading a description.
//
// Every layout is declared once, in DescriptorFields.def. From it, the C part
// (plain C11) gets the fixed fields' offsets and a position helper per
// variable part; the C++ part gets typed accessors and checked writers per
// record (tc_rt::<Record>Fields), on which the encoders (structs of named
// fields -> std::vector<int64_t>) and the views (decoders over const int64_t *)
// are built. docs/RuntimeABI.md describes the contract; its layout table is
// generated from the same declaration.
//
//===----------------------------------------------------------------------===//
#ifndef TC_RUNTIME_DESCRIPTORS_H
#define TC_RUNTIME_DESCRIPTORS_H

#include <stdint.h>
#include <string.h>

/// The version of the descriptor layouts and of the tc_rt_* calls.
#define TC_RT_API_VERSION 17

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
/// or every rank's memory (replicated, when the plan left room for it); with
/// TC_RT_RESULT_RECIPROCAL added, the values stored are the element-wise
/// reciprocals of the statement's result (`X = 1 / (...)`); with
/// TC_RT_KEEP_INPUTS added, the inputs the statement loads from the user's
/// files are kept in memory for later loads (a loop reads them once).
enum tc_rt_result {
  TC_RT_RESULT_OUTPUT = 0,
  TC_RT_RESULT_FILE = 1,
  TC_RT_RESULT_MEMORY = 2,
  TC_RT_RESULT_RECIPROCAL = 4,
  TC_RT_KEEP_INPUTS = 8
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
#define TC_RT_END(record, PREFIX, NAME, offset)                                                    \
  TC_RT_##PREFIX##_##NAME = offset                                                                 \
  }                                                                                                \
  ;
#include "TC/Runtime/DescriptorFields.def"

/// The operands of the descriptions with an entry per operand (tile
/// contraction, block schedule): C += A * B.
enum tc_rt_operand { TC_RT_OPERAND_A = 0, TC_RT_OPERAND_B = 1, TC_RT_OPERAND_C = 2 };

/// Where each variable part sits, from DescriptorFields.def:
/// tc_rt_<record>_<part>(d, x) is where member x of the part starts (a count
/// part, one entry, has no x), tc_rt_<record>_<part>_count(d) its number of
/// members, tc_rt_<record>_<part>_end(d) where it ends, and
/// tc_rt_<record>_size(d) the description's number of entries. For example
/// tc_rt_contract_labels(d, TC_RT_OPERAND_B) is where B's labels start and
/// tc_rt_array_dims(d, 2) where dimension 2's record starts.
#define TC_RT_END(record, PREFIX, NAME, offset)                                                    \
  TC_RT_INLINE int64_t tc_rt_##record##_fixed_end(const int64_t *d) {                              \
    (void)d;                                                                                       \
    return offset;                                                                                 \
  }
#define TC_RT_COUNT(record, part, accessor, prev, doc)                                             \
  TC_RT_INLINE int64_t tc_rt_##record##_##part(const int64_t *d) {                                 \
    return tc_rt_##record##_##prev##_end(d);                                                       \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_end(const int64_t *d) {                           \
    return tc_rt_##record##_##part(d) + 1;                                                         \
  }
/// Members of one width: member x at x * width.
#define TC_RT_STRIDED(record, part, prev, count, width)                                            \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_count(const int64_t *d) {                         \
    (void)d;                                                                                       \
    return (count);                                                                                \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_width(const int64_t *d) {                         \
    (void)d;                                                                                       \
    return (width);                                                                                \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part(const int64_t *d, int64_t x) {                      \
    return tc_rt_##record##_##prev##_end(d) + x * tc_rt_##record##_##part##_width(d);              \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_end(const int64_t *d) {                           \
    return tc_rt_##record##_##part(d, tc_rt_##record##_##part##_count(d));                         \
  }
#define TC_RT_LIST(record, part, accessor, prev, count, doc)                                       \
  TC_RT_STRIDED(record, part, prev, count, 1)
#define TC_RT_RECORDS(record, part, accessor, prev, count, Member, width, doc)                     \
  TC_RT_STRIDED(record, part, prev, count, width)
#define TC_RT_ENTRIES(record, part, accessor, prev, count, width, doc)                             \
  TC_RT_STRIDED(record, part, prev, count, width)
/// Lists of their own lengths: list x after the lists before it.
#define TC_RT_LISTS(record, part, accessor, prev, count, length, doc)                              \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_count(const int64_t *d) {                         \
    (void)d;                                                                                       \
    return (count);                                                                                \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_length(const int64_t *d, int64_t x) {             \
    (void)d;                                                                                       \
    (void)x;                                                                                       \
    return (length);                                                                               \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part(const int64_t *d, int64_t x) {                      \
    int64_t at = tc_rt_##record##_##prev##_end(d);                                                 \
    for (int64_t y = 0; y < x; ++y)                                                                \
      at += tc_rt_##record##_##part##_length(d, y);                                                \
    return at;                                                                                     \
  }                                                                                                \
  TC_RT_INLINE int64_t tc_rt_##record##_##part##_end(const int64_t *d) {                           \
    return tc_rt_##record##_##part(d, tc_rt_##record##_##part##_count(d));                         \
  }
#define TC_RT_SIZE(record, last)                                                                   \
  TC_RT_INLINE int64_t tc_rt_##record##_size(const int64_t *d) {                                   \
    return tc_rt_##record##_##last##_end(d);                                                       \
  }
#include "TC/Runtime/DescriptorFields.def"
#undef TC_RT_STRIDED

/// The tile contraction's alpha: the bits of an IEEE double (C += alpha * A * B).
TC_RT_INLINE double tc_rt_contract_alpha(const int64_t *desc) {
  double alpha;
  memcpy(&alpha, &desc[TC_RT_CONTRACT_ALPHA], sizeof alpha);
  return alpha;
}

//===-- The layouts of TC_RT_API_VERSION 11 ---------------------------------===//
// A failing assert here means a fixed field moved: bump TC_RT_API_VERSION (old
// programs must be refused, not misread), then update the asserts. The order
// of the variable parts is pinned by DescriptorsTest's literal descriptions. Version 7
// added the element type to the array, all-reduce and contraction descriptions,
// the array's first-slice grid dimensions and the contraction's steps; version 8
// the calls tc_rt_plan_for_procs and tc_rt_select_procs (no layout changed);
// version 9 the block-sparse descriptions and calls; version 10 the
// contraction's alpha, TC_RT_INIT_ONES and tc_rt_begin_statement (programs of
// several statements with intermediates); version 11 the block schedule's
// alpha (block-sparse programs); version 12 the calls tc_rt_begin_iteration
// and tc_rt_end_iteration (programs with loops) and TC_RT_RESULT_RECIPROCAL;
// version 13 tc_rt_begin_iteration's carried tensors and DIIS length;
// version 14 TC_RT_KEEP_INPUTS (intermediates now stay distributed: the
// runtime's, no layout changed); version 15 tc_rt_alloc_storage (D47);
// version 16 the block array's spin restriction (its flip); version 17 the
// block array's pair symmetries and the block schedule's permuted, signed
// reads.
TC_RT_STATIC_ASSERT(TC_RT_API_VERSION == 17,
                    "a new TC_RT_API_VERSION: fix its layouts in the asserts below");
#define TC_RT_LAYOUT(cond)                                                                         \
  TC_RT_STATIC_ASSERT(cond, "a tc runtime descriptor layout changed: bump TC_RT_API_VERSION")
TC_RT_LAYOUT(sizeof(int64_t) == 8);
TC_RT_LAYOUT(TC_RT_DISTRIBUTED == 0 && TC_RT_REPLICATED == 1 && TC_RT_SLAB == 2 &&
             TC_RT_GATHERED == 3);
TC_RT_LAYOUT(TC_RT_INIT_INPUT == 0 && TC_RT_INIT_ZERO == 1 && TC_RT_INIT_ROOT_INPUT == 2 &&
             TC_RT_INIT_ONES == 3);
TC_RT_LAYOUT(TC_RT_F64 == 0 && TC_RT_F32 == 1);
TC_RT_LAYOUT(TC_RT_RESULT_OUTPUT == 0 && TC_RT_RESULT_FILE == 1 && TC_RT_RESULT_MEMORY == 2 &&
             TC_RT_RESULT_RECIPROCAL == 4 && TC_RT_KEEP_INPUTS == 8);
TC_RT_LAYOUT(TC_RT_ARRAY_RANK == 0 && TC_RT_ARRAY_KIND == 1 && TC_RT_ARRAY_INIT == 2 &&
             TC_RT_ARRAY_ON_DISK == 3 && TC_RT_ARRAY_ELEM == 4 &&
             TC_RT_ARRAY_FIRST_SLICE == 5 && TC_RT_ARRAY_GRID_RANK == 6 && TC_RT_ARRAY_GRID == 7);
TC_RT_LAYOUT(TC_RT_ARRAY_DIM_EXTENT == 0 && TC_RT_ARRAY_DIM_GRID_DIM == 1 &&
             TC_RT_ARRAY_DIM_SKEW_DIM == 2 && TC_RT_ARRAY_DIM_FILE_DIM == 3 &&
             TC_RT_ARRAY_DIM_SPLIT_DIM == 4 && TC_RT_ARRAY_DIM_CYCLIC == 5 &&
             TC_RT_ARRAY_DIM_FIELDS == 6);
TC_RT_LAYOUT(TC_RT_SUMMED_DIM_FILE_DIM == 0 && TC_RT_SUMMED_DIM_EXTENT == 1 &&
             TC_RT_SUMMED_DIM_FIELDS == 2);
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
             TC_RT_BLOCKS_RESTRICTED == 5 && TC_RT_BLOCKS_NUM_PAIRS == 6 &&
             TC_RT_BLOCKS_NUM_SEGMENTS == 7);
TC_RT_LAYOUT(TC_RT_BLOCK_PLAN_RANK == 0 && TC_RT_BLOCK_PLAN_NUM_TASKS == 3 &&
             TC_RT_BLOCK_PLAN_NUM_STAGES == 4 && TC_RT_BLOCK_PLAN_NUM_CACHED == 5 &&
             TC_RT_BLOCK_PLAN_ALPHA == 6 && TC_RT_BLOCK_PLAN_NUM_READS == 7 &&
             TC_RT_BLOCK_PLAN_LABELS == 8);
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
#include <cstdio>
#include <cstdlib>
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
/// An encoder that breaks its description's declaration is a bug of tc: it
/// stops, in every build, rather than emit a description the runtime misreads.
inline void require(bool ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "tc: a runtime description encoded against DescriptorFields.def: %s\n", what);
    abort();
  }
}
/// Appends n entries at `at`, which must be where the description ends.
inline int64_t *grow(Desc &out, int64_t at, int64_t n) {
  require(static_cast<int64_t>(out.size()) == at, "a part out of order");
  out.resize(out.size() + n);
  return out.data() + at;
}
inline void put(Desc &out, int64_t at, const Desc &v, int64_t n) {
  require(static_cast<int64_t>(v.size()) == n, "a part of another length than declared");
  int64_t *to = grow(out, at, n);
  for (int64_t i = 0; i < n; ++i)
    to[i] = v[i];
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
inline int64_t encode(double v) {
  int64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}
} // namespace detail

/// <Record>Fields, for every record of DescriptorFields.def: its fields and
/// parts read from a description, and the checked writers an encoder builds
/// one with. Reading: `rank()`, `rank(x)` per operand, a list part whole
/// (`shape()`) or by entry (`shape(i)`), a list of lists by member
/// (`labels(x)`), a record part's member as that record's Fields (`dims(i)`),
/// a count part's value (`numLabels()`), `size()`. Writing: fixed fields into
/// the first `fixedSize` entries (`rank(out, v)`), then each part, in order,
/// appended (`shape(out, v)`, `labels(out, x, v)`, `dims(out, i)` giving the
/// member's slots); `checked(out)` returns the description once complete.
/// Each writer checks its position and length against the declaration.
#define TC_RT_RECORD(Record, record, PREFIX)                                                       \
  class Record##Fields {                                                                           \
  protected:                                                                                       \
    const int64_t *d;                                                                              \
                                                                                                   \
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
#define TC_RT_END(record, PREFIX, NAME, offset) static constexpr int64_t fixedSize = offset;
#define TC_RT_COUNT(record, part, accessor, prev, doc)                                             \
  int64_t accessor() const { return d[tc_rt_##record##_##part(d)]; }                               \
  static void accessor(Desc &out, int64_t v) {                                                     \
    *detail::grow(out, tc_rt_##record##_##part(out.data()), 1) = v;                                \
  }
#define TC_RT_LIST(record, part, accessor, prev, count, doc)                                       \
  Desc accessor() const {                                                                          \
    return detail::slice(d, tc_rt_##record##_##part(d, 0), tc_rt_##record##_##part##_count(d));    \
  }                                                                                                \
  int64_t accessor(int64_t i) const {                                                              \
    assert(i >= 0 && i < tc_rt_##record##_##part##_count(d));                                      \
    return d[tc_rt_##record##_##part(d, i)];                                                       \
  }                                                                                                \
  static void accessor(Desc &out, const Desc &v) {                                                 \
    detail::put(out, tc_rt_##record##_##part(out.data(), 0), v,                                    \
                tc_rt_##record##_##part##_count(out.data()));                                      \
  }
#define TC_RT_RECORDS(record, part, accessor, prev, count, Member, width, doc)                     \
  Member##Fields accessor(int64_t i) const {                                                       \
    assert(i >= 0 && i < tc_rt_##record##_##part##_count(d));                                      \
    return Member##Fields(d + tc_rt_##record##_##part(d, i));                                      \
  }                                                                                                \
  static int64_t *accessor(Desc &out, int64_t i) {                                                 \
    detail::require(i < tc_rt_##record##_##part##_count(out.data()), "more members than counted"); \
    return detail::grow(out, tc_rt_##record##_##part(out.data(), i),                               \
                        tc_rt_##record##_##part##_width(out.data()));                              \
  }
#define TC_RT_ENTRIES(record, part, accessor, prev, count, width, doc)                             \
  Desc accessor(int64_t i) const {                                                                 \
    assert(i >= 0 && i < tc_rt_##record##_##part##_count(d));                                      \
    return detail::slice(d, tc_rt_##record##_##part(d, i), tc_rt_##record##_##part##_width(d));    \
  }                                                                                                \
  static void accessor(Desc &out, int64_t i, const Desc &v) {                                      \
    detail::require(i < tc_rt_##record##_##part##_count(out.data()), "more members than counted"); \
    detail::put(out, tc_rt_##record##_##part(out.data(), i), v,                                    \
                tc_rt_##record##_##part##_width(out.data()));                                      \
  }
#define TC_RT_LISTS(record, part, accessor, prev, count, length, doc)                              \
  Desc accessor(int64_t x) const {                                                                 \
    assert(x >= 0 && x < tc_rt_##record##_##part##_count(d));                                      \
    return detail::slice(d, tc_rt_##record##_##part(d, x),                                         \
                         tc_rt_##record##_##part##_length(d, x));                                  \
  }                                                                                                \
  static void accessor(Desc &out, int64_t x, const Desc &v) {                                      \
    detail::require(x < tc_rt_##record##_##part##_count(out.data()), "more lists than counted");   \
    detail::put(out, tc_rt_##record##_##part(out.data(), x), v,                                    \
                tc_rt_##record##_##part##_length(out.data(), x));                                  \
  }
#define TC_RT_SIZE(record, last)                                                                   \
  int64_t size() const { return tc_rt_##record##_size(d); }                                        \
  static Desc checked(Desc out) {                                                                  \
    detail::require(static_cast<int64_t>(out.size()) == tc_rt_##record##_size(out.data()),         \
                    "a part missing");                                                             \
    return out;                                                                                    \
  }                                                                                                \
  }                                                                                                \
  ;
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
    detail::require(l.gridDim.size() == n && l.skewDim.size() == n && l.splitDim.size() == n &&
                        l.cyclic.size() == n && l.fileDim.size() == n &&
                        l.summedFileDim.size() == l.summedExtent.size(),
                    "a layout without one entry per dimension");
    using F = ArrayFields;
    Desc d(F::fixedSize);
    F::rank(d.data(), l.rank());
    F::kind(d.data(), static_cast<tc_rt_kind>(l.kind));
    F::init(d.data(), init);
    F::onDisk(d.data(), onDisk);
    F::elem(d.data(), elem);
    F::firstSlice(d.data(), l.firstSlice);
    F::gridRank(d.data(), l.gridRank());
    F::grid(d, l.grid);
    for (int64_t i = 0; i < l.rank(); ++i) {
      int64_t *dim = F::dims(d, i);
      ArrayDimFields::extent(dim, l.extents[i]);
      ArrayDimFields::gridDim(dim, l.gridDim[i]);
      ArrayDimFields::skewDim(dim, l.skewDim[i]);
      ArrayDimFields::fileDim(dim, l.fileDim[i]);
      ArrayDimFields::splitDim(dim, l.splitDim[i]);
      ArrayDimFields::cyclic(dim, l.cyclic[i]);
    }
    F::numSummed(d, static_cast<int64_t>(l.summedExtent.size()));
    for (size_t j = 0; j < l.summedExtent.size(); ++j) {
      int64_t *summed = F::summed(d, static_cast<int64_t>(j));
      SummedDimFields::fileDim(summed, l.summedFileDim[j]);
      SummedDimFields::extent(summed, l.summedExtent[j]);
    }
    return F::checked(std::move(d));
  }
};

class ArrayDescView : public ArrayFields {
public:
  explicit ArrayDescView(const int64_t *desc) : ArrayFields(desc) {}
  int64_t extent(int64_t dim) const { return dims(dim).extent(); }
  int64_t gridDim(int64_t dim) const { return dims(dim).gridDim(); }
  int64_t skew(int64_t dim) const { return dims(dim).skewDim(); }
  int64_t fileDim(int64_t dim) const { return dims(dim).fileDim(); }
  int64_t splitDim(int64_t dim) const { return dims(dim).splitDim(); }
  int64_t cyclic(int64_t dim) const { return dims(dim).cyclic(); }
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
      ArrayDimFields dim = dims(i);
      l.extents.push_back(dim.extent());
      l.gridDim.push_back(dim.gridDim());
      l.skewDim.push_back(dim.skewDim());
      l.splitDim.push_back(dim.splitDim());
      l.cyclic.push_back(dim.cyclic());
      l.fileDim.push_back(dim.fileDim());
    }
    for (int64_t j = 0; j < numSummed(); ++j) {
      l.summedFileDim.push_back(summed(j).fileDim());
      l.summedExtent.push_back(summed(j).extent());
    }
    l.firstSlice = firstSlice();
    return l;
  }
  ArrayDesc decode() const { return {layout(), init(), onDisk(), elem()}; }
};

//===-- tc_rt_read_tile, tc_rt_write_tile, tc_rt_broadcast_tile --------------===//

struct TileDesc {
  Desc shape;            ///< of the tile buffer
  bool rootOnly = false; ///< tc_rt_read_tile inside accumulation; else false

  Desc encode() const {
    Desc d(TileFields::fixedSize);
    TileFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    TileFields::rootOnly(d.data(), rootOnly);
    TileFields::shape(d, shape);
    return TileFields::checked(std::move(d));
  }
};

class TileDescView : public TileFields {
public:
  explicit TileDescView(const int64_t *desc) : TileFields(desc) {}
  int64_t extent(int64_t dim) const { return shape(dim); }
  TileDesc decode() const { return {shape(), rootOnly()}; }
};

//===-- tc_rt_shift_tile ------------------------------------------------------===//

struct ShiftTileDesc {
  int64_t gridDim = 0; ///< the grid dimension to shift along
  Desc shape;          ///< of the tile buffer
  Desc subshape;       ///< of the sub-tile that moves

  Desc encode() const {
    Desc d(ShiftTileFields::fixedSize);
    ShiftTileFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    ShiftTileFields::gridDim(d.data(), gridDim);
    ShiftTileFields::shape(d, shape);
    ShiftTileFields::subshape(d, subshape);
    return ShiftTileFields::checked(std::move(d));
  }
};

class ShiftTileDescView : public ShiftTileFields {
public:
  explicit ShiftTileDescView(const int64_t *desc) : ShiftTileFields(desc) {}
  ShiftTileDesc decode() const { return {gridDim(), shape(), subshape()}; }
};

//===-- tc_rt_allreduce_tile --------------------------------------------------===//

struct AllReduceTileDesc {
  Desc shape; ///< of the buffer summed over all ranks
  tc_rt_elem elem = TC_RT_F64;

  Desc encode() const {
    Desc d(AllReduceTileFields::fixedSize);
    AllReduceTileFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    AllReduceTileFields::elem(d.data(), elem);
    AllReduceTileFields::shape(d, shape);
    return AllReduceTileFields::checked(std::move(d));
  }
};

class AllReduceTileDescView : public AllReduceTileFields {
public:
  explicit AllReduceTileDescView(const int64_t *desc) : AllReduceTileFields(desc) {}
  /// Number of elements of the buffer.
  int64_t elements() const { return detail::product(shape()); }
  AllReduceTileDesc decode() const { return {shape(), elem()}; }
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
    using F = TileContractFields;
    const Operand *ops[] = {&a, &b, &c};
    Desc d(F::fixedSize);
    for (int x = 0; x < 3; ++x)
      F::rank(d.data(), x, static_cast<int64_t>(ops[x]->shape.size()));
    F::elem(d.data(), elem);
    F::alpha(d.data(), alpha);
    for (int x = 0; x < 3; ++x)
      F::shape(d, x, ops[x]->shape);
    for (int x = 0; x < 3; ++x) {
      assert(detail::allBelow(ops[x]->labels, labelExtents.size()) && "no such label");
      F::labels(d, x, ops[x]->labels);
    }
    for (int x = 0; x < 3; ++x)
      F::steps(d, x, ops[x]->steps.empty() ? Desc(ops[x]->shape.size(), 1) : ops[x]->steps);
    F::numLabels(d, static_cast<int64_t>(labelExtents.size()));
    F::labelExtents(d, labelExtents);
    return F::checked(std::move(d));
  }
};

class TileContractDescView : public TileContractFields {
public:
  explicit TileContractDescView(const int64_t *desc) : TileContractFields(desc) {}
  /// Where operand x's sub-tile offsets start in the call's offsets: after
  /// those of the operands before it.
  int64_t offsetIndex(int x) const {
    return tc_rt_contract_shape(d, x) - tc_rt_contract_shape(d, TC_RT_OPERAND_A);
  }
  int64_t labelExtent(int64_t label) const { return labelExtents(label); }
  TileContractDesc decode() const {
    return {{shape(TC_RT_OPERAND_A), labels(TC_RT_OPERAND_A), steps(TC_RT_OPERAND_A)},
            {shape(TC_RT_OPERAND_B), labels(TC_RT_OPERAND_B), steps(TC_RT_OPERAND_B)},
            {shape(TC_RT_OPERAND_C), labels(TC_RT_OPERAND_C), steps(TC_RT_OPERAND_C)},
            labelExtents(), elem(), alpha()};
  }
};

//===-- tc_rt_load_slice, tc_rt_store_slice -----------------------------------===//

struct SliceDesc {
  Desc extents; ///< of the whole tensor

  Desc encode() const {
    Desc d(SliceFields::fixedSize);
    SliceFields::rank(d.data(), static_cast<int64_t>(extents.size()));
    SliceFields::extents(d, extents);
    return SliceFields::checked(std::move(d));
  }
};

class SliceDescView : public SliceFields {
public:
  explicit SliceDescView(const int64_t *desc) : SliceFields(desc) {}
  int64_t extent(int64_t dim) const { return extents(dim); }
  Desc shape() const { return extents(); }
  SliceDesc decode() const { return {extents()}; }
};

//===-- tc_rt_gather_cyclic, tc_rt_reduce_cyclic ------------------------------===//

struct CyclicPanelDesc {
  int64_t dim = 0;     ///< the cyclic dimension the panel takes blocks of
  int64_t modulus = 1; ///< every modulus-th block (from the call's residue on)
  Desc shape;          ///< of the panel buffer

  Desc encode() const {
    assert(dim >= 0 && dim < static_cast<int64_t>(shape.size()) && "no such dimension");
    Desc d(CyclicPanelFields::fixedSize);
    CyclicPanelFields::rank(d.data(), static_cast<int64_t>(shape.size()));
    CyclicPanelFields::dim(d.data(), dim);
    CyclicPanelFields::modulus(d.data(), modulus);
    CyclicPanelFields::shape(d, shape);
    return CyclicPanelFields::checked(std::move(d));
  }
};

class CyclicPanelDescView : public CyclicPanelFields {
public:
  explicit CyclicPanelDescView(const int64_t *desc) : CyclicPanelFields(desc) {}
  int64_t extent(int64_t i) const { return shape(i); }
  CyclicPanelDesc decode() const { return {dim(), modulus(), shape()}; }
};

//===-- tc_rt_block_array -----------------------------------------------------===//

struct BlockArrayDesc {
  int64_t init = TC_RT_INIT_INPUT, onDisk = 0, elem = TC_RT_F64;
  std::vector<Desc> segments; ///< per dimension, the segment lengths
  std::vector<Desc> blocks;   ///< per stored block, its segment ids
  Desc homes;                 ///< per stored block, the rank holding it
  std::vector<Desc> flip;     ///< restricted only: per dimension, each segment's partner
  std::vector<Desc> pairs;    ///< per pair symmetry: first, second, antisymmetric (1 or 0)

  Desc encode() const {
    using F = BlockArrayFields;
    assert(blocks.size() == homes.size() && "one home per block");
    const int64_t rank = static_cast<int64_t>(segments.size());
    Desc d(F::fixedSize);
    F::rank(d.data(), rank);
    F::init(d.data(), static_cast<tc_rt_init>(init));
    F::onDisk(d.data(), onDisk != 0);
    F::elem(d.data(), static_cast<tc_rt_elem>(elem));
    F::numBlocks(d.data(), static_cast<int64_t>(blocks.size()));
    F::restricted(d.data(), !flip.empty());
    F::numPairs(d.data(), static_cast<int64_t>(pairs.size()));
    Desc counts;
    for (const Desc &s : segments)
      counts.push_back(static_cast<int64_t>(s.size()));
    F::numSegments(d, counts);
    for (int64_t i = 0; i < rank; ++i)
      F::segments(d, i, segments[i]);
    for (size_t i = 0; i < blocks.size(); ++i) {
      Desc entry = blocks[i];
      entry.push_back(homes[i]);
      F::blocks(d, static_cast<int64_t>(i), entry);
    }
    assert((flip.empty() || static_cast<int64_t>(flip.size()) == rank) && "a flip per dimension");
    for (size_t i = 0; i < flip.size(); ++i)
      F::flip(d, static_cast<int64_t>(i), flip[i]);
    for (size_t i = 0; i < pairs.size(); ++i)
      F::pairs(d, static_cast<int64_t>(i), pairs[i]);
    return F::checked(std::move(d));
  }
};

class BlockArrayDescView : public BlockArrayFields {
public:
  explicit BlockArrayDescView(const int64_t *desc) : BlockArrayFields(desc) {}
  /// Block i's segment ids (its entry without the home).
  Desc block(int64_t i) const {
    Desc ids = blocks(i);
    ids.pop_back();
    return ids;
  }
  int64_t home(int64_t i) const { return d[tc_rt_block_array_blocks(d, i) + rank()]; }
  BlockArrayDesc decode() const {
    BlockArrayDesc x{
        d[TC_RT_BLOCKS_INIT], d[TC_RT_BLOCKS_ON_DISK], d[TC_RT_BLOCKS_ELEM], {}, {}, {}, {}, {}};
    for (int64_t i = 0; i < rank(); ++i)
      x.segments.push_back(segments(i));
    for (int64_t i = 0; i < numBlocks(); ++i) {
      x.blocks.push_back(block(i));
      x.homes.push_back(home(i));
    }
    for (int64_t i = 0; restricted() && i < rank(); ++i)
      x.flip.push_back(flip(i));
    for (int64_t i = 0; i < numPairs(); ++i)
      x.pairs.push_back(pairs(i));
    return x;
  }
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

/// How task `task` reads its A and B blocks from their stored blocks: the
/// stored block's dimension d carries the operand's dimension aDims[d]
/// (bDims[d]), and the product is multiplied by `factor` (the reads' signs,
/// times 2 per summed pair counted once for its exchange).
struct BlockRead {
  int64_t task = 0;
  Desc aDims, bDims;
  int64_t factor = 1;
};

struct BlockPlanDesc {
  Desc labels[3]; ///< per operand (TC_RT_OPERAND_A, _B, _C)
  std::vector<BlockTaskEntry> tasks;
  int64_t stages = 1;
  std::vector<BlockCachedRead> cached;
  double alpha = 1.0; ///< C += alpha * A * B, every task
  std::vector<BlockRead> reads; ///< the tasks not reading their blocks as stored

  Desc encode() const {
    using F = BlockPlanFields;
    Desc d(F::fixedSize);
    for (int x = 0; x < 3; ++x)
      F::rank(d.data(), x, static_cast<int64_t>(labels[x].size()));
    F::numTasks(d.data(), static_cast<int64_t>(tasks.size()));
    F::numStages(d.data(), stages);
    F::numCached(d.data(), static_cast<int64_t>(cached.size()));
    F::alpha(d.data(), alpha);
    F::numReads(d.data(), static_cast<int64_t>(reads.size()));
    for (int x = 0; x < 3; ++x)
      F::labels(d, x, labels[x]);
    for (size_t i = 0; i < tasks.size(); ++i) {
      const BlockTaskEntry &t = tasks[i];
      assert(t.stage >= 0 && t.stage < stages && "a task in no stage");
      int64_t *task = F::tasks(d, static_cast<int64_t>(i));
      BlockTaskFields::a(task, t.a);
      BlockTaskFields::b(task, t.b);
      BlockTaskFields::c(task, t.c);
      BlockTaskFields::rank(task, t.rank);
      BlockTaskFields::stage(task, t.stage);
      BlockTaskFields::step(task, t.step);
    }
    for (size_t i = 0; i < cached.size(); ++i) {
      int64_t *read = F::cached(d, static_cast<int64_t>(i));
      BlockCachedFields::stage(read, cached[i].stage);
      BlockCachedFields::tensor(read, cached[i].tensor);
      BlockCachedFields::block(read, cached[i].block);
      BlockCachedFields::rank(read, cached[i].rank);
    }
    for (size_t i = 0; i < reads.size(); ++i) {
      const BlockRead &r = reads[i];
      assert(r.aDims.size() == labels[0].size() && r.bDims.size() == labels[1].size() &&
             "a read names every dimension of A and B");
      Desc entry{r.task};
      entry.insert(entry.end(), r.aDims.begin(), r.aDims.end());
      entry.insert(entry.end(), r.bDims.begin(), r.bDims.end());
      entry.push_back(r.factor);
      F::reads(d, static_cast<int64_t>(i), entry);
    }
    return F::checked(std::move(d));
  }
};

class BlockPlanDescView : public BlockPlanFields {
public:
  explicit BlockPlanDescView(const int64_t *desc) : BlockPlanFields(desc) {}
  BlockTaskEntry task(int64_t i) const {
    BlockTaskFields t = tasks(i);
    return {t.a(), t.b(), t.c(), t.rank(), t.stage(), t.step()};
  }
  BlockCachedRead cachedRead(int64_t i) const {
    BlockCachedFields c = cached(i);
    return {c.stage(), c.tensor(), c.block(), c.rank()};
  }
  BlockRead read(int64_t i) const {
    const Desc entry = reads(i);
    const auto ra = static_cast<std::ptrdiff_t>(rank(0)), rb = static_cast<std::ptrdiff_t>(rank(1));
    return {entry[0], Desc(entry.begin() + 1, entry.begin() + 1 + ra),
            Desc(entry.begin() + 1 + ra, entry.begin() + 1 + ra + rb), entry[1 + ra + rb]};
  }
  BlockPlanDesc decode() const {
    BlockPlanDesc x{{labels(0), labels(1), labels(2)}, {}, numStages(), {}, alpha(), {}};
    for (int64_t i = 0; i < numTasks(); ++i)
      x.tasks.push_back(task(i));
    for (int64_t i = 0; i < numCached(); ++i)
      x.cached.push_back(cachedRead(i));
    for (int64_t i = 0; i < numReads(); ++i)
      x.reads.push_back(read(i));
    return x;
  }
};

} // namespace tc_rt
#endif // __cplusplus

#endif // TC_RUNTIME_DESCRIPTORS_H
