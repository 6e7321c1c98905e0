//===- IdleRanksTest.cpp - grids of fewer processes than the run ----------===//
//
// COSMA may leave ranks idle (Kwasniewski et al. section 7.1, Fig. 5: 65 ranks
// run on a [4, 4, 4] grid): an array's grid may have fewer processes than the
// run. The ranks past it hold nothing (a zero-sized block, no memory, no
// scratch file), have no coordinates (tc_rt_grid_coord is -1), skip what acts
// within the grid and still take part in what spans every rank. Checked here
// on every world size from 2 on, on grids of every smaller process count:
// storage, coordinates, tile reads and writes, block-cyclic panel collectives,
// redistribution to and from a full grid, the HDF5 output and the process
// count check. PanelCollectivesTest.cpp runs its split-array tests (gathers,
// reduce-scatters, their bytes) on grids of one process fewer too.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "TestArrays.h"

#include "TC/Layout/Ownership.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

using namespace tc_rt;
using tc_rt::test::compute;
using tc_rt::test::makeGridArray;
using tc_rt::test::RandomInputs;
using tc_rt::test::removeWhenAllDone;
using tc_rt::test::storeCountingReads;

namespace {

const uint64_t kSeed = 29;

using tc_layout::ceilDiv;

double inputValue(const std::string &name, const Shape &extents, const Shape &global) {
  int64_t linear = 0;
  for (size_t d = 0; d < extents.size(); ++d)
    linear = linear * extents[d] + global[d];
  return randomValue(kSeed, name, static_cast<uint64_t>(linear));
}

/// Grids of every process count below the world's: [G], [1, G], [G, 1, 1] and,
/// when G is even, [2, G / 2, 1].
std::vector<Shape> smallerGrids() {
  std::vector<Shape> out;
  for (int64_t G = 1; G < ctx().size; ++G) {
    out.push_back({G});
    out.push_back({1, G});
    out.push_back({G, 1, 1});
    if (G % 2 == 0)
      out.push_back({2, G / 2, 1});
  }
  return out;
}

/// Row-major coordinates of `rank` on `grid`; none past it.
std::vector<int> coordsOf(const Shape &grid, int rank) {
  if (rank >= product(grid))
    return {};
  std::vector<int> c(grid.size());
  for (int g = static_cast<int>(grid.size()) - 1; g >= 0; --g) {
    c[g] = rank % static_cast<int>(grid[g]);
    rank /= static_cast<int>(grid[g]);
  }
  return c;
}

/// A [13, 11] array on `grid`: rows along grid dimension 0, split again along
/// the last grid dimension when it has two or more.
void *rowArray(const char *name, const Shape &grid, tc_rt_init init, bool onDisk) {
  Shape split = {grid.size() > 1 ? static_cast<int64_t>(grid.size()) - 1 : -1, -1};
  return makeGridArray(name, {13, 11}, grid, {0, -1}, split, init, onDisk);
}

class IdleRanks : public ::testing::TestWithParam<bool> {};

TEST_P(IdleRanks, HoldNothingAndHaveNoCoordinates) {
  RandomInputs random(kSeed);
  const bool onDisk = GetParam();
  const int me = ctx().rank;
  for (const Shape &grid : smallerGrids()) {
    std::string what = "grid " + str(grid);
    Counters before = ctx().counters[Load];
    void *x = rowArray("H", grid, TC_RT_INIT_INPUT, onDisk);
    double loaded = ctx().counters[Load].bytesWritten - before.bytesWritten;
    DistArray &a = *static_cast<DistArray *>(x);
    std::vector<int> at = coordsOf(grid, me);
    EXPECT_EQ(a.idle, at.empty()) << what;
    for (size_t g = 0; g < grid.size(); ++g)
      EXPECT_EQ(tc_rt_grid_coord(x, static_cast<int64_t>(g)), at.empty() ? -1 : at[g])
          << what;
    // Rows of the block held (a sub-block when split along the last dimension).
    int64_t block = ceilDiv(13, grid[0]);
    int64_t q = grid.size() > 1 ? grid.back() : 1, sub = ceilDiv(block, q);
    if (at.empty()) {
      EXPECT_EQ(a.storeShape, Shape({0, 0})) << what;
      EXPECT_EQ(a.fd, -1) << what;
      EXPECT_TRUE(a.path.empty()) << what;
      EXPECT_EQ(loaded, 0.0) << what;
    } else {
      EXPECT_EQ(a.storeShape, Shape({sub, 11})) << what;
      EXPECT_EQ(a.onDisk, a.fd >= 0) << what;
    }
    // A tile of the whole padded block: the own rows' values on the grid,
    // zeros (and no bytes) on an idle rank.
    Shape shape{block, 11}, offsets{0, 0};
    Desc desc = TileDesc{shape}.encode();
    std::vector<double> buf(product(shape), -5.0);
    Counters c0 = compute();
    tc_rt_read_tile(x, buf.data(), desc.data(), offsets.data());
    Counters c1 = compute();
    int64_t start = at.empty() ? 0 : at[0] * block;
    int64_t len = at.empty() ? 0 : std::max<int64_t>(0, std::min(block, 13 - start));
    // Balanced sub-blocks: the first len mod q members hold one row more.
    int64_t c = at.empty() || q == 1 ? 0 : at.back();
    int64_t lo = c * (len / q) + std::min(c, len % q);
    int64_t hi = at.empty() ? 0 : lo + len / q + (c < len % q ? 1 : 0);
    int bad = 0;
    for (int64_t r = 0; r < block; ++r)
      for (int64_t c = 0; c < 11; ++c) {
        bool held = !at.empty() && r >= lo && r < hi;
        double want = held ? inputValue("H", {13, 11}, {start + r, c}) : 0.0;
        if (buf[r * 11 + c] != want && bad++ < 3)
          ADD_FAILURE() << what << ": [" << r << ", " << c << "] is " << buf[r * 11 + c]
                        << ", expected " << want;
      }
    EXPECT_EQ(c1.bytesRead - c0.bytesRead, onDisk ? 8.0 * 11 * std::max<int64_t>(0, hi - lo) : 0)
        << what;
    // Writing it back touches nothing on an idle rank.
    tc_rt_write_tile(x, buf.data(), desc.data(), offsets.data());
    Counters c2 = compute();
    if (at.empty()) {
      EXPECT_EQ(c2.bytesWritten, c1.bytesWritten) << what;
      // A gather of the split array: zeros, no messages.
      if (q > 1) {
        std::vector<double> g(product(shape), -3.0);
        void *request = tc_rt_gather_tile_start(x, g.data(), desc.data(), offsets.data());
        EXPECT_EQ(request, nullptr) << what;
        tc_rt_wait(request);
        for (double v : g)
          EXPECT_EQ(v, 0.0) << what;
        tc_rt_reduce_scatter_tile(x, g.data(), desc.data(), offsets.data());
        EXPECT_EQ(compute().bytesSent, c2.bytesSent) << what;
        EXPECT_EQ(compute().bytesReceived, c2.bytesReceived) << what;
      }
    } else if (q > 1) {
      // Every member of the group calls the collectives; idle ranks do not.
      std::vector<double> g(product(shape), -3.0);
      tc_rt_gather_tile(x, g.data(), desc.data(), offsets.data());
      for (int64_t r = 0; r < len; ++r)
        EXPECT_EQ(g[r * 11], inputValue("H", {13, 11}, {start + r, 0})) << what;
      tc_rt_reduce_scatter_tile(x, g.data(), desc.data(), offsets.data());
    }
    releaseArrays();
  }
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndOnDisk, IdleRanks, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? std::string("OnDisk") : std::string("InMemory");
                         });

