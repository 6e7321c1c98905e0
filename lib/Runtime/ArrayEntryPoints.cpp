//===- ArrayEntryPoints.cpp - tc_rt_array and the tile I/O calls ----------===//
//
// The C entry points of arrays (include/TC/Runtime/Runtime.h): creating one
// from its descriptor (checked), reading and writing tiles, a process's grid
// coordinates.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "KeptTensors.h"
#include "MappedInputs.h"

#include <algorithm>
#include <cerrno>
#include <link.h>
#include <cstring>
#include <unistd.h>
#include <unordered_map>

namespace tc_rt {

std::vector<int64_t> arrayDescription(const Shape &extents, const Shape &grid,
                                      const Shape &gridDims, tc_rt_kind kind, tc_rt_init init,
                                      bool onDisk, const Shape &splitDims, const Shape &cyclic,
                                      tc_rt_elem elem) {
  ArrayDesc desc;
  desc.layout = tc_layout::ArrayLayout::whole(static_cast<Holding>(kind), extents, grid);
  desc.layout.gridDim = gridDims;
  if (!splitDims.empty())
    desc.layout.splitDim = splitDims;
  if (!cyclic.empty())
    desc.layout.cyclic = cyclic;
  desc.init = init;
  desc.onDisk = onDisk;
  desc.elem = elem;
  return desc.encode();
}

namespace {

/// An array descriptor's layout, decoded and checked once: a loop's
/// statements create the same arrays in every iteration, from the same
/// constant descriptors (a CCSD iteration, two hundred arrays of a few
/// microseconds' work each at small bases, spent a tenth of its time here).
struct DecodedLayout {
  std::vector<int64_t> desc; ///< the descriptor's words, compared (constantWords)
  /// The descriptor lies in read-only memory (a compiled program's constant):
  /// its words are compared on its first use in a run only (a run's program
  /// stays loaded while it runs).
  bool constantWords = false;
  uint64_t comparedInRun = 0; ///< Context::runNumber of that comparison
  tc_layout::ArrayLayout layout;
  std::string invalid; ///< the layout library's objection; empty: valid
  std::vector<int64_t> key;
  int64_t id = -1;    ///< layoutNumber of the key
  int64_t image = -1; ///< heldImage of the layout
  // This rank's view of a valid layout:
  std::vector<int> coords;     ///< its grid coordinates (none: idle)
  Shape padded;                ///< the padded block (the same on every rank of the grid)
  std::vector<int64_t> fileExtents; ///< the whole tensor's extents in its file's order
  bool loadFillsBlock = false; ///< a distributed or replicated load writes every element of it
  /// The block's first element in the dataset's row-major order when the
  /// block is one contiguous range of the dataset (loadFillsBlock, storage
  /// in the file's order, rows of dimension 0 with the others whole); -1
  /// else. Such a block of an input can be mapped from its file.
  int64_t contiguousFrom = -1;
  /// Released arrays of this descriptor (reusedArray).
  std::vector<std::unique_ptr<DistArray>> *spares = nullptr;
};

/// DecodedLayout::contiguousFrom of a layout whose load fills this rank's
/// block, which holds `owned` (runs from storage to tensor index).
int64_t contiguousFrom(const tc_layout::ArrayLayout &layout, const Selection &owned) {
  const size_t n = layout.extents.size();
  if (n == 0 || owned.size() != n || !layout.summedExtent.empty())
    return -1;
  int64_t rowElements = 1;
  for (size_t d = 0; d < n; ++d) {
    const Runs &r = owned[d];
    if (layout.fileDim[d] != static_cast<int64_t>(d) || r.size() != 1 || r[0].from != 0 ||
        (d > 0 && (r[0].to != 0 || r[0].len != layout.extents[d])))
      return -1;
    if (d > 0)
      rowElements *= layout.extents[d];
  }
  return owned[0][0].to * rowElements;
}

/// True if `address` lies in a read-only segment of a loaded object (its
/// code and constants, or what the dynamic linker protects after relocation).
bool inReadOnlySegment(const void *address) {
  struct Query {
    uintptr_t address;
    bool found = false;
  } query{reinterpret_cast<uintptr_t>(address)};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        Query &q = *static_cast<Query *>(data);
        for (int i = 0; i < info->dlpi_phnum && !q.found; ++i) {
          const ElfW(Phdr) &h = info->dlpi_phdr[i];
          const bool readOnly = (h.p_type == PT_LOAD && !(h.p_flags & PF_W)) ||
                                h.p_type == PT_GNU_RELRO;
          const uintptr_t begin = info->dlpi_addr + h.p_vaddr;
          q.found = readOnly && q.address >= begin && q.address < begin + h.p_memsz;
        }
        return q.found ? 1 : 0;
      },
      &query);
  return query.found;
}

