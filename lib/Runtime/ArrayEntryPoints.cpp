//===- ArrayEntryPoints.cpp - tc_rt_array and the tile I/O calls ----------===//
//
// The C entry points of arrays (include/TC/Runtime/Runtime.h): creating one
// from its descriptor (checked), reading and writing tiles, a process's grid
// coordinates.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace tc_rt {

std::vector<int64_t> arrayDescription(const Shape &extents, const Shape &grid,
                                      const Shape &gridDims, tc_rt_kind kind, tc_rt_init init,
                                      bool onDisk, const Shape &splitDims, const Shape &cyclic,
                                      tc_rt_elem elem) {
  ArrayDesc desc{kind, init, onDisk, grid, {}};
  desc.elem = elem;
  for (size_t d = 0; d < extents.size(); ++d)
    desc.dims.push_back({extents[d], gridDims[d], /*skewDim=*/-1, static_cast<int64_t>(d),
                         splitDims.empty() ? -1 : splitDims[d], cyclic.empty() ? 0 : cyclic[d]});
  return desc.encode();
}

} // namespace tc_rt

using namespace tc_rt;

namespace {

/// The rules of TC_RT_ARRAY_DIM_SPLIT_DIM: a distributed array, at most one
/// split dimension, itself split along a grid dimension, its split grid
/// dimension a grid dimension that no dimension is split or skewed along (the
/// processes along it share one block of the compute view).
void checkSplit(const DistArray &a) {
  int split = -1;
  const int g = static_cast<int>(a.grid.size());
  for (int d = 0; d < a.rank(); ++d) {
    int64_t s = a.splitDim[d];
    if (s == -1)
      continue;
    std::string where = "dimension " + std::to_string(d) + " of array '" + a.name + "'";
    if (s < 0 || s >= g)
      fail(where + " is split along grid dimension " + std::to_string(s) + " but the grid " +
           str(a.grid) + " has " + std::to_string(g) + " dimensions");
    if (a.kind != TC_RT_DISTRIBUTED)
      fail(where + " has a split dimension but the array is not distributed (kind " +
           std::to_string(a.kind) + ")");
    if (a.gridDim[d] < 0)
      fail(where + " has a split dimension (grid dimension " + std::to_string(s) +
           ") but is not itself split along a grid dimension");
    if (split >= 0)
      fail("array '" + a.name + "' has two split dimensions, " + std::to_string(split) + " and " +
           std::to_string(d) + " (at most one)");
    split = d;
    for (int e = 0; e < a.rank(); ++e) {
      if (a.gridDim[e] == s)
        fail(where + " is split again along grid dimension " + std::to_string(s) +
             ", which dimension " + std::to_string(e) + " is split along");
      if (a.skewDim[e] == s)
        fail(where + " is split again along grid dimension " + std::to_string(s) +
             ", which skews dimension " + std::to_string(e));
    }
  }
}

/// The rules of TC_RT_ARRAY_DIM_CYCLIC: a block size >= 1 on a dimension of a
/// distributed array split along a grid dimension; no skew and no split
/// dimension in the array (their block arithmetic assumes contiguous blocks).
void checkCyclic(const DistArray &a) {
  for (int d = 0; d < a.rank(); ++d) {
    int64_t nb = a.cyclic[d];
    if (nb == 0)
      continue;
    std::string where = "dimension " + std::to_string(d) + " of array '" + a.name + "'";
    if (nb < 0)
      fail(where + " has a negative cyclic block size " + std::to_string(nb));
    if (a.kind != TC_RT_DISTRIBUTED)
      fail(where + " is block-cyclic but the array is not distributed (kind " +
           std::to_string(a.kind) + ")");
    if (a.gridDim[d] < 0)
      fail(where + " is block-cyclic (block size " + std::to_string(nb) +
           ") but not split along a grid dimension");
    for (int e = 0; e < a.rank(); ++e) {
      if (a.skewDim[e] >= 0)
        fail("array '" + a.name + "' has a block-cyclic dimension (" + std::to_string(d) +
             ") and a skewed one (" + std::to_string(e) + "): cyclic arrays have no skew");
      if (a.splitDim[e] >= 0)
        fail("array '" + a.name + "' has a block-cyclic dimension (" + std::to_string(d) +
             ") and a split one (" + std::to_string(e) +
             "): cyclic arrays have no split dimension");
    }
  }
}

} // namespace

