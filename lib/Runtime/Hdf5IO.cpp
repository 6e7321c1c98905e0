//===- Hdf5IO.cpp - user-facing tensors: HDF5 inputs and outputs ----------===//
//
// Inputs: every rank opens the input file read-only on its own and reads only
// the hyperslab of its block, a bounded chunk of rows at a time, into its
// storage. Outputs: parallel HDF5 (MPI-IO driver), one dataset per array named
// after it, every rank writing its own block with independent writes, into a
// temporary file that rank 0 renames once every rank has finished, so a failed
// run leaves no partial output.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "StridedCopy.h"

#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace tc::rt {
namespace {

/// Global start and length of what this process loads/stores, and where it
/// sits in storage.
struct Box {
  Shape globalStart, len, storeStart;
};

Box ownedBox(const DistArray &a) {
  const int d = a.rank();
  Box b{Shape(d, 0), a.extents, Shape(d, 0)};
  if (a.kind == TC_RT_DISTRIBUTED) {
    for (int i = 0; i < d; ++i) { // its block, or its sub-block of a split dimension
      b.globalStart[i] = a.blockStart(i) + a.subStart(i);
      b.len[i] = a.subLen(i);
    }
  } else if (a.kind == TC_RT_SLAB || a.kind == TC_RT_GATHERED) {
    auto [lo, hi] = a.slabRange(ctx().rank);
    b.globalStart[0] = lo;
    b.len[0] = hi - lo;
    b.storeStart[0] = a.kind == TC_RT_GATHERED ? lo : 0;
  }
  return b;
}

/// Calls fn(chunk box) for consecutive row ranges of `b` (none if it is empty:
/// a block or sub-block past the extent's end).
template <typename Fn> void forEachRowChunk(const Box &b, Fn fn) {
  if (std::any_of(b.len.begin(), b.len.end(), [](int64_t l) { return l <= 0; }))
    return;
  int64_t step = rowsPerChunk(b.len);
  for (int64_t r = 0; r < b.len[0]; r += step) {
    Box c = b;
    c.globalStart[0] += r;
    c.storeStart[0] += r;
    c.len[0] = std::min(step, b.len[0] - r);
    fn(c);
  }
}

/// The hyperslab of a storage-order box in the file's dimension order.
void fileBox(const DistArray &a, const Box &c, std::vector<hsize_t> &start,
             std::vector<hsize_t> &count) {
  start.assign(c.len.size(), 0);
  count.assign(c.len.size(), 0);
  for (size_t d = 0; d < c.len.size(); ++d) {
    start[a.fileDim[d]] = a.tensorIndex(static_cast<int>(d), c.globalStart[d]);
    count[a.fileDim[d]] = c.len[d];
  }
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
  Shape fileLen(len.size());
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

void loadFromHdf5(DistArray &a, const std::string &file, const Box &box) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0)
    fail("cannot open input file " + file + " for array '" + a.name + "'");
  hid_t ds = H5Dopen2(f, a.name.c_str(), H5P_DEFAULT);
  if (ds < 0)
    fail("input file " + file + " has no dataset '" + a.name + "'");
  hid_t space = H5Dget_space(ds);
  int nd = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(std::max(nd, 0));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  Shape got(dims.begin(), dims.end());
  if (got != a.fileExtents())
    fail("dataset '" + a.name + "' in " + file + " has shape " + str(got) +
         " but the program expects " + str(a.fileExtents()));
  std::vector<double> tmp, reordered;
  const bool identity = identityOrder(a);
  forEachRowChunk(box, [&](const Box &c) {
    tmp.resize(product(c.len));
    std::vector<hsize_t> start, count;
    fileBox(a, c, start, count);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
    hid_t mem = H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr);
    if (H5Dread(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, tmp.data()) < 0)
      fail("reading rows " + std::to_string(c.globalStart[0]) + ".." +
           std::to_string(c.globalStart[0] + c.len[0]) + " of dataset '" + a.name +
           "' from " + file + " failed");
    H5Sclose(mem);
    double *rows = tmp.data();
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
  H5Fclose(f);
}

void loadRandom(DistArray &a, const Box &box) {
  std::vector<double> tmp;
  const int d = a.rank();
  // Element numbers in the file's order: the same values whatever the storage order.
  Shape fileStride = rowMajorStrides(a.fileExtents());
  forEachRowChunk(box, [&](const Box &c) {
    tmp.resize(product(c.len));
    Shape idx(d, 0);
    for (size_t n = 0; n < tmp.size(); ++n) {
      uint64_t linear = 0;
      for (int i = 0; i < d; ++i)
        linear += a.tensorIndex(i, c.globalStart[i] + idx[i]) * fileStride[a.fileDim[i]];
      tmp[n] = randomValue(ctx().options.seed, a.name, linear);
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
  if (a.kind == TC_RT_REPLICATED || a.kind == TC_RT_GATHERED)
    return ctx().rank == 0;
  if (a.kind == TC_RT_SLAB)
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
  if (a.init == TC_RT_INIT_ZERO || (a.init == TC_RT_INIT_ROOT_INPUT && c.rank != 0))
    return;
  loadSlice(a);
}

void loadSlice(DistArray &a) {
  Context &c = ctx();
  Box box = ownedBox(a);
  auto in = c.options.inputs.find(a.name);
  if (in != c.options.inputs.end())
    loadFromHdf5(a, in->second, box);
  else if (c.options.randomInputs)
    loadRandom(a, box);
  else
    fail("no input for array '" + a.name + "': pass --input " + a.name +
         "=file.h5 or --random-inputs SEED");
}

namespace {

/// An output file being written: a temporary name until every rank is done.
struct OutputFile {
  hid_t file = -1, dataset = -1, space = -1;
  std::string path;
};

std::map<const DistArray *, OutputFile> &openOutputs() {
  static std::map<const DistArray *, OutputFile> outputs;
  return outputs;
}

/// The output file of `a`, created (collectively) on first use.
OutputFile &outputOf(DistArray &a) {
  Context &c = ctx();
  auto it = openOutputs().find(&a);
  if (it != openOutputs().end())
    return it->second;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  OutputFile out;
  out.path = c.options.output + ".tmp-" + std::to_string(c.jobId);
  c.partialOutput = out.path;
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  out.file = H5Fcreate(out.path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (out.file < 0)
    fail("cannot create output file " + out.path + " (for " + c.options.output + ")");
  auto dims = hs(a.fileExtents());
  out.space = H5Screate_simple(a.rank(), dims.data(), nullptr);
  out.dataset = H5Dcreate2(out.file, a.name.c_str(), H5T_NATIVE_DOUBLE, out.space,
                           H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (out.dataset < 0)
    fail("cannot create dataset '" + a.name + "' in " + out.path);
  return openOutputs()[&a] = out;
}

/// Writes this process's block (if it is the copy that writes) at the array's
/// place in the tensor.
void writeOwnBlock(DistArray &a, OutputFile &out) {
  if (!writesOwnBlock(a))
    return;
  std::vector<double> tmp, reordered;
  const bool identity = identityOrder(a);
  forEachRowChunk(ownedBox(a), [&](const Box &ch) {
    tmp.resize(product(ch.len));
    transferBox(a, true, ch.storeStart, ch.len, tmp.data(), ch.len,
                Shape(ch.len.size(), 0), "output rows");
    if (!identity) { // storage order -> file order
      reordered.resize(tmp.size());
      copyStrided(reordered.data(), fileOrderStrides(a, ch.len), tmp.data(),
                  rowMajorStrides(ch.len), ch.len);
      tmp.swap(reordered);
    }
    std::vector<hsize_t> start, count;
    fileBox(a, ch, start, count);
    H5Sselect_hyperslab(out.space, H5S_SELECT_SET, start.data(), nullptr, count.data(),
                        nullptr);
    hid_t mem = H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr);
    if (H5Dwrite(out.dataset, H5T_NATIVE_DOUBLE, mem, out.space, H5P_DEFAULT, tmp.data()) < 0)
      fail("writing rows " + std::to_string(ch.globalStart[0]) + ".." +
           std::to_string(ch.globalStart[0] + ch.len[0]) + " of '" + a.name + "' to " +
           out.path + " failed");
    H5Sclose(mem);
  });
}

} // namespace

void storeSlice(DistArray &a) {
  if (ctx().options.output.empty())
    return;
  writeOwnBlock(a, outputOf(a));
}

void finishStore(DistArray &a) {
  Context &c = ctx();
  if (c.options.output.empty())
    return;
  OutputFile out = outputOf(a);
  openOutputs().erase(&a);
  H5Sclose(out.space);
  H5Dclose(out.dataset);
  if (H5Fclose(out.file) < 0)
    fail("closing output file " + out.path + " failed");
  MPI_Barrier(MPI_COMM_WORLD);
  if (c.rank == 0 && std::rename(out.path.c_str(), c.options.output.c_str()) != 0)
    fail("cannot rename " + out.path + " to " + c.options.output);
  MPI_Barrier(MPI_COMM_WORLD); // the output is in place on return, on every rank
  c.partialOutput.clear();
}

void storeOutput(DistArray &a) {
  storeSlice(a);
  finishStore(a);
}

} // namespace tc::rt

extern "C" void tc_rt_store(void *array) {
  tc::rt::TraceScope trace("tc_rt_store");
  using namespace tc::rt;
  setPhase(Store);
  storeOutput(*static_cast<DistArray *>(array));
  setPhase(Idle);
}
