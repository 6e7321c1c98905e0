//===- LayoutTest.cpp - distributions and redistribution cost -------------===//
#include "TC/Analysis/Layout.h"

#include "TC/Layout/Ownership.h"

#include <gtest/gtest.h>

#include <algorithm>

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

namespace {
using tc_layout::ceilDiv;
} // namespace

TEST(Layout, CanonicalBlocksAreTheContiguousOwnership) {
  // Element by element (docs/Derivations.md D28): block-cyclic blocks of nb put
  // element i at coordinate (i / nb) mod G, local index (i / nb) / G nb + i mod
  // nb; contiguous blocks at i / ceil(N / G), local i mod ceil(N / G). A block
  // written 0 by canonicalCyclicBlock must give the same ownership, local
  // order and stored rows, and (for N, G >= 2) every block giving them is
  // written 0.
  for (int64_t N = 1; N <= 20; ++N)
    for (int64_t G = 1; G <= 6; ++G)
      for (int64_t nb = 1; nb <= N + 2; ++nb) {
        const int64_t c = ceilDiv(N, G);
        bool same = true;
        std::vector<int64_t> held(G, 0);
        for (int64_t i = 0; i < N; ++i) {
          same = same && (i / nb) % G == i / c && (i / nb) / G * nb + i % nb == i % c;
          ++held[(i / nb) % G];
        }
        Layout cyclic{{G}, {"i"}, {nb}};
        // The stored rows are the busiest coordinate's whole blocks.
        int64_t blocksMost = 0;
        for (int64_t g = 0; g < G; ++g) {
          int64_t blocks = 0;
          for (int64_t I = g; I * nb < N; I += G)
            ++blocks;
          blocksMost = std::max(blocksMost, blocks);
        }
        EXPECT_EQ(cyclic.paddedLocal("i", N), blocksMost * nb) << N << " " << G << " " << nb;
        const bool canonical = canonicalCyclicBlock(nb, N, G) == 0;
        if (canonical) {
          EXPECT_TRUE(same) << N << " " << G << " " << nb;
          EXPECT_EQ(cyclic.paddedLocal("i", N), (Layout{{G}, {"i"}}).paddedLocal("i", N));
        }
        // (N = 1 or G = 1: every block gives the contiguous ownership, but
        // only nb = ceil(N / G) is rewritten. samePartition ignores grid
        // dimensions of extent 1; a label of extent 1 in blocks of nb > 1
        // compares different from contiguous, though redistributionVolumes,
        // counted element by element, moves nothing between them.)
        if (same && N >= 2 && G >= 2) {
          EXPECT_TRUE(canonical) << N << " " << G << " " << nb;
        }
        EXPECT_EQ(canonicalCyclicBlock(nb, N, G), canonical ? 0 : nb);
      }
  const std::map<std::string, int64_t> extents{{"i", 10}, {"k", 8}};
  // Both dimensions canonical: no cyclic list left, so it equals the contiguous layout.
  Layout both = canonicalBlocks(Layout{{2, 3}, {"i", "k"}, {5, 3}}, extents);
  EXPECT_TRUE(both.cyclic.empty());
  EXPECT_FALSE(both.isCyclic());
  EXPECT_TRUE(both.samePartition(Layout{{2, 3}, {"i", "k"}}));
  EXPECT_EQ(both.str(), "[2, 3] (i, k)");
  // One of two: only that one is rewritten.
  Layout one = canonicalBlocks(Layout{{2, 3}, {"i", "k"}, {4, 3}}, extents);
  EXPECT_EQ(one.cyclic, std::vector<int64_t>({4, 0}));
  EXPECT_EQ(one.str(), "[2, 3] (i, k) cyclic [4, 0]");
  // The block depends on the grid extent of its own dimension: 3 is canonical
  // for k on 3 coordinates, not on 2.
  EXPECT_EQ(canonicalBlocks(Layout{{3, 2}, {"k", "i"}, {3, 5}}, extents).cyclic.size(), 0u);
  EXPECT_EQ(canonicalBlocks(Layout{{2, 3}, {"k", "i"}, {3, 3}}, extents).cyclic,
            std::vector<int64_t>({3, 3}));
  // Replicated dimensions, labels without an extent and short cyclic lists are
  // left alone.
  Layout rep = canonicalBlocks(Layout{{2, 2}, {"*", "k"}, {3}}, extents);
  EXPECT_EQ(rep.cyclic, std::vector<int64_t>({3}));
  Layout unknown = canonicalBlocks(Layout{{2, 2}, {"x", "k"}, {2, 4}}, extents);
  EXPECT_EQ(unknown.cyclic, std::vector<int64_t>({2, 0}));
  Layout contiguous = canonicalBlocks(Layout{{2, 2}, {"i", "k"}}, extents);
  EXPECT_TRUE(contiguous.cyclic.empty());
}

