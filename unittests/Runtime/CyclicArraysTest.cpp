//===- CyclicArraysTest.cpp - block-cyclic arrays and PUMMA's panels ------===//
//
// Arrays with block-cyclic dimensions (TC_RT_ARRAY_DIM_CYCLIC) on every 1-d and
// 2-d grid of the world size, with extents that the block sizes do not divide:
// what each process stores, tile reads and writes in storage coordinates, the
// HDF5 round trip (in memory and on disk, in small chunks), redistribution
// between any two layouts, and tc_rt_gather_cyclic / tc_rt_reduce_cyclic for
// every residue of several moduli, element by element with the exact bytes
// sent, received, read and written. The expectations come from the
// definitions written out here again (Choi, Dongarra, Walker (PUMMA) section
// 2), not from the runtime's helpers.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "TestArrays.h"

#include "TC/Layout/Ownership.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <set>
#include <string>

using namespace tc_rt;
using tc_rt::test::compute;
using tc_rt::test::RandomInputs;
using tc_rt::test::removeWhenAllDone;
using tc_rt::test::storeCountingReads;

namespace {

const uint64_t kSeed = 23;

using tc_layout::ceilDiv;

std::vector<int> coordsOf(const Shape &grid, int rank) {
  std::vector<int> c(grid.size());
  for (int g = static_cast<int>(grid.size()) - 1; g >= 0; --g) {
    c[g] = static_cast<int>(rank % grid[g]);
    rank /= static_cast<int>(grid[g]);
  }
  return c;
}

int rankOf(const Shape &grid, const std::vector<int> &c) {
  int r = 0;
  for (size_t g = 0; g < grid.size(); ++g)
    r = r * static_cast<int>(grid[g]) + c[g];
  return r;
}

/// Calls fn(index) for every index of the box `shape`, row-major.
void forEachIndex(const Shape &shape, const std::function<void(const Shape &)> &fn) {
  if (product(shape) == 0)
    return;
  Shape idx(shape.size(), 0);
  for (;;) {
    fn(idx);
    int i = static_cast<int>(shape.size()) - 1;
    while (i >= 0 && ++idx[i] == shape[i])
      idx[i--] = 0;
    if (i < 0)
      return;
  }
}

int64_t linearOf(const Shape &extents, const Shape &index) {
  int64_t n = 0;
  for (size_t d = 0; d < extents.size(); ++d)
    n = n * extents[d] + index[d];
  return n;
}

/// An array's layout and its maps, from the definitions.
struct Layout {
  tc_rt_kind kind = TC_RT_DISTRIBUTED;
  Shape grid, extents, gridDims;
  Shape cyclic;   ///< per dimension; empty: none
  Shape fileDims; ///< empty: the tensor's order

