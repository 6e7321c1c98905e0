//===- DistArray.h - one distributed, possibly out-of-core array -*- C++ -*-===//
//
// An array as one process holds it: its block of the computation's view
// (Gao et al. Table 1 distributions, rotation blocks stored pre-skewed so that
// Cannon needs no initial alignment) or its blocks of a block-cyclic dimension
// (ScaLAPACK's layout, Choi, Dongarra, Walker (PUMMA) section 2; notes 3.2),
// stored padded to the largest block in memory (in-core plans) or in a
// per-process scratch file accessed with pread/pwrite at explicit offsets
// (out-of-core plans).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_DISTARRAY_H
#define TC_LIB_RUNTIME_DISTARRAY_H

#include "BufferPool.h"
#include "Context.h"
#include "Element.h"
#include "Runs.h"
#include "TC/Layout/ArrayLayout.h"
#include "TC/Runtime/Runtime.h"

#include <cstdint>
#include <sys/types.h>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tc_rt {

using tc_layout::Holding;

int64_t product(const Shape &s);
using tc_layout::str;

/// An array as this process holds it: its layout (include/TC/Layout/
/// ArrayLayout.h, decoded from the descriptor the compiler encoded from the
/// array's #tc.layout) and the state of holding it.
struct DistArray : tc_layout::ArrayLayout {
  std::string name;
  tc_rt_init init = TC_RT_INIT_INPUT;
  bool onDisk = false;
  tc_rt_elem elem = TC_RT_F64; ///< of its storage, tiles, messages and dataset
  int64_t elemBytes() const { return elementBytes(elem); }
  /// A slice of a larger tensor (a fused program's reduced array): storage index
  /// i of dimension d is tensor index i * (sliceFull[d] / extents[d]) +
  /// sliceShift[d]. Empty: the array is the whole tensor.
  Shape sliceFull, sliceShift;
  /// Tensor index of storage index `i` of dimension `d`.
  int64_t tensorIndex(int d, int64_t i) const {
    if (sliceFull.empty())
      return i;
    return i * (sliceFull[d] / extents[d]) + sliceShift[d];
  }
  /// The tensor's extents in the file's dimension order.
  Shape fileExtents() const {
    return ArrayLayout::fileExtents(sliceFull.empty() ? extents : sliceFull);
  }
  MPI_Comm comm = MPI_COMM_NULL;
  /// This rank is past the grid (ranks product(grid).. are idle: COSMA's idle
  /// ranks, Kwasniewski et al. section 7.1): it has no coordinates (`coords`
  /// is empty), holds a zero-sized block (storeShape all 0) and skips the
  /// calls that act within the grid.
  bool idle = false;
  std::vector<int> coords;
  Shape shifts; ///< shifts done along each grid dimension (tc_rt_shift_array)
  Shape storeShape;
  Buffer<char> memory;        ///< in-memory storage (bytes), unless `external` is set
  void *external = nullptr;   ///< in-memory storage owned by the program
  /// The in-memory storage as elements of T (the array's element type).
  template <typename T = double> T *mem() {
    return static_cast<T *>(external ? external : static_cast<void *>(memory.data()));
  }
  int fd = -1;
  std::string path;
  /// Its layout as the ABI encodes it (ArrayDesc::encode), set when it is
  /// created: what work done once per layout is known by (a loop hands the
  /// same tensors over between the same layouts in every iteration).
  std::vector<int64_t> layoutKey;
  /// layoutKey as layoutNumber numbers it: the same key, the same number.
  int64_t layoutId = -1;
  /// What every rank holds of it, as heldImage numbers it (-1: none), set
  /// when it is created: an array of another layout with the same image
  /// can take its storage as it is (KeptTensors.cpp).
  int64_t image = -1;
  /// A gathered input a loop keeps (keepLoadedInput): kept when its
  /// all-gather has made it whole.
  bool keepOnceGathered = false;
  /// Where the arrays of the descriptor tc_rt_array created it from wait,
  /// released, for that descriptor's next array (reusedArray); null for an
  /// array made otherwise, which release deletes.
  std::vector<std::unique_ptr<DistArray>> *spares = nullptr;

