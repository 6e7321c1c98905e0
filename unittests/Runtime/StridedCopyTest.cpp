//===- StridedCopyTest.cpp - copies between strided layouts (serial) ------===//
//
// copyStrided against an element-by-element copy over random boxes: every
// permutation of dimensions on either side, sub-boxes of larger buffers,
// extents of 1 and 0, and layouts where whole runs merge into one copy.
// No messages: every rank checks the same.
//
//===----------------------------------------------------------------------===//
#include "StridedCopy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace tc_rt;

namespace {

/// Strides of a buffer of `shape` stored in dimension order `order`
/// (outermost first), as strides per dimension.
std::vector<int64_t> stridesIn(const std::vector<int64_t> &shape, const std::vector<int> &order) {
  std::vector<int64_t> stride(shape.size());
  int64_t s = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    stride[*it] = s;
    s *= shape[*it];
  }
  return stride;
}

/// Copies element by element, walking the box in row-major order.
void naiveCopy(std::vector<double> &dst, const std::vector<int64_t> &dstStride, int64_t dstBase,
               const std::vector<double> &src, const std::vector<int64_t> &srcStride,
               int64_t srcBase, const std::vector<int64_t> &ext) {
  if (std::any_of(ext.begin(), ext.end(), [](int64_t e) { return e == 0; }))
    return;
  std::vector<int64_t> idx(ext.size(), 0);
  for (;;) {
    int64_t d = dstBase, s = srcBase;
    for (size_t i = 0; i < ext.size(); ++i)
      d += idx[i] * dstStride[i], s += idx[i] * srcStride[i];
    dst[d] = src[s];
    int i = static_cast<int>(ext.size()) - 1;
    for (; i >= 0 && ++idx[i] == ext[i]; --i)
      idx[i] = 0;
    if (i < 0)
      return;
  }
}

} // namespace

TEST(StridedCopy, MatchesAnElementByElementCopy) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 400; ++trial) {
    const int d = static_cast<int>(rng() % 5);
    std::vector<int64_t> dstShape(d), srcShape(d), ext(d), dstAt(d), srcAt(d);
    for (int i = 0; i < d; ++i) {
      ext[i] = rng() % 7 == 0 ? static_cast<int64_t>(rng() % 2) : 1 + rng() % 6;
      // Whole on both sides half the time (the runs merge), else a sub-box.
      const bool whole = rng() % 2 == 0;
      dstShape[i] = ext[i] + (whole ? 0 : rng() % 3);
      srcShape[i] = ext[i] + (whole ? 0 : rng() % 3);
      dstAt[i] = dstShape[i] > ext[i] ? rng() % (dstShape[i] - ext[i] + 1) : 0;
      srcAt[i] = srcShape[i] > ext[i] ? rng() % (srcShape[i] - ext[i] + 1) : 0;
    }
    std::vector<int> dstOrder(d), srcOrder(d);
    std::iota(dstOrder.begin(), dstOrder.end(), 0);
    std::iota(srcOrder.begin(), srcOrder.end(), 0);
    if (rng() % 2)
      std::shuffle(dstOrder.begin(), dstOrder.end(), rng);
    if (rng() % 2)
      std::shuffle(srcOrder.begin(), srcOrder.end(), rng);
    const std::vector<int64_t> dstStride = stridesIn(dstShape, dstOrder),
                               srcStride = stridesIn(srcShape, srcOrder);
    int64_t dstBase = 0, srcBase = 0, dstSize = 1, srcSize = 1;
    for (int i = 0; i < d; ++i) {
      dstBase += dstAt[i] * dstStride[i], srcBase += srcAt[i] * srcStride[i];
      dstSize *= std::max<int64_t>(dstShape[i], 1), srcSize *= std::max<int64_t>(srcShape[i], 1);
    }
    std::vector<double> src(srcSize), got(dstSize, -1), want(dstSize, -1);
    std::iota(src.begin(), src.end(), 0.0);
    naiveCopy(want, dstStride, dstBase, src, srcStride, srcBase, ext);
    copyStrided(got.data() + dstBase, dstStride, src.data() + srcBase, srcStride, ext);
    ASSERT_EQ(got, want) << "trial " << trial;
  }
}

std::vector<int64_t> extentsOf(const StridedBox &box) {
  return std::vector<int64_t>(box.ext.begin(), box.ext.end());
}

TEST(StridedCopy, EqualLayoutsMergeIntoOneRun) {
  // A whole [3, 4, 5] box between two row-major buffers: one run of 60.
  StridedBox whole({20, 5, 1}, {20, 5, 1}, {3, 4, 5});
  EXPECT_EQ(extentsOf(whole), (std::vector<int64_t>{60}));
  // Rows of a wider source: runs of 5 do not merge across rows of 6.
  StridedBox rows({20, 5, 1}, {24, 6, 1}, {3, 4, 5});
  EXPECT_EQ(extentsOf(rows), (std::vector<int64_t>{12, 5}));
  // Extents of 1 drop out; a permuted side keeps its dimensions apart.
  StridedBox permuted({5, 1, 1}, {1, 1, 4}, {4, 1, 5});
  EXPECT_EQ(extentsOf(permuted), (std::vector<int64_t>{4, 5}));
  EXPECT_FALSE(StridedBox({1}, {1}, {3}).empty);
  EXPECT_TRUE(StridedBox({1, 3}, {1, 3}, {3, 0}).empty);
}

TEST(StridedCopy, BoxesOfMoreDimensionsThanTheStackHolds) {
  // 18 dimensions of 2 (its lists move to the heap past 16), the source in
  // reversed dimension order and one dimension of extent 3 in a sub-box.
  const int d = 18;
  std::vector<int64_t> shape(d, 2), ext(d, 2);
  shape[5] = 3;
  std::vector<int> order(d), reversed(d);
  std::iota(order.begin(), order.end(), 0);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  const std::vector<int64_t> dstStride = stridesIn(shape, order),
                             srcStride = stridesIn(shape, reversed);
  const int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<>());
  std::vector<double> src(n), dst(n, -1), expect(n, -1);
  std::iota(src.begin(), src.end(), 0.0);
  naiveCopy(expect, dstStride, dstStride[5], src, srcStride, 0, ext);
  copyStrided(dst.data() + dstStride[5], dstStride, src.data(), srcStride, ext);
  EXPECT_EQ(dst, expect);
}