  int rank() const { return static_cast<int>(extents.size()); }
  int64_t nb(int d) const { return cyclic.empty() ? 0 : cyclic[d]; }
  int64_t parts(int d) const {
    return kind == TC_RT_DISTRIBUTED && gridDims[d] >= 0 ? grid[gridDims[d]] : 1;
  }
  std::string name() const {
    return "kind " + std::to_string(kind) + " grid " + str(grid) + " extents " + str(extents) +
           " dims " + str(gridDims) + " cyclic " + str(cyclic) + " file dims " + str(fileDims);
  }
  int64_t storeRows(int d) const {
    if (kind == TC_RT_SLAB && d == 0)
      return ceilDiv(extents[0], product(grid));
    if (nb(d) > 0) // whole blocks, even on one process
      return ceilDiv(ceilDiv(extents[d], nb(d)), parts(d)) * nb(d);
    return ceilDiv(extents[d], parts(d));
  }
  Shape storeShape() const {
    Shape s;
    for (int d = 0; d < rank(); ++d)
      s.push_back(storeRows(d));
    return s;
  }
  /// Storage index of global index i of dim d at `rank`; -1: not held there.
  int64_t local(int d, int rank, int64_t i) const {
    if (kind == TC_RT_SLAB && d == 0)
      return i / storeRows(0) == rank ? i % storeRows(0) : -1;
    if (parts(d) == 1)
      return i;
    int64_t G = parts(d), c = coordsOf(grid, rank)[gridDims[d]];
    if (nb(d) > 0) { // block I = i / nb on coordinate I mod G, the (I / G)-th there
      int64_t I = i / nb(d);
      return I % G == c ? (I / G) * nb(d) + i % nb(d) : -1;
    }
    int64_t B = ceilDiv(extents[d], G);
    return i / B == c ? i % B : -1;
  }
  /// Real rows of dim d at `rank`.
  int64_t localLen(int d, int rank) const {
    int64_t n = 0;
    for (int64_t i = 0; i < extents[d]; ++i)
      n += local(d, rank, i) >= 0;
    return n;
  }
  /// Global index held at storage index s of dim d at `rank`; -1: padding.
  int64_t globalAt(int d, int rank, int64_t s) const {
    for (int64_t i = 0; i < extents[d]; ++i)
      if (local(d, rank, i) == s)
        return i;
    return -1;
  }
  /// Linear storage index of `global` at `rank`; -1: not held there.
  int64_t storageIndex(int rank, const Shape &global) const {
    Shape s(global.size());
    for (int d = 0; d < this->rank(); ++d)
      if ((s[d] = local(d, rank, global[d])) < 0)
        return -1;
    return linearOf(storeShape(), s);
  }
  int64_t held(int rank) const {
    int64_t n = 1;
    for (int d = 0; d < this->rank(); ++d)
      n *= localLen(d, rank);
    return n;
  }
  Desc desc(tc_rt_init init, bool onDisk) const {
    std::vector<std::vector<int64_t>> dims;
    for (int d = 0; d < rank(); ++d)
      dims.push_back({extents[d], gridDims[d], -1, fileDims.empty() ? d : fileDims[d], -1, nb(d)});
    return ArrayDesc{test::layoutOf(kind, grid, dims), init, onDisk}.encode();
  }
  /// The same tensor, whole on every process.
  Layout replicated() const {
    return {TC_RT_REPLICATED, grid, extents, Shape(extents.size(), -1), {}, fileDims};
  }
};

void *makeArray(const Layout &l, const char *name, tc_rt_init init, bool onDisk) {
  ctx().options.scratch = "/tmp";
  return tc_rt_array(l.desc(init, onDisk).data(), name, nullptr);
}

/// The --random-inputs value of the element at `global` (numbered in the
/// file's order).
double inputValue(const Layout &l, const std::string &name, const Shape &global) {
  Shape fileExtents(l.rank()), fileIndex(l.rank());
  for (int d = 0; d < l.rank(); ++d) {
    int64_t f = l.fileDims.empty() ? d : l.fileDims[d];
    fileExtents[f] = l.extents[d];
    fileIndex[f] = global[d];
  }
  return randomValue(kSeed, name, static_cast<uint64_t>(linearOf(fileExtents, fileIndex)));
}

/// chunk_bytes for the scope (small: many chunks).
struct ChunkBytes {
  int64_t saved = ctx().chunkBytes;
  explicit ChunkBytes(int64_t bytes) { ctx().chunkBytes = bytes; }
  ~ChunkBytes() { ctx().chunkBytes = saved; }
};

/// The array's storage, read directly.
std::vector<double> storage(void *array) {
  DistArray &a = *static_cast<DistArray *>(array);
  std::vector<double> s(product(a.storeShape));
  storageIO(a, true, s.data(), 0, static_cast<int64_t>(s.size()), "the test's check");
  return s;
}

/// What this process's storage must hold: value(global) where it holds a
/// global element, zero in the padding.
std::vector<double> expectedStorage(const Layout &l,
                                    const std::function<double(const Shape &)> &value) {
  std::vector<double> s(product(l.storeShape()), 0.0);
  forEachIndex(l.extents, [&](const Shape &g) {
    int64_t at = l.storageIndex(ctx().rank, g);
    if (at >= 0)
      s[at] = value(g);
  });
  return s;
}

void expectStorage(const Layout &l, void *array, const std::vector<double> &expect,
                   const std::string &what) {
  DistArray &a = *static_cast<DistArray *>(array);
  ASSERT_EQ(a.storeShape, l.storeShape()) << what;
  std::vector<double> s = storage(array);
  int bad = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != expect[i] && bad++ < 5)
      ADD_FAILURE() << what << ": storage element " << i << " holds " << s[i] << ", expected "
                    << expect[i];
}

