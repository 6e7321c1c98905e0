//===- DistArray.cpp - arrays, scratch storage and tile I/O ---------------===//
#include "DistArray.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <tuple>
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

using tc_layout::ceilDiv;

int64_t DistArray::parts(int d) const {
  return kind == TC_RT_DISTRIBUTED && gridDim[d] >= 0 ? grid[gridDim[d]] : 1;
}

/// Row-major coordinates of `rank` on `grid` (below its product).
static std::vector<int> gridCoords(const Shape &grid, int rank) {
  std::vector<int> c(grid.size());
  for (int g = static_cast<int>(grid.size()) - 1; g >= 0; --g) {
    c[g] = static_cast<int>(rank % grid[g]);
    rank /= static_cast<int>(grid[g]);
  }
  return c;
}

std::vector<int> DistArray::coordsOf(int rank) const {
  if (rank >= product(grid))
    return {};
  std::vector<int> c = gridCoords(grid, rank);
  for (size_t g = 0; g < c.size(); ++g)
    if ((firstSlice >> g) & 1 && c[g] != 0)
      return {};
  return c;
}

std::vector<int> DistArray::replicaCoordsOf(int rank) const {
  if (rank >= product(grid))
    return {};
  std::vector<int> c = gridCoords(grid, rank);
  for (size_t g = 0; g < c.size(); ++g)
    if ((firstSlice >> g) & 1)
      c[g] = 0;
  return c;
}

int64_t DistArray::blockStart(int d, const std::vector<int> &at) const {
  if (isCyclic(d))
    fail("internal error: the block start of cyclic dimension " + std::to_string(d) +
         " of array '" + name + "'");
  int64_t p = parts(d);
  if (p == 1 || at.empty())
    return 0;
  return tc_layout::blockStart(extents[d], p, blockIndex(d, at));
}

int64_t DistArray::blockIndex(int d, const std::vector<int> &at) const {
  const int64_t p = parts(d);
  if (p == 1 || at.empty())
    return 0;
  int g = static_cast<int>(gridDim[d]);
  return (at[g] + shifts[g] + (skewDim[d] >= 0 ? at[skewDim[d]] : 0)) % p;
}

int64_t DistArray::blockLen(int d, const std::vector<int> &at) const {
  if (at.empty())
    return 0;
  return tc_layout::blockLength(extents[d], parts(d), blockIndex(d, at));
}

int64_t DistArray::cyclicCoord(int d, const std::vector<int> &at) const {
  int g = static_cast<int>(gridDim[d]);
  return (at[g] + shifts[g]) % grid[g];
}

int64_t DistArray::storeRows(int d) const {
  if (kind == TC_RT_DISTRIBUTED && isCyclic(d))
    return tc_layout::cyclicRows(extents[d], cyclic[d], parts(d));
  if (kind == TC_RT_DISTRIBUTED)
    return subRows(d); // the padded block, or sub-block when split
  if (kind == TC_RT_SLAB && d == 0)
    return slabRows();
  return extents[d];
}

int64_t DistArray::localLen(int d, const std::vector<int> &at) const {
  if (!isCyclic(d) || at.empty())
    return blockLen(d, at);
  return tc_layout::cyclicLength(extents[d], cyclic[d], parts(d), cyclicCoord(d, at));
}

Runs DistArray::heldRuns(int d, const std::vector<int> &at) const {
  Runs runs;
  if (at.empty())
    return runs;
  if (isCyclic(d)) {
    // Block I = c + k G is the k-th held (Choi, Dongarra, Walker, section 2).
    int64_t nb = cyclic[d], G = parts(d);
    for (int64_t k = 0, I = cyclicCoord(d, at); I * nb < extents[d]; ++k, I += G)
      runs.push_back({k * nb, I * nb, std::min(nb, extents[d] - I * nb)});
    return runs;
  }
  int64_t len = subLen(d, at);
  if (len > 0)
    runs.push_back({0, blockStart(d, at) + subStart(d, at), len});
  return runs;
}