TEST(IdleRanksRedistribute, ToAndFromAFullGrid) {
  // A distributed array on a grid of fewer processes -> whole on every process
  // -> back: the idle ranks receive everything from one holder of each block
  // and send nothing; the array holds its input again.
  RandomInputs random(kSeed);
  const int64_t P = ctx().size;
  for (const Shape &grid : smallerGrids()) {
    std::string what = "grid " + str(grid);
    void *part = rowArray("R", grid, TC_RT_INIT_INPUT, false);
    void *whole = makeGridArray("R", {13, 11}, {P}, {-1, -1}, {}, TC_RT_INIT_ZERO, false);
    DistArray &p = *static_cast<DistArray *>(part);
    double held = static_cast<double>(product(p.storeShape)); // padded: an upper bound
    Counters before = compute();
    tc_rt_redistribute(part, whole);
    Counters after = compute();
    if (p.idle) {
      EXPECT_EQ(after.bytesSent, before.bytesSent) << what;
      EXPECT_EQ(after.bytesReceived - before.bytesReceived, 8.0 * 13 * 11) << what;
    } else {
      EXPECT_GE(after.bytesReceived - before.bytesReceived, 8.0 * (13 * 11 - held)) << what;
    }
    DistArray &w = *static_cast<DistArray *>(whole);
    int bad = 0;
    for (int64_t r = 0; r < 13; ++r)
      for (int64_t c = 0; c < 11; ++c)
        if (w.mem()[r * 11 + c] != inputValue("R", {13, 11}, {r, c}) && bad++ < 3)
          ADD_FAILURE() << what << ": [" << r << ", " << c << "] is " << w.mem()[r * 11 + c];
    // Back onto the smaller grid (all local: every rank holds everything).
    void *again = rowArray("R", grid, TC_RT_INIT_ZERO, true);
    tc_rt_redistribute(whole, again);
    DistArray &x = *static_cast<DistArray *>(again);
    std::vector<double> s(product(x.storeShape));
    storageIO(x, true, s.data(), 0, static_cast<int64_t>(s.size()), "the test's check");
    std::vector<double> t(product(p.storeShape));
    storageIO(p, true, t.data(), 0, static_cast<int64_t>(t.size()), "the test's check");
    EXPECT_EQ(s, t) << what;
    releaseArrays();
  }
}