  // The layout's arithmetic (parts, storeRows, subRows, slabRows, isCyclic,
  // splitDimension) is ArrayLayout's; what follows is this process's view.
  int rank() const { return static_cast<int>(extents.size()); }
  /// True if `rank` holds a part of the array: on the grid (below its product)
  /// and on its first slices; the others are idle.
  bool inGrid(int rank) const { return !coordsOf(rank).empty(); }
  /// Grid coordinates of `rank` (row-major, as MPI_Cart_create without
  /// reorder); none (empty) for a rank past the grid or off a first slice.
  std::vector<int> coordsOf(int rank) const;
  /// The coordinates of the replica `rank` takes its elements from when it is
  /// a redistribution's receiver: its own grid coordinates, 0 along the first
  /// slices; none past the grid.
  std::vector<int> replicaCoordsOf(int rank) const;
  /// Start (global) and length of the current block of dim `d` held at grid
  /// coordinates `at` (by default this process's). Not for a cyclic dimension,
  /// which holds no one contiguous block (heldRuns). No coordinates (an idle
  /// rank): an empty block, here and in the accessors below.
  int64_t blockStart(int d, const std::vector<int> &at) const;
  int64_t blockLen(int d, const std::vector<int> &at) const;
  /// Which of the parts(d) blocks of dimension d grid coordinates `at` hold
  /// (their coordinate along d's grid dimension plus the shifts and skew).
  int64_t blockIndex(int d, const std::vector<int> &at) const;
  int64_t blockStart(int d) const { return blockStart(d, coords); }
  int64_t blockLen(int d) const { return blockLen(d, coords); }
  /// The grid dimension of the split dimension (ArrayLayout::splitDimension), or -1.
  int splitGridDim() const;
  /// Start (relative to the block) and length of the sub-block of dim `d` held at
  /// grid coordinates `at`: 0 and blockLen when `d` is not split; balanced
  /// otherwise (lengths differ by at most one, the longer first); empty only
  /// when the block has fewer rows than the group has members.
  int64_t subStart(int d, const std::vector<int> &at) const;
  int64_t subLen(int d, const std::vector<int> &at) const;
  int64_t subStart(int d) const { return subStart(d, coords); }
  int64_t subLen(int d) const { return subLen(d, coords); }
  /// The cyclic coordinate of the blocks of cyclic dim `d` held at `at`: this
  /// coordinate along its grid dimension plus the shifts done (as blockStart).
  int64_t cyclicCoord(int d, const std::vector<int> &at) const;
  /// Real rows of dim `d` in the compute view (storage coordinates) at `at`: the
  /// block's length, or the owned elements of a cyclic dimension (a prefix of
  /// its storage). Tiles are clipped to it.
  int64_t localLen(int d, const std::vector<int> &at) const;
  int64_t localLen(int d) const { return localLen(d, coords); }
  /// Where the elements of dim `d` of a distributed array held at `at` sit:
  /// runs from storage index to global index, ascending (the sub-block of a
  /// split dimension, one run per owned block of a cyclic one; none if empty).
  Runs heldRuns(int d, const std::vector<int> &at) const;
  /// Per dimension, the runs (storage -> global) process `rank` holds of any
  /// kind of array: everything when replicated, its slab of dim 0 when a slab.
  /// A GATHERED array counts as whole unless `loading` (before
  /// tc_rt_allgather_array it holds only its slab, at its place).
  Selection runsOf(int rank, bool loading) const;
  /// Rows [first, second) of dim 0 in the slab of `rank`.
  std::pair<int64_t, int64_t> slabRange(int rank) const;
};

/// A number for the layout of key `key` (ArrayDesc::encode), the same for
/// the same key in this run: caches of work done per pair of layouts look
/// up two numbers instead of comparing two keys.
int64_t layoutNumber(const std::vector<int64_t> &key);

/// Sets `a`'s layoutKey and layoutId from its layout fields (after they change).
void setLayoutKey(DistArray &a);

/// What every rank holds of a distributed or replicated array of `layout` (of
/// key `key`, ArrayDesc::encode) after `shifts`, and where, as a number:
/// two arrays with the same number store the same elements at the same
/// places of their storage on every rank, whatever their layouts say (on one
/// process every layout of a tensor is the whole tensor in some order).
/// Every rank numbers alike. -1 for the other kinds, whose loads fill a slab.
int64_t heldImage(const tc_layout::ArrayLayout &layout, const std::vector<int64_t> &key,
                  const Shape &shifts);

/// The part of a tile at `offsets` (block-relative, compute view) that the
/// process at grid coordinates `at` holds: where it starts in that process's
/// storage, its length, and where it sits in the tile buffer of shape `shape`.
/// Clipped to the block (to the real local rows of a cyclic dimension); for a
/// TC_RT_SLAB array dim 0 is clipped to the slab of this process, for a split
/// array the split dimension to the sub-block at `at`.
struct TilePart {
  Shape storeStart, len, bufStart;
  bool whole = true; ///< covers the buffer
  bool empty() const;
};
TilePart tilePart(const DistArray &a, const Shape &shape, const int64_t *offsets,
                  const std::vector<int> &at);
/// This process's part (none on an idle rank, which has no coordinates).
inline TilePart tilePart(const DistArray &a, const Shape &shape, const int64_t *offsets) {
  return tilePart(a, shape, offsets, a.coords);
}
/// "tile at [..] of shape [..]", for messages.
std::string tileName(const Shape &shape, const int64_t *offsets);