Selection DistArray::runsOf(int r, bool loading) const {
  Selection sel;
  std::vector<int> at = coordsOf(r); // none past the grid: nothing held
  for (int d = 0; d < rank(); ++d) {
    if (kind == TC_RT_DISTRIBUTED) {
      sel.push_back(heldRuns(d, at));
      continue;
    }
    int64_t lo = 0, hi = extents[d];
    bool slab = d == 0 && (kind == TC_RT_SLAB || (kind == TC_RT_GATHERED && loading));
    if (slab)
      std::tie(lo, hi) = slabRange(r);
    // A slab is stored from row 0; a GATHERED array's slab sits at its place.
    Runs runs;
    if (hi > lo)
      runs.push_back({kind == TC_RT_SLAB ? 0 : lo, lo, hi - lo});
    sel.push_back(runs);
  }
  return sel;
}

int DistArray::splitDimension() const {
  for (size_t d = 0; d < splitDim.size(); ++d)
    if (splitDim[d] >= 0)
      return static_cast<int>(d);
  return -1;
}

int DistArray::splitGridDim() const {
  int d = splitDimension();
  return d < 0 ? -1 : static_cast<int>(splitDim[d]);
}

int64_t DistArray::subRows(int d) const {
  int64_t b = ceilDiv(extents[d], parts(d));
  if (splitDim.empty() || splitDim[d] < 0)
    return b;
  return ceilDiv(b, grid[splitDim[d]]);
}

// Balanced sub-blocks (COSMA splits its intervals so, Kwasniewski et al.
// section 7.1): a block of L rows split q ways gives the first L mod q members
// floor(L / q) + 1 rows and the others floor(L / q), so no member of a group
// holds nothing while another holds a whole padded sub-block.
int64_t DistArray::subStart(int d, const std::vector<int> &at) const {
  if (splitDim.empty() || splitDim[d] < 0 || at.empty())
    return 0;
  return tc_layout::balancedStart(blockLen(d, at), grid[splitDim[d]], at[splitDim[d]]);
}

int64_t DistArray::subLen(int d, const std::vector<int> &at) const {
  if (splitDim.empty() || splitDim[d] < 0)
    return blockLen(d, at);
  if (at.empty())
    return 0;
  return tc_layout::balancedLength(blockLen(d, at), grid[splitDim[d]], at[splitDim[d]]);
}

int64_t DistArray::slabRows() const { return ceilDiv(extents[0], ctx().size); }

