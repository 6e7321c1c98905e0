//===- ArrayLayoutTest.cpp - one layout for the dialect, analyses and runtime ===//
//
// tc_layout::ArrayLayout answers who holds which element for the dialect's
// verifier, the redistribution analysis and the runtime alike; here its
// answers are checked against counting: every element held exactly as often
// as the processes replicate it, each process's share within its padded
// block, and each rule of verify() refusing its layout with its own words.
//
//===----------------------------------------------------------------------===//
#include "TC/Layout/ArrayLayout.h"

#include <gtest/gtest.h>

#include <string>

using namespace tc_layout;

namespace {

ArrayLayout make(Holding kind, std::vector<int64_t> extents, std::vector<int64_t> grid,
                 std::vector<int64_t> gridDim) {
  ArrayLayout l = ArrayLayout::whole(kind, std::move(extents), std::move(grid));
  if (!gridDim.empty())
    l.gridDim = std::move(gridDim);
  return l;
}

int64_t total(const ArrayLayout &l) {
  int64_t n = 1;
  for (int64_t e : l.extents)
    n *= e;
  return n;
}

/// Processes holding each element: along every grid dimension that splits no
/// dimension, all of its coordinates on the slice (1 along a first slice).
int64_t replicas(const ArrayLayout &l) {
  if (l.kind == Holding::Slab)
    return 1;
  int64_t r = 1;
  for (int64_t g = 0; g < l.gridRank(); ++g) {
    bool splits = false;
    for (int64_t d = 0; d < l.rank(); ++d)
      splits |= l.gridDim[d] == g || l.splitDim[d] == g;
    if (!splits && !l.heldOnFirstSlice(g))
      r *= l.grid[g];
  }
  return r;
}

/// Summed over the processes, the elements held are the whole array once per
/// replica, after any number of shifts; no process holds more than its padded
/// block; the class counts of each dimension agree with its held length.
void expectConsistent(const ArrayLayout &l, const std::string &what) {
  ASSERT_EQ(l.verify(), "") << what;
  int64_t padded = 1;
  for (int64_t rows : l.paddedBlock())
    padded *= rows;
  for (int64_t shift = 0; shift < 3; ++shift) {
    std::vector<int64_t> shifts(l.gridRank(), shift);
    int64_t held = 0;
    for (int64_t r = 0; r < l.procs(); ++r) {
      const int64_t n = l.heldElements(r, shifts);
      EXPECT_LE(n, padded) << what << " rank " << r;
      held += n;
    }
    EXPECT_EQ(held, total(l) * replicas(l)) << what << " shift " << shift;
  }
  for (int64_t r = 0; r < l.procs(); ++r) {
    const std::vector<int64_t> c = l.coordsOf(r);
    if (c.empty() || l.kind == Holding::Slab)
      continue;
    for (int64_t d = 0; d < l.rank(); ++d) {
      int64_t inClass = 0;
      for (int64_t i = 0; i < l.extents[d]; ++i)
        inClass += l.classOf(d, i) == l.classHeld(d, c, r);
      EXPECT_EQ(inClass, l.heldLength(d, c)) << what << " rank " << r << " dim " << d;
    }
  }
}

TEST(ArrayLayout, EveryElementIsHeldOncePerReplica) {
  for (int64_t m : {1, 5, 13})
    for (int64_t n : {1, 4, 7}) {
      const std::string shape = std::to_string(m) + "x" + std::to_string(n);
      expectConsistent(make(Holding::Distributed, {m, n}, {2, 3}, {0, 1}), shape + " blocks");
      expectConsistent(make(Holding::Distributed, {m, n}, {3, 2}, {1, -1}), shape + " replicated");
      ArrayLayout skewed = make(Holding::Distributed, {m, n}, {2, 2}, {0, 1});
      skewed.skewDim = {1, -1};
      expectConsistent(skewed, shape + " skewed");
      ArrayLayout split = make(Holding::Distributed, {m, n}, {2, 3}, {0, -1});
      split.splitDim = {1, -1};
      expectConsistent(split, shape + " split");
      ArrayLayout cyclic = make(Holding::Distributed, {m, n}, {2, 3}, {0, 1});
      cyclic.cyclic = {2, 3};
      expectConsistent(cyclic, shape + " cyclic");
      ArrayLayout slice = make(Holding::Distributed, {m, n}, {2, 3}, {0, -1});
      slice.firstSlice = 2;
      expectConsistent(slice, shape + " first slice");
      expectConsistent(make(Holding::Slab, {m, n}, {4}, {}), shape + " slab");
      expectConsistent(make(Holding::Replicated, {m, n}, {4}, {}), shape + " whole");
    }
}

TEST(ArrayLayout, PaddedBlocks) {
  ArrayLayout l = make(Holding::Distributed, {13, 7}, {2, 3}, {0, 1});
  EXPECT_EQ(l.paddedBlock(), (std::vector<int64_t>{7, 3}));
  l.cyclic = {4, 0}; // 4 blocks of 4 rows over 2: 2 blocks each
  EXPECT_EQ(l.paddedBlock(), (std::vector<int64_t>{8, 3}));
  ArrayLayout split = make(Holding::Distributed, {13, 7}, {2, 3}, {0, -1});
  split.splitDim = {1, -1}; // ceil(ceil(13 / 2) / 3)
  EXPECT_EQ(split.paddedBlock(), (std::vector<int64_t>{3, 7}));
  EXPECT_EQ(make(Holding::Slab, {13, 7}, {4}, {}).paddedBlock(), (std::vector<int64_t>{4, 7}));
  EXPECT_EQ(make(Holding::Gathered, {13, 7}, {4}, {}).paddedBlock(), (std::vector<int64_t>{13, 7}));
  EXPECT_TRUE(make(Holding::Distributed, {}, {4}, {}).paddedBlock().empty()); // a scalar
}

TEST(ArrayLayout, FirstSliceCoordinates) {
  ArrayLayout l = make(Holding::Distributed, {8}, {2, 2}, {0});
  l.firstSlice = 2; // only coordinate 0 of grid dimension 1
  EXPECT_EQ(l.coordsOf(0), (std::vector<int64_t>{0, 0}));
  EXPECT_TRUE(l.coordsOf(1).empty());
  EXPECT_EQ(l.replicaCoordsOf(3), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(l.coordsOf(4).empty()); // past the grid
  EXPECT_EQ(l.heldElements(1), 0);
}

TEST(ArrayLayout, EveryRuleHasItsMessage) {
  auto why = [](ArrayLayout l) { return l.verify(); };
  ArrayLayout ok = make(Holding::Distributed, {4, 4}, {2, 2}, {0, 1});
  EXPECT_EQ(why(ok), "");
  ArrayLayout l = ok;
  l.skewDim = {-1};
  EXPECT_NE(why(l).find("2 extents but 2 grid dims, 1 skews"), std::string::npos);
  l = ok;
  l.grid = {};
  l.gridDim = {-1, -1};
  EXPECT_EQ(why(l), "the grid has no dimension");
  l = ok;
  l.gridDim = {0, 0};
  EXPECT_EQ(why(l), "grid dimension 0 splits two dimensions");
  l = ok;
  l.kind = Holding::Replicated;
  EXPECT_EQ(why(l), "a replicated array splits no dimension along the grid, but dimension 0 is "
                    "split");
  l = ok;
  l.skewDim = {0, -1};
  EXPECT_NE(why(l).find("a skew needs a split dimension and another grid dimension"),
            std::string::npos);
  l = make(Holding::Distributed, {4, 4}, {2, 2}, {0, -1});
  l.splitDim = {-1, 1};
  EXPECT_NE(why(l).find("a split needs a distributed dimension"), std::string::npos);
  l.splitDim = {1, -1};
  l.skewDim = {-1, -1};
  EXPECT_EQ(why(l), "");
  l = ok;
  l.cyclic = {2, 0};
  l.skewDim = {1, -1};
  EXPECT_EQ(why(l), "an array with a block-cyclic dimension has no skew and no split");
  l = ok;
  l.firstSlice = 1;
  EXPECT_EQ(why(l), "the array is split along grid dimension 0, which holds it on its first "
                    "slice only");
  l = ok;
  l.fileDim = {1, 1};
  EXPECT_EQ(why(l), "file dims must be a permutation of 0..1");
  l = ok;
  l.summedFileDim = {2};
  l.summedExtent = {0};
  EXPECT_EQ(why(l), "a summed file dimension has extent 0");
}

} // namespace