const DecodedLayout &decodedLayout(const int64_t *desc) {
  static std::unordered_map<const int64_t *, DecodedLayout> byAddress;
  // A statement allocates its arrays' storage (tc_rt_alloc_storage), then
  // creates them: the few descriptors asked for last, tried first.
  constexpr int kRecent = 8;
  static std::pair<const int64_t *, DecodedLayout *> recent[kRecent] = {};
  static int next = 0;
  DecodedLayout *found = nullptr;
  for (const auto &[address, decoded] : recent)
    if (address == desc)
      found = decoded;
  if (!found) {
    found = &byAddress[desc];
    recent[next] = {desc, found};
    next = (next + 1) % kRecent;
  }
  DecodedLayout &d = *found;
  const uint64_t run = ctx().runNumber;
  if (d.constantWords && d.comparedInRun == run)
    return d;
  const int64_t size = tc_rt_array_size(desc);
  if (static_cast<int64_t>(d.desc.size()) == size &&
      std::equal(d.desc.begin(), d.desc.end(), desc)) {
    d.comparedInRun = run;
    return d;
  }
  d.desc.assign(desc, desc + size);
  d.constantWords = inReadOnlySegment(desc);
  d.comparedInRun = run;
  d.spares = &spareArraysOf(desc);
  d.spares->clear(); // of another descriptor at this address, if any
  d.layout = ArrayDescView(desc).layout();
  d.invalid = d.layout.verify(); // the rules the compiler verified #tc.layout by
  d.key = ArrayDesc{d.layout}.encode();
  d.id = layoutNumber(d.key);
  // A descriptor at an address seen before with other words: nothing of the
  // old one's stays.
  d.image = -1;
  d.coords.clear();
  d.fileExtents.clear(); // an invalid layout's file dimensions may not index it
  d.loadFillsBlock = false;
  d.contiguousFrom = -1;
  // tc_rt_alloc_storage sizes every layout's block (it runs before
  // tc_rt_array refuses an invalid one).
  d.padded = d.layout.paddedBlock();
  if (!d.invalid.empty())
    return d;
  d.fileExtents = d.layout.fileExtents(d.layout.extents);
  d.image = heldImage(d.layout, d.key, Shape(d.layout.grid.size(), 0));
  DistArray view;
  static_cast<tc_layout::ArrayLayout &>(view) = d.layout;
  view.shifts.assign(d.layout.grid.size(), 0);
  d.coords = view.coordsOf(ctx().rank);
  const Selection owned = view.runsOf(ctx().rank, /*loading=*/true);
  d.loadFillsBlock =
      (d.layout.kind == Holding::Distributed || d.layout.kind == Holding::Replicated ||
       (d.layout.kind == Holding::Gathered && d.layout.procs() == 1)) &&
      !d.coords.empty() && elements(owned) == product(d.padded);
  if (d.loadFillsBlock)
    d.contiguousFrom = contiguousFrom(d.layout, owned);
  return d;
}

} // namespace
} // namespace tc_rt

using namespace tc_rt;