std::pair<int64_t, int64_t> DistArray::slabRange(int rank) const {
  const int64_t lo = std::min(extents[0], tc_layout::blockStart(extents[0], ctx().size, rank));
  return {lo, lo + tc_layout::blockLength(extents[0], ctx().size, rank)};
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

template <typename T>
void storageIO(DistArray &a, bool read, T *data, int64_t offset, int64_t count,
               const std::string &what) {
  if (count <= 0)
    return;
  if (Element<T>::kind != a.elem)
    fail("array '" + a.name + "' holds " + elementName(a.elem) + " elements, not " +
         elementName(Element<T>::kind) + " (" + what + ")");
  if (!a.onDisk) {
    T *s = a.mem<T>() + offset;
    if (read)
      std::memcpy(data, s, count * sizeof(T));
    else
      std::memcpy(s, data, count * sizeof(T));
    return;
  }
  fileIO(a.fd, read, data, count * sizeof(T), offset * sizeof(T),
         what + " of array '" + a.name + "'", a.path);
}

void fileIO(int fd, bool read, void *data, size_t bytes, off_t offset, const std::string &what,
            const std::string &path) {
  size_t done = 0;
  char *p = static_cast<char *>(data);
  while (done < bytes) {
    ssize_t n = read ? ::pread(fd, p + done, bytes - done, offset + done)
                     : checkedPwrite(fd, p + done, bytes - done, offset + done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail(std::string(read ? "reading " : "writing ") + what + (read ? " from " : " to ") +
           path + ": " + (n == 0 ? "unexpected end of file" : std::strerror(errno)));
    done += n;
  }
  (read ? counters().bytesRead : counters().bytesWritten) += bytes;
}

int64_t chunkElems(int64_t elemBytes, int64_t parts) {
  return std::max<int64_t>(1, ctx().chunkBytes / elemBytes / parts);
}

int64_t rowsPerChunk(const Shape &len, int64_t elemBytes, int64_t parts) {
  int64_t row = 1;
  for (size_t d = 1; d < len.size(); ++d)
    row *= std::max<int64_t>(len[d], 1);
  return std::max<int64_t>(1, chunkElems(elemBytes, parts) / row);
}

void forEachPiece(const Shape &ext, int64_t limit,
                  const std::function<void(const Shape &, const Shape &)> &fn) {
  const int d = static_cast<int>(ext.size());
  if (product(ext) <= limit || d == 0)
    return fn(Shape(d, 0), ext);
  // The outermost dimension k whose inner dimensions fit `limit` together is
  // cut into runs of `step`; the dimensions before it are walked one by one.
  int k = d - 1;
  int64_t inner = 1;
  while (k > 0 && inner * ext[k] <= limit)
    inner *= ext[k--];
  const int64_t step = std::max<int64_t>(1, limit / inner);
  Shape start(d, 0), len = ext;
  for (int i = 0; i < k; ++i)
    len[i] = 1;
  for (;;) {
    for (start[k] = 0; start[k] < ext[k]; start[k] += step) {
      len[k] = std::min(step, ext[k] - start[k]);
      fn(start, len);
    }
    start[k] = 0;
    int i = k - 1;
    while (i >= 0 && ++start[i] == ext[i])
      start[i--] = 0;
    if (i < 0)
      return;
  }
}

template <typename T>
void forEachChunk(DistArray &a, int64_t offset, int64_t count, int64_t chunkElems,
                  bool readOnly, const std::function<void(T *, int64_t)> &fn,
                  const std::string &what) {
  PooledVector<T> chunk;
  for (int64_t o = offset; o < offset + count; o += chunkElems) {
    int64_t n = std::min(chunkElems, offset + count - o);
    if (!a.onDisk) {
      fn(a.mem<T>() + o, n);
      continue;
    }
    chunk.resize(n);
    storageIO(a, true, chunk.data(), o, n, what);
    fn(chunk.data(), n);
    if (!readOnly)
      storageIO(a, false, chunk.data(), o, n, what);
  }
}

template <typename T>
void transferRuns(DistArray &a, bool toBuffer, const Selection &sel, T *buf,
                  const Shape &bufShape, const std::string &what) {
  // Runs contiguous on both sides move as one box.
  Selection m;
  for (const Runs &r : sel)
    m.push_back(merged(r));
  forEachBox(m, [&](const Shape &from, const Shape &to, const Shape &len) {
    transferBox(a, toBuffer, from, len, buf, bufShape, to, what);
  });
}

template <typename T>
void transferBox(DistArray &a, bool toBuffer, const Shape &storeStart, const Shape &len, T *buf,
                 const Shape &bufShape, const Shape &bufStart, const std::string &what) {
  const int d = a.rank();
  for (int i = 0; i < d; ++i)
    if (len[i] <= 0)
      return;
  if (d == 0) // a scalar: its one element
    return storageIO(a, toBuffer, buf, 0, 1, what);
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

// The data paths of both element types (Element.h).
#define TC_RT_INSTANTIATE(T)                                                                       \
  template void storageIO<T>(DistArray &, bool, T *, int64_t, int64_t, const std::string &);      \
  template void forEachChunk<T>(DistArray &, int64_t, int64_t, int64_t, bool,                     \
                                const std::function<void(T *, int64_t)> &, const std::string &);  \
  template void transferRuns<T>(DistArray &, bool, const Selection &, T *, const Shape &,         \
                                const std::string &);                                             \
  template void transferBox<T>(DistArray &, bool, const Shape &, const Shape &, T *,              \
                               const Shape &, const Shape &, const std::string &);
TC_RT_INSTANTIATE(double)
TC_RT_INSTANTIATE(float)
#undef TC_RT_INSTANTIATE

bool TilePart::empty() const {
  return std::any_of(len.begin(), len.end(), [](int64_t l) { return l <= 0; });
}

TilePart tilePart(const DistArray &a, const Shape &shape, const int64_t *offsets,
                  const std::vector<int> &at) {
  TilePart t;
  const int d = a.rank();
  t.storeStart.resize(d);
  t.len.resize(d);
  t.bufStart.assign(d, 0);
  for (int i = 0; i < d; ++i) {
    int64_t lo = offsets[i], hi = std::min(offsets[i] + shape[i], a.localLen(i, at));
    // Storage holds only rows [s0, s1) of the block: this process's slab of dim
    // 0 (TC_RT_SLAB), or the sub-block at `at` of a split dimension.
    bool slab = i == 0 && a.kind == TC_RT_SLAB;
    bool split = !a.splitDim.empty() && a.splitDim[i] >= 0;
    if (slab || split) {
      auto [s0, s1] = slab ? a.slabRange(ctx().rank)
                           : std::pair<int64_t, int64_t>(a.subStart(i, at),
                                                         a.subStart(i, at) + a.subLen(i, at));
      int64_t slo = std::max(lo, s0), shi = std::min(hi, s1);
      t.bufStart[i] = slo - lo;
      t.storeStart[i] = slo - s0;
      t.len[i] = std::max<int64_t>(0, shi - slo);
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

namespace {

std::vector<DistArray *> &allArrays() {
  static std::vector<DistArray *> arrays;
  return arrays;
}

} // namespace

std::vector<int64_t> arrayDescription(const Shape &extents, const Shape &grid,
                                      const Shape &gridDims, tc_rt_kind kind, tc_rt_init init,
                                      bool onDisk, const Shape &splitDims,
                                      const Shape &cyclic, tc_rt_elem elem) {
  ArrayDesc desc{kind, init, onDisk, grid, {}};
  desc.elem = elem;
  for (size_t d = 0; d < extents.size(); ++d)
    desc.dims.push_back({extents[d], gridDims[d], /*skewDim=*/-1, static_cast<int64_t>(d),
                         splitDims.empty() ? -1 : splitDims[d], cyclic.empty() ? 0 : cyclic[d]});
  return desc.encode();
}

void releaseArrays() {
  for (DistArray *a : allArrays()) {
    if (a->fd >= 0)
      ::close(a->fd); // unnamed since it was opened: closing frees it
    delete a;
  }
  allArrays().clear();
}

} // namespace tc::rt

using namespace tc::rt;

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
      fail("array '" + a.name + "' has two split dimensions, " + std::to_string(split) +
           " and " + std::to_string(d) + " (at most one)");
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

namespace tc::rt {

/// Creates `dir` and its missing parents (as `mkdir -p`); false with errno
/// set when a part cannot be made or is not a directory.
static bool makeDirectories(const std::string &dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/')
      continue;
    std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
      return false;
    struct stat st;
    if (::stat(part.c_str(), &st) != 0)
      return false;
    if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      return false;
    }
  }
  return true;
}

/// A scratch file in `dir` that has no name: however the process ends
/// (a signal, MPI_Abort, a full disk), the system frees it and nothing is
/// left in the directory. O_TMPFILE where the file system has it; else a file
/// at `path`, unlinked as soon as it is open. -1 with errno set on failure.
int openScratch(const std::string &dir, const std::string &path) {
  if (!makeDirectories(dir))
    return -1;
#ifdef O_TMPFILE
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR, 0600);
  if (fd >= 0)
    return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    return -1;
#endif
  int named = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (named >= 0)
    ::unlink(path.c_str());
  return named;
}

} // namespace tc::rt

extern "C" void *tc_rt_array(const int64_t *desc, const char *name, void *storage) {
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
           " (a distributed array on grid " + str(a->grid) + " may be held by the processes "
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
  tc::rt::TraceScope trace("tc_rt_read_tile");
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
  tc::rt::TraceScope trace("tc_rt_write_tile");
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
