//===- BlockSparseTest.cpp - block-sparse shapes and task pools -----------===//
#include "TC/Analysis/BlockSparse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

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

TEST(BlockSparse, ProductKeepsTheFactorsPairsItDoesNotSum) {
  BlockPresence v; // <ab||ef>: antisymmetric in a, b and in e, f
  v.pairs = {{0, 1, true}, {2, 3, true}};
  BlockPresence f; // f[c,d] symmetric
  f.pairs = {{0, 1, false}};
  // V[a,b,e,f] * T[e,f,i,j] (T without pairs) over [a, b, i, j]: a, b from V.
  auto pairs = [](std::vector<PairSymmetry> ps) {
    std::vector<std::tuple<int64_t, int64_t, bool>> out;
    for (const PairSymmetry &p : ps)
      out.emplace_back(p.first, p.second, p.antisymmetric);
    return out;
  };
  using Pairs = std::vector<std::tuple<int64_t, int64_t, bool>>;
  // The product's blocks: every block of segments (2, 2) per dimension.
  auto every = [](size_t rank) {
    return BlockSparseShape{std::vector<std::vector<int64_t>>(rank, {2, 2}), BlockPresence{}};
  };
  EXPECT_EQ(pairs(productPairs({{{0, 1, 2, 3}, v}, {{2, 3, 4, 5}, BlockPresence{}}}, {4, 0, 5, 1},
                               every(4))),
            (Pairs{{1, 3, true}}));
  // A pair label another factor shares is not exchanged alone.
  EXPECT_TRUE(
      productPairs({{{0, 1, 2, 3}, v}, {{1, 4}, BlockPresence{}}}, {0, 1, 2, 3, 4}, every(5))
          .size() == 1u);
  // Both factors' pairs, disjoint; a summed pair gives nothing.
  EXPECT_EQ(pairs(productPairs({{{0, 1, 2, 3}, v}, {{4, 5}, f}}, {0, 1, 4, 5}, every(4))),
            (Pairs{{0, 1, true}, {2, 3, false}}));
  // A product whose blocks the exchange does not keep ([0, 1] without [1, 0])
  // does not have the pair.
  BlockSparseShape oneBlock = every(2);
  oneBlock.presence = {BlockPresence::Kind::List, 0, {{0, 1}}};
  EXPECT_TRUE(productPairs({{{0, 1}, f}}, {0, 1}, oneBlock).empty());
  EXPECT_EQ(pairs(productPairs({{{0, 1}, f}}, {0, 1}, every(2))), (Pairs{{0, 1, false}}));
}

/// A dense tensor, row-major, for checking what a task pool computes.
struct Dense {
  std::vector<int64_t> extents;
  std::vector<double> values;
  explicit Dense(std::vector<int64_t> e) : extents(std::move(e)) {
    int64_t n = 1;
    for (int64_t x : extents)
      n *= x;
    values.assign(n, 0);
  }
  double &at(const std::vector<int64_t> &index) {
    int64_t flat = 0;
    for (size_t d = 0; d < extents.size(); ++d)
      flat = flat * extents[d] + index[d];
    return values[flat];
  }
};

/// Calls f with every index tuple within `extents`.
template <typename F> void forEachIndex(const std::vector<int64_t> &extents, F f) {
  std::vector<int64_t> i(extents.size(), 0);
  while (true) {
    f(i);
    int64_t d = static_cast<int64_t>(i.size()) - 1;
    while (d >= 0 && ++i[d] == extents[d])
      i[d--] = 0;
    if (d < 0)
      return;
  }
}

int64_t segmentStart(const std::vector<int64_t> &segments, int64_t id) {
  int64_t at = 0;
  for (int64_t s = 0; s < id; ++s)
    at += segments[s];
  return at;
}

/// The tensor exchanged in dimensions p and q, times `sign`, added to itself
/// (an antisymmetrizer for sign -1).
Dense antisymmetrized(const Dense &x, int64_t p, int64_t q) {
  Dense out = x;
  forEachIndex(x.extents, [&](const std::vector<int64_t> &i) {
    std::vector<int64_t> j = i;
    std::swap(j[p], j[q]);
    out.at(i) = const_cast<Dense &>(x).at(i) - const_cast<Dense &>(x).at(j);
  });
  return out;
}

