//===- TileNestTest.cpp - loops over labels from macro tile counts --------===//
#include "TC/Analysis/TileNest.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

TEST(TileNest, SplitPrefersDivisors) {
  // 3 tiles of 64: divisor 4 (exact 16-element tiles) versus the tight 3.
  EXPECT_EQ(splitTileCount(3, {64}, true), std::vector<int64_t>{4});
  EXPECT_EQ(splitTileCount(3, {64}, false), std::vector<int64_t>{3});
  // 12 tiles over extents 8 and 6: the larger extent takes all 8 it can, the
  // remaining 1.5 round up to 2 (a divisor of 6).
  EXPECT_EQ(splitTileCount(12, {6, 8}, true), (std::vector<int64_t>{2, 8}));
  // Prime extents have no divisor in between: the whole extent.
  EXPECT_EQ(splitTileCount(2, {7}, true), std::vector<int64_t>{7});
  EXPECT_EQ(splitTileCount(2, {7}, false), std::vector<int64_t>{2});
  EXPECT_EQ(splitTileCount(1, {5, 5}, true), (std::vector<int64_t>{1, 1}));
}

TEST(TileNest, SplitCoversTheCount) {
  for (double count : {1.0, 2.5, 7.0, 30.0, 64.0, 100.0}) {
    for (bool divisors : {true, false}) {
      std::vector<int64_t> c = splitTileCount(count, {10, 12, 3}, divisors);
      double product = static_cast<double>(c[0] * c[1] * c[2]);
      EXPECT_GE(product, count - 1e-9) << count;
      EXPECT_LE(c[0], 10);
      EXPECT_LE(c[1], 12);
      EXPECT_LE(c[2], 3);
    }
  }
}

TEST(TileNest, GroupsFollowTheReadOrder) {
  // docs/Derivations.md D4 table: ABC = {It1,Kt1} {Jt1} {It2} {Kt2}; CAB = {It1,Jt1} {Kt1} {Jt2} {It2}.
  MacroIndices macro{{"i"}, {"j"}, {"k"}, {64, 64, 64}};
  std::map<std::string, int64_t> extents{{"i", 64}, {"j", 64}, {"k", 64}};
  TileCounts t{2, 4, 8, 1, 16};
  TileNest abc = buildTileNest(ReadOrder::ABC, t, macro, extents, true);
  EXPECT_EQ(abc.groups[0], (std::vector<TileLoop>{{"i", 2}, {"k", 16}}));
  EXPECT_EQ(abc.groups[1], (std::vector<TileLoop>{{"j", 8}}));
  EXPECT_EQ(abc.groups[2], (std::vector<TileLoop>{{"i", 4}}));
  EXPECT_TRUE(abc.groups[3].empty());
  EXPECT_EQ(abc.tiles("i"), 8);

  TileNest cab = buildTileNest(ReadOrder::CAB, t, macro, extents, true);
  EXPECT_EQ(cab.groups[0], (std::vector<TileLoop>{{"i", 2}, {"j", 8}}));
  EXPECT_EQ(cab.groups[1], (std::vector<TileLoop>{{"k", 16}}));
  // It2 sits in D4 for CAB: below every read, so it is dropped.
  EXPECT_TRUE(cab.groups[3].empty());
  TileCounts r = realizedCounts(cab, macro);
  EXPECT_EQ(r.It1, 2);
  EXPECT_EQ(r.It2, 1);
  EXPECT_EQ(r.Jt1, 8);
  EXPECT_EQ(r.Kt1, 16);
}

TEST(TileNest, RereadsAndBuffersFollowTheGeneralRule) {
  // [G] section 3: ABC re-reads B It1 times and C Kt1 times; A once.
  MacroIndices macro{{"a", "b"}, {"j"}, {"k"}, {32 * 8, 16, 64}};
  std::map<std::string, int64_t> extents{{"a", 32}, {"b", 8}, {"j", 16}, {"k", 64}};
  TileCounts t{4, 2, 2, 1, 8};
  TileNest nest = buildTileNest(ReadOrder::ABC, t, macro, extents, true);
  NestArray A{{"a", "b", "k"}, {}}, B{{"k", "j"}, {{"j", 2}}}, C{{"a", "b", "j"}, {{"j", 2}}};
  TileCounts r = realizedCounts(nest, macro);
  EXPECT_EQ(rereadCount(nest, Operand::A, A), 1);
  EXPECT_EQ(rereadCount(nest, Operand::B, B), r.It1);
  EXPECT_EQ(rereadCount(nest, Operand::C, C), r.Kt1);
  // A's tile: (a,b) split It1 = 4 ways, k split 8 ways, nothing distributed.
  EXPECT_EQ(tileBufferBytes(nest, Operand::A, A, extents, 8), 8.0 * (32 * 8 / 4) * (64 / 8));
  // C's tile: I split It1*It2 = 8 ways, j split Jt1 = 2 ways then over 2 processes.
  EXPECT_EQ(tileBufferBytes(nest, Operand::C, C, extents, 8), 8.0 * (32 * 8 / 8) * (16 / 2 / 2));
}
