//===- RedistributePredictionTest.cpp - tc_rt_redistribute vs the analysis -===//
//
// The bytes tc_rt_redistribute sends and receives on every rank equal what
// exchangeVolumes (lib/Analysis/CommCostModel) predicts, for every pair of
// distribution patterns of a four-index array on every logical grid of P, `1`
// (first-slice) entries included: the
// basis of predicted == measured communication for fused operator trees. And
// redistributionTraffic (include/TC/Layout/RedistributionTraffic.h) gives every
// rank's bytes sent, received, read and written for arrays of every kind the
// single-contraction lowerings move (stages 1 and 3 of Gao et al. 2.3):
// uneven extents, 2-D grids, pre-skewed, block-cyclic, slab and whole
// destinations, in memory and on disk; and for the arrays of fused operator
// trees held on first slices (`1` entries) in uneven blocks.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "TestArrays.h"

#include "TC/Analysis/CommCostModel.h"
#include "TC/Layout/RedistributionTraffic.h"

#include <gtest/gtest.h>

#include <set>

using namespace tc_rt;
using tc_rt::test::compute;
using namespace mlir::tc;

namespace {

void *arrayIn(const Grid &grid, const Distribution &dist, int64_t extent) {
  std::vector<int64_t> desc = arrayDescription(
      Shape(4, extent), grid, dist.gridDims(grid, {0, 1, 2, 3}), TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO);
  // `1` entries: held by the first slice of those grid dimensions only.
  ArrayDesc held = ArrayDescView(desc.data()).decode();
  for (size_t g = 0; g < grid.size(); ++g)
    if (dist.entry[g] == Distribution::kFirstSlice)
      held.layout.firstSlice |= int64_t(1) << g;
  return tc_rt_array(held.encode().data(), "X", nullptr);
}

TEST(RedistributePrediction, EveryPatternOnEveryGrid) {
  if (ctx().size == 1)
    GTEST_SKIP() << "one process: nothing moves";
  const int64_t extent = 12; // divisible by every part count up to 4
  int pairs = 0;
  for (const Grid &grid : logicalGrids(ctx().size, 2)) {
    std::vector<Distribution> dists = enumerateDistributions(grid, 0xF, true, true);
    std::set<std::string> seen;
    for (const Distribution &from : dists)
      for (const Distribution &to : dists) {
        if (from == to || !seen.insert(commPatternKey(grid, from, to)).second)
          continue;
        ++pairs;
        void *source = arrayIn(grid, from, extent);
        void *destination = arrayIn(grid, to, extent);
        double received = compute().bytesReceived, sent = compute().bytesSent;
        tc_rt_redistribute(source, destination);
        received = compute().bytesReceived - received;
        sent = compute().bytesSent - sent;
        releaseArrays();
        std::string what = "rank " + std::to_string(ctx().rank) + " grid " + gridString(grid) +
                           " " + commPatternKey(grid, from, to);
        ExchangeVolumes v = exchangeVolumes(grid, from, to);
        double whole = 8.0 * extent * extent * extent * extent;
        EXPECT_DOUBLE_EQ(received, v.received[ctx().rank] * whole) << what;
        EXPECT_DOUBLE_EQ(sent, v.sent[ctx().rank] * whole) << what;
      }
  }
  EXPECT_GT(pairs, 0);
}

/// A rank-2 array of `kind` with extents {13, 7} on `grid`, dimension d held
/// along grid dimension dims[d] with skew skew[d] and block-cyclic block
/// cyclic[d]: one layout, the runtime's array and the analysis' input.
struct Held {
  tc_rt_kind kind;
  std::vector<int64_t> dims, skew, cyclic;
};
const int64_t kExtents[2] = {13, 7};

tc_layout::ArrayLayout holding(const Held &h, const std::vector<int64_t> &grid) {
  std::vector<std::vector<int64_t>> dims;
  for (int x = 0; x < 2; ++x)
    dims.push_back({kExtents[x], h.dims[x], h.skew[x], x, -1, h.cyclic[x]});
  return tc_rt::test::layoutOf(h.kind, grid, dims);
}

void *create(const Held &h, const std::vector<int64_t> &grid, bool onDisk, const char *name) {
  ctx().options.scratch = "/tmp";
  return tc_rt_array(ArrayDesc{holding(h, grid), TC_RT_INIT_ZERO, onDisk}.encode().data(), name,
                     nullptr);
}

TEST(RedistributePrediction, TrafficOfEveryArrayKind) {
  const int64_t P = ctx().size, r = ctx().rank;
  std::vector<std::vector<int64_t>> grids = {{P}};
  if (P == 4)
    grids.push_back({2, 2});
  int cases = 0;
  for (const std::vector<int64_t> &grid : grids) {
    const bool twoD = grid.size() == 2;
    const int64_t g1 = twoD ? 1 : -1;
    std::vector<Held> sources = {
        {TC_RT_DISTRIBUTED, {0, -1}, {-1, -1}, {0, 0}},
        {TC_RT_DISTRIBUTED, {-1, 0}, {-1, -1}, {0, 0}},
        {TC_RT_DISTRIBUTED, {0, g1}, {-1, -1}, {0, 0}},
        {TC_RT_DISTRIBUTED, {0, -1}, {-1, -1}, {2, 0}},
        {TC_RT_REPLICATED, {-1, -1}, {-1, -1}, {0, 0}},
    };
    std::vector<Held> destinations = sources;
    destinations.push_back({TC_RT_SLAB, {-1, -1}, {-1, -1}, {0, 0}});
    destinations.push_back({TC_RT_GATHERED, {-1, -1}, {-1, -1}, {0, 0}});
    if (twoD) // Cannon's pre-skewed blocks
      destinations.push_back({TC_RT_DISTRIBUTED, {0, 1}, {1, -1}, {0, 0}});
    for (const Held &from : sources)
      for (const Held &to : destinations)
        for (bool onDisk : {false, true}) {
          ++cases;
          void *source = create(from, grid, onDisk, "S");
          void *destination = create(to, grid, onDisk, "D");
          Counters before = compute();
          tc_rt_redistribute(source, destination);
          releaseArrays();
          tc_layout::RedistributionTraffic t =
              redistributionTraffic(holding(from, grid), holding(to, grid));
          const std::string what = "rank " + std::to_string(r) + ", case " + std::to_string(cases);
          EXPECT_EQ(compute().bytesSent - before.bytesSent, 8.0 * t.sent[r]) << what;
          EXPECT_EQ(compute().bytesReceived - before.bytesReceived, 8.0 * t.received[r]) << what;
          EXPECT_EQ(compute().bytesRead - before.bytesRead,
                    onDisk ? 8.0 * (t.kept[r] + t.sent[r]) : 0.0)
              << what;
          EXPECT_EQ(compute().bytesWritten - before.bytesWritten,
                    onDisk ? 8.0 * (t.kept[r] + t.received[r]) : 0.0)
              << what;
        }
  }
  EXPECT_GT(cases, 0);
}

TEST(RedistributePrediction, FirstSliceTrafficOfUnevenBlocks) {
  // Arrays of extents {13, 7} held on the first slice of some grid dimensions
  // (docs/Derivations.md D32), their other dimensions in uneven blocks: the
  // ranks off a source's slice receive from the replicas on it, those off a
  // destination's slice receive nothing; redistributionTraffic gives every
  // rank's bytes exactly (exchangeVolumes only their even-block averages).
  const int64_t P = ctx().size, r = ctx().rank;
  if (P == 1)
    GTEST_SKIP() << "one process: nothing moves";
  struct FirstSliceHeld {
    std::vector<int64_t> dims;
    int64_t firstSlice;
  };
  std::vector<std::pair<std::vector<int64_t>, std::vector<FirstSliceHeld>>> cases = {
      {{P}, {{{-1, -1}, 1}, {{0, -1}, 0}, {{-1, 0}, 0}, {{-1, -1}, 0}}}};
  if (P == 4)
    cases.push_back({{2, 2},
                     {{{-1, 1}, 1}, {{0, -1}, 2}, {{-1, 0}, 2}, {{1, -1}, 1}, {{-1, -1}, 3},
                      {{0, 1}, 0}, {{1, 0}, 0}, {{-1, -1}, 0}, {{-1, 1}, 0}}});
  int pairs = 0;
  for (const auto &[grid, layouts] : cases)
    for (const FirstSliceHeld &from : layouts)
      for (const FirstSliceHeld &to : layouts) {
        auto holding = [&](const FirstSliceHeld &h) {
          return tc_rt::test::layoutOf(
              TC_RT_DISTRIBUTED, grid,
              {{kExtents[0], h.dims[0], -1, 0}, {kExtents[1], h.dims[1], -1, 1}}, {}, h.firstSlice);
        };
        auto create = [&](const FirstSliceHeld &h, const char *name) {
          return tc_rt_array(ArrayDesc{holding(h), TC_RT_INIT_ZERO, false}.encode().data(), name,
                             nullptr);
        };
        ++pairs;
        void *source = create(from, "S");
        void *destination = create(to, "D");
        Counters before = compute();
        tc_rt_redistribute(source, destination);
        releaseArrays();
        tc_layout::RedistributionTraffic t = redistributionTraffic(holding(from), holding(to));
        const std::string what = "rank " + std::to_string(r) + ", pair " + std::to_string(pairs);
        EXPECT_EQ(compute().bytesSent - before.bytesSent, 8.0 * t.sent[r]) << what;
        EXPECT_EQ(compute().bytesReceived - before.bytesReceived, 8.0 * t.received[r]) << what;
      }
  EXPECT_GT(pairs, 0);
}

} // namespace
