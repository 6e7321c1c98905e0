//===- Hdf5IO.cpp - user-facing tensors: HDF5 inputs and outputs ----------===//
//
// Inputs: every rank opens the input file read-only on its own and reads only
// the hyperslab of its block, a bounded chunk of rows at a time, into its
// storage. The blocks of a block-cyclic dimension are one strided hyperslab
// (start c nb, stride G nb, block nb), OR-ed with the partial ones. Outputs:
// parallel HDF5 (MPI-IO driver), one dataset per array named after it, every
// rank writing its own block(s) with independent writes, into a temporary file
// that rank 0 renames once every rank has finished, so a failed run leaves no
// partial output. Ranks a grid leaves idle hold no block: they read and write
// nothing, but take part in creating and closing the file.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "KeptBlocks.h"
#include "KeptTensors.h"
#include "StridedCopy.h"

#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

namespace tc_rt {
namespace {

/// What this process loads/stores (or a chunk of it): per dimension the runs
/// from storage to global index, and the storage box they fill (the runs of a
/// dimension are contiguous in storage: a block, a slab, or the prefix of a
/// cyclic dimension's owned blocks).
struct Box {
  Selection runs;
  Shape storeStart, len;
  explicit Box(Selection sel) : runs(std::move(sel)) {
    for (const Runs &r : runs) {
      storeStart.push_back(r.empty() ? 0 : r.front().from);
      len.push_back(total(r));
    }
  }
  /// "rows a..b" (global, of dim 0), for messages.
  std::string rows() const {
    if (runs.empty())
      return "the scalar";
    const Runs &r = runs[0];
    return "rows " + std::to_string(r.front().to) + ".." +
           std::to_string(r.back().to + r.back().len);
  }
};

Selection ownedRuns(const DistArray &a) { return a.runsOf(ctx().rank, /*loading=*/true); }

/// Calls fn(chunk box) for consecutive storage row ranges of dim 0 of `owned`
/// (none if it is empty: a block or sub-block past the extent's end).
template <typename Fn>
void forEachRowChunk(const Selection &owned, int64_t elemBytes, Fn fn) {
  if (elements(owned) == 0)
    return;
  if (owned.empty()) // a scalar: one element, one chunk
    return fn(Box(owned));
  Shape len = lengths(owned);
  int64_t step = rowsPerChunk(len, elemBytes);
  for (int64_t r = 0; r < len[0]; r += step) {
    Selection c = owned;
    c[0] = packedRange(owned[0], r, r + step);
    fn(Box(c));
  }
}

/// Runs of dim `d` from storage to tensor (file) index: a slice's storage index
/// i is tensor index i f + shift, f = sliceFull / extent (unit runs when f > 1).
Runs tensorRuns(const DistArray &a, int d, const Runs &runs) {
  int64_t f = a.sliceFull.empty() ? 1 : a.sliceFull[d] / a.extents[d];
  Runs out;
  for (const Run &r : runs)
    for (int64_t i = 0; i < (f == 1 ? 1 : r.len); ++i)
      out.push_back({r.from + i, a.tensorIndex(d, r.to + i), f == 1 ? r.len : 1});
  return out;
}

/// Selects the box in the file's dataspace: per dimension the regular patterns
/// of its runs (one for a block; the whole blocks of a cyclic dimension as
/// start c nb, stride G nb, block nb, and the partial ones), every combination
/// OR-ed. HDF5 moves a selection in the file's row-major order: the packed box.
/// A dimension summed at load is fixed at its entry of `summedAt`.
void selectInFile(const DistArray &a, const Box &c, hid_t space, const Shape &summedAt = {}) {
  const int d = a.rank();
  const size_t fileRank = d + a.summedExtent.size();
  if (fileRank == 0) { // a scalar dataset: its one element
    H5Sselect_all(space);
    return;
  }
  std::vector<std::vector<Pattern>> pats;
  for (int i = 0; i < d; ++i)
    pats.push_back(patterns(tensorRuns(a, i, c.runs[i])));
  std::vector<hsize_t> start(fileRank, 0), stride(fileRank, 1), count(fileRank, 1),
      block(fileRank, 1);
  for (size_t j = 0; j < summedAt.size(); ++j)
    start[a.summedFileDim[j]] = summedAt[j];
  std::vector<size_t> idx(d, 0);
  H5S_seloper_t op = H5S_SELECT_SET;
  for (;;) {
    for (int i = 0; i < d; ++i) {
      const Pattern &p = pats[i][idx[i]];
      int f = static_cast<int>(a.fileDim[i]);
      start[f] = p.start;
      stride[f] = p.stride;
      count[f] = p.count;
      block[f] = p.block;
    }
    if (H5Sselect_hyperslab(space, op, start.data(), stride.data(), count.data(),
                            block.data()) < 0)
      fail("selecting " + c.rows() + " of array '" + a.name + "' in its dataset failed");
    op = H5S_SELECT_OR;
    int i = d - 1;
    while (i >= 0 && ++idx[i] == pats[i].size())
      idx[i--] = 0;
    if (i < 0)
      return;
  }
}

/// A dataspace of `dims` (a scalar one for none: HDF5's simple dataspaces have
/// at least one dimension).
hid_t dataspaceOf(const std::vector<hsize_t> &dims) {
  return dims.empty() ? H5Screate(H5S_SCALAR)
                      : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
}

/// The packed box in the file's dimension order (the memory space of a read;
/// one index of each dimension summed at load).
std::vector<hsize_t> fileCount(const DistArray &a, const Box &c) {
  std::vector<hsize_t> count(c.len.size() + a.summedExtent.size(), 1);
  for (size_t d = 0; d < c.len.size(); ++d)
    count[a.fileDim[d]] = c.len[d];
  return count;
}

bool identityOrder(const DistArray &a) {
  for (size_t d = 0; d < a.fileDim.size(); ++d)
    if (a.fileDim[d] != static_cast<int64_t>(d))
      return false;
  return true;
}

/// Strides, per storage dimension, of a row-major block in file order whose
/// storage-order extents are `len`.
Shape fileOrderStrides(const DistArray &a, const Shape &len) {
  Shape fileLen(len.size() + a.summedExtent.size(), 1);
  for (size_t d = 0; d < len.size(); ++d)
    fileLen[a.fileDim[d]] = len[d];
  Shape fs = rowMajorStrides(fileLen), out(len.size());
  for (size_t d = 0; d < len.size(); ++d)
    out[d] = fs[a.fileDim[d]];
  return out;
}

uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

} // namespace

double randomValue(uint64_t seed, const std::string &name, uint64_t linear) {
  uint64_t h = 1469598103934665603ull;
  for (char ch : name)
    h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  uint64_t x = splitmix(splitmix(seed ^ h) + linear);
  return static_cast<double>(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

namespace {

std::vector<hsize_t> hs(const Shape &s) { return std::vector<hsize_t>(s.begin(), s.end()); }

/// Calls fn(index) for every index of a box of `extents` (once, with no
/// index, for none).
template <typename Fn> void forEachIndex(const Shape &extents, Fn fn) {
  Shape at(extents.size(), 0);
  for (;;) {
    fn(at);
    int j = static_cast<int>(extents.size()) - 1;
    while (j >= 0 && ++at[j] == extents[j])
      at[j--] = 0;
    if (j < 0)
      return;
  }
}

/// sum = part at the first index of the summed dimensions (all zeros), sum +=
/// part after.
template <typename T>
void addInto(PooledVector<T> &sum, const PooledVector<T> &part, const Shape &at) {
  if (std::all_of(at.begin(), at.end(), [](int64_t x) { return x == 0; })) {
    sum = part;
    return;
  }
  for (size_t n = 0; n < part.size(); ++n)
    sum[n] += part[n];
}

/// The HDF5 memory type of T.
template <typename T> hid_t nativeType() {
  return Element<T>::kind == TC_RT_F32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}

/// "f32", "f64", "int32", ...: a dataset's element type, for messages.
std::string typeName(hid_t type) {
  const size_t bits = 8 * H5Tget_size(type);
  switch (H5Tget_class(type)) {
  case H5T_FLOAT:
    return "f" + std::to_string(bits);
  case H5T_INTEGER:
    return (H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(bits);
  default:
    return "non-numeric";
  }
}

template <typename T>
/// Reads this process's part of `a` from dataset a.name of the open file `f`
/// (`file` names it in messages). The load phase counts the bytes when the
/// file is on disk (a fused program's slices, read as it computes, are not
/// the compute phase's predicted disk traffic).
void loadFromHdf5(DistArray &a, hid_t f, const std::string &file, const Selection &owned,
                  bool onDisk) {
  hid_t ds = H5Dopen2(f, a.name.c_str(), H5P_DEFAULT);
  if (ds < 0)
    fail("input file " + file + " has no dataset '" + a.name + "'");
  hid_t space = H5Dget_space(ds);
  const Shape got = extentsOf(ds);
  if (got != a.fileExtents())
    fail("dataset '" + a.name + "' in " + file + " has shape " + str(got) +
         " but the program expects " + str(a.fileExtents()));
  // The program computes in the tensor's declared type: a dataset of another
  // type would be converted silently (and f64 -> f32 rounded), so it is refused.
  hid_t type = H5Dget_type(ds);
  const std::string gotType = typeName(type);
  H5Tclose(type);
  if (gotType != elementName(a.elem))
    fail("dataset '" + a.name + "' in " + file + " holds " + gotType +
         " elements but the program declares '" + a.name + "' as " + elementName(a.elem) +
         " (store the dataset as " + elementName(a.elem) + ", or declare the tensor " +
         gotType + ")");
  PooledVector<T> tmp, sum, reordered;
  const bool identity = identityOrder(a);
  forEachRowChunk(owned, sizeof(T), [&](const Box &c) {
    tmp.resize(product(c.len));
    std::vector<hsize_t> count = fileCount(a, c);
    hid_t mem = dataspaceOf(count);
    // One read per index of the summed dimensions, added up: memory stays at
    // two chunks however long they are.
    forEachIndex(a.summedExtent, [&](const Shape &at) {
      selectInFile(a, c, space, at);
      if (H5Dread(ds, nativeType<T>(), mem, space, H5P_DEFAULT, tmp.data()) < 0)
        fail("reading " + c.rows() + " of dataset '" + a.name + "' from " + file + " failed");
      if (onDisk && ctx().phase == Load)
        counters().bytesRead += static_cast<double>(tmp.size()) * sizeof(T);
      addInto(sum, tmp, at);
    });
    H5Sclose(mem);
    if (!a.summedExtent.empty())
      tmp.swap(sum);
    T *rows = tmp.data();
    if (!identity) { // file order -> storage order
      reordered.resize(tmp.size());
      copyStrided(reordered.data(), rowMajorStrides(c.len), tmp.data(),
                  fileOrderStrides(a, c.len), c.len);
      rows = reordered.data();
    }
    transferBox(a, false, c.storeStart, c.len, rows, c.len, Shape(c.len.size(), 0),
                "initial rows");
  });
  H5Sclose(space);
  H5Dclose(ds);
}

template <typename T> void loadOnes(DistArray &a, const Selection &owned) {
  // A dimension summed at load (D30) sums that many ones.
  double value = 1;
  for (int64_t e : a.summedExtent)
    value *= static_cast<double>(e);
  PooledVector<T> tmp;
  forEachRowChunk(owned, sizeof(T), [&](const Box &c) {
    tmp.assign(product(c.len), static_cast<T>(value));
    transferBox(a, false, c.storeStart, c.len, tmp.data(), c.len, Shape(a.rank(), 0),
                "initial rows");
  });
}

template <typename T> void loadRandom(DistArray &a, const Selection &owned) {
  PooledVector<T> tmp;
  const int d = a.rank();
  // Element numbers in the file's order: the same values whatever the storage
  // order and the layout.
  Shape fileStride = rowMajorStrides(a.fileExtents());
  forEachRowChunk(owned, sizeof(T), [&](const Box &c) {
    tmp.resize(product(c.len));
    // Per dimension, the linear offset of each packed index.
    std::vector<Shape> offset(d);
    for (int i = 0; i < d; ++i)
      for (const Run &r : c.runs[i])
        for (int64_t x = 0; x < r.len; ++x)
          offset[i].push_back(a.tensorIndex(i, r.to + x) * fileStride[a.fileDim[i]]);
    Shape idx(d, 0);
    for (size_t n = 0; n < tmp.size(); ++n) {
      uint64_t linear = 0;
      for (int i = 0; i < d; ++i)
        linear += offset[i][idx[i]];
      // The sum over the dimensions summed at load (D30).
      double value = 0;
      forEachIndex(a.summedExtent, [&](const Shape &at) {
        uint64_t shifted = linear;
        for (size_t j = 0; j < at.size(); ++j)
          shifted += at[j] * fileStride[a.summedFileDim[j]];
        value += randomValue(ctx().options.seed, a.name, shifted);
      });
      tmp[n] = static_cast<T>(value);
      for (int i = d - 1; i >= 0 && ++idx[i] == c.len[i]; --i)
        idx[i] = 0;
    }
    transferBox(a, false, c.storeStart, c.len, tmp.data(), c.len, Shape(d, 0),
                "initial rows");
  });
}

/// True if this process writes its block: one copy of each block, from the
/// processes at coordinate 0 of every grid dimension the array does not use (a
/// split grid dimension is used: each sub-block has one holder).
bool writesOwnBlock(const DistArray &a) {
  if (a.idle) // past the grid: holds nothing
    return false;
  if (a.kind == Holding::Replicated || a.kind == Holding::Gathered)
    return ctx().rank == 0;
  if (a.kind == Holding::Slab)
    return true;
  for (size_t g = 0; g < a.grid.size(); ++g) {
    auto used = [&](const Shape &dims) {
      return std::find(dims.begin(), dims.end(), static_cast<int64_t>(g)) != dims.end();
    };
    if (a.coords[g] != 0 && !used(a.gridDim) && !used(a.splitDim))
      return false;
  }
  return true;
}

} // namespace

void loadInitial(DistArray &a) {
  Context &c = ctx();
  if (a.init == TC_RT_INIT_ZERO)
    return;
  // An intermediate kept where it was computed is redistributed, by every
  // rank; where only the root carries C's old value (inside accumulation)
  // the others zero what they received. Out of core, the root reads it from
  // its whole copy.
  const bool rootOnly = a.init == TC_RT_INIT_ROOT_INPUT;
  if (a.init != TC_RT_INIT_ONES) {
    if (rootOnly && a.onDisk)
      makeKeptWhole(a.name); // nothing if it is not kept
    else if (handOverKept(a)) {
      if (rootOnly && c.rank != 0)
        std::memset(a.mem<void>(), 0, product(a.storeShape) * a.elemBytes());
      return;
    }
  }
  // Inside accumulation only the root carries C's old value, but a loop that
  // keeps its inputs has every rank load an input's copy once, so that later
  // iterations hand it over instead of reading the file again (D44).
  const bool keepRootInput = rootOnly && a.init != TC_RT_INIT_ONES && keepsLoadedInput(a) &&
                             !c.storedIntermediates.count(a.name);
  if (rootOnly && c.rank != 0 && !keepRootInput)
    return;
  if (a.init == TC_RT_INIT_ONES) {
    Selection owned = ownedRuns(a);
    withElement(a.elem, [&](auto zero) { loadOnes<decltype(zero)>(a, owned); });
    return;
  }
  // An input a statement keeps whole is read whole once; this array's part
  // is a local copy of it (D54).
  if (!rootOnly && !c.storedIntermediates.count(a.name) && keepsInputWhole(a)) {
    keepInputWhole(a);
    if (handOverKept(a))
      return;
  }
  if (loadSlice(a) && (!rootOnly || keepRootInput)) // read once in a loop that keeps its inputs
    keepLoadedInput(a);
  if (rootOnly && c.rank != 0)
    std::memset(a.mem<void>(), 0, product(a.storeShape) * a.elemBytes());
}

bool loadSlice(DistArray &a) {
  Context &c = ctx();
  Selection owned = ownedRuns(a);
  auto in = c.options.inputs.find(a.name);
  std::string kept;
  if (hid_t file = storedIntermediateFile(a.name, kept); file >= 0) {
    withElement(a.elem, [&](auto zero) {
      loadFromHdf5<decltype(zero)>(a, file, kept, owned, kept != "memory");
    });
    return false;
  }
  if (in != c.options.inputs.end()) {
    hid_t f = openInputFile(in->second);
    if (f < 0)
      fail("cannot open input file " + in->second + " for array '" + a.name + "'");
    withElement(a.elem,
                [&](auto zero) { loadFromHdf5<decltype(zero)>(a, f, in->second, owned, true); });
    H5Fclose(f);
  } else if (c.options.randomInputs)
    withElement(a.elem, [&](auto zero) { loadRandom<decltype(zero)>(a, owned); });
  else
    fail("no input for array '" + a.name + "': pass --input " + a.name +
         "=file.h5 or --random-inputs SEED");
  return true;
}

namespace {

/// A dataset being written, in the run's output file or, for a statement's
/// intermediate, in the intermediates file.
struct OpenDataset {
  hid_t dataset = -1, space = -1;
  ResultFile result; ///< its file
};

std::map<const DistArray *, OpenDataset> &openDatasets() {
  static std::map<const DistArray *, OpenDataset> datasets;
  return datasets;
}

} // namespace

/// The run's output file (a temporary name until the run ends) and the
/// intermediates file, created collectively on first use.
struct RunFiles {
  hid_t output = -1, intermediates = -1;
  std::string outputPath;
  std::map<std::string, hid_t> inputs; ///< open input files, by path
};
RunFiles &runFiles() {
  static RunFiles files;
  return files;
}

hid_t openInputFile(const std::string &path) {
  // Every statement (and every iteration of a loop) loads its inputs: the
  // file is opened once per run, its metadata cached by HDF5 from then on.
  RunFiles &f = runFiles();
  auto open = f.inputs.find(path);
  if (open == f.inputs.end()) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
      return -1;
    open = f.inputs.emplace(path, file).first;
  }
  H5Iinc_ref(open->second); // the caller's, closed by its H5Fclose
  return open->second;
}

hid_t memoryFile(const std::string &label) {
  static int64_t created = 0;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  // The image grows in small steps: an intermediate costs its bytes, not a
  // megabyte (the plan counts its bytes, SplitProgram.cpp).
  H5Pset_fapl_core(fapl, 64 << 10, /*backing_store=*/0);
  const std::string id = "tc-memory-" + std::to_string(++created) + "-" + label;
  hid_t file = H5Fcreate(id.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  return file;
}

void adoptInputFile(const std::string &path, int64_t file) {
  RunFiles &f = runFiles();
  if (auto open = f.inputs.find(path); open != f.inputs.end())
    H5Fclose(open->second);
  f.inputs[path] = file;
}

hid_t runOutputFile(std::string &path) {
  RunFiles &f = runFiles();
  if (f.output < 0)
    f.output = createOutputFile(f.outputPath);
  path = f.outputPath;
  return f.output;
}

void completeInMemory(int64_t dataset, tc_rt_elem elem, int64_t elements,
                      const std::string &name) {
  if (elements == 0)
    return;
  hid_t space = H5Dget_space(dataset);
  const Shape dims = extentsOf(dataset);
  withElement(elem, [&](auto zero) {
    using T = decltype(zero);
    // A piece at a time: the piece and the sum's receive buffer take one
    // staging chunk beside the in-memory copy the plan counts.
    std::vector<T> piece;
    forEachPiece(dims, chunkElems(sizeof(T), 2), [&](const Shape &start, const Shape &len) {
      piece.resize(product(len));
      std::vector<hsize_t> at = hs(start), count = hs(len);
      hid_t mem = H5S_ALL, file = H5S_ALL; // a scalar's one element
      if (!dims.empty()) {
        H5Sselect_hyperslab(space, H5S_SELECT_SET, at.data(), nullptr, count.data(), nullptr);
        mem = H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr);
        file = space;
      }
      if (H5Dread(dataset, nativeType<T>(), mem, file, H5P_DEFAULT, piece.data()) < 0)
        fail("reading intermediate '" + name + "' back from memory failed");
      allreduceOver(piece.data(), static_cast<int64_t>(piece.size()), MPI_COMM_WORLD);
      if (H5Dwrite(dataset, nativeType<T>(), mem, file, H5P_DEFAULT, piece.data()) < 0)
        fail("keeping intermediate '" + name + "' in memory failed");
      if (mem != H5S_ALL)
        H5Sclose(mem);
    });
  });
  H5Sclose(space);
}

Shape extentsOf(int64_t dataset) {
  hid_t space = H5Dget_space(dataset);
  std::vector<hsize_t> extent(std::max(H5Sget_simple_extent_ndims(space), 0));
  H5Sget_simple_extent_dims(space, extent.data(), nullptr);
  H5Sclose(space);
  return Shape(extent.begin(), extent.end());
}

int64_t storedIntermediateFile(const std::string &name, std::string &where) {
  Context &c = ctx();
  makeKeptWhole(name); // readers of a stored file take whole copies
  makeKeptBlocksWhole(name);
  auto kept = c.storedIntermediates.find(name);
  if (kept == c.storedIntermediates.end())
    return -1;
  where = kept->second >= 0 ? "memory" : "the intermediates file";
  return kept->second >= 0 ? kept->second : intermediatesFile();
}

namespace {

/// The core driver keeps no backing store: nothing reaches a disk.
hid_t createMemoryFile(const std::string &name) {
  forgetStoredIntermediate(name);
  hid_t file = memoryFile(name);
  if (file < 0)
    fail("cannot keep intermediate '" + name + "' in memory");
  return file;
}

} // namespace

void forgetStoredIntermediate(const std::string &name) {
  Context &c = ctx();
  auto kept = c.storedIntermediates.find(name);
  if (kept == c.storedIntermediates.end())
    return;
  if (kept->second >= 0) // its in-memory copy; the intermediates file stays
    H5Fclose(kept->second);
  c.storedIntermediates.erase(kept);
}

ResultFile openResultFile(const std::string &name) {
  Context &c = ctx();
  forgetKept(name); // a new value, stored in a file
  forgetKeptBlocks(name);
  ResultFile out;
  if (c.storing == TC_RT_RESULT_MEMORY) {
    out.file = createMemoryFile(name);
    out.path = "memory";
    out.inMemory = true;
  } else if (c.storing == TC_RT_RESULT_FILE) {
    out.file = intermediatesFile();
    out.path = "the intermediates file";
    out.earlier = H5Lexists(out.file, name.c_str(), H5P_DEFAULT) > 0;
    if (out.earlier)
      MPI_Barrier(MPI_COMM_WORLD);
  } else if (isHostOutput(name)) { // whole on every rank, then each its rows
    out.file = createMemoryFile(name);
    out.path = "memory";
    out.inMemory = true;
  } else {
    out.file = runOutputFile(out.path);
  }
  return out;
}

hid_t createResultDataset(const ResultFile &result, hid_t location, const std::string &name,
                          hid_t type, hid_t space) {
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (result.inMemory) { // zeros where other ranks' parts go
    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY);
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC);
  }
  hid_t dataset = H5Dcreate2(location, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Pclose(dcpl);
  return dataset;
}

void resultStored(const std::string &name, const ResultFile &result) {
  Context &c = ctx();
  if (!c.storingIntermediate())
    return;
  MPI_Barrier(MPI_COMM_WORLD); // every part written before any is read
  c.storedIntermediates[name] = result.inMemory ? result.file : -1;
}

namespace {

/// The dataset of `a`, created (collectively) on first use: in the output file,
/// or in the intermediates file when the current statement's result is an
/// intermediate (an existing dataset of the name, an earlier value, is
/// overwritten).
OpenDataset &datasetOf(DistArray &a) {
  auto it = openDatasets().find(&a);
  if (it != openDatasets().end())
    return it->second;
  OpenDataset out;
  auto dims = hs(a.fileExtents());
  out.space = dataspaceOf(dims);
  hid_t type = a.elem == TC_RT_F32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  // In memory, this rank's blocks go into a zero-filled copy of the whole
  // tensor, which finishStore completes by an all-reduce.
  out.result = openResultFile(a.name);
  if (out.result.earlier) {
    out.dataset = H5Dopen2(out.result.file, a.name.c_str(), H5P_DEFAULT);
    // Another tensor of the name (a temporary of another part of the
    // program): its dataset goes, and this one's is made.
    hid_t stored = out.dataset < 0 ? -1 : H5Dget_type(out.dataset);
    const bool same =
        out.dataset >= 0 && extentsOf(out.dataset) == a.fileExtents() && H5Tequal(stored, type) > 0;
    if (stored >= 0)
      H5Tclose(stored);
    if (!same) {
      if (out.dataset >= 0)
        H5Dclose(out.dataset);
      if (H5Ldelete(out.result.file, a.name.c_str(), H5P_DEFAULT) < 0)
        fail("cannot replace dataset '" + a.name + "' in " + out.result.path);
      out.result.earlier = false;
    }
  }
  if (!out.result.earlier)
    out.dataset = createResultDataset(out.result, out.result.file, a.name, type, out.space);
  if (out.dataset < 0)
    fail("cannot create dataset '" + a.name + "' in " + out.result.path);
  return openDatasets()[&a] = out;
}

/// Writes this process's block (if it is the copy that writes) at the array's
/// place in the tensor.
template <typename T> void writeOwnBlock(DistArray &a, OpenDataset &out) {
  if (!writesOwnBlock(a))
    return;
  PooledVector<T> tmp, reordered;
  const bool identity = identityOrder(a);
  forEachRowChunk(ownedRuns(a), sizeof(T), [&](const Box &ch) {
    tmp.resize(product(ch.len));
    transferBox(a, true, ch.storeStart, ch.len, tmp.data(), ch.len,
                Shape(ch.len.size(), 0), "output rows");
    if (!identity) { // storage order -> file order
      reordered.resize(tmp.size());
      copyStrided(reordered.data(), fileOrderStrides(a, ch.len), tmp.data(),
                  rowMajorStrides(ch.len), ch.len);
      tmp.swap(reordered);
    }
    // X = 1 / (...): this rank's values inverted (before an in-memory
    // result's all-reduce adds the other ranks' parts to its zeros).
    if (ctx().storingReciprocal)
      invertEach(tmp.data(), static_cast<int64_t>(tmp.size()));
    selectInFile(a, ch, out.space);
    std::vector<hsize_t> count = fileCount(a, ch);
    hid_t mem = dataspaceOf(count);
    if (H5Dwrite(out.dataset, nativeType<T>(), mem, out.space, H5P_DEFAULT, tmp.data()) < 0)
      fail("writing " + ch.rows() + " of '" + a.name + "' to " + out.result.path + " failed");
    H5Sclose(mem);
  });
}

} // namespace

hid_t intermediatesFile() {
  Context &c = ctx();
  RunFiles &f = runFiles();
  if (f.intermediates >= 0)
    return f.intermediates;
  // Next to the output (a file system every rank shares), else in --scratch;
  // rank 0's choice, so that every rank opens one file.
  std::string dir = c.options.scratch;
  if (!c.options.output.empty()) {
    size_t slash = c.options.output.rfind('/');
    dir = slash == std::string::npos ? "." : c.options.output.substr(0, slash + 1);
  }
  std::string path = dir + (dir.empty() || dir.back() == '/' ? "" : "/") +
                     ".tc-intermediates-" + std::to_string(c.jobId) + ".h5";
  int length = static_cast<int>(path.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  path.resize(length);
  MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  f.intermediates = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (f.intermediates < 0)
    fail("cannot create the intermediates file " + path +
         " (every rank must reach it: pass --output, or --scratch, in a directory every "
         "host shares)");
  // Writes are visible to every rank once they return: a later statement
  // reads what other ranks wrote after the store's barrier.
  if (H5Fset_mpi_atomicity(f.intermediates, true) < 0)
    fail("cannot make the intermediates file " + path + " atomic");
  // Every rank has it open: the name goes at once, so however the run ends
  // nothing is left behind.
  MPI_Barrier(MPI_COMM_WORLD);
  if (c.rank == 0)
    std::remove(path.c_str());
  return f.intermediates;
}

void closeRunFiles() {
  Context &c = ctx();
  RunFiles &f = runFiles();
  if (f.output >= 0) {
    publishOutputFile(f.output, f.outputPath);
    f.output = -1;
  }
  if (f.intermediates >= 0) {
    H5Fclose(f.intermediates);
    f.intermediates = -1;
  }
  for (auto &[path, file] : f.inputs)
    H5Fclose(file);
  f.inputs.clear();
  for (auto &[name, memoryFile] : c.storedIntermediates)
    if (memoryFile >= 0)
      H5Fclose(memoryFile);
  c.storedIntermediates.clear();
  releaseKept();
  releaseKeptBlocks();
}

/// Whether a store of `a` writes anywhere: the output file, the host's
/// buffer, or an intermediate's store.
bool storesResult(const DistArray &a) {
  const Context &c = ctx();
  return !c.options.output.empty() || c.storingIntermediate() || isHostOutput(a.name);
}

void storeSlice(DistArray &a) {
  if (!storesResult(a))
    return;
  OpenDataset &out = datasetOf(a);
  withElement(a.elem, [&](auto zero) { writeOwnBlock<decltype(zero)>(a, out); });
}

void finishStore(DistArray &a) {
  Context &c = ctx();
  if (!storesResult(a))
    return;
  OpenDataset out = datasetOf(a);
  openDatasets().erase(&a);
  if (out.result.inMemory) {
    // Storing, not computing, even when a fused program stores slices from
    // inside its compute phase: the all-reduce's bytes are the store's.
    const Phase phase = c.phase;
    setPhase(Store, /*sampleRss=*/false);
    completeInMemory(out.dataset, a.elem, product(a.fileExtents()), a.name);
    setPhase(phase, /*sampleRss=*/false);
  }
  const bool toHost = !c.storingIntermediate() && isHostOutput(a.name);
  if (toHost)
    copyHostOutput(a.name, out.dataset);
  H5Sclose(out.space);
  H5Dclose(out.dataset);
  if (toHost)
    H5Fclose(out.result.file);
  resultStored(a.name, out.result);
}

hid_t createOutputFile(std::string &path) {
  Context &c = ctx();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  path = c.options.output + ".tmp-" + std::to_string(c.jobId);
  c.partialOutput = path;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (file < 0)
    fail("cannot create output file " + path + " (for " + c.options.output + ")");
  return file;
}

void publishOutputFile(hid_t file, const std::string &path) {
  Context &c = ctx();
  if (H5Fclose(file) < 0)
    fail("closing output file " + path + " failed");
  MPI_Barrier(MPI_COMM_WORLD);
  if (c.rank == 0 && std::rename(path.c_str(), c.options.output.c_str()) != 0)
    fail("cannot rename " + path + " to " + c.options.output);
  MPI_Barrier(MPI_COMM_WORLD); // the output is in place on return, on every rank
  c.partialOutput.clear();
}

void storeOutput(DistArray &a) {
  storeSlice(a);
  finishStore(a);
}

} // namespace tc_rt

extern "C" void tc_rt_store(void *array) {
  tc_rt::TraceScope trace("tc_rt_store");
  using namespace tc_rt;
  setPhase(Store);
  DistArray &a = *static_cast<DistArray *>(array);
  if (!keepWhereComputed(a))
    storeOutput(a);
  setPhase(Idle);
}