TEST(Layout, RedistributionVolumesMatchAnElementBySimulation) {
  // Every pair of layouts of a 3-label array (i and k distributed, contiguous
  // or in blocks of 1 or 2, or replicated; l never) on several grids, against
  // the runtime's rule counted element by element: rank r needs the elements
  // its `to` block holds (any coordinate along a grid dimension `to` does not
  // distribute); each comes from the process with the element's `from` owner
  // coordinates along the grid dimensions `from` splits and r's elsewhere, and
  // moves unless that is r itself.
  const std::map<std::string, int64_t> extents{{"i", 7}, {"k", 5}, {"l", 2}};
  const std::vector<std::string> labels{"k", "l", "i"};
  int pairs = 0, moving = 0;
  for (const std::vector<int64_t> &grid :
       {std::vector<int64_t>{2, 3}, {3, 2}, {1, 4}, {4, 1}, {2, 2}, {5}}) {
    const size_t D = grid.size();
    std::vector<Layout> layouts;
    const std::vector<std::string> choices{"i", "k", "*"};
    std::vector<size_t> pick(D, 0);
    while (true) {
      std::vector<std::string> dims;
      for (size_t d = 0; d < D; ++d)
        dims.push_back(choices[pick[d]]);
      bool distinct = D < 2 || dims[0] != dims[1] || dims[0] == "*";
      if (distinct) {
        // Blocks 0, 1, 2 on each distributing dimension.
        std::vector<int64_t> blk(D, 0);
        while (true) {
          Layout l{grid, dims, blk};
          if (!l.isCyclic())
            l.cyclic.clear();
          layouts.push_back(l);
          size_t d = 0;
          for (; d < D; ++d) {
            if (dims[d] == "*")
              continue;
            if (++blk[d] <= 2)
              break;
            blk[d] = 0;
          }
          if (d == D)
            break;
        }
      }
      size_t d = 0;
      for (; d < D; ++d) {
        if (++pick[d] < choices.size())
          break;
        pick[d] = 0;
      }
      if (d == D)
        break;
    }
    int64_t P = 1;
    for (int64_t g : grid)
      P *= g;
    auto coords = [&](int64_t r) {
      std::vector<int64_t> c(D);
      for (size_t d = D; d-- > 0;) {
        c[d] = r % grid[d];
        r /= grid[d];
      }
      return c;
    };
    auto ownerAlong = [&](const Layout &l, size_t d, int64_t i) {
      int64_t N = extents.at(l.dims[d]);
      int64_t nb = l.cyclicBlock(d) > 0 ? l.cyclicBlock(d) : ceilDiv(N, grid[d]);
      return (i / nb) % grid[d];
    };
    for (const Layout &from : layouts)
      for (const Layout &to : layouts) {
        ++pairs;
        std::vector<double> wantSent(P, 0), wantReceived(P, 0);
        for (int64_t k = 0; k < extents.at("k"); ++k)
          for (int64_t l = 0; l < extents.at("l"); ++l)
            for (int64_t i = 0; i < extents.at("i"); ++i) {
              auto index = [&](const std::string &label) { return label == "i" ? i : k; };
              for (int64_t r = 0; r < P; ++r) {
                std::vector<int64_t> cr = coords(r), ch = cr;
                bool needs = true;
                for (size_t d = 0; d < D; ++d) {
                  if (to.dims[d] != "*" && ownerAlong(to, d, index(to.dims[d])) != cr[d])
                    needs = false;
                  if (from.dims[d] != "*" && grid[d] > 1)
                    ch[d] = ownerAlong(from, d, index(from.dims[d]));
                }
                if (!needs || ch == cr)
                  continue;
                int64_t h = 0;
                for (size_t d = 0; d < D; ++d)
                  h = h * grid[d] + ch[d];
                wantSent[h] += 8;
                wantReceived[r] += 8;
              }
            }
        std::vector<double> sent, received;
        redistributionVolumes(from, to, labels, extents, 8, sent, received);
        EXPECT_EQ(sent, wantSent) << from.str() << " -> " << to.str();
        EXPECT_EQ(received, wantReceived) << from.str() << " -> " << to.str();
        bool moves = std::any_of(received.begin(), received.end(), [](double b) { return b > 0; });
        moving += moves;
        // The same partition after canonicalBlocks moves nothing.
        if (canonicalBlocks(from, extents).samePartition(canonicalBlocks(to, extents))) {
          EXPECT_FALSE(moves) << from.str() << " -> " << to.str();
        }
        // From a replicated array every process selects its block.
        if (from.isReplicated()) {
          EXPECT_FALSE(moves) << from.str() << " -> " << to.str();
        }
      }
  }
  EXPECT_GT(pairs, 2000);
  EXPECT_GT(moving, 1000);
}
