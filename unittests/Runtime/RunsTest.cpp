//===- RunsTest.cpp - run lists and block-cyclic ownership (serial) --------===//
//
// The run-list helpers against element-by-element expansions, and the
// ownership and local maps of block-cyclic dimensions against the definition
// (Choi, Dongarra, Walker (PUMMA) section 2; notes 3.2): global i is in block
// I = i / nb, held at coordinate I mod G, at storage index (I / G) nb + i mod nb.
// No messages: every rank checks the same.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "Runs.h"

#include <gtest/gtest.h>

#include <map>

using namespace tc_rt;

namespace {

/// The map a run list describes, element by element (from -> to).
std::map<int64_t, int64_t> expand(const Runs &runs) {
  std::map<int64_t, int64_t> m;
  for (const Run &r : runs)
    for (int64_t x = 0; x < r.len; ++x)
      m[r.from + x] = r.to + x;
  return m;
}

TEST(Runs, OverlapMeetsOnTheToSide) {
  // Storage -> global of a cyclic dimension (nb 2, G 3, coordinate 1) and of a
  // block dimension (rows 4..11 at storage 0).
  Runs cyc = {{0, 2, 2}, {2, 8, 2}, {4, 14, 1}};
  Runs blk = {{0, 4, 8}};
  Runs ov = overlap(cyc, blk);
  EXPECT_EQ(ov, (Runs{{2, 4, 2}}));
  Runs both = overlap(cyc, {{0, 0, 15}});
  EXPECT_EQ(both, (Runs{{0, 2, 2}, {2, 8, 2}, {4, 14, 1}}));
  // Two cyclic layouts (nb 2 and nb 3 of the same 15 elements, one process
  // each): their common globals, element by element.
  Runs nb3 = {{0, 3, 3}, {3, 9, 3}};
  std::map<int64_t, int64_t> expect;
  auto g2 = expand(cyc), g3 = expand(nb3);
  for (auto [s2, g] : g2)
    for (auto [s3, h] : g3)
      if (g == h)
        expect[s2] = s3;
  EXPECT_EQ(expand(overlap(cyc, nb3)), expect);
}

TEST(Runs, PackedRangeAndMerge) {
  Runs runs = {{0, 2, 2}, {2, 8, 2}, {4, 14, 1}};
  Runs p = packed(runs, /*fromSide=*/true); // storage 0..4 contiguous
  EXPECT_EQ(p, (Runs{{0, 0, 5}}));
  Runs q = packed(runs, /*fromSide=*/false);
  EXPECT_EQ(q, (Runs{{2, 0, 2}, {8, 2, 2}, {14, 4, 1}}));
  EXPECT_EQ(packedRange(runs, 1, 4), (Runs{{1, 3, 1}, {2, 8, 2}}));
  EXPECT_EQ(packedRange(runs, 4, 9), (Runs{{4, 14, 1}}));
  EXPECT_TRUE(packedRange(runs, 5, 9).empty());
  EXPECT_EQ(total(runs), 5);
  EXPECT_EQ(elements({runs, {{0, 0, 3}}}), 15);
  EXPECT_EQ(elements({runs, {}}), 0);
}

TEST(Runs, PatternsCoverTheRunsExactly) {
  // Whole blocks stride G nb apart, partial first and last blocks.
  for (Runs runs : {Runs{{0, 3, 3}, {3, 12, 3}, {6, 21, 3}, {9, 30, 2}},
                    Runs{{1, 4, 2}, {3, 12, 3}, {6, 21, 3}}, Runs{{0, 7, 1}}, Runs{}}) {
    std::map<int64_t, bool> want, got;
    for (const tc_rt::Run &r : runs)
      for (int64_t x = 0; x < r.len; ++x)
        want[r.to + x] = true;
    std::vector<Pattern> ps = patterns(runs);
    EXPECT_LE(ps.size(), 3u);
    for (const Pattern &p : ps)
      for (int64_t c = 0; c < p.count; ++c)
        for (int64_t b = 0; b < p.block; ++b)
          EXPECT_TRUE(got.emplace(p.start + c * p.stride + b, true).second);
    EXPECT_EQ(got, want);
  }
}

/// A distributed array of one dimension on a 1-d grid of G processes,
/// block-cyclic with block nb (no MPI: the fields tc_rt_array would set).
DistArray cyclicArray(int64_t extent, int64_t G, int64_t nb, int64_t shift = 0) {
  DistArray a;
  a.name = "X";
  a.grid = {G};
  a.extents = {extent};
  a.gridDim = {0};
  a.skewDim = {-1};
  a.splitDim = {-1};
  a.cyclic = {nb};
  a.fileDim = {0};
  a.shifts = {shift};
  a.coords = {0};
  return a;
}

TEST(CyclicLayout, OwnershipAndLocalIndexFollowTheDefinition) {
  for (int64_t G = 1; G <= 5; ++G)
    for (int64_t nb = 1; nb <= 6; ++nb)
      for (int64_t extent = 1; extent <= 31; extent += 3)
        for (int64_t shift = 0; shift < 2; ++shift) {
          DistArray a = cyclicArray(extent, G, nb, shift);
          std::string what = "extent " + std::to_string(extent) + " G " + std::to_string(G) +
                             " nb " + std::to_string(nb) + " shift " + std::to_string(shift);
          int64_t blocks = (extent + nb - 1) / nb;
          EXPECT_EQ(a.storeRows(0), (blocks + G - 1) / G * nb) << what;
          int64_t seen = 0;
          for (int c = 0; c < G; ++c) {
            // After `shift` shifts, coordinate c holds what c + shift held.
            int64_t holder = (c + shift) % G;
            std::map<int64_t, int64_t> expect; // storage -> global
            for (int64_t i = 0; i < extent; ++i) {
              int64_t I = i / nb;
              if (I % G == holder)
                expect[(I / G) * nb + i % nb] = i;
            }
            Runs runs = a.heldRuns(0, {c});
            EXPECT_EQ(expand(runs), expect) << what << " coordinate " << c;
            int64_t len = static_cast<int64_t>(expect.size());
            EXPECT_EQ(a.localLen(0, {c}), len) << what << " coordinate " << c;
            // The real rows are a prefix of the padded storage.
            if (len > 0) {
              EXPECT_EQ(expect.begin()->first, 0) << what;
              EXPECT_EQ(expect.rbegin()->first, len - 1) << what;
            }
            EXPECT_LE(len, a.storeRows(0)) << what;
            for (size_t k = 1; k < runs.size(); ++k)
              EXPECT_LT(runs[k - 1].to, runs[k].to) << what; // ascending
            seen += len;
          }
          EXPECT_EQ(seen, extent) << what; // every element held once
        }
}

TEST(CyclicLayout, RunsOfEveryRankOnATwoDimensionalGrid) {
  // A[13, 7] on [2, 3]: rows cyclic (nb 2) along grid dimension 1, columns in
  // blocks along 0. runsOf(rank) is heldRuns at that rank's coordinates.
  DistArray a;
  a.name = "A";
  a.grid = {2, 3};
  a.extents = {13, 7};
  a.gridDim = {1, 0};
  a.skewDim = {-1, -1};
  a.splitDim = {-1, -1};
  a.cyclic = {2, 0};
  a.fileDim = {0, 1};
  a.shifts = {0, 0};
  a.coords = {0, 0};
  int64_t count = 0;
  for (int r = 0; r < 6; ++r) {
    Selection sel = a.runsOf(r, /*loading=*/false);
    int c0 = r / 3, c1 = r % 3;
    std::map<int64_t, int64_t> rows, cols;
    for (int64_t i = 0; i < 13; ++i)
      if ((i / 2) % 3 == c1)
        rows[(i / 2) / 3 * 2 + i % 2] = i;
    for (int64_t j = 0; j < 7; ++j)
      if (j / 4 == c0)
        cols[j % 4] = j;
    EXPECT_EQ(expand(sel[0]), rows) << "rank " << r;
    EXPECT_EQ(expand(sel[1]), cols) << "rank " << r;
    count += elements(sel);
  }
  EXPECT_EQ(count, 13 * 7);
}

} // namespace