/// Value of element `linear` (row-major in the file's order) of array `name`
/// under --random-inputs SEED: the same on any number of processes.
double randomValue(uint64_t seed, const std::string &name, uint64_t linear);

/// Moves the box `len` between storage (at `storeStart`) and a row-major buffer
/// of shape `bufShape` (at `bufStart`). Counts disk bytes for file storage.
template <typename T>
void transferBox(DistArray &a, bool toBuffer, const Shape &storeStart, const Shape &len, T *buf, const Shape &bufShape, const Shape &bufStart,
                 const std::string &what);
/// transferBox for every box of `sel` (runs from storage to buffer index).
template <typename T>
void transferRuns(DistArray &a, bool toBuffer, const Selection &sel, T *buf,
                  const Shape &bufShape, const std::string &what);

/// Reads or writes `count` elements of storage at element `offset` (chunked
/// collectives); T is the array's element type.
template <typename T>
void storageIO(DistArray &a, bool read, T *data, int64_t offset, int64_t count,
               const std::string &what);

/// Reads or writes `bytes` bytes at byte `offset` of the file `fd` (`path` in
/// errors; `what` names the data), counted in the phase's bytes read or
/// written; a failure (a full disk included) ends the run with a message.
void fileIO(int fd, bool read, void *data, size_t bytes, off_t offset, const std::string &what,
            const std::string &path);

/// A scratch file in `dir` (created if missing) that has no name: however the
/// process ends, the system frees it. -1 with errno set on failure; `path` is
/// the name used where the file system has no O_TMPFILE.
int openScratch(const std::string &dir, const std::string &path);

/// Elements of `elemBytes` bytes in one staging/collective chunk (chunk_bytes,
/// at least 1), or in one of `parts` equal shares of it: an operation that
/// holds two buffers at once gives each half a chunk, so that a process holds
/// at most one chunk beside its tiles (README, "Memory").
int64_t chunkElems(int64_t elemBytes, int64_t parts = 1);
/// Rows of dim 0 of a box with extents `len` that fit in one chunk, or in one
/// of `parts` shares of it (at least 1).
int64_t rowsPerChunk(const Shape &len, int64_t elemBytes, int64_t parts = 1);

/// Calls fn(start, len) on consecutive sub-boxes of the box of extents `ext`,
/// in row-major order and together the whole box, each of at most `limit`
/// (>= 1) elements: the outermost dimensions are walked one index at a time,
/// the first whose inner dimensions fit is cut into runs.
void forEachPiece(const Shape &ext, int64_t limit,
                  const std::function<void(const Shape &, const Shape &)> &fn);

/// Calls fn(data, count) on consecutive chunks of at most `chunkElems` elements
/// of the storage from element `offset` on: in place for memory storage; read
/// into a buffer and written back after fn for file storage (unless readOnly).
template <typename T>
void forEachChunk(DistArray &a, int64_t offset, int64_t count, int64_t chunkElems,
                  bool readOnly, const std::function<void(T *, int64_t)> &fn,
                  const std::string &what);

/// The tc_rt_array description of an array of `kind` with `extents` over `grid`:
/// dimension d split along grid dimension gridDims[d] (-1: whole), its block
/// split again along splitDims[d] (empty or -1: none), or dealt in blocks of
/// cyclic[d] elements round-robin (empty or 0: contiguous blocks), stored in
/// the tensor's order, no skew. For tools and tests; compiled programs get
/// theirs from tc-lower-to-runtime.
std::vector<int64_t> arrayDescription(const Shape &extents, const Shape &grid,
                                      const Shape &gridDims, tc_rt_kind kind, tc_rt_init init,
                                      bool onDisk = false, const Shape &splitDims = {},
                                      const Shape &cyclic = {}, tc_rt_elem elem = TC_RT_F64);

/// Hands `array` to the registry, which frees it with the others.
void registerArray(DistArray *array);
/// Frees every array created so far: closes and removes scratch files (the end of
/// one run of the program, or of a statement). An array tc_rt_array created
/// keeps its layout for reuse by the next array of its descriptor.
void releaseArrays();
/// The list released arrays of the descriptor at `desc` wait in (a loop's
/// statements create the same arrays in every iteration).
std::vector<std::unique_ptr<DistArray>> &spareArraysOf(const int64_t *desc);
/// An array released into `spares` in the layout numbered `layoutId`, with
/// its layout and nothing else (no name, storage, file, coordinates or
/// slice), to fill in; null if none.
DistArray *reusedArray(std::vector<std::unique_ptr<DistArray>> &spares, int64_t layoutId);

