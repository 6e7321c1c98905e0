//===- BlockProductsTest.cpp - a step's block products against naive loops ===//
//
// contractBlocks (TileContract.h) runs a block-sparse step's products as
// products of matrices assembled from blocks, or on grids of blocks over the
// same summed segments (D46). Each case builds the
// tasks of one contraction with XOR symmetry over segmented labels, as the
// block-sparse pool does, runs them in a shuffled order and compares every C
// block with naive loops, in f64 and f32.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "TileContract.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using tc_rt::BlockProduct;

/// One tensor's blocks: by segment ids, the values of each (f64; rounded to
/// f32 for f32 runs).
struct Blocks {
  std::map<std::vector<int64_t>, std::vector<double>> values;
  std::map<std::vector<int64_t>, int64_t> ids;
};

struct Case {
  std::string a, b, c;                       ///< labels, one char each
  std::map<char, std::vector<int64_t>> segs; ///< each label's segment lengths
  double alpha = 1.0;
  int dropEvery = 0; ///< leave out every n-th task (0: none), breaking grids
};

template <typename T> void run(const Case &k, uint64_t seed) {
  SCOPED_TRACE(k.a + "*" + k.b + "->" + k.c + " " + (sizeof(T) == 4 ? "f32" : "f64"));
  std::string labels;
  for (auto &[l, s] : k.segs)
    labels += l;
  auto idOf = [&](char l) { return static_cast<int64_t>(labels.find(l)); };
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Blocks tensors[3];
  const std::string *names[3] = {&k.a, &k.b, &k.c};
  struct Task {
    std::map<char, int64_t> seg;
    std::vector<int64_t> block[3];
  };
  std::vector<Task> tasks;
  // Every assignment of segments to labels whose A and B blocks are
  // symmetric (XOR of their ids 0; C's then is too).
  std::map<char, int64_t> seg;
  std::function<void(size_t)> assign = [&](size_t i) {
    if (i < labels.size()) {
      for (size_t s = 0; s < k.segs.at(labels[i]).size(); ++s) {
        seg[labels[i]] = static_cast<int64_t>(s);
        assign(i + 1);
      }
      return;
    }
    Task t{seg, {}};
    for (int x = 0; x < 3; ++x) {
      int64_t xr = 0;
      for (char l : *names[x])
        t.block[x].push_back(seg[l]), xr ^= seg[l];
      if (xr != 0)
        return;
    }
    tasks.push_back(t);
  };
  assign(0);
  if (k.dropEvery > 0)
    for (size_t i = tasks.size(); i-- > 0;)
      if (i % k.dropEvery == 0)
        tasks.erase(tasks.begin() + i);
  ASSERT_FALSE(tasks.empty());
  for (const Task &t : tasks)
    for (int x = 0; x < 3; ++x) {
      Blocks &b = tensors[x];
      if (b.values.count(t.block[x]))
        continue;
      int64_t n = 1;
      for (size_t d = 0; d < names[x]->size(); ++d)
        n *= k.segs.at((*names[x])[d])[t.block[x][d]];
      std::vector<double> v(n);
      for (double &e : v)
        e = sizeof(T) == 4 ? static_cast<float>(u(rng)) : u(rng);
      b.ids[t.block[x]] = static_cast<int64_t>(b.ids.size());
      b.values[t.block[x]] = v;
    }
  // The runtime's buffers, and the expected C by naive loops.
  std::map<std::vector<int64_t>, std::vector<T>> buffers[3];
  for (int x = 0; x < 3; ++x)
    for (auto &[block, v] : tensors[x].values)
      buffers[x][block] = std::vector<T>(v.begin(), v.end());
  std::map<std::vector<int64_t>, std::vector<double>> expect = tensors[2].values;
  std::vector<BlockProduct<T>> products;
  double flops = 0;
  for (const Task &t : tasks) {
    tc_rt::TileContractDesc desc;
    desc.labelExtents.assign(labels.size(), 1);
    for (char l : labels)
      desc.labelExtents[idOf(l)] = k.segs.at(l)[t.seg.at(l)];
    tc_rt::TileContractDesc::Operand *ops[3] = {&desc.a, &desc.b, &desc.c};
    for (int x = 0; x < 3; ++x)
      for (char l : *names[x]) {
        ops[x]->labels.push_back(idOf(l));
        ops[x]->shape.push_back(desc.labelExtents[idOf(l)]);
      }
    desc.elem = sizeof(T) == 4 ? TC_RT_F32 : TC_RT_F64;
    desc.alpha = k.alpha;
    std::vector<int64_t> summed, rows, columns;
    for (char l : k.a)
      (k.c.find(l) != std::string::npos ? rows : summed).push_back(t.seg.at(l));
    for (char l : k.b)
      if (k.c.find(l) != std::string::npos)
        columns.push_back(t.seg.at(l));
    products.push_back({desc, buffers[0][t.block[0]].data(), buffers[1][t.block[1]].data(),
                        buffers[2][t.block[2]].data(), tensors[0].ids[t.block[0]],
                        tensors[1].ids[t.block[1]], tensors[2].ids[t.block[2]],
                        tensors[0].ids[t.block[0]], tensors[1].ids[t.block[1]], summed, rows,
                        columns});
    // Naive loops over every label's range in this task.
    double products1 = 1;
    for (char l : labels)
      products1 *= desc.labelExtents[idOf(l)];
    flops += 2 * products1;
    std::map<char, int64_t> at;
    auto offset = [&](int x) {
      int64_t o = 0;
      for (size_t d = 0; d < names[x]->size(); ++d)
        o = o * ops[x]->shape[d] + at[(*names[x])[d]];
      return o;
    };
    std::function<void(size_t)> loop = [&](size_t i) {
      if (i == labels.size()) {
        expect[t.block[2]][offset(2)] += k.alpha * tensors[0].values[t.block[0]][offset(0)] *
                                         tensors[1].values[t.block[1]][offset(1)];
        return;
      }
      for (at[labels[i]] = 0; at[labels[i]] < desc.labelExtents[idOf(labels[i])]; ++at[labels[i]])
        loop(i + 1);
    };
    loop(0);
  }
  std::shuffle(products.begin(), products.end(), rng);
  const double before = tc_rt::counters().flops;
  tc_rt::contractBlocks(products);
  EXPECT_EQ(tc_rt::counters().flops - before, flops);
  const double tol = sizeof(T) == 4 ? 1e-4 : 1e-12;
  for (auto &[block, want] : expect) {
    const std::vector<T> &got = buffers[2][block];
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "C block element " << i;
  }
}

