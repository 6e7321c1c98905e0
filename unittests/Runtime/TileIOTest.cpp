//===- TileIOTest.cpp - clipped, zero-padded tile reads and writes --------===//
#include "TestArrays.h"

#include <gtest/gtest.h>

using namespace tc_rt;
using namespace tc_rt::test;

namespace {

/// A tile reaching past the block's edge: the part inside is stored and read
/// back, the rest reads as zero; file storage counts exactly the clipped bytes.
void roundTrip(bool onDisk) {
  const int64_t rows = 10, cols = 7, P = ctx().size, R = ctx().rank;
  void *a = makeArray(onDisk ? "io-disk" : "io-mem", {rows, cols}, {true, false},
                      TC_RT_DISTRIBUTED, onDisk);
  int64_t block = (rows + P - 1) / P;
  int64_t myRows = std::max<int64_t>(0, std::min(block, rows - R * block));
  std::vector<double> tile(12);
  for (int i = 0; i < 12; ++i)
    tile[i] = i + 1;
  Desc desc = TileDesc{{3, 4}}.encode();
  int64_t offsets[] = {1, 5};
  Counters before = compute();
  tc_rt_write_tile(a, tile.data(), desc.data(), offsets);
  std::vector<double> back(12, -1);
  tc_rt_read_tile(a, back.data(), desc.data(), offsets);
  Counters after = compute();
  int64_t inside = 0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) {
      bool in = 1 + r < myRows && 5 + c < cols;
      inside += in;
      EXPECT_EQ(back[r * 4 + c], in ? tile[r * 4 + c] : 0.0) << r << "," << c;
    }
  EXPECT_EQ(after.bytesWritten - before.bytesWritten, onDisk ? 8.0 * inside : 0);
  EXPECT_EQ(after.bytesRead - before.bytesRead, onDisk ? 8.0 * inside : 0);
}

TEST(TileIO, MemoryClipsAndPads) { roundTrip(false); }
TEST(TileIO, ScratchFileClipsPadsAndCounts) { roundTrip(true); }

TEST(TileIO, RootOnlyReadZeroesOtherRanks) {
  void *c = makeArray("root-only", {4}, {false}, TC_RT_REPLICATED, false);
  std::vector<double> buf(4, 3.0);
  Desc desc = TileDesc{{4}}.encode(), rootOnly = TileDesc{{4}, /*rootOnly=*/true}.encode();
  int64_t off[] = {0};
  tc_rt_write_tile(c, buf.data(), desc.data(), off);
  tc_rt_read_tile(c, buf.data(), rootOnly.data(), off);
  for (double x : buf)
    EXPECT_EQ(x, ctx().rank == 0 ? 3.0 : 0.0);
}

} // namespace

// tc_rt_array decodes a descriptor once per address and checks its words on
// every use: a descriptor rewritten in place (a caller's buffer reused) is
// decoded anew.
TEST(TileIO, ADescriptorRewrittenInPlaceIsDecodedAnew) {
  const int64_t P = ctx().size;
  Desc first = arrayDescription({4 * P, 3}, {P}, {0, -1}, TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO, false,
                                {}, {}, TC_RT_F64);
  Desc second = arrayDescription({4 * P, 3}, {P}, {-1, -1}, TC_RT_REPLICATED, TC_RT_INIT_ZERO,
                                 false, {}, {}, TC_RT_F64);
  ASSERT_EQ(first.size(), second.size());
  Desc buffer = first;
  auto *a = static_cast<DistArray *>(tc_rt_array(buffer.data(), "rewritten", nullptr));
  std::copy(second.begin(), second.end(), buffer.begin());
  auto *b = static_cast<DistArray *>(tc_rt_array(buffer.data(), "rewritten", nullptr));
  EXPECT_EQ(a->storeShape, (Shape{4, 3}));
  EXPECT_EQ(b->storeShape, (Shape{4 * P, 3}));
  EXPECT_EQ(a->layoutKey, ArrayDesc{*a}.encode());
  EXPECT_EQ(b->layoutKey, ArrayDesc{*b}.encode());
  EXPECT_NE(a->layoutKey, b->layoutKey);
}
