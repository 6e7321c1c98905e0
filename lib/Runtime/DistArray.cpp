//===- DistArray.cpp - arrays, scratch storage and tile I/O ---------------===//
#include "DistArray.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace tc::rt {

int64_t product(const Shape &s) {
  int64_t p = 1;
  for (int64_t v : s)
    p *= v;
  return p;
}

std::string str(const Shape &s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t DistArray::parts(int d) const {
  return kind == TC_RT_DISTRIBUTED && gridDim[d] >= 0 ? grid[gridDim[d]] : 1;
}

std::vector<int> DistArray::coordsOf(int rank) const {
  std::vector<int> c(grid.size());
  for (int g = static_cast<int>(grid.size()) - 1; g >= 0; --g) {
    c[g] = static_cast<int>(rank % grid[g]);
    rank /= static_cast<int>(grid[g]);
  }
  return c;
}

int64_t DistArray::blockStart(int d, const std::vector<int> &at) const {
  int64_t p = parts(d);
  if (p == 1)
    return 0;
  int g = static_cast<int>(gridDim[d]);
  int64_t block = at[g] + shifts[g] + (skewDim[d] >= 0 ? at[skewDim[d]] : 0);
  return (block % p) * ceilDiv(extents[d], p);
}

int64_t DistArray::blockLen(int d, const std::vector<int> &at) const {
  int64_t b = ceilDiv(extents[d], parts(d));
  return std::max<int64_t>(0, std::min(b, extents[d] - blockStart(d, at)));
}

int64_t DistArray::slabRows() const { return ceilDiv(extents[0], ctx().size); }

std::pair<int64_t, int64_t> DistArray::slabRange(int rank) const {
  int64_t lo = std::min(extents[0], rank * slabRows());
  return {lo, std::min(extents[0], lo + slabRows())};
}

/// Writes with the fault injection of TC_FAIL_WRITE_AFTER_BYTES (tests).
static ssize_t checkedPwrite(int fd, const void *data, size_t n, off_t off) {
  Context &c = ctx();
  if (c.failWriteAfter >= 0) {
    double total = 0;
    for (const Counters &k : c.counters)
      total += k.bytesWritten;
    if (total + n > c.failWriteAfter) {
      errno = EIO;
      return -1;
    }
  }
  return ::pwrite(fd, data, n, off);
}

void storageIO(DistArray &a, bool read, double *data, int64_t offset, int64_t count,
               const std::string &what) {
  if (count <= 0)
    return;
  if (!a.onDisk) {
    double *s = a.mem() + offset;
    if (read)
      std::memcpy(data, s, count * sizeof(double));
    else
      std::memcpy(s, data, count * sizeof(double));
    return;
  }
  size_t bytes = count * sizeof(double), done = 0;
  char *p = reinterpret_cast<char *>(data);
  off_t off = offset * sizeof(double);
  while (done < bytes) {
    ssize_t n = read ? ::pread(a.fd, p + done, bytes - done, off + done)
                     : checkedPwrite(a.fd, p + done, bytes - done, off + done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail(std::string(read ? "reading " : "writing ") + what + " of array '" + a.name +
           "' " + (read ? "from " : "to ") + a.path + ": " +
           (n == 0 ? "unexpected end of file" : std::strerror(errno)));
    done += n;
  }
  (read ? counters().bytesRead : counters().bytesWritten) += bytes;
}

int64_t chunkElems() { return std::max<int64_t>(1, ctx().chunkBytes / 8); }

int64_t rowsPerChunk(const Shape &len) {
  int64_t row = 1;
  for (size_t d = 1; d < len.size(); ++d)
    row *= std::max<int64_t>(len[d], 1);
  return std::max<int64_t>(1, chunkElems() / row);
}

void forEachChunk(DistArray &a, int64_t offset, int64_t count, int64_t chunkElems,
                  bool readOnly, const std::function<void(double *, int64_t)> &fn,
                  const std::string &what) {
  std::vector<double> chunk;
  for (int64_t o = offset; o < offset + count; o += chunkElems) {
    int64_t n = std::min(chunkElems, offset + count - o);
    if (!a.onDisk) {
      fn(a.mem() + o, n);
      continue;
    }
    chunk.resize(n);
    storageIO(a, true, chunk.data(), o, n, what);
    fn(chunk.data(), n);
    if (!readOnly)
      storageIO(a, false, chunk.data(), o, n, what);
  }
}

void transferBox(DistArray &a, bool toBuffer, const Shape &storeStart, const Shape &len,
                 double *buf, const Shape &bufShape, const Shape &bufStart,
                 const std::string &what) {
  const int d = a.rank();
  for (int i = 0; i < d; ++i)
    if (len[i] <= 0)
      return;
  // Merge trailing dimensions covered whole in both storage and buffer into one
  // contiguous run.
  int k = d - 1;
  int64_t run = len[k];
  while (k > 0 && len[k] == a.storeShape[k] && len[k] == bufShape[k]) {
    --k;
    run *= len[k];
  }
  Shape idx(k, 0);
  for (;;) {
    int64_t so = 0, bo = 0;
    for (int i = 0; i < d; ++i) {
      int64_t x = i < k ? idx[i] : 0;
      so = so * a.storeShape[i] + storeStart[i] + x;
      bo = bo * bufShape[i] + bufStart[i] + x;
    }
    storageIO(a, toBuffer, buf + bo, so, run, what);
    int i = k - 1;
    while (i >= 0 && ++idx[i] == len[i])
      idx[i--] = 0;
    if (i < 0)
      break;
  }
}

namespace {

/// The part of a tile at `offsets` (compute-view local coordinates) this process
/// holds: storage start, length, and where it sits in the tile buffer.
struct TilePart {
  Shape storeStart, len, bufStart;
  bool whole = true; ///< covers the buffer
};

TilePart tilePart(const DistArray &a, const Shape &shape, const int64_t *offsets) {
  TilePart t;
  const int d = a.rank();
  t.storeStart.resize(d);
  t.len.resize(d);
  t.bufStart.assign(d, 0);
  for (int i = 0; i < d; ++i) {
    int64_t lo = offsets[i], hi = std::min(offsets[i] + shape[i], a.blockLen(i));
    if (i == 0 && a.kind == TC_RT_SLAB) { // only the rows of this process's slab
      auto [s0, s1] = a.slabRange(ctx().rank);
      int64_t slo = std::max(lo, s0), shi = std::min(hi, s1);
      t.bufStart[0] = slo - lo;
      t.storeStart[0] = slo - s0;
      t.len[0] = std::max<int64_t>(0, shi - slo);
    } else {
      t.storeStart[i] = lo;
      t.len[i] = std::max<int64_t>(0, hi - lo);
    }
    if (t.len[i] != shape[i])
      t.whole = false;
  }
  return t;
}

std::string tileName(const Shape &shape, const int64_t *offsets) {
  Shape o(offsets, offsets + shape.size());
  return "tile at " + str(o) + " of shape " + str(shape);
}

std::vector<DistArray *> &allArrays() {
  static std::vector<DistArray *> arrays;
  return arrays;
}

} // namespace

std::vector<int64_t> arrayDescription(const Shape &extents, const Shape &grid,
                                      const Shape &gridDims, tc_rt_kind kind, tc_rt_init init,
                                      bool onDisk) {
  ArrayDesc desc{kind, init, onDisk, grid, {}};
  for (size_t d = 0; d < extents.size(); ++d)
    desc.dims.push_back({extents[d], gridDims[d], /*skewDim=*/-1, static_cast<int64_t>(d)});
  return desc.encode();
}

void releaseArrays() {
  Context &c = ctx();
  for (DistArray *a : allArrays()) {
    if (a->fd >= 0) {
      ::close(a->fd);
      ::unlink(a->path.c_str());
      c.scratchFiles.erase(std::remove(c.scratchFiles.begin(), c.scratchFiles.end(), a->path),
                           c.scratchFiles.end());
    }
    delete a;
  }
  allArrays().clear();
}

} // namespace tc::rt

using namespace tc::rt;

extern "C" void *tc_rt_array(const int64_t *desc, const char *name, double *storage) {
  tc::rt::TraceScope trace("tc_rt_array");
  setPhase(Load);
  auto *a = new DistArray;
  allArrays().push_back(a);
  a->name = name;
  ArrayDescView view(desc);
  int d = static_cast<int>(view.rank());
  a->kind = view.kind();
  a->init = view.init();
  a->onDisk = view.onDisk();
  int g = static_cast<int>(view.gridRank());
  a->grid = view.grid();
  for (int i = 0; i < d; ++i) {
    a->extents.push_back(view.extent(i));
    a->gridDim.push_back(view.gridDim(i));
    a->skewDim.push_back(view.skew(i));
    a->fileDim.push_back(view.fileDim(i));
  }
  a->comm = gridComm(a->grid);
  a->coords.resize(g);
  MPI_Cart_coords(a->comm, ctx().rank, g, a->coords.data());
  a->shifts.assign(g, 0);
  for (int i = 0; i < d; ++i) {
    int64_t s = a->extents[i];
    if (a->kind == TC_RT_DISTRIBUTED)
      s = (s + a->parts(i) - 1) / a->parts(i);
    else if (a->kind == TC_RT_SLAB && i == 0)
      s = a->slabRows();
    a->storeShape.push_back(s);
  }
  int64_t bytes = product(a->storeShape) * static_cast<int64_t>(sizeof(double));
  if (a->onDisk) {
    Context &c = ctx();
    // Numbered: one tensor may have several arrays (its redistributions).
    static int arrays = 0;
    a->path = c.options.scratch + "/tc-" + std::to_string(c.jobId) + "-" +
              std::to_string(arrays++) + "-" + a->name + "-r" + std::to_string(c.rank) + ".bin";
    a->fd = ::open(a->path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (a->fd < 0)
      fail("cannot create scratch file " + a->path + " for array '" + a->name +
           "': " + std::strerror(errno) + " (choose a writable --scratch directory)");
    c.scratchFiles.push_back(a->path);
    // A sparse file of zeros: padding and zero-initialized arrays cost no I/O.
    if (::ftruncate(a->fd, bytes) != 0)
      fail("cannot size scratch file " + a->path + " to " + std::to_string(bytes) +
           " bytes: " + std::strerror(errno));
  } else if (storage) {
    a->external = storage; // the program's tile buffer: zero padding included
    std::fill(storage, storage + bytes / sizeof(double), 0.0);
  } else {
    a->memory.assign(bytes / sizeof(double), 0.0);
  }
  loadInitial(*a);
  // Ranks finish loading at different times; the wait belongs to the load phase,
  // and so does reading its peak RSS (before the barrier, off the compute clock).
  ctx().counters[Load].peakRss = rssBytes("VmHWM:");
  MPI_Barrier(MPI_COMM_WORLD);
  setPhase(Compute, /*sampleRss=*/false);
  return a;
}

extern "C" void tc_rt_read_tile(void *array, double *buf, const int64_t *desc,
                                const int64_t *offsets) {
  tc::rt::TraceScope trace("tc_rt_read_tile");
  DistArray &a = *static_cast<DistArray *>(array);
  TileDescView tile(desc);
  Shape shape = tile.shape();
  if (buf == a.mem() && !a.onDisk)
    return; // the tile is the array's storage (in-core plans)
  TilePart t = tilePart(a, shape, offsets);
  if (!t.whole)
    std::fill(buf, buf + product(shape), 0.0);
  transferBox(a, true, t.storeStart, t.len, buf, shape, t.bufStart,
              tileName(shape, offsets));
  if (tile.rootOnly() && ctx().rank != 0) // inside accumulation: one rank carries C's old value
    std::fill(buf, buf + product(shape), 0.0);
}

extern "C" void tc_rt_write_tile(void *array, double *buf, const int64_t *desc,
                                 const int64_t *offsets) {
  tc::rt::TraceScope trace("tc_rt_write_tile");
  DistArray &a = *static_cast<DistArray *>(array);
  Shape shape = TileDescView(desc).shape();
  if (buf == a.mem() && !a.onDisk) {
    reportProgress();
    return;
  }
  TilePart t = tilePart(a, shape, offsets);
  transferBox(a, false, t.storeStart, t.len, buf, shape, t.bufStart,
              tileName(shape, offsets));
  reportProgress();
}