/// [P] and every 2-d grid [x, P / x].
std::vector<Shape> grids() {
  const int64_t P = ctx().size;
  std::vector<Shape> out{{P}};
  for (int64_t x = 1; x <= P; ++x)
    if (P % x == 0)
      out.push_back({x, P / x});
  return out;
}

/// Layouts of A[13, 7] and B[5, 13, 4] with block-cyclic dimensions on `grid`.
std::vector<Layout> cyclicLayouts(const Shape &grid) {
  if (grid.size() == 1)
    return {
        {TC_RT_DISTRIBUTED, grid, {13, 7}, {0, -1}, {2, 0}, {}},
        {TC_RT_DISTRIBUTED, grid, {13, 7}, {0, -1}, {3, 0}, {}},
        {TC_RT_DISTRIBUTED, grid, {13, 7}, {0, -1}, {5, 0}, {}},
        {TC_RT_DISTRIBUTED, grid, {13, 7}, {-1, 0}, {0, 3}, {}},
        {TC_RT_DISTRIBUTED, grid, {5, 13, 4}, {-1, 0, -1}, {0, 3, 0}, {2, 0, 1}},
    };
  return {
      {TC_RT_DISTRIBUTED, grid, {13, 7}, {0, 1}, {2, 3}, {}},  // ScaLAPACK's 2-d
      {TC_RT_DISTRIBUTED, grid, {13, 7}, {1, 0}, {5, 2}, {}},  // transposed mapping
      {TC_RT_DISTRIBUTED, grid, {13, 7}, {0, 1}, {3, 0}, {}},  // cyclic rows, block columns
      {TC_RT_DISTRIBUTED, grid, {5, 13, 4}, {-1, 0, 1}, {0, 3, 0}, {2, 0, 1}},
  };
}

//===----------------------------------------------------------------------===//
// Storage and tiles
//===----------------------------------------------------------------------===//

class CyclicArrays : public ::testing::TestWithParam<bool> {};

TEST_P(CyclicArrays, StoreTheirBlocksAndTilesClipToThem) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  const int me = ctx().rank;
  for (const Shape &grid : grids())
    for (const Layout &l : cyclicLayouts(grid)) {
      std::string what = l.name();
      double loadWritten = ctx().counters[Load].bytesWritten;
      void *a = makeArray(l, "S", TC_RT_INIT_INPUT, onDisk);
      loadWritten = ctx().counters[Load].bytesWritten - loadWritten;
      std::vector<double> expect =
          expectedStorage(l, [&](const Shape &g) { return inputValue(l, "S", g); });
      expectStorage(l, a, expect, what);
      // Only the real elements are written (the padding is the sparse file's).
      EXPECT_EQ(loadWritten, onDisk ? 8.0 * l.held(me) : 0.0) << what;
      DistArray &x = *static_cast<DistArray *>(a);
      for (int d = 0; d < l.rank(); ++d)
        EXPECT_EQ(x.localLen(d), l.localLen(d, me)) << what << " dimension " << d;
      for (size_t g = 0; g < grid.size(); ++g)
        EXPECT_EQ(tc_rt_grid_coord(a, static_cast<int64_t>(g)), coordsOf(grid, me)[g]) << what;

      // A tile from storage offset 1 reaching past the real rows: the real
      // part is read, the rest is zero; on disk exactly the real bytes move.
      Shape shape, offsets, store = l.storeShape();
      for (int d = 0; d < l.rank(); ++d) {
        offsets.push_back(std::min<int64_t>(1, store[d] - 1));
        shape.push_back(store[d] - offsets[d] + 1);
      }
      Desc desc = TileDesc{shape}.encode();
      std::vector<double> buf(product(shape), -5.0);
      Counters before = compute();
      tc_rt_read_tile(a, buf.data(), desc.data(), offsets.data());
      Counters after = compute();
      int64_t real = 0;
      int bad = 0;
      forEachIndex(shape, [&](const Shape &j) {
        Shape s(j.size());
        bool in = true;
        for (int d = 0; d < l.rank(); ++d) {
          s[d] = offsets[d] + j[d];
          in = in && s[d] < l.localLen(d, me);
        }
        real += in;
        double want = in ? expect[linearOf(store, s)] : 0.0;
        if (buf[linearOf(shape, j)] != want && bad++ < 5)
          ADD_FAILURE() << what << ": tile element " << str(j) << " is "
                        << buf[linearOf(shape, j)] << ", expected " << want;
      });
      EXPECT_EQ(after.bytesRead - before.bytesRead, onDisk ? 8.0 * real : 0.0) << what;
      // Writing it back (all 9s) changes exactly the real elements it covers.
      std::fill(buf.begin(), buf.end(), 9.0);
      tc_rt_write_tile(a, buf.data(), desc.data(), offsets.data());
      Counters written = compute();
      EXPECT_EQ(written.bytesWritten - after.bytesWritten, onDisk ? 8.0 * real : 0.0) << what;
      forEachIndex(shape, [&](const Shape &j) {
        Shape s(j.size());
        bool in = true;
        for (int d = 0; d < l.rank(); ++d) {
          s[d] = offsets[d] + j[d];
          in = in && s[d] < l.localLen(d, me);
        }
        if (in)
          expect[linearOf(store, s)] = 9.0;
      });
      expectStorage(l, a, expect, what + " (after writing a tile)");
      releaseArrays();
    }
}

