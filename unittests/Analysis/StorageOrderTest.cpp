//===- StorageOrderTest.cpp - I contiguous when it dwarfs J and K ---------===//
#include "TC/Analysis/StorageOrder.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {
ContractionProblem fourIndex(int64_t abc, int64_t d, int64_t p) {
  // C[a,b,c,d] += A[a,b,c,p] * B[p,d]: I = {a, b, c}, J = {d}, K = {p}.
  return {{"a", "b", "c", "p"}, {"p", "d"}, {"a", "b", "c", "d"},
          {{"a", abc}, {"b", abc}, {"c", abc}, {"d", d}, {"p", p}}, {}, {}, {}};
}
} // namespace

TEST(StorageOrder, LongIWhenItDwarfsJAndK) {
  // bench/README.md's 4-index: I = 131072, J = K = 64.
  EXPECT_TRUE(prefersIContiguous(fourIndex(16, 8, 8)));       // 4096 vs 8, 8
  EXPECT_TRUE(prefersIContiguous(fourIndex(4, 1, 1)));        // 64 = 64 x 1: the bound
  EXPECT_FALSE(prefersIContiguous(fourIndex(4, 2, 1)));       // 64 < 64 x 2 (J)
  EXPECT_FALSE(prefersIContiguous(fourIndex(4, 1, 2)));       // 64 < 64 x 2 (K)
  EXPECT_FALSE(prefersIContiguous(fourIndex(8, 64, 64)));     // a cube: as given
}

TEST(StorageOrder, SquareAndLongJStayAsGiven) {
  ContractionProblem matmul{{"i", "k"}, {"k", "j"}, {"i", "j"},
                            {{"i", 4000}, {"j", 4000}, {"k", 4000}}, {}, {}, {}};
  EXPECT_FALSE(prefersIContiguous(matmul));
  matmul.extents["j"] = 4000 * 64; // J is long, I is not
  EXPECT_FALSE(prefersIContiguous(matmul));
  matmul.extents["i"] = 4000 * 64 * 64;
  matmul.extents["j"] = 4000;
  EXPECT_TRUE(prefersIContiguous(matmul));
}

TEST(StorageOrder, EmptyMacroIndicesHaveVolumeOne) {
  // A pure product (no K) with a long I, and a reduction to a scalar (no I).
  ContractionProblem outer{{"i"}, {"j"}, {"i", "j"}, {{"i", 1 << 12}, {"j", 4}}, {}, {}, {}};
  EXPECT_TRUE(prefersIContiguous(outer));
  ContractionProblem dot{{"k"}, {"k"}, {}, {{"k", 1 << 12}}, {}, {}, {}};
  EXPECT_FALSE(prefersIContiguous(dot));
}