/// Loads the initial contents (HDF5 input, random values or zeros).
void loadInitial(DistArray &a);

/// Loads this process's block of a slice from the array's input (fused
/// programs): an intermediate an earlier statement stored, an --input file or
/// random values. True if it read the user's input (a file or random values).
bool loadSlice(DistArray &a);
/// Writes this process's block of a slice into its dataset of the run's output
/// file (or, while the statement's result is an intermediate, of the
/// intermediates file), created on the first call; finishStore closes the
/// dataset.
void storeSlice(DistArray &a);
void finishStore(DistArray &a);

/// In-place element-wise sum over the processes of `comm`, every byte counted:
/// recursive doubling on a power-of-two group, else a ring.
template <typename T> void allreduceOver(T *data, int64_t n, MPI_Comm comm);

/// One BLAS product per element type of the size tile contractions cut
/// theirs into (TileContract.cpp): OpenBLAS's packing memory becomes part of
/// the fixed overhead measured before the program runs.
void warmUpBlas();

/// Writes the array's global contents to the output HDF5 file.
void storeOutput(DistArray &a);

/// A new output file under a temporary name (`path`), created collectively for
/// parallel HDF5; removed if the run fails.
int64_t createOutputFile(std::string &path);
/// Closes it and renames it to --output (collective).
void publishOutputFile(int64_t file, const std::string &path);
/// The run's output file (every output tensor one dataset or group of it),
/// created collectively on first use; closeRunFiles publishes it.
int64_t runOutputFile(std::string &path);
/// The file holding the intermediates statements hand to later ones (parallel
/// HDF5 next to --output, else in --scratch), created collectively on first
/// use and unlinked at once: it has no name while the run uses it.
int64_t intermediatesFile();
/// Where the current statement's result `name` is written
/// (tc_rt_begin_statement): a new rank-local file in memory (the core driver;
/// the earlier one of that name is freed), the intermediates file, or the
/// output file.
struct ResultFile {
  int64_t file = -1;
  std::string path;      ///< for messages
  bool inMemory = false; ///< every rank writes its part into a whole, zero-filled copy
  /// The intermediates file holds an earlier value of the name (X += ... X
  /// ...), overwritten in place: every rank has passed a barrier, done with
  /// reading it, when this is set.
  bool earlier = false;
};
/// Collective.
ResultFile openResultFile(const std::string &name);

/// A new HDF5 file in memory (core driver, no backing store), named after
/// `label`; negative when HDF5 cannot make it.
int64_t memoryFile(const std::string &label);

/// A host's tensors (Embedding.cpp): `file` (an HDF5 image in memory) is the
/// run's open input file of `path`; an output the host takes, and the copy of
/// this rank's rows of its complete in-memory dataset into the host's buffer.
void adoptInputFile(const std::string &path, int64_t file);
bool isHostOutput(const std::string &name);
void copyHostOutput(const std::string &name, int64_t dataset);
/// Creates dataset `name` of `type` and `space` under `location` (the file or
/// a group of it), zero-filled when the result is kept in memory.
int64_t createResultDataset(const ResultFile &result, int64_t location, const std::string &name,
                            int64_t type, int64_t space);
/// The result is written (collective): an intermediate becomes what later
/// statements load under its name, once every rank has written its part.
void resultStored(const std::string &name, const ResultFile &result);
/// The whole intermediate on every rank (collective): each of `elements` of
/// the in-memory `dataset` was written by one rank into its zero-filled copy,
/// so their sum over the ranks is the tensor.
void completeInMemory(int64_t dataset, tc_rt_elem elem, int64_t elements,
                      const std::string &name);
/// The file holding the intermediate `name` an earlier statement stored (this
/// rank's memory file or the intermediates file), `where` naming it for
/// messages; -1 if none did.
int64_t storedIntermediateFile(const std::string &name, std::string &where);
/// Forgets the intermediate `name` an earlier statement stored (freeing its
/// in-memory copy): a later statement keeps a new value elsewhere.
void forgetStoredIntermediate(const std::string &name);
/// Moves `src`'s elements into `dst`'s layout (collective): any two layouts
/// of one tensor, also storing its dimensions in different orders. With
/// `loading`, into the part of `dst` a load fills (a gathered array's slab,
/// which its all-gather completes).
void redistributeArray(DistArray &src, DistArray &dst, bool loading = false);
/// The end of a run (collective): publishes the output file, closes the
/// intermediates file.
void closeRunFiles();
/// The extents of an HDF5 dataset (none: a scalar).
Shape extentsOf(int64_t dataset);
/// The input file at `path`, read-only, opened on first use and kept open for
/// the run (closeRunFiles); the caller closes the reference it gets. -1 if
/// it cannot be opened.
int64_t openInputFile(const std::string &path);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_DISTARRAY_H