TEST_P(CyclicArrays, RootInputLoadsOnlyRankZerosBlocks) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  for (const Shape &grid : grids())
    for (const Layout &l : cyclicLayouts(grid)) {
      void *a = makeArray(l, "T", TC_RT_INIT_ROOT_INPUT, onDisk);
      expectStorage(l, a, expectedStorage(l, [&](const Shape &g) {
                      return ctx().rank == 0 ? inputValue(l, "T", g) : 0.0;
                    }),
                    l.name() + " (root_input)");
      releaseArrays();
    }
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndOnDisk, CyclicArrays, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? std::string("OnDisk") : std::string("InMemory");
                         });

//===----------------------------------------------------------------------===//
// HDF5
//===----------------------------------------------------------------------===//

/// (on disk, small chunks)
class CyclicHdf5 : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(CyclicHdf5, RoundTrip) {
  // Random inputs stored to a file, the file read back whole and as the same
  // cyclic layout: strided hyperslabs, in chunks of chunk_bytes.
  auto [onDisk, smallChunks] = GetParam();
  ChunkBytes chunks(smallChunks ? 3 * 8 : ctx().chunkBytes);
  const int me = ctx().rank;
  std::string out = "/tmp/tc-cyclic-store-" + std::to_string(ctx().jobId) + ".h5";
  for (const Shape &grid : grids())
    for (const Layout &l : cyclicLayouts(grid)) {
      std::string what = l.name();
      double read = 0;
      {
        RandomInputs random(kSeed);
        ctx().options.output = out;
        void *a = makeArray(l, "W", TC_RT_INIT_INPUT, onDisk);
        read = storeCountingReads(a);
        releaseArrays();
      }
      // Every element is written once, by one process (its holder).
      double total = 0;
      MPI_Allreduce(&read, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      EXPECT_EQ(total, onDisk ? 8.0 * product(l.extents) : 0.0) << what;
      Options saved = ctx().options;
      ctx().options.inputs["W"] = out;
      auto value = [&](const Shape &g) { return inputValue(l, "W", g); };
      Layout whole = l.replicated();
      void *back = makeArray(whole, "W", TC_RT_INIT_INPUT, false);
      expectStorage(whole, back, expectedStorage(whole, value), what + " (read back whole)");
      double loadWritten = ctx().counters[Load].bytesWritten;
      void *again = makeArray(l, "W", TC_RT_INIT_INPUT, onDisk);
      loadWritten = ctx().counters[Load].bytesWritten - loadWritten;
      expectStorage(l, again, expectedStorage(l, value), what + " (read back cyclic)");
      EXPECT_EQ(loadWritten, onDisk ? 8.0 * l.held(me) : 0.0) << what;
      releaseArrays();
      ctx().options = saved;
      removeWhenAllDone(out);
    }
}

INSTANTIATE_TEST_SUITE_P(Storage, CyclicHdf5,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<bool, bool>> &info) {
                           return std::string(std::get<0>(info.param) ? "OnDisk" : "InMemory") +
                                  (std::get<1>(info.param) ? "SmallChunks" : "OneChunk");
                         });

//===----------------------------------------------------------------------===//
// Redistribution
//===----------------------------------------------------------------------===//