TEST(BlockSparse, AntisymmetricPoolReadsPermutedSignedBricksAndComputesStoredBlocksOnce) {
  // C[a,b,i,j] = V[a,b,e,f] * T[e,f,i,j], V and T antisymmetric in both
  // pairs (as <ab||ef> and t_ij^ef), so C is too. Every label cut into
  // segments (2, 1, 2). The pool computes C's stored blocks only, reading
  // V's and T's blocks from their stored ones, permuted and signed; C's other
  // blocks follow from its stored ones. Checked element by element against
  // the dense product.
  const std::vector<int64_t> seg = {2, 1, 2};
  const int64_t n = 5;
  BlockPresence pairs;
  pairs.pairs = {{0, 1, true}, {2, 3, true}};
  BlockContraction problem;
  problem.labelSegments.assign(6, seg); // a b e f i j
  problem.aLabels = {0, 1, 2, 3};       // V[a,b,e,f]
  problem.bLabels = {2, 3, 4, 5};       // T[e,f,i,j]
  problem.cLabels = {0, 1, 4, 5};       // C[a,b,i,j]
  problem.aPresence = problem.bPresence = problem.cPresence = pairs;
  BlockTaskPool pool = buildTaskPool(problem, 8);
  BlockContraction plain = problem;
  plain.aPresence = plain.bPresence = plain.cPresence = BlockPresence{};
  const BlockTaskPool full = buildTaskPool(plain, 8);
  // 6 stored of C's 9 x 9 block pairs (a <= b, i <= j): 36 of 81 blocks;
  // and the summed (e, f), which V and T both exchange with a sign, only
  // over e <= f (6 of 9), e < f counted twice.
  EXPECT_EQ(pool.tasks.size(), 36u * 6u);
  EXPECT_EQ(std::count_if(pool.tasks.begin(), pool.tasks.end(),
                          [](const BlockTask &t) { return std::fabs(t.factor) == 2; }),
            36 * 3);
  EXPECT_EQ(full.tasks.size(), 81u * 9u);

  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  Dense v({n, n, n, n}), t({n, n, n, n});
  for (double &x : v.values)
    x = u(rng);
  for (double &x : t.values)
    x = u(rng);
  v = antisymmetrized(antisymmetrized(v, 0, 1), 2, 3);
  t = antisymmetrized(antisymmetrized(t, 0, 1), 2, 3);
  Dense expect({n, n, n, n});
  forEachIndex({n, n, n, n, n, n}, [&](const std::vector<int64_t> &x) { // a b i j e f
    expect.at({x[0], x[1], x[2], x[3]}) +=
        v.at({x[0], x[1], x[4], x[5]}) * t.at({x[4], x[5], x[2], x[3]});
  });

  // The bricks: each stored block's elements, C's zero.
  const Dense *source[3] = {&v, &t, nullptr};
  std::vector<std::vector<double>> bricks(pool.bricks.size());
  auto blockExtents = [&](const std::vector<int64_t> &ids) {
    std::vector<int64_t> e;
    for (int64_t id : ids)
      e.push_back(seg[id]);
    return e;
  };
  for (size_t k = 0; k < pool.bricks.size(); ++k) {
    const Brick &b = pool.bricks[k];
    EXPECT_TRUE(pairs.stored(b.block)) << "brick " << k;
    forEachIndex(blockExtents(b.block), [&](const std::vector<int64_t> &x) {
      std::vector<int64_t> g;
      for (size_t d = 0; d < x.size(); ++d)
        g.push_back(segmentStart(seg, b.block[d]) + x[d]);
      const Dense *from = source[static_cast<int>(b.tensor)];
      bricks[k].push_back(from ? const_cast<Dense *>(from)->at(g) : 0.0);
    });
  }
  auto flat = [&](const std::vector<int64_t> &ids, const std::vector<int64_t> &x) {
    int64_t f = 0;
    for (size_t d = 0; d < x.size(); ++d)
      f = f * seg[ids[d]] + x[d];
    return f;
  };
  // Each task: the brick's dimension d carries its operand's dimension
  // dims[d], so a label's segment and local index come from where it sits.
  for (const BlockTask &task : pool.tasks) {
    const Brick &a = pool.bricks[task.a], &b = pool.bricks[task.b], &c = pool.bricks[task.c];
    std::vector<int64_t> segOf(6, -1);
    auto place = [&](const Brick &brick, const std::vector<int> &labels,
                     const std::vector<int64_t> &dims) {
      for (size_t d = 0; d < brick.block.size(); ++d) {
        const int label = labels[dims.empty() ? d : dims[d]];
        if (segOf[label] >= 0)
          EXPECT_EQ(segOf[label], brick.block[d]) << "label " << label;
        segOf[label] = brick.block[d];
      }
    };
    place(c, problem.cLabels, {});
    place(a, problem.aLabels, task.aDims);
    place(b, problem.bLabels, task.bDims);
    std::vector<int64_t> ext;
    for (int64_t s : segOf)
      ext.push_back(seg[s]);
    forEachIndex(ext, [&](const std::vector<int64_t> &x) {
      auto local = [&](const Brick &brick, const std::vector<int> &labels,
                       const std::vector<int64_t> &dims) {
        std::vector<int64_t> y;
        for (size_t d = 0; d < brick.block.size(); ++d)
          y.push_back(x[labels[dims.empty() ? d : dims[d]]]);
        return flat(brick.block, y);
      };
      bricks[task.c][local(c, problem.cLabels, {})] +=
          task.factor * bricks[task.a][local(a, problem.aLabels, task.aDims)] *
          bricks[task.b][local(b, problem.bLabels, task.bDims)];
    });
  }
  // Every element of C from its stored block.
  std::map<std::vector<int64_t>, size_t> brickOf;
  for (size_t k = 0; k < pool.bricks.size(); ++k)
    if (pool.bricks[k].tensor == Operand::C)
      brickOf[pool.bricks[k].block] = k;
  double worst = 0;
  forEachIndex({n, n, n, n}, [&](const std::vector<int64_t> &g) {
    std::vector<int64_t> ids, x;
    for (int64_t i : g) {
      int64_t s = 0;
      while (segmentStart(seg, s + 1) <= i)
        ++s;
      ids.push_back(s);
      x.push_back(i - segmentStart(seg, s));
    }
    const StoredBlock st = pairs.storedFor(ids);
    std::vector<int64_t> y(x.size());
    for (size_t d = 0; d < x.size(); ++d)
      y[d] = x[st.dims.empty() ? d : st.dims[d]];
    const double got = st.sign * bricks[brickOf.at(st.ids)][flat(st.ids, y)];
    worst = std::max(worst, std::abs(got - expect.at(g)));
  });
  EXPECT_LT(worst, 1e-12);
}