TEST(IdleRanksStore, WritesEveryElementOnce) {
  // The output of an array with idle ranks: created and closed by every rank,
  // each element written by its one holder.
  RandomInputs random(kSeed);
  const int64_t P = ctx().size;
  std::string out = "/tmp/tc-idle-store-" + std::to_string(ctx().jobId) + ".h5";
  for (const Shape &grid : smallerGrids()) {
    std::string what = "grid " + str(grid);
    {
      Options saved = ctx().options;
      ctx().options.output = out;
      void *a = rowArray("W", grid, TC_RT_INIT_INPUT, true);
      double read = storeCountingReads(a), total = 0;
      MPI_Allreduce(&read, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      EXPECT_EQ(total, 8.0 * 13 * 11) << what;
      if (static_cast<DistArray *>(a)->idle) {
        EXPECT_EQ(read, 0.0) << what;
      }
      releaseArrays();
      ctx().options = saved;
    }
    Options saved = ctx().options;
    ctx().options.inputs["W"] = out;
    void *back = makeGridArray("W", {13, 11}, {P}, {-1, -1}, {}, TC_RT_INIT_INPUT, false);
    DistArray &b = *static_cast<DistArray *>(back);
    int bad = 0;
    for (int64_t r = 0; r < 13; ++r)
      for (int64_t c = 0; c < 11; ++c)
        if (b.mem()[r * 11 + c] != inputValue("W", {13, 11}, {r, c}) && bad++ < 3)
          ADD_FAILURE() << what << ": output [" << r << ", " << c << "] is "
                        << b.mem()[r * 11 + c];
    releaseArrays();
    ctx().options = saved;
    removeWhenAllDone(out);
  }
}

TEST(IdleRanksCyclic, PanelsSkipTheIdleRanks) {
  // A [13, 5] array, rows block-cyclic (nb = 2) along grid dimension 0 of
  // [G, 1]: the panel of residue r modulo 2 gathers global rows (r + 2t) 2 + x
  // on the grid; an idle rank's buffer stays zero and it moves nothing.
  RandomInputs random(kSeed);
  for (int64_t G = 1; G < ctx().size; ++G) {
    Shape grid{G, 1};
    std::string what = "grid " + str(grid);
    void *x = tc_rt_array(arrayDescription({13, 5}, grid, {0, -1}, TC_RT_DISTRIBUTED,
                                           TC_RT_INIT_INPUT, false, {}, {2, 0})
                              .data(),
                          "Y", nullptr);
    DistArray &a = *static_cast<DistArray *>(x);
    Shape shape{ceilDiv(ceilDiv(13, 2), 2) * 2, 5};
    for (int64_t r = 0; r < 2; ++r) {
      Desc desc = CyclicPanelDesc{0, 2, shape}.encode();
      std::vector<double> buf(product(shape), -7.0);
      Counters before = compute();
      tc_rt_gather_cyclic(x, buf.data(), desc.data(), r);
      Counters after = compute();
      for (int64_t row = 0; row < shape[0]; ++row) {
        int64_t global = (r + 2 * (row / 2)) * 2 + row % 2;
        for (int64_t c = 0; c < 5; ++c) {
          double want =
              !a.idle && global < 13 ? inputValue("Y", {13, 5}, {global, c}) : 0.0;
          EXPECT_EQ(buf[row * 5 + c], want) << what << " residue " << r << " row " << row;
        }
      }
      if (a.idle) {
        EXPECT_EQ(after.bytesSent, before.bytesSent) << what;
        EXPECT_EQ(after.bytesReceived, before.bytesReceived) << what;
        tc_rt_reduce_cyclic(x, buf.data(), desc.data(), r); // nothing to do
        EXPECT_EQ(compute().bytesSent, before.bytesSent) << what;
      }
    }
    releaseArrays();
  }
}

TEST(IdleRanksProcs, TheRunMustHaveThePlannedProcessCount) {
  // Grids may be smaller than the run, the run not other than planned.
  EXPECT_EQ(procsMismatch({ctx().size}), "");
  tc_rt_check_procs(ctx().size); // returns: a mismatch would end the run
  EXPECT_EQ(procsMismatch({ctx().size + 1}),
            "the program was planned for " + std::to_string(ctx().size + 1) +
                " processes but runs on " + std::to_string(ctx().size) + " (use mpirun -np " +
                std::to_string(ctx().size + 1) + ", or compile it again with --procs " +
                std::to_string(ctx().size) + ")");
}

TEST(IdleRanksProcs, AProgramPlannedForSeveralCountsSelectsTheRunsOne) {
  const int64_t p = ctx().size;
  // Registered twice (a --repeat run registers again): listed once.
  for (int64_t n : {p + 1, p, p + 2, p})
    tc_rt_plan_for_procs(n);
  EXPECT_EQ(ctx().plannedProcs, (std::vector<int64_t>{p + 1, p, p + 2}));
  EXPECT_EQ(tc_rt_select_procs(), p);
  ctx().plannedProcs.clear();
  const std::string s = std::to_string(p);
  EXPECT_EQ(procsMismatch({p + 1, p + 2}),
            "the program was planned for " + std::to_string(p + 1) + " or " +
                std::to_string(p + 2) + " processes but runs on " + s + " (use mpirun -np " +
                std::to_string(p + 1) + " or " + std::to_string(p + 2) +
                ", or compile it again with --procs " + s + ")");
  const std::string three = std::to_string(p + 1) + ", " + std::to_string(p + 2) + " or " +
                            std::to_string(p + 3);
  EXPECT_EQ(procsMismatch({p + 1, p + 2, p + 3}),
            "the program was planned for " + three + " processes but runs on " + s +
                " (use mpirun -np " + three + ", or compile it again with --procs " + s + ")");
}

} // namespace