/// Whether holder `h` sends its elements to `r` (tc_rt_redistribute's rule):
/// h has r's coordinates along every grid dimension the source does not split.
bool sends(const Layout &src, int h, int r) {
  if (h == r || src.kind != TC_RT_DISTRIBUTED)
    return false;
  std::vector<int> hc = coordsOf(src.grid, h), rc = coordsOf(src.grid, r);
  for (size_t g = 0; g < src.grid.size(); ++g) {
    bool split = false;
    for (int64_t x : src.gridDims)
      split = split || x == static_cast<int64_t>(g);
    if (!split && hc[g] != rc[g])
      return false;
  }
  return true;
}

/// Source and destination layouts: block <-> cyclic, cyclic <-> cyclic
/// (other block sizes, the transposed mapping, another grid), replicated ->
/// cyclic, cyclic -> replicated and slab.
std::vector<std::pair<Layout, Layout>> redistributions() {
  const int64_t P = ctx().size;
  std::vector<std::pair<Layout, Layout>> out;
  for (const Shape &grid : grids()) {
    std::vector<Layout> cyc = cyclicLayouts(grid);
    for (const Layout &l : cyc) {
      Layout block = l;
      block.cyclic.clear();
      Layout slab = l.replicated();
      slab.kind = TC_RT_SLAB;
      out.push_back({block, l});
      out.push_back({l, block});
      out.push_back({l.replicated(), l});
      out.push_back({l, l.replicated()});
      out.push_back({l, slab});
    }
    if (grid.size() == 1) {
      out.push_back({cyc[0], cyc[1]}); // nb 2 -> 3
      out.push_back({cyc[2], cyc[0]}); // nb 5 -> 2
      out.push_back({cyc[1], cyc[3]}); // rows cyclic -> columns cyclic
    } else {
      out.push_back({cyc[0], cyc[1]}); // transposed mapping, other block sizes
      out.push_back({cyc[1], cyc[2]});
      Layout flat = cyc[0]; // onto the 1-d grid
      flat.grid = {P};
      flat.gridDims = {0, -1};
      flat.cyclic = {2, 0};
      out.push_back({cyc[0], flat});
      out.push_back({flat, cyc[1]});
    }
  }
  return out;
}

/// (on disk, small chunks)
class CyclicRedistribute : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(CyclicRedistribute, AnyTwoLayouts) {
  auto [onDisk, smallChunks] = GetParam();
  ChunkBytes chunks(smallChunks ? 2 * 8 : ctx().chunkBytes);
  RandomInputs random(kSeed);
  const int me = ctx().rank, P = ctx().size;
  for (const auto &[src, dst] : redistributions()) {
    std::string what = src.name() + " -> " + dst.name();
    void *s = makeArray(src, "R", TC_RT_INIT_INPUT, onDisk);
    void *d = makeArray(dst, "R", TC_RT_INIT_ZERO, !onDisk);
    Counters before = compute();
    tc_rt_redistribute(s, d);
    Counters after = compute();
    expectStorage(dst, d,
                  expectedStorage(dst, [&](const Shape &g) { return inputValue(dst, "R", g); }),
                  what);
    // Received: what it holds in the destination but not in the source. Sent:
    // what it holds of each destination it sends to.
    int64_t received = 0;
    std::vector<int64_t> sentTo(P, 0);
    forEachIndex(src.extents, [&](const Shape &g) {
      bool mine = src.storageIndex(me, g) >= 0;
      if (dst.storageIndex(me, g) >= 0 && !mine)
        ++received;
      for (int r = 0; r < P; ++r)
        if (mine && sends(src, me, r) && dst.storageIndex(r, g) >= 0)
          ++sentTo[r];
    });
    int64_t sent = 0;
    for (int64_t n : sentTo)
      sent += n;
    EXPECT_EQ(after.bytesReceived - before.bytesReceived, 8.0 * received) << what;
    EXPECT_EQ(after.bytesSent - before.bytesSent, 8.0 * sent) << what;
    releaseArrays();
  }
}

INSTANTIATE_TEST_SUITE_P(Storage, CyclicRedistribute,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<bool, bool>> &info) {
                           return std::string(std::get<0>(info.param) ? "FromDisk" : "ToDisk") +
                                  (std::get<1>(info.param) ? "SmallChunks" : "OneChunk");
                         });