void runAll(const Case &k, uint64_t seed) {
  run<double>(k, seed);
  run<float>(k, seed);
}

TEST(BlockProducts, RingsAsAssembledMatrices) {
  // T[a,e,i,m] * W[m,b,e,j]: every block packed; the tasks of each symmetry
  // pair every row, summed and column segment, one product of the matrices
  // assembled from their blocks.
  runAll(
      {"aeim",
       "mbej",
       "abij",
       {{'a', {3, 4}}, {'b', {4, 3}}, {'e', {2, 5}}, {'i', {2, 1}}, {'j', {1, 3}}, {'m', {2, 2}}},
       -0.5},
      1);
}

TEST(BlockProducts, LadderWithALargeBlockInPlace) {
  // V[a,b,e,f] * T[e,f,i,j]: V's blocks used in place, T's side by side.
  runAll(
      {"abef",
       "efij",
       "abij",
       {{'a', {6, 5}}, {'b', {5, 7}}, {'e', {6, 4}}, {'f', {5, 6}}, {'i', {2, 3}}, {'j', {3, 2}}},
       0.5},
      2);
  // The larger block on B's side: A's blocks stacked as rows.
  runAll(
      {"ijef",
       "efab",
       "ijab",
       {{'a', {6, 5}}, {'b', {5, 7}}, {'e', {6, 4}}, {'f', {5, 6}}, {'i', {2, 3}}, {'j', {3, 2}}},
       1.5},
      3);
}

TEST(BlockProducts, IncompleteGridsAndSmallProducts) {
  // Tasks missing: no assembled product, and from the summed segments' grids
  // too (one grid per block of the larger input).
  runAll(
      {"aeim",
       "mbej",
       "abij",
       {{'a', {3, 4}}, {'b', {4, 3}}, {'e', {2, 5}}, {'i', {2, 1}}, {'j', {1, 3}}, {'m', {2, 2}}},
       1.0,
       3},
      4);
  // A small summed range (hole-hole ladder): the products run alone.
  runAll(
      {"abmn",
       "mnij",
       "abij",
       {{'a', {8, 9}}, {'b', {9, 8}}, {'m', {1, 2}}, {'n', {2, 1}}, {'i', {2, 1}}, {'j', {1, 2}}}},
      5);
}

TEST(BlockProducts, GridsSplitToFitTheChunk) {
  // Chunks of 400 to 4000 elements: assembled products only where they fit;
  // grids run a few wide blocks at a time, and a block that fits with
  // nothing else runs alone.
  const int64_t saved = tc_rt::ctx().chunkBytes;
  for (int64_t bytes : {8 * 400, 8 * 1200, 8 * 4000}) {
    tc_rt::ctx().chunkBytes = bytes;
    runAll({"aeim",
            "mbej",
            "abij",
            {{'a', {3, 4}},
             {'b', {4, 3}},
             {'e', {2, 5}},
             {'i', {2, 1}},
             {'j', {1, 3}},
             {'m', {2, 2}}}},
           6);
  }
  tc_rt::ctx().chunkBytes = saved;
}

} // namespace
