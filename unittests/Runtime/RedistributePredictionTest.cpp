//===- RedistributePredictionTest.cpp - tc_rt_redistribute vs the analysis -===//
//
// The bytes tc_rt_redistribute sends and receives on every rank equal what
// exchangeVolumes (lib/Analysis/CommCostModel) predicts, for every pair of
// distribution patterns of a four-index array on every logical grid of P: the
// basis of predicted == measured communication for fused operator trees.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "TestArrays.h"

#include "TC/Analysis/CommCostModel.h"

#include <gtest/gtest.h>

#include <set>

using namespace tc::rt;
using tc::rt::test::compute;
using namespace mlir::tc;

namespace {

void *arrayIn(const Grid &grid, const Distribution &dist, int64_t extent) {
  return tc_rt_array(arrayDescription(Shape(4, extent), grid, dist.gridDims(grid, {0, 1, 2, 3}),
                                      TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO)
                         .data(),
                     "X", nullptr);
}

TEST(RedistributePrediction, EveryPatternOnEveryGrid) {
  if (ctx().size == 1)
    GTEST_SKIP() << "one process: nothing moves";
  const int64_t extent = 12; // divisible by every part count up to 4
  int pairs = 0;
  for (const Grid &grid : logicalGrids(ctx().size, 2)) {
    std::vector<Distribution> dists = enumerateDistributions(grid, 0xF, true, false);
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

} // namespace