extern "C" void *tc_rt_array(const int64_t *desc, const char *name, void *storage) {
  tc_rt::TraceScope trace("tc_rt_array");
  setPhase(Load);
  auto *a = new DistArray;
  registerArray(a);
  a->name = name;
  ArrayDescView view(desc);
  int d = static_cast<int>(view.rank());
  a->kind = view.kind();
  a->init = view.init();
  a->onDisk = view.onDisk();
  a->elem = view.elem();
  a->firstSlice = view.firstSlice();
  if (a->elem != TC_RT_F64 && a->elem != TC_RT_F32)
    fail("array '" + a->name + "': unknown element type " + std::to_string(a->elem));
  int g = static_cast<int>(view.gridRank());
  a->grid = view.grid();
  for (int i = 0; i < d; ++i) {
    a->extents.push_back(view.extent(i));
    a->gridDim.push_back(view.gridDim(i));
    a->skewDim.push_back(view.skew(i));
    a->fileDim.push_back(view.fileDim(i));
    a->splitDim.push_back(view.splitDim(i));
    a->cyclic.push_back(view.cyclic(i));
  }
  for (const tc_rt::SummedDim &s : view.summed()) {
    a->summedFileDim.push_back(s.fileDim);
    a->summedExtent.push_back(s.extent);
  }
  if (!a->summedExtent.empty() && a->init == TC_RT_INIT_ZERO)
    fail("array '" + a->name + "' sums dimensions of an input but is not loaded from one");
  checkSplit(*a);
  checkCyclic(*a);
  // A grid of fewer processes than the run leaves the others idle (COSMA,
  // Kwasniewski et al. section 7.1): only a distributed array has blocks they
  // can do without.
  if (a->firstSlice != 0) {
    if (a->kind != TC_RT_DISTRIBUTED || a->firstSlice < 0 || a->firstSlice >= (int64_t(1) << g))
      fail("array '" + a->name + "': first-slice mask " + std::to_string(a->firstSlice) +
           " (a distributed array on grid " + str(a->grid) +
           " may be held by the processes "
           "at coordinate 0 of some of its dimensions)");
    for (int i = 0; i < d; ++i)
      if (a->gridDim[i] >= 0 && (a->firstSlice >> a->gridDim[i]) & 1)
        fail("array '" + a->name + "': dimension " + std::to_string(i) +
             " is split along grid dimension " + std::to_string(a->gridDim[i]) +
             ", which holds it on its first slice only");
  }
  if (product(a->grid) < ctx().size && a->kind != TC_RT_DISTRIBUTED)
    fail("array '" + a->name + "' of kind " + std::to_string(a->kind) + " is on the grid " +
         str(a->grid) + " of " + std::to_string(product(a->grid)) + " processes, but the run has " +
         std::to_string(ctx().size) + ": only distributed arrays leave ranks idle");
  a->comm = gridComm(a->grid);
  a->coords = a->coordsOf(ctx().rank); // none past the grid or off a first slice
  a->idle = a->coords.empty();
  a->shifts.assign(g, 0);
  // The padded block (the same on every process of the grid); an idle rank's
  // block is empty.
  Shape padded;
  for (int i = 0; i < d; ++i)
    padded.push_back(a->storeRows(i));
  a->storeShape = a->idle ? Shape(d, 0) : padded;
  int64_t bytes = product(a->storeShape) * a->elemBytes();
  if (a->idle) {
    if (storage) // the program's buffer of the padded block: reads as zeros
      std::memset(storage, 0, product(padded) * a->elemBytes());
    a->external = storage;
  } else if (a->onDisk) {
    Context &c = ctx();
    // Numbered: one tensor may have several arrays (its redistributions).
    static int arrays = 0;
    a->path = c.options.scratch + "/tc-" + std::to_string(c.jobId) + "-" +
              std::to_string(arrays++) + "-" + a->name + "-r" + std::to_string(c.rank) + ".bin";
    a->fd = openScratch(c.options.scratch, a->path);
    if (a->fd < 0)
      fail("cannot create scratch file " + a->path + " for array '" + a->name +
           "': " + std::strerror(errno) + " (choose a writable --scratch directory)");
    // A sparse file of zeros: padding and zero-initialized arrays cost no I/O.
    if (::ftruncate(a->fd, bytes) != 0)
      fail("cannot size scratch file " + a->path + " to " + std::to_string(bytes) +
           " bytes: " + std::strerror(errno));
  } else if (storage) {
    a->external = storage; // the program's tile buffer: zero padding included
    std::memset(storage, 0, bytes);
  } else {
    a->memory.resize(bytes);
    std::memset(a->memory.data(), 0, bytes);
  }
  loadInitial(*a);
  trimPool(); // the load's staging chunks (BufferPool.h)
  // Ranks finish loading at different times; the wait belongs to the load phase,
  // and so does reading its peak RSS (before the barrier, off the compute clock).
  ctx().counters[Load].peakRss = rssBytes("VmHWM:");
  MPI_Barrier(MPI_COMM_WORLD);
  setPhase(Compute, /*sampleRss=*/false);
  return a;
}

extern "C" void tc_rt_read_tile(void *array, void *buf, const int64_t *desc,
                                const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_read_tile");
  DistArray &a = *static_cast<DistArray *>(array);
  TileDescView tile(desc);
  Shape shape = tile.shape();
  if (buf == a.mem<void>() && !a.onDisk)
    return; // the tile is the array's storage (in-core plans)
  const size_t bytes = product(shape) * a.elemBytes();
  TilePart t = tilePart(a, shape, offsets);
  if (!t.whole)
    std::memset(buf, 0, bytes);
  withElement(a.elem, [&](auto zero) {
    using T = decltype(zero);
    transferBox(a, true, t.storeStart, t.len, static_cast<T *>(buf), shape, t.bufStart,
                tileName(shape, offsets));
  });
  if (tile.rootOnly() && ctx().rank != 0) // inside accumulation: one rank carries C's old value
    std::memset(buf, 0, bytes);
}

extern "C" void tc_rt_write_tile(void *array, void *buf, const int64_t *desc,
                                 const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_write_tile");
  DistArray &a = *static_cast<DistArray *>(array);
  Shape shape = TileDescView(desc).shape();
  if (buf == a.mem<void>() && !a.onDisk) {
    reportProgress();
    return;
  }
  TilePart t = tilePart(a, shape, offsets);
  withElement(a.elem, [&](auto zero) {
    using T = decltype(zero);
    transferBox(a, false, t.storeStart, t.len, static_cast<T *>(buf), shape, t.bufStart,
                tileName(shape, offsets));
  });
  reportProgress();
}

extern "C" int64_t tc_rt_grid_coord(void *array, int64_t gridDim) {
  DistArray &a = *static_cast<DistArray *>(array);
  if (gridDim < 0 || gridDim >= static_cast<int64_t>(a.grid.size()))
    fail("tc_rt_grid_coord: array '" + a.name + "' has the grid " + str(a.grid) +
         ", no grid dimension " + std::to_string(gridDim));
  return a.idle ? -1 : a.coords[gridDim];
}
