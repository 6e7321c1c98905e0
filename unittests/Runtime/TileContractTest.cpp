//===- TileContractTest.cpp - permute + dgemm / sgemm against naive loops -===//
#include "Context.h"
#include "TC/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using Labels = std::string; // one char per label

struct Tile {
  Labels labels;
  std::vector<int64_t> shape, offsets;
  std::vector<double> data;
  std::vector<int64_t> steps = {}; ///< per dimension (none: all 1)
  int64_t step(size_t d) const { return steps.empty() ? 1 : steps[d]; }
};

int64_t volume(const std::vector<int64_t> &s) {
  int64_t v = 1;
  for (int64_t x : s)
    v *= x;
  return v;
}

/// Element of `t` at label values `at` (sub-tile coordinates plus offsets).
double &element(Tile &t, std::map<char, int64_t> &at) {
  int64_t o = 0;
  for (size_t d = 0; d < t.labels.size(); ++d)
    o = o * t.shape[d] + t.offsets[d] + at[t.labels[d]] * t.step(d);
  return t.data[o];
}

/// Runs tc_rt_tile_contract on c += a * b over sub-tiles with extents `ext`
/// and compares every element of C's buffer with naive loops in f64: within
/// 1e-12 on f64 buffers, within 1e-5 on f32 ones (inputs rounded to f32 first,
/// so only the kernel's own rounding counts).
void check(Tile a, Tile b, Tile c, const std::map<char, int64_t> &ext,
           tc_rt_elem elem = TC_RT_F64, double alpha = 1.0) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  for (Tile *t : {&a, &b, &c}) {
    t->data.resize(volume(t->shape));
    for (double &x : t->data)
      x = elem == TC_RT_F32 ? static_cast<float>(u(rng)) : u(rng);
  }
  Tile expect = c;
  std::vector<char> all;
  for (auto &[l, e] : ext)
    all.push_back(l);
  std::map<char, int64_t> at;
  std::function<void(size_t)> loop = [&](size_t i) {
    if (i == all.size()) {
      element(expect, at) += alpha * element(a, at) * element(b, at);
      return;
    }
    for (at[all[i]] = 0; at[all[i]] < ext.at(all[i]); ++at[all[i]])
      loop(i + 1);
  };
  loop(0);
  // Label ids: positions in `ext`.
  auto operand = [&](const Tile &t) {
    tc_rt::TileContractDesc::Operand o{t.shape, {}, t.steps};
    for (char l : t.labels)
      o.labels.push_back(std::distance(ext.begin(), ext.find(l)));
    return o;
  };
  tc_rt::TileContractDesc d{operand(a), operand(b), operand(c), {}, elem, alpha};
  for (auto &[l, e] : ext)
    d.labelExtents.push_back(e);
  std::vector<int64_t> desc = d.encode();
  std::vector<int64_t> offsets;
  for (Tile *t : {&a, &b, &c})
    offsets.insert(offsets.end(), t->offsets.begin(), t->offsets.end());
  if (elem == TC_RT_F64) {
    tc_rt_tile_contract(desc.data(), a.data.data(), b.data.data(), c.data.data(),
                        offsets.data());
  } else {
    std::vector<float> fa(a.data.begin(), a.data.end()), fb(b.data.begin(), b.data.end()),
        fc(c.data.begin(), c.data.end());
    tc_rt_tile_contract(desc.data(), fa.data(), fb.data(), fc.data(), offsets.data());
    c.data.assign(fc.begin(), fc.end());
  }
  const double tolerance = elem == TC_RT_F64 ? 1e-12 : 1e-5;
  for (size_t i = 0; i < c.data.size(); ++i)
    ASSERT_NEAR(c.data[i], expect.data[i], tolerance) << "element " << i;
}

TEST(TileContract, MatmulShapes) {
  check({"ik", {5, 7}, {0, 0}}, {"kj", {7, 3}, {0, 0}}, {"ij", {5, 3}, {0, 0}},
        {{'i', 5}, {'j', 3}, {'k', 7}});
  // Transposed operands (BLAS flags, no packing) and a transposed result.
  check({"ki", {7, 5}, {0, 0}}, {"jk", {3, 7}, {0, 0}}, {"ji", {3, 5}, {0, 0}},
        {{'i', 5}, {'j', 3}, {'k', 7}});
}

