//===- LayoutTest.cpp - distributions and redistribution cost -------------===//
#include "TC/Analysis/Layout.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {
MachineModel machine4(double mem) {
  MachineModel m;
  m.procs = 4;
  m.memBytes = mem;
  m.netBandwidth = 100;
  m.diskBandwidth = 10;
  return m;
}
const std::map<std::string, int64_t> kExtents{{"i", 10}, {"k", 8}};
} // namespace

TEST(Layout, PartsAndLocalSize) {
  Layout rot{{2, 2}, {"i", "k"}};
  EXPECT_EQ(rot.procs(), 4);
  EXPECT_EQ(rot.parts("i"), 2);
  EXPECT_EQ(rot.parts("j"), 1);
  EXPECT_FALSE(rot.isReplicated());
  EXPECT_TRUE((Layout{{4}, {"*"}}).isReplicated());
  EXPECT_TRUE((Layout{{4}, {"1"}}).isReplicated());
  // ceil(10/2) * ceil(8/2) elements of 8 bytes.
  EXPECT_EQ(localBytes(rot, {"i", "k"}, kExtents, 8), 8.0 * 5 * 4);
  EXPECT_TRUE((Layout{{4}, {"i"}}).samePartition(Layout{{4, 1}, {"i", "*"}}));
  EXPECT_FALSE((Layout{{4}, {"i"}}).samePartition(Layout{{4}, {"k"}}));
  EXPECT_EQ(rot.str(), "[2, 2] (i, k)");
}

TEST(Layout, RedistributionCost) {
  std::vector<std::string> labels{"i", "k"};
  Layout byI{{4}, {"i"}}, byK{{4}, {"k"}}, replicated{{4}, {"*"}};
  MachineModel big = machine4(1e9);
  RedistCost same = redistributionCost(byI, byI, labels, kExtents, big);
  EXPECT_EQ(same.commBytes, 0);
  EXPECT_EQ(same.seconds, 0);
  // byI -> byK: receive the new 10*2 block except the quarter already held.
  RedistCost move = redistributionCost(byI, byK, labels, kExtents, big);
  EXPECT_DOUBLE_EQ(move.commBytes, 8.0 * 10 * 2 * 3 / 4);
  EXPECT_EQ(move.diskBytes, 0);
  EXPECT_DOUBLE_EQ(move.seconds, move.commBytes / 100);
  // From replicated every process selects its block: no communication.
  EXPECT_EQ(redistributionCost(replicated, byK, labels, kExtents, big).commBytes, 0);
  // Out of core (blocks over the tile budget): old block read, new block written.
  RedistCost ooc = redistributionCost(byI, byK, labels, kExtents, machine4(3 * 100));
  EXPECT_DOUBLE_EQ(ooc.diskBytes, 8.0 * 3 * 8 + 8.0 * 10 * 2);
  EXPECT_DOUBLE_EQ(ooc.seconds, ooc.diskBytes / 10 + ooc.commBytes / 100);
}