extern "C" void *tc_rt_array(const int64_t *desc, const char *name, void *storage) {
  tc_rt::TraceScope trace("tc_rt_array", name);
  // The phase left is the statement's compute between two of its arrays, or
  // none: the compute's peak RSS is read when it ends, at the store.
  setPhase(Load, /*sampleRss=*/false);
  ArrayDescView view(desc);
  const DecodedLayout &decoded = decodedLayout(desc);
  // An array of this descriptor released by an earlier statement (a loop's)
  // has the layout already.
  DistArray *a = reusedArray(*decoded.spares, decoded.id);
  if (!a) {
    a = new DistArray;
    static_cast<tc_layout::ArrayLayout &>(*a) = decoded.layout;
    a->layoutKey = decoded.key;
    a->layoutId = decoded.id;
    a->image = decoded.image;
    a->spares = decoded.spares;
    if (decoded.invalid.empty())   // refused below otherwise
      a->comm = gridComm(a->grid); // a reused array has its layout's
  }
  registerArray(a);
  a->name = name;
  a->init = view.init();
  a->onDisk = view.onDisk();
  a->elem = view.elem();
  if (a->elem != TC_RT_F64 && a->elem != TC_RT_F32)
    fail("array '" + a->name + "': unknown element type " + std::to_string(a->elem));
  if (!decoded.invalid.empty())
    fail("array '" + a->name + "': " + decoded.invalid);
  if (!a->summedExtent.empty() && a->init == TC_RT_INIT_ZERO)
    fail("array '" + a->name + "' sums dimensions of an input but is not loaded from one");
  // A grid of fewer processes than the run leaves the others idle (COSMA,
  // Kwasniewski et al. section 7.1): only a distributed array has blocks they
  // can do without.
  if (a->procs() < ctx().size && a->kind != Holding::Distributed)
    fail("array '" + a->name + "' of kind " + std::to_string(int(a->kind)) + " is on the grid " +
         str(a->grid) + " of " + std::to_string(a->procs()) + " processes, but the run has " +
         std::to_string(ctx().size) + ": only distributed arrays leave ranks idle");
  const int d = a->rank();
  a->coords = decoded.coords; // none past the grid or off a first slice
  a->idle = a->coords.empty();
  a->shifts.assign(a->grid.size(), 0);
  // The padded block (the same on every process of the grid); an idle rank's
  // block is empty.
  const Shape &padded = decoded.padded;
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
  } else {
    if (storage)
      a->external = storage; // the program's tile buffer: zero padding included
    else
      a->memory.resize(bytes);
    // Zeros where the load writes nothing: padding, another rank's part, an
    // array that starts at zero. A block with no padding that a load fills
    // whole needs none (on a CCSD iteration's every array, a tenth of it).
    const bool filledWhole = a->init == TC_RT_INIT_INPUT && decoded.loadFillsBlock;
    if (!filledWhole && !storesKeptValue(*a))
      std::memset(a->mem<void>(), 0, bytes);
  }
  if (storage && takeMappedBlock(storage) && a->init == TC_RT_INIT_INPUT && !a->idle &&
      !a->onDisk) {
    // Mapped from the input file by tc_rt_alloc_storage (MappedInputs.h): read.
    counters().bytesRead += static_cast<double>(bytes);
    counters().bytesMapped += static_cast<double>(bytes);
    keepLoadedInput(*a);
  } else if (!(storage && takeKeptView(storage))) { // a kept input's range holds it already
    loadInitial(*a);
  }
  trimPool(); // the load's staging chunks (BufferPool.h)
  // The load's peak RSS is read before the compute clock starts. Ranks that
  // finish loading first go on: a wait for a slower rank falls in the phase of
  // the exchange that waits. (A barrier after every array made the ranks move
  // in lockstep: a quarter of a water STO-3G CCSD iteration on 2 processes,
  // 1.67-1.77 ms with it, 1.22-1.25 ms without, the compute phase shorter too.)
  const double loaded = wallSeconds();
  ctx().counters[Load].peakRss = phasePeakRssBytes(loaded);
  setPhaseAt(Compute, loaded, /*sampleRss=*/false);
  return a;
}

extern "C" void *tc_rt_alloc_storage(const int64_t *desc, const char *name, int64_t readOnly) {
  ArrayDescView view(desc);
  const DecodedLayout &decoded = decodedLayout(desc);
  const int64_t bytes = product(decoded.padded) * elementBytes(view.elem());
  if (readOnly)
    if (void *mapped =
            mapInputBlock(name, view.elem(), decoded.fileExtents, decoded.contiguousFrom, bytes))
      return mapped;
  return keptStorage(name, decoded.image, decoded.id, view.elem(), bytes, readOnly != 0,
                     decoded.contiguousFrom);
}

extern "C" void tc_rt_read_tile(void *array, void *buf, const int64_t *desc,
                                const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_read_tile");
  DistArray &a = *static_cast<DistArray *>(array);
  if (buf == a.mem<void>() && !a.onDisk)
    return; // the tile is the array's storage (in-core plans)
  TileDescView tile(desc);
  Shape shape = tile.shape();
  const size_t bytes = product(shape) * a.elemBytes();
  // A scalar's slab is rank 0's; the others hold nothing and read nothing
  // (broadcastTile passes it on, as allgatherArray does).
  if (a.kind == Holding::Slab && a.rank() == 0 && ctx().rank != 0) {
    std::memset(buf, 0, bytes);
    return;
  }
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