TEST(TileContract, ScaledByAlpha) {
  // A term's coefficient on every path: BLAS (plain and transposed), packed,
  // batched, plain loops, f32.
  for (double alpha : {0.5, -2.0}) {
    check({"ik", {40, 30}, {0, 0}}, {"kj", {30, 20}, {0, 0}}, {"ij", {40, 20}, {0, 0}},
          {{'i', 40}, {'j', 20}, {'k', 30}}, TC_RT_F64, alpha);
    check({"ki", {30, 40}, {0, 0}}, {"jk", {20, 30}, {0, 0}}, {"ji", {20, 40}, {0, 0}},
          {{'i', 40}, {'j', 20}, {'k', 30}}, TC_RT_F64, alpha);
    check({"ambn", {3, 4, 2, 5}, {0, 0, 0, 0}}, {"ncmd", {5, 3, 4, 2}, {0, 0, 0, 0}},
          {"abcd", {3, 2, 3, 2}, {0, 0, 0, 0}},
          {{'a', 3}, {'b', 2}, {'c', 3}, {'d', 2}, {'m', 4}, {'n', 5}}, TC_RT_F64, alpha);
    check({"ibk", {5, 3, 7}, {0, 0, 0}}, {"kjb", {7, 4, 3}, {0, 0, 0}},
          {"bij", {3, 5, 4}, {0, 0, 0}}, {{'b', 3}, {'i', 5}, {'j', 4}, {'k', 7}}, TC_RT_F64,
          alpha);
    check({"ij", {6, 5}, {0, 0}}, {"", {}, {}}, {"ji", {5, 6}, {0, 0}}, {{'i', 6}, {'j', 5}},
          TC_RT_F64, alpha);
    check({"ik", {40, 30}, {0, 0}}, {"kj", {30, 20}, {0, 0}}, {"ij", {40, 20}, {0, 0}},
          {{'i', 40}, {'j', 20}, {'k', 30}}, TC_RT_F32, alpha);
  }
}

TEST(TileContract, PermutedLabels) {
  // C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]: every operand packed.
  check({"ambn", {3, 4, 2, 5}, {0, 0, 0, 0}}, {"ncmd", {5, 3, 4, 2}, {0, 0, 0, 0}},
        {"abcd", {3, 2, 3, 2}, {0, 0, 0, 0}},
        {{'a', 3}, {'b', 2}, {'c', 3}, {'d', 2}, {'m', 4}, {'n', 5}});
}

TEST(TileContract, SubTilesAtOffsets) {
  // Sub-tiles inside larger buffers (loops below an array's read).
  check({"ik", {8, 6}, {4, 2}}, {"kj", {6, 9}, {2, 3}}, {"ij", {8, 9}, {4, 3}},
        {{'i', 4}, {'j', 5}, {'k', 3}});
  // Transposed sub-tiles (BLAS views through the leading dimension).
  check({"ki", {6, 8}, {2, 4}}, {"jk", {9, 6}, {3, 2}}, {"ji", {9, 8}, {3, 4}},
        {{'i', 4}, {'j', 5}, {'k', 3}});
}

TEST(TileContract, BatchLabels) {
  // C[b,i,j] += A[i,b,k] * B[k,j,b]: one product per batch value, packed.
  check({"ibk", {5, 3, 7}, {0, 0, 0}}, {"kjb", {7, 4, 3}, {0, 0, 0}},
        {"bij", {3, 5, 4}, {0, 0, 0}}, {{'b', 3}, {'i', 5}, {'j', 4}, {'k', 7}});
  // Large enough per batch value for BLAS, at offsets in larger buffers.
  check({"bik", {4, 40, 30}, {1, 2, 3}}, {"bkj", {3, 33, 25}, {0, 0, 1}},
        {"ijb", {38, 24, 5}, {0, 0, 2}}, {{'b', 2}, {'i', 38}, {'j', 24}, {'k', 27}});
  // Element-wise (Hadamard) product: every label a batch label.
  check({"ij", {6, 5}, {0, 0}}, {"ji", {5, 6}, {0, 0}}, {"ij", {6, 5}, {0, 0}},
        {{'i', 6}, {'j', 5}});
}

