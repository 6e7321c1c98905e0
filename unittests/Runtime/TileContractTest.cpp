//===- TileContractTest.cpp - permute + dgemm against naive loops ---------===//
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
    o = o * t.shape[d] + t.offsets[d] + at[t.labels[d]];
  return t.data[o];
}

/// Runs tc_rt_tile_contract on c += a * b over sub-tiles with extents `ext`
/// and compares every element of C's buffer with naive loops.
void check(Tile a, Tile b, Tile c, const std::map<char, int64_t> &ext) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  for (Tile *t : {&a, &b, &c}) {
    t->data.resize(volume(t->shape));
    for (double &x : t->data)
      x = u(rng);
  }
  Tile expect = c;
  std::vector<char> all;
  for (auto &[l, e] : ext)
    all.push_back(l);
  std::map<char, int64_t> at;
  std::function<void(size_t)> loop = [&](size_t i) {
    if (i == all.size()) {
      element(expect, at) += element(a, at) * element(b, at);
      return;
    }
    for (at[all[i]] = 0; at[all[i]] < ext.at(all[i]); ++at[all[i]])
      loop(i + 1);
  };
  loop(0);
  // Label ids: positions in `ext`.
  auto operand = [&](const Tile &t) {
    tc_rt::TileContractDesc::Operand o{t.shape, {}};
    for (char l : t.labels)
      o.labels.push_back(std::distance(ext.begin(), ext.find(l)));
    return o;
  };
  tc_rt::TileContractDesc d{operand(a), operand(b), operand(c), {}};
  for (auto &[l, e] : ext)
    d.labelExtents.push_back(e);
  std::vector<int64_t> desc = d.encode();
  std::vector<int64_t> offsets;
  for (Tile *t : {&a, &b, &c})
    offsets.insert(offsets.end(), t->offsets.begin(), t->offsets.end());
  tc_rt_tile_contract(desc.data(), a.data.data(), b.data.data(), c.data.data(),
                      offsets.data());
  for (size_t i = 0; i < c.data.size(); ++i)
    ASSERT_NEAR(c.data[i], expect.data[i], 1e-12) << "element " << i;
}

TEST(TileContract, MatmulShapes) {
  check({"ik", {5, 7}, {0, 0}}, {"kj", {7, 3}, {0, 0}}, {"ij", {5, 3}, {0, 0}},
        {{'i', 5}, {'j', 3}, {'k', 7}});
  // Transposed operands (BLAS flags, no packing) and a transposed result.
  check({"ki", {7, 5}, {0, 0}}, {"jk", {3, 7}, {0, 0}}, {"ji", {3, 5}, {0, 0}},
        {{'i', 5}, {'j', 3}, {'k', 7}});
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

TEST(TileContract, CountsFlops) {
  double before = tc::rt::counters().flops;
  check({"ik", {2, 3}, {0, 0}}, {"kj", {3, 4}, {0, 0}}, {"ij", {2, 4}, {0, 0}},
        {{'i', 2}, {'j', 4}, {'k', 3}});
  EXPECT_EQ(tc::rt::counters().flops - before, 2.0 * 2 * 3 * 4);
}

} // namespace
