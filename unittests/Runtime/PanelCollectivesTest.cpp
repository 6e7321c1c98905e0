//===- PanelCollectivesTest.cpp - split arrays and their tile collectives ---===//
//
// Arrays with a split dimension (TC_RT_ARRAY_DIM_SPLIT_DIM, COSMA's nested
// blocks) on every 2-d and 3-d grid of the world size, with extents that do not
// divide: what each process stores, tc_rt_gather_tile(_start)/tc_rt_wait and
// tc_rt_reduce_scatter_tile on tiles inside and across the block's edge, in
// memory and on disk, the exact bytes sent, received and read, the HDF5 output
// and redistribution. The expectations come from the block arithmetic written
// out here again, not from the runtime's helpers.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "TestArrays.h"

#include "TC/Layout/Ownership.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

using namespace tc_rt;
using tc_rt::test::compute;
using tc_rt::test::makeGridArray;
using tc_rt::test::RandomInputs;
using tc_rt::test::removeWhenAllDone;
using tc_rt::test::storeCountingReads;

namespace {

const uint64_t kSeed = 17;

using tc_layout::ceilDiv;
int64_t nonNegative(int64_t x) { return std::max<int64_t>(0, x); }

/// An array over a grid with one split dimension.
struct Case {
  Shape grid, extents, gridDims, splitDims;
  int splitDimension() const {
    for (size_t d = 0; d < splitDims.size(); ++d)
      if (splitDims[d] >= 0)
        return static_cast<int>(d);
    return -1;
  }
  int splitGridDim() const { return static_cast<int>(splitDims[splitDimension()]); }
  std::string name() const {
    return "grid " + str(grid) + " extents " + str(extents) + " dims " + str(gridDims) +
           " split " + str(splitDims);
  }
};

/// Every 2-d and 3-d grid of the world size, two arrays on each; and the same
/// on one process fewer (the last rank idle: COSMA's idle ranks, Kwasniewski et
/// al. section 7.1).
std::vector<Case> cases() {
  std::vector<Case> out;
  for (int64_t P : {int64_t(ctx().size), int64_t(ctx().size) - 1}) {
    if (P < 1)
      continue;
    for (int64_t x = 1; x <= P; ++x) {
      if (P % x)
        continue;
      Shape grid{x, P / x};
      out.push_back({grid, {7, 13}, {0, -1}, {1, -1}}); // rows along 0, sub-blocks along 1
      out.push_back({grid, {13, 5}, {-1, 1}, {-1, 0}}); // columns along 1, sub-blocks along 0
    }
    for (int64_t x = 1; x <= P; ++x)
      for (int64_t y = 1; x * y <= P; ++y) {
        if (P % (x * y))
          continue;
        Shape grid{x, y, P / (x * y)};
        out.push_back({grid, {5, 7, 13}, {0, 1, -1}, {-1, 2, -1}});
        out.push_back({grid, {6, 5, 9}, {1, -1, 0}, {-1, -1, 2}});
      }
  }
  return out;
}

/// Grid coordinates of `rank`; none past the grid (an idle rank).
std::vector<int> coordsOf(const Shape &grid, int rank) {
  if (rank >= product(grid))
    return {};
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

/// The block arithmetic at grid coordinates `at`, per dimension.
struct Layout {
  Shape padded;     ///< padded block size B = ceil(extent / parts)
  Shape blockStart; ///< global
  Shape blockLen;
  Shape subStart, subLen; ///< block-relative: the stored rows
  Shape storeShape;       ///< padded sub-block (split dims) or block
};

/// No coordinates (an idle rank): the padded sizes, an empty block, nothing
/// stored.
Layout layoutAt(const Case &k, const std::vector<int> &at) {
  Layout l;
  for (size_t d = 0; d < k.extents.size(); ++d) {
    int64_t e = k.extents[d], gd = k.gridDims[d], sd = k.splitDims[d];
    int64_t p = gd >= 0 ? k.grid[gd] : 1;
    int64_t b = ceilDiv(e, p);
    if (at.empty()) {
      l.padded.push_back(b);
      for (Shape *v : {&l.blockStart, &l.blockLen, &l.subStart, &l.subLen, &l.storeShape})
        v->push_back(0);
      continue;
    }
    int64_t bs = (gd >= 0 ? at[gd] : 0) * b;
    int64_t bl = nonNegative(std::min(b, e - bs));
    l.padded.push_back(b);
    l.blockStart.push_back(bs);
    l.blockLen.push_back(bl);
    if (sd >= 0) { // balanced sub-blocks, stored padded to ceil(b / q)
      int64_t q = k.grid[sd], c = at[sd];
      l.subStart.push_back(c * (bl / q) + std::min(c, bl % q));
      l.subLen.push_back(bl / q + (c < bl % q ? 1 : 0));
      l.storeShape.push_back(ceilDiv(b, q));
    } else {
      l.subStart.push_back(0);
      l.subLen.push_back(bl);
      l.storeShape.push_back(b);
    }
  }
  return l;
}

std::vector<int> myCoords(const Case &k) { return coordsOf(k.grid, ctx().rank); }

/// Grid coordinates of the members of this process's group along the split
/// grid dimension, by coordinate (none for an idle rank).
std::vector<std::vector<int>> group(const Case &k) {
  std::vector<std::vector<int>> members;
  if (myCoords(k).empty())
    return members;
  for (int64_t m = 0; m < k.grid[k.splitGridDim()]; ++m) {
    std::vector<int> at = myCoords(k);
    at[k.splitGridDim()] = static_cast<int>(m);
    members.push_back(at);
  }
  return members;
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

int64_t linearOf(const Shape &extents, const Shape &global) {
  int64_t n = 0;
  for (size_t d = 0; d < extents.size(); ++d)
    n = n * extents[d] + global[d];
  return n;
}

/// The --random-inputs value of the element at `global`.
double inputValue(const Case &k, const std::string &name, const Shape &global) {
  return randomValue(kSeed, name, static_cast<uint64_t>(linearOf(k.extents, global)));
}

/// A tile: block-relative offsets and shape.
struct Tile {
  Shape offsets, shape;
  std::string name() const { return "tile at " + str(offsets) + " of shape " + str(shape); }
};

/// Per dimension: the whole padded block, a piece inside, and a piece across
/// the block's edge (into the padding); every combination.
std::vector<Tile> tiles(const Case &k) {
  Layout l = layoutAt(k, myCoords(k)); // the padded size is every process's
  std::vector<std::vector<std::pair<int64_t, int64_t>>> options;
  for (int64_t b : l.padded)
    options.push_back({{0, b}, {1, std::max<int64_t>(1, b / 2)}, {std::max<int64_t>(0, b - 2), 3}});
  std::vector<Tile> out;
  Shape choice(options.size(), 3);
  forEachIndex(choice, [&](const Shape &c) {
    Tile t;
    for (size_t d = 0; d < c.size(); ++d) {
      t.offsets.push_back(options[d][c[d]].first);
      t.shape.push_back(options[d][c[d]].second);
    }
    out.push_back(t);
  });
  return out;
}

/// Elements of tile `t` inside the sub-block held at `at` (clipped to the block).
int64_t partElems(const Case &k, const std::vector<int> &at, const Tile &t) {
  Layout l = layoutAt(k, at);
  int64_t n = 1;
  for (size_t d = 0; d < t.shape.size(); ++d) {
    int64_t lo = std::max(t.offsets[d], l.subStart[d]);
    int64_t hi = std::min({t.offsets[d] + t.shape[d], l.blockLen[d], l.subStart[d] + l.subLen[d]});
    n *= nonNegative(hi - lo);
  }
  return n;
}

/// This process's group exchanging tile `t`: the q members, the elements of t
/// in its own part, in the others' and in the previous member's (all 0 on an
/// idle rank, in no group).
struct GroupParts {
  int64_t q = 0, own = 0, others = 0, previous = 0;
  /// A gather's bytes: the own part to every other member, theirs in.
  double gatherSent() const { return q ? 8.0 * own * (q - 1) : 0.0; }
  double gatherReceived() const { return 8.0 * others; }
  /// The ring reduce-scatter's: every part but the own one out, every part
  /// but the previous member's in.
  double ringSent() const { return 8.0 * others; }
  double ringReceived() const { return q > 1 ? 8.0 * (own + others - previous) : 0.0; }
};
GroupParts groupParts(const Case &k, const Tile &t) {
  GroupParts g;
  auto members = group(k);
  if (members.empty())
    return g;
  const int me = myCoords(k)[k.splitGridDim()];
  g.q = static_cast<int64_t>(members.size());
  g.own = partElems(k, members[me], t);
  g.previous = partElems(k, members[(me + g.q - 1) % g.q], t);
  for (size_t m = 0; m < members.size(); ++m)
    if (static_cast<int>(m) != me)
      g.others += partElems(k, members[m], t);
  return g;
}

/// True if element `j` of tile `t` is inside the block (`inSub`: inside this
/// process's sub-block too).
bool inBlock(const Layout &l, const Tile &t, const Shape &j, bool inSub = false) {
  for (size_t d = 0; d < j.size(); ++d) {
    int64_t r = t.offsets[d] + j[d];
    if (r >= l.blockLen[d])
      return false;
    if (inSub && (r < l.subStart[d] || r >= l.subStart[d] + l.subLen[d]))
      return false;
  }
  return true;
}

Shape globalOf(const Layout &l, const Tile &t, const Shape &j) {
  Shape g(j.size());
  for (size_t d = 0; d < j.size(); ++d)
    g[d] = l.blockStart[d] + t.offsets[d] + j[d];
  return g;
}

/// The array's storage, read directly.
std::vector<double> storage(void *array) {
  DistArray &a = *static_cast<DistArray *>(array);
  std::vector<double> s(product(a.storeShape));
  storageIO(a, true, s.data(), 0, static_cast<int64_t>(s.size()), "the test's check");
  return s;
}

/// The storage holds this process's sub-block of the input, zero padding.
void expectStoresSubBlock(const Case &k, void *array, const std::string &name,
                          const std::string &what) {
  Layout l = layoutAt(k, myCoords(k));
  DistArray &a = *static_cast<DistArray *>(array);
  ASSERT_EQ(a.storeShape, l.storeShape) << what;
  std::vector<double> s = storage(array);
  Shape stride = Shape(l.storeShape.size(), 1);
  for (int d = static_cast<int>(stride.size()) - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * l.storeShape[d + 1];
  int bad = 0;
  forEachIndex(l.storeShape, [&](const Shape &i) {
    bool inside = true;
    Shape global(i.size());
    int64_t at = 0;
    for (size_t d = 0; d < i.size(); ++d) {
      inside = inside && i[d] < l.subLen[d];
      global[d] = l.blockStart[d] + l.subStart[d] + i[d];
      at += i[d] * stride[d];
    }
    double expect = inside ? inputValue(k, name, global) : 0.0;
    if (s[at] != expect && bad++ < 5)
      ADD_FAILURE() << what << ": storage " << str(i) << " holds " << s[at] << ", expected "
                    << expect;
  });
}

class SplitArrays : public ::testing::TestWithParam<bool> {};

TEST_P(SplitArrays, StoreTheirSubBlock) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  for (const Case &k : cases()) {
    void *a = makeGridArray("S", k.extents, k.grid, k.gridDims, k.splitDims, TC_RT_INIT_INPUT,
                            onDisk);
    expectStoresSubBlock(k, a, "S", k.name());
    DistArray &x = *static_cast<DistArray *>(a);
    Layout l = layoutAt(k, myCoords(k));
    int sd = k.splitDimension();
    EXPECT_EQ(x.splitDimension(), sd);
    EXPECT_EQ(x.splitGridDim(), k.splitGridDim());
    EXPECT_EQ(x.subStart(sd), l.subStart[sd]) << k.name();
    EXPECT_EQ(x.subLen(sd), l.subLen[sd]) << k.name();
    EXPECT_EQ(x.blockLen(sd), l.blockLen[sd]) << k.name(); // the compute view is the block
    releaseArrays();
  }
}

TEST_P(SplitArrays, GatherAssemblesTheTileAndCountsItsBytes) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  for (const Case &k : cases()) {
    void *a = makeGridArray("G", k.extents, k.grid, k.gridDims, k.splitDims, TC_RT_INIT_INPUT,
                            onDisk);
    Layout l = layoutAt(k, myCoords(k));
    for (const Tile &t : tiles(k)) {
      std::string what = k.name() + " " + t.name();
      Desc desc = TileDesc{t.shape}.encode();
      std::vector<double> buf(product(t.shape), -7.0);
      Counters before = compute();
      tc_rt_gather_tile(a, buf.data(), desc.data(), t.offsets.data());
      Counters after = compute();
      int bad = 0;
      forEachIndex(t.shape, [&](const Shape &j) {
        double expect = inBlock(l, t, j) ? inputValue(k, "G", globalOf(l, t, j)) : 0.0;
        double got = buf[linearOf(t.shape, j)];
        if (got != expect && bad++ < 5)
          ADD_FAILURE() << what << ": element " << str(j) << " is " << got << ", expected "
                        << expect;
      });
      GroupParts g = groupParts(k, t);
      EXPECT_EQ(after.bytesSent - before.bytesSent, g.gatherSent()) << what;
      EXPECT_EQ(after.bytesReceived - before.bytesReceived, g.gatherReceived()) << what;
      EXPECT_EQ(after.bytesRead - before.bytesRead, onDisk ? 8.0 * g.own : 0.0) << what;
      EXPECT_EQ(after.bytesWritten, before.bytesWritten) << what;
    }
    releaseArrays();
  }
}

TEST_P(SplitArrays, TwoOutstandingGathersOnTwoBuffers) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  for (const Case &k : cases()) {
    void *a = makeGridArray("D", k.extents, k.grid, k.gridDims, k.splitDims, TC_RT_INIT_INPUT,
                            onDisk);
    Layout l = layoutAt(k, myCoords(k));
    std::vector<Tile> ts = tiles(k);
    for (size_t i = 0; i + 1 < ts.size(); i += 2) {
      const Tile &t0 = ts[i], &t1 = ts[i + 1];
      std::string what = k.name() + " " + t0.name() + " and " + t1.name();
      Desc d0 = TileDesc{t0.shape}.encode(), d1 = TileDesc{t1.shape}.encode();
      std::vector<double> b0(product(t0.shape), -1.0), b1(product(t1.shape), -2.0);
      Counters before = compute();
      void *r0 = tc_rt_gather_tile_start(a, b0.data(), d0.data(), t0.offsets.data());
      void *r1 = tc_rt_gather_tile_start(a, b1.data(), d1.data(), t1.offsets.data());
      Counters started = compute();
      tc_rt_wait(r1); // completes in either order
      tc_rt_wait(r0);
      Counters after = compute();
      double sent = 0, received = 0;
      for (const Tile *t : {&t0, &t1}) {
        sent += groupParts(k, *t).gatherSent();
        received += groupParts(k, *t).gatherReceived();
      }
      // Counted when the messages start.
      EXPECT_EQ(started.bytesSent - before.bytesSent, sent) << what;
      EXPECT_EQ(started.bytesReceived - before.bytesReceived, received) << what;
      EXPECT_EQ(after.bytesSent, started.bytesSent) << what;
      EXPECT_EQ(after.bytesReceived, started.bytesReceived) << what;
      int bad = 0;
      for (auto [t, buf] : {std::make_pair(&t0, &b0), std::make_pair(&t1, &b1)})
        forEachIndex(t->shape, [&](const Shape &j) {
          double expect = inBlock(l, *t, j) ? inputValue(k, "D", globalOf(l, *t, j)) : 0.0;
          double got = (*buf)[linearOf(t->shape, j)];
          if (got != expect && bad++ < 5)
            ADD_FAILURE() << what << ": " << t->name() << " element " << str(j) << " is "
                          << got << ", expected " << expect;
        });
    }
    releaseArrays();
  }
}

/// The partial sum of member `rank` at `global`: (rank + 1) * a small integer
/// (sums are exact).
double partial(const Case &k, int rank, const Shape &global) {
  return (rank + 1) * static_cast<double>(1 + linearOf(k.extents, global) % 97);
}

TEST_P(SplitArrays, ReduceScatterSumsTheOwnPart) {
  const bool onDisk = GetParam();
  for (const Case &k : cases()) {
    void *a = makeGridArray("Z", k.extents, k.grid, k.gridDims, k.splitDims, TC_RT_INIT_ZERO,
                            onDisk);
    Layout l = layoutAt(k, myCoords(k));
    auto members = group(k);
    for (const Tile &t : tiles(k)) {
      std::string what = k.name() + " " + t.name();
      Desc desc = TileDesc{t.shape}.encode();
      std::vector<double> buf(product(t.shape));
      forEachIndex(t.shape, [&](const Shape &j) {
        // Padding holds garbage: only real elements travel.
        buf[linearOf(t.shape, j)] = inBlock(l, t, j) ? partial(k, ctx().rank, globalOf(l, t, j))
                                                     : -1000.0 * (ctx().rank + 1);
      });
      Counters before = compute();
      tc_rt_reduce_scatter_tile(a, buf.data(), desc.data(), t.offsets.data());
      Counters after = compute();
      auto sum = [&](const Shape &j) {
        double s = 0;
        for (const auto &at : members)
          s += partial(k, rankOf(k.grid, at), globalOf(l, t, j));
        return s;
      };
      int bad = 0;
      forEachIndex(t.shape, [&](const Shape &j) {
        if (!inBlock(l, t, j, /*inSub=*/true))
          return;
        double got = buf[linearOf(t.shape, j)];
        if (got != sum(j) && bad++ < 5)
          ADD_FAILURE() << what << ": element " << str(j) << " is " << got << ", expected "
                        << sum(j);
      });
      GroupParts g = groupParts(k, t);
      EXPECT_EQ(after.bytesSent - before.bytesSent, g.ringSent()) << what;
      EXPECT_EQ(after.bytesReceived - before.bytesReceived, g.ringReceived()) << what;
      const int64_t own = g.own;
      EXPECT_EQ(after.bytesRead, before.bytesRead) << what; // storage untouched
      EXPECT_EQ(after.bytesWritten, before.bytesWritten) << what;

      // tc_rt_write_tile stores the own part; reading it back gives the sums
      // there and zeros elsewhere.
      tc_rt_write_tile(a, buf.data(), desc.data(), t.offsets.data());
      Counters written = compute();
      std::vector<double> back(product(t.shape), -3.0);
      tc_rt_read_tile(a, back.data(), desc.data(), t.offsets.data());
      Counters read = compute();
      EXPECT_EQ(written.bytesWritten - after.bytesWritten, onDisk ? 8.0 * own : 0.0) << what;
      EXPECT_EQ(read.bytesRead - written.bytesRead, onDisk ? 8.0 * own : 0.0) << what;
      forEachIndex(t.shape, [&](const Shape &j) {
        double expect = inBlock(l, t, j, /*inSub=*/true) ? sum(j) : 0.0;
        double got = back[linearOf(t.shape, j)];
        if (got != expect && bad++ < 5)
          ADD_FAILURE() << what << ": read back " << str(j) << " is " << got << ", expected "
                        << expect;
      });
    }
    releaseArrays();
  }
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndOnDisk, SplitArrays, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? std::string("OnDisk") : std::string("InMemory");
                         });

