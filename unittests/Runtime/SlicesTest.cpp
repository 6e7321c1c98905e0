//===- SlicesTest.cpp - the calls of fused programs ------------------------===//
#include "DistArray.h"
#include "TestArrays.h"

#include "TC/Analysis/CollectiveVolumes.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cmath>
#include <numeric>

using namespace tc_rt;
using tc_rt::test::compute;
using tc_rt::test::removeWhenAllDone;

namespace {

/// An in-memory array over grid [P] split along `splitDim` (-1: whole).
void *array(const char *name, std::vector<int64_t> extents, int splitDim, tc_rt_init init) {
  Shape gridDims(extents.size(), -1);
  if (splitDim >= 0)
    gridDims[splitDim] = 0;
  return tc_rt_array(
      arrayDescription(extents, {ctx().size}, gridDims, TC_RT_DISTRIBUTED, init).data(), name,
      nullptr);
}

double *data(void *a) { return static_cast<DistArray *>(a)->mem(); }

TEST(Slices, LoadSliceReadsTheFusedRows) {
  // X[i,j,k] split along i; the slice fused on i holds one i per process: the
  // s-th of its block, tensor index z * (8 / P) + s.
  ctx().options.randomInputs = true;
  ctx().options.seed = 11;
  int64_t P = ctx().size, rows = 8 / P;
  if (8 % P)
    GTEST_SKIP() << "8 rows do not split over " << P;
  void *full = array("X", {8, 6, 4}, 0, TC_RT_INIT_INPUT);
  void *slice = array("X", {P, 6, 4}, 0, TC_RT_INIT_ZERO);
  Desc desc = SliceDesc{{8, 6, 4}}.encode();
  for (int64_t s = 0; s < rows; ++s) {
    int64_t shift[] = {s, 0, 0};
    tc_rt_load_slice(slice, desc.data(), shift);
    for (int64_t e = 0; e < 24; ++e)
      ASSERT_EQ(data(slice)[e], data(full)[s * 24 + e]) << "s " << s << " element " << e;
  }
  releaseArrays();
}

TEST(Slices, StoredSlicesMakeTheTensor) {
  // Write Y[i,j] (split along j) slice by slice along i, then read the file back.
  ctx().options.randomInputs = true;
  ctx().options.seed = 5;
  int64_t P = ctx().size;
  std::string out = "/tmp/tc-slices-" + std::to_string(ctx().jobId) + ".h5";
  ctx().options.output = out;
  void *full = array("Y", {5, 4 * P}, 1, TC_RT_INIT_INPUT);
  void *slice = array("Y", {1, 4 * P}, 1, TC_RT_INIT_ZERO);
  Desc desc = SliceDesc{{5, 4 * P}}.encode();
  for (int64_t s = 0; s < 5; ++s) {
    std::copy(data(full) + s * 4, data(full) + (s + 1) * 4, data(slice));
    int64_t shift[] = {s, 0};
    tc_rt_store_slice(slice, desc.data(), shift);
  }
  tc_rt_finish_store(slice);
  closeRunFiles(); // the run's end puts the output in place
  ctx().options.output.clear();
  ctx().options.randomInputs = false;
  ctx().options.inputs["Y"] = out;
  void *back = array("Y", {5, 4 * P}, 1, TC_RT_INIT_INPUT);
  for (int64_t e = 0; e < 20; ++e)
    ASSERT_EQ(data(back)[e], data(full)[e]) << e;
  ctx().options.inputs.clear();
  releaseArrays();
  removeWhenAllDone(out);
}

TEST(Slices, CombinePartialSumsAlongGridDimensions) {
  // Grid [2, P/2]: summing along dimension 1 adds the P/2 processes of a row.
  int64_t P = ctx().size;
  if (P % 2)
    GTEST_SKIP() << "needs an even number of processes";
  void *a = tc_rt_array(
      arrayDescription({6}, {2, P / 2}, {-1}, TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO).data(), "Z",
      nullptr);
  DistArray &z = *static_cast<DistArray *>(a);
  std::fill(z.mem(), z.mem() + 6, static_cast<double>(ctx().rank + 1));
  double before = compute().bytesReceived;
  tc_rt_combine_partial(a, 0b10);
  double received = compute().bytesReceived - before;
  // Ranks are row-major over [2, P/2]: row r holds ranks r*P/2 .. r*P/2 + P/2 - 1.
  int64_t row = ctx().rank / (P / 2), g = P / 2;
  double expected = 0;
  for (int64_t k = 0; k < g; ++k)
    expected += static_cast<double>(row * g + k + 1);
  for (int e = 0; e < 6; ++e)
    EXPECT_DOUBLE_EQ(z.mem()[e], expected);
  double times = (g & (g - 1)) == 0 ? std::log2(static_cast<double>(g)) : 2.0 * (g - 1) / g;
  EXPECT_DOUBLE_EQ(received, 6 * 8 * times);
  tc_rt_zero_array(a);
  EXPECT_EQ(z.mem()[0], 0.0);
  releaseArrays();
}

TEST(Slices, CombinedPartialSumsMoveEachRanksShare) {
  // The bytes lib/Analysis/FusedSchedule predicts for a fused tree's combine
  // (docs/Derivations.md D31): the all-reduce of the whole padded block over
  // the sub-grid, each rank at its row-major place along the combined grid
  // dimensions; with a group that is not a power of two the ring's segments
  // differ by one element and so do the ranks' bytes.
  const int64_t P = ctx().size;
  std::vector<std::pair<std::vector<int64_t>, int64_t>> grids = {{{P}, 0b1}};
  if (P % 2 == 0)
    grids.push_back({{P / 2, 2}, 0b1});
  for (const auto &[grid, mask] : grids)
    for (int64_t n : {1, 2, 4, 5}) {
      void *a = tc_rt_array(
          arrayDescription({n}, grid, {-1}, TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO).data(), "Z",
          nullptr);
      Counters before = compute();
      tc_rt_combine_partial(a, mask);
      const int64_t group = grid[0], member = grid.size() == 1 ? ctx().rank : ctx().rank / 2;
      mlir::tc::RankTraffic expect = mlir::tc::allReduce(n, n, group, member);
      EXPECT_EQ(compute().bytesSent - before.bytesSent, 8.0 * expect.sent) << n << " elements";
      EXPECT_EQ(compute().bytesReceived - before.bytesReceived, 8.0 * expect.received)
          << n << " elements";
      releaseArrays();
    }
}

} // namespace