TEST(TileContract, LabelsSummedInOneInput) {
  // C[i,j] += A[i,s,k] * B[k,t,j]: s summed out of A, t out of B first.
  check({"isk", {4, 3, 5}, {0, 0, 0}}, {"ktj", {5, 2, 6}, {0, 0, 0}},
        {"ij", {4, 6}, {0, 0}}, {{'i', 4}, {'j', 6}, {'k', 5}, {'s', 3}, {'t', 2}});
  // With a batch label and at offsets.
  check({"sbi", {4, 3, 5}, {1, 0, 0}}, {"b", {3}, {0}}, {"ib", {5, 3}, {0, 0}},
        {{'b', 3}, {'i', 5}, {'s', 3}});
}

TEST(TileContract, ScalarResults) {
  // C[] += A[a] * B[a] (an inner product) and C[] += A[a,b] * B[a] (a full
  // reduction with b summed out of A).
  check({"a", {7}, {0}}, {"a", {7}, {0}}, {"", {}, {}}, {{'a', 7}});
  check({"ab", {7, 3}, {0, 0}}, {"a", {7}, {0}}, {"", {}, {}}, {{'a', 7}, {'b', 3}});
  // C[i,j] += A[i] * B[j]: an outer product (no K).
  check({"i", {4}, {0}}, {"j", {3}, {0}}, {"ij", {4, 3}, {0, 0}}, {{'i', 4}, {'j', 3}});
}

TEST(TileContract, OneRowOrColumnOfC) {
  // Products with one row or one column of C run as matrix-vector or dot
  // products; every stride BLAS is given: plain and transposed operands and
  // a row or column of a larger buffer (through its leading dimension).
  for (tc_rt_elem elem : {TC_RT_F64, TC_RT_F32}) {
    // C[] += A[k] * B[k], and the same on a column of each of two matrices.
    check({"k", {700}, {0}}, {"k", {700}, {0}}, {"", {}, {}}, {{'k', 700}}, elem);
    check({"ki", {700, 3}, {0, 1}}, {"jk", {4, 700}, {2, 0}}, {"ij", {2, 5}, {1, 3}},
          {{'i', 1}, {'j', 1}, {'k', 700}}, elem, -0.5);
    // C[j] += A[k] * B[k,j]: B plain and transposed, C a column of a matrix.
    check({"k", {40}, {0}}, {"kj", {40, 30}, {0, 0}}, {"j", {30}, {0}}, {{'j', 30}, {'k', 40}},
          elem);
    check({"ik", {3, 40}, {2, 0}}, {"jk", {30, 40}, {0, 0}}, {"ji", {30, 4}, {0, 1}},
          {{'i', 1}, {'j', 30}, {'k', 40}}, elem, 2.0);
    // C[i] += A[i,k] * B[k]: A plain and transposed, B a row of a matrix.
    check({"ik", {30, 40}, {0, 0}}, {"k", {40}, {0}}, {"i", {30}, {0}}, {{'i', 30}, {'k', 40}},
          elem);
    check({"ki", {40, 30}, {0, 0}}, {"jk", {3, 40}, {1, 0}}, {"ij", {30, 2}, {0, 1}},
          {{'i', 30}, {'j', 1}, {'k', 40}}, elem, -1.0);
  }
}

TEST(TileContract, SmallProductsOnGeneratedKernels) {
  // M N K under kSmallProductVolume: libxsmm's kernels, with A plain or
  // transposed (B plain), sub-tiles through leading dimensions, alpha 1 (in
  // place) and another (through a scratch), and gemm where B is transposed.
  for (tc_rt_elem elem : {TC_RT_F64, TC_RT_F32})
    for (double alpha : {1.0, -0.5}) {
      check({"ik", {12, 9}, {1, 0}}, {"kj", {10, 14}, {1, 2}}, {"ij", {13, 16}, {0, 1}},
            {{'i', 11}, {'j', 12}, {'k', 9}}, elem, alpha);
      check({"ki", {9, 12}, {0, 1}}, {"kj", {9, 14}, {0, 0}}, {"ij", {11, 14}, {0, 0}},
            {{'i', 11}, {'j', 14}, {'k', 9}}, elem, alpha);
      check({"ik", {11, 9}, {0, 0}}, {"jk", {14, 9}, {0, 0}}, {"ij", {11, 14}, {0, 0}},
            {{'i', 11}, {'j', 14}, {'k', 9}}, elem, alpha);
    }
}