TEST(CyclicShift, ShiftedArraysKeepTheirGlobalMeaning) {
  // tc_rt_shift_array along a cyclic dimension's grid dimension (PUMMA's roll):
  // coordinate c then holds the blocks of c + 1; redistributing to a whole
  // copy still gives the tensor, and a gather still brings every block.
  RandomInputs random(kSeed);
  for (const Shape &grid : grids())
    for (const Layout &l : cyclicLayouts(grid)) {
      for (int d = 0; d < l.rank(); ++d) {
        if (l.nb(d) == 0)
          continue;
        std::string what = l.name() + " shifted along the grid dimension of " +
                           std::to_string(d);
        void *a = makeArray(l, "H", TC_RT_INIT_INPUT, false);
        tc_rt_shift_array(a, l.gridDims[d]);
        Layout whole = l.replicated();
        void *b = makeArray(whole, "H", TC_RT_INIT_ZERO, false);
        tc_rt_redistribute(a, b);
        expectStorage(whole, b, expectedStorage(whole, [&](const Shape &g) {
                        return inputValue(l, "H", g);
                      }),
                      what);
        releaseArrays();
      }
    }
}

//===----------------------------------------------------------------------===//
// PUMMA's panels
//===----------------------------------------------------------------------===//

/// A panel of cyclic dimension `dim` of a layout, modulus M, residue r.
struct PanelCase {
  const Layout *l;
  int dim;
  int64_t modulus, residue;
  int g() const { return static_cast<int>(l->gridDims[dim]); }
  int64_t G() const { return l->grid[g()]; }
  int64_t nb() const { return l->cyclic[dim]; }
  std::string name() const {
    return l->name() + " panel of dimension " + std::to_string(dim) + ": " +
           std::to_string(residue) + " mod " + std::to_string(modulus);
  }
  /// The buffer: ceil(blocks / M) nb rows (one more for M = 2: a larger
  /// buffer is allowed), the padded storage in the other dimensions.
  Shape shape() const {
    Shape s = l->storeShape();
    s[dim] = ceilDiv(ceilDiv(l->extents[dim], nb()), modulus) * nb() + (modulus == 2 ? 1 : 0);
    return s;
  }
  /// Global index of panel row p of dim (-1 past the extent).
  int64_t globalRow(int64_t p) const {
    int64_t i = (residue + (p / nb()) * modulus) * nb() + p % nb();
    return i < l->extents[dim] ? i : -1;
  }
  /// The members of this process's group (the same coordinates but along g).
  std::vector<int> members() const {
    std::vector<int> out;
    for (int64_t m = 0; m < G(); ++m) {
      std::vector<int> at = coordsOf(l->grid, ctx().rank);
      at[g()] = static_cast<int>(m);
      out.push_back(rankOf(l->grid, at));
    }
    return out;
  }
  /// Global index of panel element j held by this process's group, or empty
  /// (padding: past the extent or past the real rows of another dimension).
  bool global(const Shape &j, Shape &out) const {
    out.assign(j.size(), 0);
    for (int e = 0; e < l->rank(); ++e) {
      out[e] = e == dim ? globalRow(j[e]) : l->globalAt(e, ctx().rank, j[e]);
      if (out[e] < 0)
        return false;
    }
    return true;
  }
  /// Elements of the panel `rank` holds.
  int64_t elems(int rank) const {
    int64_t rows = 0;
    for (int64_t I = residue; I * nb() < l->extents[dim]; I += modulus)
      if (l->local(dim, rank, I * nb()) >= 0)
        rows += std::min(nb(), l->extents[dim] - I * nb());
    for (int e = 0; e < l->rank(); ++e)
      if (e != dim)
        rows *= l->localLen(e, rank);
    return rows;
  }
};

/// Every panel of every cyclic dimension of the layouts on every grid, for
/// moduli 1, 2, 3, G and G + 1.
void forEachPanel(const std::function<void(const Layout &, void *array,
                                           const std::vector<PanelCase> &)> &fn,
                  const char *name, tc_rt_init init, bool onDisk) {
  for (const Shape &grid : grids())
    for (const Layout &l : cyclicLayouts(grid)) {
      std::vector<PanelCase> panels;
      for (int d = 0; d < l.rank(); ++d) {
        if (l.nb(d) == 0)
          continue;
        std::set<int64_t> moduli{1, 2, 3, grid[l.gridDims[d]], grid[l.gridDims[d]] + 1};
        for (int64_t M : moduli)
          for (int64_t r = 0; r < M; ++r)
            panels.push_back({&l, d, M, r});
      }
      void *a = makeArray(l, name, init, onDisk);
      fn(l, a, panels);
      releaseArrays();
    }
}

