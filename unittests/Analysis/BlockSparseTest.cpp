//===- BlockSparseTest.cpp - block-sparse shapes and task pools -----------===//
#include "TC/Analysis/BlockSparse.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {

BlockPresence symmetric(int64_t s = 0) {
  BlockPresence p;
  p.kind = BlockPresence::Kind::Symmetry;
  p.symmetry = s;
  return p;
}

TEST(BlockSparse, SymmetryIsTheXorOfTheSegmentIds) {
  BlockPresence p = symmetric();
  EXPECT_TRUE(p.present({0, 0}));
  EXPECT_TRUE(p.present({3, 3}));
  EXPECT_FALSE(p.present({1, 2}));
  EXPECT_TRUE(p.present({1, 2, 3}));
  EXPECT_TRUE(symmetric(3).present({1, 2}));
  BlockPresence listed;
  listed.kind = BlockPresence::Kind::List;
  listed.blocks = {{0, 1}, {2, 0}};
  EXPECT_TRUE(listed.present({2, 0}));
  EXPECT_FALSE(listed.present({0, 2}));
}

TEST(BlockSparse, ShapesCountBlocksAndElements) {
  // Four irreps of 80, 40, 20, 20 ([K] 5.2, O = 160) on both dimensions.
  BlockSparseShape s{{{80, 40, 20, 20}, {80, 40, 20, 20}}, symmetric()};
  EXPECT_EQ(s.verify({160, 160}), "");
  std::vector<std::vector<int64_t>> blocks = s.presentBlocks();
  ASSERT_EQ(blocks.size(), 4u); // the diagonal: x ^ y == 0
  EXPECT_EQ(blocks[1], (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(s.blockElements({0, 0}), 6400);
  EXPECT_EQ(s.blockElements({2, 3}), 400);
}

TEST(BlockSparse, StorageCountsWhatTheSymmetryKeepsAgainstTheDenseTensor) {
  BlockSparseShape s{{{80, 40, 20, 20}, {80, 40, 20, 20}}, symmetric()};
  BlockStorage st = storageOf(s);
  EXPECT_EQ(st.blocks, 4);
  EXPECT_EQ(st.allBlocks, 16);
  EXPECT_EQ(st.elements, 6400 + 1600 + 400 + 400);
  EXPECT_EQ(st.denseElements, 160 * 160);
  // A scalar: one block, one element.
  BlockStorage scalar = storageOf(BlockSparseShape{{}, BlockPresence{}});
  EXPECT_EQ(scalar.blocks, 1);
  EXPECT_EQ(scalar.allBlocks, 1);
  EXPECT_EQ(scalar.elements, 1);
  EXPECT_EQ(scalar.denseElements, 1);
}

TEST(BlockSparse, VerifyNamesWhatIsWrong) {
  BlockSparseShape s{{{80, 40}, {10}}, {}};
  EXPECT_EQ(s.verify({120, 10}), "");
  EXPECT_EQ(s.verify({120}), "has 2 segmented dimensions for a tensor of rank 1");
  EXPECT_EQ(s.verify({100, 10}), "the segments of dimension 0 sum to 120, not its extent 100");
  s.segments[1] = {};
  EXPECT_EQ(s.verify({120, 0}), "dimension 1 has no segments");
  s.segments[1] = {0, 10};
  EXPECT_EQ(s.verify({120, 10}), "dimension 1 has a segment of length 0");
  s.segments[1] = {10};
  s.presence.kind = BlockPresence::Kind::List;
  s.presence.blocks = {{1, 0}, {2, 0}};
  EXPECT_EQ(s.verify({120, 10}),
            "a listed block names segment 2 of dimension 0, which has 2");
  s.presence.blocks = {{1, 0}, {1, 0}};
  EXPECT_EQ(s.verify({120, 10}), "a block is listed twice");
  s.presence.blocks = {{1}};
  EXPECT_EQ(s.verify({120, 10}), "a listed block has 1 segment ids for rank 2");
  s.presence = symmetric(-1);
  EXPECT_EQ(s.verify({120, 10}), "symmetry -1 is negative");
}

/// C[i,j] = A[i,k] * B[k,j] with labels i=0, j=1, k=2.
BlockContraction matmul(std::vector<int64_t> seg, BlockPresence p) {
  BlockContraction c;
  c.labelSegments = {seg, seg, seg};
  c.aLabels = {0, 2};
  c.bLabels = {2, 1};
  c.cLabels = {0, 1};
  c.aPresence = c.bPresence = c.cPresence = p;
  return c;
}

TEST(BlockSparse, DenseBlocksGiveTheDenseFlops) {
  BlockTaskPool pool = buildTaskPool(matmul({5, 3, 2}, {}), 8);
  EXPECT_EQ(pool.tasks.size(), 27u); // 3 x 3 C blocks x 3 k segments
  EXPECT_EQ(pool.bricks.size(), 27u); // 9 blocks of each tensor
  EXPECT_DOUBLE_EQ(pool.totalFlops(), 2.0 * 10 * 10 * 10);
  EXPECT_DOUBLE_EQ(pool.totalBytes(), 3.0 * 100 * 8);
}

TEST(BlockSparse, SymmetryKeepsTheTasksWhoseThreeBlocksArePresent) {
  // Brute force: a task for every (i, j, k) segment triple whose C, A and B
  // blocks have XOR 0; with XOR symmetry that is i == j == k.
  const std::vector<int64_t> seg = {4, 3, 2, 1};
  BlockTaskPool pool = buildTaskPool(matmul(seg, symmetric()), 8);
  size_t expected = 0;
  double flops = 0;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 4; ++k)
        if ((i ^ j) == 0 && (i ^ k) == 0 && (k ^ j) == 0) {
          ++expected;
          flops += 2.0 * seg[i] * seg[j] * seg[k];
        }
  EXPECT_EQ(pool.tasks.size(), expected);
  EXPECT_DOUBLE_EQ(pool.totalFlops(), flops);
  for (const BlockTask &t : pool.tasks) {
    EXPECT_EQ(pool.bricks[t.a].tensor, Operand::A);
    EXPECT_EQ(pool.bricks[t.b].tensor, Operand::B);
    EXPECT_EQ(pool.bricks[t.c].tensor, Operand::C);
  }
}

TEST(BlockSparse, FourIndexContractionOfThePaper) {
  // [K] 5.2: C[a,b,c,d] = A[a,b,i] * B[i,c,d], a..d in O = (8, 4, 2, 2),
  // i in V = (16, 8, 4, 4), every tensor totally symmetric (XOR 0). A task per
  // present C block and i segment with A[a,b,i] and B[i,c,d] present: i is
  // fixed by a ^ b, so one task per present C block.
  BlockContraction c;
  c.labelSegments = {{8, 4, 2, 2}, {8, 4, 2, 2}, {8, 4, 2, 2}, {8, 4, 2, 2}, {16, 8, 4, 4}};
  c.aLabels = {0, 1, 4};
  c.bLabels = {4, 2, 3};
  c.cLabels = {0, 1, 2, 3};
  c.aPresence = c.bPresence = c.cPresence = symmetric();
  BlockTaskPool pool = buildTaskPool(c, 8);
  EXPECT_EQ(pool.tasks.size(), c.shapeOf(c.cLabels, c.cPresence).presentBlocks().size());
  EXPECT_EQ(pool.tasks.size(), 64u); // 4^4 / 4
  double flops = 0;
  for (int64_t a = 0; a < 4; ++a)
    for (int64_t b = 0; b < 4; ++b)
      for (int64_t cc = 0; cc < 4; ++cc) {
        int64_t d = a ^ b ^ cc, i = a ^ b;
        flops += 2.0 * c.labelSegments[0][a] * c.labelSegments[1][b] * c.labelSegments[2][cc] *
                 c.labelSegments[3][d] * c.labelSegments[4][i];
      }
  EXPECT_DOUBLE_EQ(pool.totalFlops(), flops);
}

TEST(BlockSparse, ProductOfSymmetricFactorsIsSymmetricInTheXorOfTheirs) {
  // C[a,b] = A[a,k] * B[k,b], A of symmetry 1, B of 0, four segments each:
  // k is fixed by a, so C's blocks are those with a ^ b = 1.
  std::vector<std::vector<int64_t>> segs = {{2, 2, 1, 1}, {2, 2, 1, 1}, {3, 1, 1, 1}};
  BlockPresence one{BlockPresence::Kind::Symmetry, 1, {}};
  std::vector<std::vector<int64_t>> blocks =
      productBlocks(segs, {{{0, 2}, one}, {{2, 1}, symmetric()}}, {0, 1});
  ASSERT_EQ(blocks.size(), 4u);
  for (const auto &b : blocks)
    EXPECT_EQ(b[0] ^ b[1], 1);
  BlockPresence p = simplestPresence({segs[0], segs[1]}, blocks);
  EXPECT_EQ(p.kind, BlockPresence::Kind::Symmetry);
  EXPECT_EQ(p.symmetry, 1);
}

TEST(BlockSparse, ProductWithoutSummedLabelsIsStricterThanTheXor) {
  // C[a,b] = A[a] * B[b], both of symmetry 0: only a = b = 0, a list.
  std::vector<std::vector<int64_t>> segs = {{1, 1}, {1, 1}};
  std::vector<std::vector<int64_t>> blocks =
      productBlocks(segs, {{{0}, symmetric()}, {{1}, symmetric()}}, {0, 1});
  ASSERT_EQ(blocks, (std::vector<std::vector<int64_t>>{{0, 0}}));
  BlockPresence p = simplestPresence(segs, blocks);
  EXPECT_EQ(p.kind, BlockPresence::Kind::List);
  EXPECT_EQ(p.blocks, blocks);
}

TEST(BlockSparse, ResultLabelsNoFactorHasTakeEverySegment) {
  // D[a,i] = e[i] (broadcast along a): every segment of a beside each of e's
  // blocks; D[a,i] = s[] (a scalar broadcast along both): every block.
  std::vector<std::vector<int64_t>> segs = {{2, 1, 1}, {3, 2}};
  BlockPresence firstOnly{BlockPresence::Kind::List, 0, {{0}}};
  EXPECT_EQ(productBlocks(segs, {{{1}, firstOnly}}, {0, 1}),
            (std::vector<std::vector<int64_t>>{{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_EQ(productBlocks(segs, {{{}, {}}}, {1, 0}),
            (std::vector<std::vector<int64_t>>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
}

TEST(BlockSparse, ProductFoldsThreeFactorsAndSumsAwayLabels) {
  // E[] = A[i,j] * B[j,k] * C[k,i] over dense blocks: one block, the empty
  // tuple; a transposition (one factor) keeps the factor's blocks.
  std::vector<std::vector<int64_t>> segs = {{1, 2}, {3}, {1, 1, 1}};
  EXPECT_EQ(productBlocks(segs, {{{0, 1}, {}}, {{1, 2}, {}}, {{2, 0}, {}}}, {}),
            (std::vector<std::vector<int64_t>>{{}}));
  BlockPresence list{BlockPresence::Kind::List, 0, {{0, 1}, {1, 0}}};
  EXPECT_EQ(productBlocks(segs, {{{0, 2}, list}}, {2, 0}),
            (std::vector<std::vector<int64_t>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(simplestPresence({segs[0], segs[1]}, {{1, 0}, {0, 0}}).kind,
            BlockPresence::Kind::All);
}

/// Spin orbitals of two irreps, alpha then beta: segments 0, 1 (alpha) and
/// 2, 3 (beta), partners 0 <-> 2 and 1 <-> 3.
BlockPresence restricted(BlockPresence p = {}) {
  p.flip = {{2, 3, 0, 1}, {2, 3, 0, 1}};
  return p;
}

TEST(BlockSparse, RestrictedStoresOneOfEachFlippedPair) {
  BlockSparseShape s{{{3, 1, 3, 1}, {3, 1, 3, 1}}, restricted()};
  EXPECT_EQ(s.verify({8, 8}), "");
  EXPECT_EQ(s.presence.flipped({0, 3}), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(s.presence.storedAs({2, 1}), (std::vector<int64_t>{0, 3}));
  EXPECT_TRUE(s.presence.present({2, 1}));
  EXPECT_FALSE(s.presence.stored({2, 1}));
  EXPECT_TRUE(s.presence.stored({0, 3}));
  // 16 blocks in 8 pairs (no block is its own flip).
  EXPECT_EQ(s.presentBlocks().size(), 16u);
  EXPECT_EQ(s.storedBlocks().size(), 8u);
  BlockStorage st = storageOf(s);
  EXPECT_EQ(st.blocks, 8);
  EXPECT_EQ(st.elements, 32);
  EXPECT_EQ(st.denseElements, 64);
  // A charge-0 segment is its own partner: its block is stored once.
  BlockSparseShape self{{{2, 1}}, {}};
  self.presence.flip = {{0, 1}};
  EXPECT_EQ(self.storedBlocks().size(), 2u);
}

TEST(BlockSparse, VerifyChecksTheSpinFlip) {
  BlockSparseShape s{{{3, 1, 3, 1}}, {}};
  s.presence.flip = {{2, 3, 0}};
  EXPECT_EQ(s.verify({8}), "the spin flip of dimension 0 maps 3 segments, not its 4");
  s.presence.flip = {{2, 3, 1, 0}};
  EXPECT_EQ(s.verify({8}), "the spin flip of dimension 0 maps segment 0 to 2 but 2 to 1 "
                           "(flipping twice must give it back)");
  s.presence.flip = {{1, 0, 2, 3}};
  EXPECT_EQ(s.verify({8}), "the spin flip maps segment 0 of dimension 0 (length 3) to one of "
                           "length 1");
  s.presence.flip = {{2, 3, 0, 4}};
  EXPECT_EQ(s.verify({8}), "the spin flip maps segment 3 of dimension 0 to segment 4, which it "
                           "does not have");
  s.presence.flip = {{2, 3, 0, 1}};
  s.presence.kind = BlockPresence::Kind::List;
  s.presence.blocks = {{0}, {1}, {3}};
  EXPECT_EQ(s.verify({8}), "block [0] is present but its spin flip [2] is not");
  s.presence.blocks = {{0}, {1}, {2}, {3}};
  EXPECT_EQ(s.verify({8}), "");
}

TEST(BlockSparse, RestrictedPoolComputesEachPairOnceFromStoredBricks) {
  // C = A B over restricted tensors: a task per stored C block only, each
  // reading the stored blocks equal to the A and B blocks it multiplies.
  const std::vector<int64_t> seg = {3, 1, 3, 1};
  BlockTaskPool full = buildTaskPool(matmul(seg, {}), 8);
  BlockTaskPool pool = buildTaskPool(matmul(seg, restricted()), 8);
  EXPECT_EQ(full.tasks.size(), 64u);
  EXPECT_EQ(pool.tasks.size(), 32u); // 8 stored C blocks x 4 k segments
  EXPECT_DOUBLE_EQ(pool.totalFlops(), full.totalFlops() / 2);
  const BlockPresence p = restricted();
  for (const BlockTask &t : pool.tasks)
    for (int brick : {t.a, t.b, t.c})
      EXPECT_TRUE(p.stored(pool.bricks[brick].block));
  // Only the stored blocks are bricks: 8 of each tensor.
  EXPECT_EQ(pool.bricks.size(), 24u);
  // An unrestricted result of restricted operands: every C block, the
  // operands still read from their stored blocks.
  BlockContraction mixed = matmul(seg, restricted());
  mixed.cPresence = {};
  BlockTaskPool all = buildTaskPool(mixed, 8);
  EXPECT_EQ(all.tasks.size(), 64u);
  EXPECT_DOUBLE_EQ(all.totalFlops(), full.totalFlops());
}

TEST(BlockSparse, ProductOfRestrictedFactorsIsRestricted) {
  const BlockPresence p = restricted();
  std::vector<BlockFactor> factors = {{{0, 2}, p}, {{2, 1}, p}};
  EXPECT_EQ(productFlip(factors, {0, 1}),
            (std::vector<std::vector<int64_t>>{{2, 3, 0, 1}, {2, 3, 0, 1}}));
  // A scalar factor has nothing to flip.
  factors.push_back({{}, BlockPresence{}});
  EXPECT_EQ(productFlip(factors, {1}).size(), 1u);
  // An unrestricted factor, or a result label no factor has: not restricted.
  EXPECT_TRUE(productFlip({{{0, 2}, p}, {{2, 1}, BlockPresence{}}}, {0, 1}).empty());
  EXPECT_TRUE(productFlip({{{0, 2}, p}}, {0, 1}).empty());
}

} // namespace
