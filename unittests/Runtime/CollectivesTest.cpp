//===- CollectivesTest.cpp - results and exact byte counts ----------------===//
#include "TC/Analysis/CollectiveVolumes.h"
#include "TestArrays.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace tc_rt;
using namespace tc_rt::test;

namespace {

int P() { return ctx().size; }
int R() { return ctx().rank; }

TEST(Collectives, AllReduceTileSumsAndCountsBytes) {
  const int64_t n = 999; // divisible by 3: the ring's segments are equal
  std::vector<double> buf(n);
  for (int64_t i = 0; i < n; ++i)
    buf[i] = R() * 1000.0 + i;
  Desc desc = AllReduceTileDesc{{n}}.encode();
  double sent = compute().bytesSent;
  tc_rt_allreduce_tile(buf.data(), desc.data());
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(buf[i], 1000.0 * P() * (P() - 1) / 2 + double(i) * P());
  bool pow2 = (P() & (P() - 1)) == 0;
  double expect = P() == 1 ? 0 : pow2 ? 8.0 * n * std::log2(P()) : 2.0 * 8 * n * (P() - 1) / P();
  EXPECT_EQ(compute().bytesSent - sent, expect);
}

TEST(Collectives, ShiftTileRotatesAlongTheGrid) {
  void *a = makeArray("shift", {4 * int64_t(P())}, {true}, TC_RT_DISTRIBUTED, false);
  std::vector<double> buf(6, R());
  Desc desc = ShiftTileDesc{/*gridDim=*/0, /*shape=*/{6}, /*subshape=*/{4}}.encode();
  int64_t offsets[] = {1};
  double sent = compute().bytesSent;
  tc_rt_shift_tile(a, buf.data(), desc.data(), offsets);
  double next = (R() + 1) % P();
  EXPECT_EQ(buf[0], R());
  for (int i = 1; i < 5; ++i)
    EXPECT_EQ(buf[i], next) << i;
  EXPECT_EQ(buf[5], R());
  EXPECT_EQ(compute().bytesSent - sent, P() == 1 ? 0 : 4 * 8);
}

TEST(Collectives, BroadcastTileAssemblesSlabs) {
  const int64_t rows = 10, cols = 3;
  void *a = makeArray("slab", {rows, cols}, {false, false}, TC_RT_SLAB, false);
  int64_t slab = (rows + P() - 1) / P();
  std::vector<double> buf(rows * cols, NAN);
  for (int64_t r = R() * slab; r < std::min(rows, (R() + 1) * slab); ++r)
    for (int64_t c = 0; c < cols; ++c)
      buf[r * cols + c] = r * 10 + c;
  Desc desc = TileDesc{{rows, cols}}.encode();
  int64_t offsets[] = {0, 0};
  double sent = compute().bytesSent;
  tc_rt_broadcast_tile(a, buf.data(), desc.data(), offsets);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_EQ(buf[r * cols + c], r * 10 + c) << r << "," << c;
  // Ring: every slab but the next rank's passes through this one.
  int next = (R() + 1) % P();
  int64_t nextRows = std::max<int64_t>(0, std::min(rows, (next + 1) * slab) - next * slab);
  EXPECT_EQ(compute().bytesSent - sent, P() == 1 ? 0 : 8.0 * cols * (rows - nextRows));
}

TEST(Collectives, OutOfCoreShiftArrayMovesBlocksDiskToDisk) {
  void *a = makeArray("disk-shift", {4 * int64_t(P())}, {true}, TC_RT_DISTRIBUTED, true);
  std::vector<double> buf(4, R());
  Desc desc = TileDesc{{4}}.encode();
  int64_t offsets[] = {0};
  tc_rt_write_tile(a, buf.data(), desc.data(), offsets);
  Counters before = compute();
  tc_rt_shift_array(a, 0);
  Counters after = compute();
  double moved = P() == 1 ? 0 : 32;
  EXPECT_EQ(after.bytesRead - before.bytesRead, moved);
  EXPECT_EQ(after.bytesWritten - before.bytesWritten, moved);
  EXPECT_EQ(after.bytesSent - before.bytesSent, moved);
  tc_rt_read_tile(a, buf.data(), desc.data(), offsets);
  for (double x : buf)
    EXPECT_EQ(x, (R() + 1) % P());
}

// A redistribution's schedule is worked out once per pair of layouts; a
// shifted array holds other blocks in the same layout and must not reuse the
// unshifted one's.
TEST(Collectives, RedistributingAShiftedArraySendsTheBlocksItNowHolds) {
  const int64_t n = 4 * int64_t(P());
  void *a = makeArray("resched", {n}, {true}, TC_RT_DISTRIBUTED, false);
  std::vector<double> buf(4);
  for (int i = 0; i < 4; ++i)
    buf[i] = 4.0 * R() + i; // the tensor's value is its index
  Desc desc = TileDesc{{4}}.encode();
  int64_t offsets[] = {0};
  tc_rt_write_tile(a, buf.data(), desc.data(), offsets);
  for (bool shifted : {false, true, false}) {
    if (shifted)
      tc_rt_shift_array(a, 0);
    void *whole = makeArray("resched-whole", {n}, {false}, TC_RT_REPLICATED, false);
    tc_rt_redistribute(a, whole);
    const double *got = static_cast<DistArray *>(whole)->mem<double>();
    for (int64_t g = 0; g < n; ++g)
      ASSERT_EQ(got[g], double(g)) << "index " << g << (shifted ? " after a shift" : "");
  }
}

TEST(Collectives, OutOfCoreAllReduceAndAllGather) {
  void *c = makeArray("disk-sum", {5, 4}, {false, false}, TC_RT_REPLICATED, true);
  std::vector<double> buf(20, 1.0 + R());
  Desc desc = TileDesc{{5, 4}}.encode();
  int64_t offsets[] = {0, 0};
  tc_rt_write_tile(c, buf.data(), desc.data(), offsets);
  tc_rt_allreduce_array(c);
  tc_rt_read_tile(c, buf.data(), desc.data(), offsets);
  for (double x : buf)
    EXPECT_EQ(x, P() * (P() + 1) / 2.0);

  // A gathered array: each rank fills its slab of rows, the all-gather the rest.
  const int64_t rows = 7;
  void *g = makeArray("disk-gather", {rows, 2}, {false, false}, TC_RT_GATHERED, true);
  int64_t slab = (rows + P() - 1) / P(), lo = std::min(rows, R() * slab),
          hi = std::min(rows, lo + slab);
  std::vector<double> mine(2 * (hi - lo));
  for (int64_t r = lo; r < hi; ++r)
    mine[2 * (r - lo)] = mine[2 * (r - lo) + 1] = r;
  Desc sdesc = TileDesc{{hi - lo, 2}}.encode();
  int64_t soff[] = {lo, 0};
  if (hi > lo)
    tc_rt_write_tile(g, mine.data(), sdesc.data(), soff);
  tc_rt_allgather_array(g);
  std::vector<double> all(2 * rows);
  Desc gdesc = TileDesc{{rows, 2}}.encode();
  int64_t goff[] = {0, 0};
  tc_rt_read_tile(g, all.data(), gdesc.data(), goff);
  for (int64_t r = 0; r < rows; ++r)
    EXPECT_EQ(all[2 * r], r) << r;
}

TEST(Collectives, OutOfCoreScalarGatherTouchesItOnce) {
  // Issue 30: every rank read and rewrote its scratch scalar. It is forwarded
  // from memory: rank 0 only reads it, the others only write it.
  for (tc_rt_elem elem : {TC_RT_F64, TC_RT_F32}) {
    ctx().options.scratch = "/tmp";
    void *s = tc_rt_array(arrayDescription({}, {ctx().size}, {}, TC_RT_GATHERED, TC_RT_INIT_ZERO,
                                           /*onDisk=*/true, {}, {}, elem)
                              .data(),
                          "disk-scalar", nullptr);
    withElement(elem, [&](auto zero) {
      using T = decltype(zero);
      T v = 42, got = 0;
      Desc desc = TileDesc{{}}.encode();
      int64_t none[1] = {0};
      if (R() == 0) // the scalar is rank 0's slab
        tc_rt_write_tile(s, &v, desc.data(), none);
      Counters before = compute();
      tc_rt_allgather_array(s);
      Counters after = compute();
      EXPECT_EQ(after.bytesRead - before.bytesRead + after.bytesWritten - before.bytesWritten,
                double(sizeof(T) * mlir::tc::ringAllGatherDisk(1, 1, true, P(), R())));
      EXPECT_EQ(after.bytesRead - before.bytesRead, R() == 0 && P() > 1 ? double(sizeof(T)) : 0.0);
      tc_rt_read_tile(s, &got, desc.data(), none);
      EXPECT_EQ(got, v);
    });
  }
}

TEST(Collectives, SinglePrecisionMovesFourByteElements) {
  // f32 arrays and buffers: the same collectives, every byte counted at 4 per
  // element (messages, scratch-file reads and writes).
  const int64_t n = 999;
  std::vector<float> buf(n);
  for (int64_t i = 0; i < n; ++i)
    buf[i] = static_cast<float>(R() * 10 + i % 7);
  Desc desc = AllReduceTileDesc{{n}, TC_RT_F32}.encode();
  double sent = compute().bytesSent;
  tc_rt_allreduce_tile(buf.data(), desc.data());
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(buf[i], 10.0f * P() * (P() - 1) / 2 + float(i % 7) * P());
  bool pow2 = (P() & (P() - 1)) == 0;
  EXPECT_EQ(compute().bytesSent - sent,
            P() == 1 ? 0 : pow2 ? 4.0 * n * std::log2(P()) : 2.0 * 4 * n * (P() - 1) / P());

  ctx().options.scratch = "/tmp";
  void *c = tc_rt_array(arrayDescription({5, 4}, {ctx().size}, {-1, -1}, TC_RT_REPLICATED,
                                         TC_RT_INIT_ZERO, /*onDisk=*/true, {}, {}, TC_RT_F32)
                            .data(),
                        "f32-disk-sum", nullptr);
  std::vector<float> tile(20, 1.0f + R());
  Desc tdesc = TileDesc{{5, 4}}.encode();
  int64_t offsets[] = {0, 0};
  Counters before = compute();
  tc_rt_write_tile(c, tile.data(), tdesc.data(), offsets);
  tc_rt_allreduce_array(c);
  tc_rt_read_tile(c, tile.data(), tdesc.data(), offsets);
  for (float x : tile)
    EXPECT_EQ(x, P() * (P() + 1) / 2.0f);
  // The tile written and read once, the array read and written by the reduction.
  const double twice = P() == 1 ? 1 : 2;
  EXPECT_EQ(compute().bytesWritten - before.bytesWritten, 4.0 * 20 * twice);
  EXPECT_EQ(compute().bytesRead - before.bytesRead, 4.0 * 20 * twice);

  void *g = tc_rt_array(arrayDescription({7, 3}, {ctx().size}, {-1, -1}, TC_RT_GATHERED,
                                         TC_RT_INIT_ZERO, false, {}, {}, TC_RT_F32)
                            .data(),
                        "f32-gather", nullptr);
  before = compute();
  tc_rt_allgather_array(g);
  EXPECT_EQ(compute().bytesSent - before.bytesSent,
            4.0 * mlir::tc::ringAllGather(7, 3, P(), R()).sent);
}

/// Elements this rank sent and received while fn ran.
template <typename Fn> mlir::tc::RankTraffic measured(Fn fn) {
  Counters before = compute();
  fn();
  return {static_cast<int64_t>((compute().bytesSent - before.bytesSent) / 8),
          static_cast<int64_t>((compute().bytesReceived - before.bytesReceived) / 8)};
}

TEST(Collectives, UnevenWholeArrayCollectivesMatchTheirPrediction) {
  // Sizes no P divides, scalars and arrays shorter than P: every rank's counts
  // equal CollectiveVolumes' (the planner's exact per-rank predictions).
  for (int64_t rows : {1, 2, 5, 7}) {
    void *g = makeArray("uneven-gather", {rows, 3}, {false, false}, TC_RT_GATHERED, false);
    mlir::tc::RankTraffic got = measured([&] { tc_rt_allgather_array(g); });
    mlir::tc::RankTraffic expect = mlir::tc::ringAllGather(rows, 3, P(), R());
    EXPECT_EQ(got.sent, expect.sent) << rows << " rows";
    EXPECT_EQ(got.received, expect.received) << rows << " rows";
  }
  ctx().options.scratch = "/tmp";
  void *scalar = tc_rt_array(
      arrayDescription({}, {ctx().size}, {}, TC_RT_GATHERED, TC_RT_INIT_ZERO, false).data(),
      "uneven-scalar", nullptr);
  mlir::tc::RankTraffic got = measured([&] { tc_rt_allgather_array(scalar); });
  EXPECT_EQ(got.sent, mlir::tc::ringAllGather(1, 1, P(), R()).sent);
  EXPECT_EQ(got.received, mlir::tc::ringAllGather(1, 1, P(), R()).received);
  const int64_t saved = ctx().chunkBytes;
  for (int64_t chunk : {int64_t(1) << 20, int64_t(7)})
    for (int64_t n : {1, 5, 13, 40}) {
      ctx().chunkBytes = 8 * chunk;
      void *c = makeArray("uneven-sum", {n}, {false}, TC_RT_REPLICATED, false);
      mlir::tc::RankTraffic got = measured([&] { tc_rt_allreduce_array(c); });
      // Half a chunk at a time: the other half receives (Collectives.cpp).
      mlir::tc::RankTraffic expect =
          mlir::tc::allReduce(n, std::max<int64_t>(1, chunk / 2), P(), R());
      EXPECT_EQ(got.sent, expect.sent) << n << " elements, chunks of " << chunk;
      EXPECT_EQ(got.received, expect.received) << n << " elements, chunks of " << chunk;
    }
  ctx().chunkBytes = saved;
}

} // namespace