TEST(BlockSparse, VerifyChecksThePairSymmetries) {
  BlockSparseShape s{{{2, 1}, {2, 1}, {3}}, {}};
  s.presence.pairs = {{0, 2, true}};
  EXPECT_EQ(s.verify({3, 3, 3}), "the pair symmetry of dimensions 0, 2: they have other segments");
  s.presence.pairs = {{0, 1, true}, {1, 2, false}};
  EXPECT_EQ(s.verify({3, 3, 3}),
            "the pair symmetry of dimensions 1, 2 shares a dimension with another pair");
  s.presence.pairs = {{0, 3, true}};
  EXPECT_EQ(s.verify({3, 3, 3}), "the pair symmetry of dimensions 0, 3 names two distinct "
                                 "dimensions of a tensor of rank 3 it does not");
  s.presence.pairs = {{0, 1, true}};
  s.presence.kind = BlockPresence::Kind::List;
  s.presence.blocks = {{0, 1, 0}};
  EXPECT_EQ(s.verify({3, 3, 3}),
            "block [0, 1, 0] is present but its exchange [1, 0, 0] (dimensions 0, 1) is not");
  s.presence.blocks = {{0, 1, 0}, {1, 0, 0}};
  EXPECT_EQ(s.verify({3, 3, 3}), "");
  // Stored: the block of the lesser ids; [1, 0, 0] is read from [0, 1, 0]
  // with its first two dimensions exchanged and the sign changed.
  EXPECT_EQ(s.storedBlocks(), (std::vector<std::vector<int64_t>>{{0, 1, 0}}));
  const StoredBlock st = s.presence.storedFor({1, 0, 0});
  EXPECT_EQ(st.ids, (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(st.dims, (std::vector<int64_t>{1, 0, 2}));
  EXPECT_EQ(st.sign, -1);
  // A diagonal block is its own exchange: stored as it is.
  const StoredBlock diagonal = s.presence.storedFor({0, 0, 0});
  EXPECT_TRUE(diagonal.dims.empty());
  EXPECT_EQ(diagonal.sign, 1);
}

} // namespace