class CyclicPanels : public ::testing::TestWithParam<bool> {};

TEST_P(CyclicPanels, GatherBringsTheWholePanelToTheGroup) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  const int me = ctx().rank;
  forEachPanel(
      [&](const Layout &l, void *a, const std::vector<PanelCase> &panels) {
        for (const PanelCase &p : panels) {
          std::string what = p.name();
          Shape shape = p.shape();
          Desc desc = CyclicPanelDesc{p.dim, p.modulus, shape}.encode();
          std::vector<double> buf(product(shape), -7.0);
          Counters before = compute();
          tc_rt_gather_cyclic(a, buf.data(), desc.data(), p.residue);
          Counters after = compute();
          int bad = 0;
          forEachIndex(shape, [&](const Shape &j) {
            Shape g;
            double want = p.global(j, g) ? inputValue(l, "G", g) : 0.0;
            double got = buf[linearOf(shape, j)];
            if (got != want && bad++ < 5)
              ADD_FAILURE() << what << ": element " << str(j) << " is " << got
                            << ", expected " << want;
          });
          int64_t own = p.elems(me), others = 0;
          for (int m : p.members())
            if (m != me)
              others += p.elems(m);
          EXPECT_EQ(after.bytesSent - before.bytesSent, 8.0 * (p.G() - 1) * own) << what;
          EXPECT_EQ(after.bytesReceived - before.bytesReceived, 8.0 * others) << what;
          EXPECT_EQ(after.bytesRead - before.bytesRead, onDisk ? 8.0 * own : 0.0) << what;
          EXPECT_EQ(after.bytesWritten, before.bytesWritten) << what;
        }
      },
      "G", TC_RT_INIT_INPUT, onDisk);
}

/// The partial sum of `rank` at `global`: (rank + 1) * a small integer.
double partial(const Layout &l, int rank, const Shape &global) {
  return (rank + 1) * static_cast<double>(1 + linearOf(l.extents, global) % 97);
}

TEST_P(CyclicPanels, ReduceIncrementsTheOwnersStorage) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  const int me = ctx().rank;
  forEachPanel(
      [&](const Layout &l, void *a, const std::vector<PanelCase> &panels) {
        for (const PanelCase &p : panels) {
          std::string what = p.name();
          Shape shape = p.shape();
          Desc desc = CyclicPanelDesc{p.dim, p.modulus, shape}.encode();
          std::vector<double> buf(product(shape));
          forEachIndex(shape, [&](const Shape &j) {
            // Padding holds garbage: only real elements travel.
            Shape g;
            buf[linearOf(shape, j)] = p.global(j, g) ? partial(l, me, g) : -1000.0 * (me + 1);
          });
          std::vector<double> expect = storage(a);
          std::vector<int> members = p.members();
          forEachIndex(shape, [&](const Shape &j) {
            Shape g;
            if (!p.global(j, g))
              return;
            int64_t at = l.storageIndex(me, g);
            if (at < 0)
              return; // another member's block
            double sum = 0; // integers: exact in any order
            for (int m : members)
              sum += partial(l, m, g);
            expect[at] += sum;
          });
          Counters before = compute();
          tc_rt_reduce_cyclic(a, buf.data(), desc.data(), p.residue);
          Counters after = compute();
          int64_t own = p.elems(me), others = 0;
          for (int m : members)
            if (m != me)
              others += p.elems(m);
          EXPECT_EQ(after.bytesSent - before.bytesSent, 8.0 * others) << what;
          EXPECT_EQ(after.bytesReceived - before.bytesReceived, 8.0 * (p.G() - 1) * own)
              << what;
          EXPECT_EQ(after.bytesRead - before.bytesRead, onDisk ? 8.0 * own : 0.0) << what;
          EXPECT_EQ(after.bytesWritten - before.bytesWritten, onDisk ? 8.0 * own : 0.0) << what;
          expectStorage(l, a, expect, what);
        }
      },
      "Z", TC_RT_INIT_INPUT, onDisk);
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndOnDisk, CyclicPanels, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? std::string("OnDisk") : std::string("InMemory");
                         });

} // namespace