TEST(TileContract, ProductsWithAScalar) {
  // X = Y as Y's product with a scalar of ones, scaled and permuted, either
  // input the scalar: one scaled add in place, no BLAS call.
  for (tc_rt_elem elem : {TC_RT_F64, TC_RT_F32}) {
    check({"abcd", {3, 4, 2, 5}, {0, 0, 0, 0}}, {"", {}, {}}, {"abcd", {3, 4, 2, 5}, {0, 0, 0, 0}},
          {{'a', 3}, {'b', 4}, {'c', 2}, {'d', 5}}, elem, 0.25);
    check({"", {}, {}}, {"dbca", {5, 4, 2, 3}, {0, 0, 0, 0}}, {"abcd", {3, 4, 2, 5}, {0, 0, 0, 0}},
          {{'a', 3}, {'b', 4}, {'c', 2}, {'d', 5}}, elem, -1.0);
    // Sub-tiles at offsets and stepped, and a "scalar" that is one element of
    // a larger buffer (a summed label of extent 1 in this piece).
    check({"ik", {8, 3}, {2, 1}, {}, {2, 1}}, {"k", {3}, {2}}, {"ki", {1, 9}, {0, 3}},
          {{'i', 3}, {'k', 1}}, elem, 2.0);
  }
}

TEST(TileContract, SteppedSubTiles) {
  // Every step-th element along a dimension (a virtually partitioned fused
  // loop's slice of a block): packed through the steps, in f64 and f32.
  for (tc_rt_elem elem : {TC_RT_F64, TC_RT_F32}) {
    check({"ik", {5, 7}, {0, 0}}, {"kj", {7, 3}, {0, 0}}, {"ij", {12, 3}, {1, 0}, {}, {2, 1}},
          {{'i', 5}, {'j', 3}, {'k', 7}}, elem);
    check({"ik", {9, 40}, {2, 1}, {}, {3, 1}}, {"kj", {40, 30}, {1, 0}}, {"ij", {3, 30}, {0, 0}},
          {{'i', 3}, {'j', 30}, {'k', 39}}, elem);
    check({"bi", {4, 6}, {1, 0}, {}, {2, 1}}, {"b", {2}, {0}}, {"ib", {6, 2}, {0, 0}},
          {{'b', 2}, {'i', 6}}, elem);
  }
}

TEST(TileContract, SinglePrecision) {
  // sgemm on whole, transposed and offset operands; packed batch and summed
  // labels and plain loops in f32.
  check({"ik", {50, 70}, {0, 0}}, {"kj", {70, 30}, {0, 0}}, {"ij", {50, 30}, {0, 0}},
        {{'i', 50}, {'j', 30}, {'k', 70}}, TC_RT_F32);
  check({"ki", {6, 8}, {2, 4}}, {"jk", {9, 6}, {3, 2}}, {"ji", {9, 8}, {3, 4}},
        {{'i', 4}, {'j', 5}, {'k', 3}}, TC_RT_F32);
  check({"bik", {4, 40, 30}, {1, 2, 3}}, {"bkj", {3, 33, 25}, {0, 0, 1}},
        {"ijb", {38, 24, 5}, {0, 0, 2}}, {{'b', 2}, {'i', 38}, {'j', 24}, {'k', 27}}, TC_RT_F32);
  check({"isk", {4, 3, 5}, {0, 0, 0}}, {"ktj", {5, 2, 6}, {0, 0, 0}},
        {"ij", {4, 6}, {0, 0}}, {{'i', 4}, {'j', 6}, {'k', 5}, {'s', 3}, {'t', 2}}, TC_RT_F32);
  check({"ab", {7, 3}, {0, 0}}, {"a", {7}, {0}}, {"", {}, {}}, {{'a', 7}, {'b', 3}}, TC_RT_F32);
}

TEST(TileContract, CountsFlops) {
  double before = tc_rt::counters().flops;
  check({"ik", {2, 3}, {0, 0}}, {"kj", {3, 4}, {0, 0}}, {"ij", {2, 4}, {0, 0}},
        {{'i', 2}, {'j', 4}, {'k', 3}});
  EXPECT_EQ(tc_rt::counters().flops - before, 2.0 * 2 * 3 * 4);
}

} // namespace