TEST(SplitArrayStore, WritesEveryElementOnce) {
  // On disk, storing reads each process's written part from its scratch file:
  // the store phase's reads summed over the ranks are the tensor, once.
  const int64_t P = ctx().size;
  std::string out = "/tmp/tc-split-store-" + std::to_string(ctx().jobId) + ".h5";
  for (const Case &k : cases()) {
    double read = 0;
    {
      RandomInputs random(kSeed);
      ctx().options.output = out;
      void *a = makeGridArray("W", k.extents, k.grid, k.gridDims, k.splitDims,
                              TC_RT_INIT_INPUT, /*onDisk=*/true);
      read = storeCountingReads(a);
      releaseArrays();
    }
    double total = 0;
    MPI_Allreduce(&read, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(total, 8.0 * product(k.extents)) << k.name();
    // Read the file back whole on every process.
    Options saved = ctx().options;
    ctx().options.inputs["W"] = out;
    void *back = makeGridArray("W", k.extents, {P}, Shape(k.extents.size(), -1), {},
                               TC_RT_INIT_INPUT, false);
    DistArray &b = *static_cast<DistArray *>(back);
    int bad = 0;
    forEachIndex(k.extents, [&](const Shape &g) {
      double got = b.mem()[linearOf(k.extents, g)], expect = inputValue(k, "W", g);
      if (got != expect && bad++ < 5)
        ADD_FAILURE() << k.name() << ": output " << str(g) << " is " << got << ", expected "
                      << expect;
    });
    releaseArrays();
    ctx().options = saved;
    removeWhenAllDone(out);
  }
}

TEST(SplitArrayRedistribute, BothWays) {
  // Split -> whole on every process, and whole -> split: the values arrive, each
  // element from its one holder.
  RandomInputs random(kSeed);
  const int64_t P = ctx().size;
  for (const Case &k : cases()) {
    Shape whole(k.extents.size(), -1);
    int64_t own = product(layoutAt(k, myCoords(k)).subLen);
    void *split = makeGridArray("R", k.extents, k.grid, k.gridDims, k.splitDims,
                                TC_RT_INIT_INPUT, false);
    void *all = makeGridArray("R", k.extents, {P}, whole, {}, TC_RT_INIT_ZERO, false);
    double received = compute().bytesReceived;
    tc_rt_redistribute(split, all);
    received = compute().bytesReceived - received;
    EXPECT_EQ(received, 8.0 * (product(k.extents) - own)) << k.name();
    DistArray &x = *static_cast<DistArray *>(all);
    int bad = 0;
    forEachIndex(k.extents, [&](const Shape &g) {
      double got = x.mem()[linearOf(k.extents, g)], expect = inputValue(k, "R", g);
      if (got != expect && bad++ < 5)
        ADD_FAILURE() << k.name() << ": " << str(g) << " is " << got << ", expected " << expect;
    });
    void *again = makeGridArray("R", k.extents, k.grid, k.gridDims, k.splitDims,
                                TC_RT_INIT_ZERO, true);
    tc_rt_redistribute(all, again); // all local
    expectStoresSubBlock(k, again, "R", k.name() + " (redistributed)");
    releaseArrays();
  }
}

} // namespace
