//===- KeptTensorsTest.cpp - intermediates left where they were computed --===//
//
// A statement whose result is kept in memory leaves each rank its own part
// (KeptTensors.cpp). A later statement's array of that name, in another
// layout and another order of the tensor's dimensions, gets the stored values
// by a redistribution whose bytes on every rank are the layout library's
// prediction; reciprocals are inverted once; a reader that takes a whole copy
// (DIIS, checkpoints, a fused program's slices) gets one and later loads read
// it; an accumulation's root-only array gets the values on the root alone; a
// loop's input (a gathered operand once gathered, a root-only one too) is
// handed over into each layout once where memory allows.
//
//===----------------------------------------------------------------------===//
#include "KeptTensors.h"
#include "StoredTensors.h"
#include "TestArrays.h"

#include <gtest/gtest.h>

using namespace tc_rt;
using tc_rt::test::layoutOf;
using tc_rt::test::RandomInputs;

namespace {

const int64_t I = 5, J = 4, K = 3; // X[i, j, k]: uneven blocks on 2-4 processes

/// X stored as [k, i, j] (dataset dimensions 2, 0, 1), i split over the grid
/// [P]: what a statement computing X^T-like products leaves.
void *storedOrder(tc_rt_init init) {
  const int64_t P = ctx().size;
  tc_rt::ArrayDesc d{
      layoutOf(TC_RT_DISTRIBUTED, {P}, {{K, -1, -1, 2}, {I, 0, -1, 0}, {J, -1, -1, 1}}), init,
      false};
  return tc_rt_array(d.encode().data(), "X", nullptr);
}

/// X in the dataset's order, held whole by every rank.
void *replicated(tc_rt_init init) {
  const int64_t P = ctx().size;
  tc_rt::ArrayDesc d{
      layoutOf(TC_RT_REPLICATED, {P}, {{I, -1, -1, 0}, {J, -1, -1, 1}, {K, -1, -1, 2}}), init,
      false};
  return tc_rt_array(d.encode().data(), "X", nullptr);
}

/// X in the dataset's order as a replication algorithm's whole operand: each
/// rank loads a slab of i, and tc_rt_allgather_array completes it.
void *gathered(tc_rt_init init) {
  const int64_t P = ctx().size;
  tc_rt::ArrayDesc d{
      layoutOf(TC_RT_GATHERED, {P}, {{I, -1, -1, 0}, {J, -1, -1, 1}, {K, -1, -1, 2}}), init, false};
  return tc_rt_array(d.encode().data(), "X", nullptr);
}

/// X as [j, k, i] split along j over [P], on disk unless `inMemory`: another
/// order, another split, the destination out of core.
void *otherSplitOnDisk(tc_rt_init init, bool inMemory = false) {
  const int64_t P = ctx().size;
  tc_rt::ArrayDesc d{
      layoutOf(TC_RT_DISTRIBUTED, {P}, {{J, 0, -1, 1}, {K, -1, -1, 2}, {I, -1, -1, 0}}), init,
      !inMemory};
  return tc_rt_array(d.encode().data(), "X", nullptr);
}

double stored(int64_t i, int64_t j, int64_t k) {
  return randomValue(11, "X", static_cast<uint64_t>((i * J + j) * K + k));
}

/// Statement "X" keeps X (random values of seed 11) in memory, code `code`.
void storeX(int64_t code) {
  RandomInputs random(11);
  tc_rt_begin_statement("X", code);
  tc_rt_store(storedOrder(TC_RT_INIT_INPUT));
}

/// Every element of a replicated X equals value(i, j, k).
void expectWhole(void *x, const std::function<double(int64_t, int64_t, int64_t)> &value) {
  std::vector<double> got(I * J * K, -1);
  const int64_t zero[3] = {0, 0, 0};
  tc_rt_read_tile(x, got.data(), tc_rt::TileDesc{{I, J, K}}.encode().data(), zero);
  for (int64_t i = 0; i < I; ++i)
    for (int64_t j = 0; j < J; ++j)
      for (int64_t k = 0; k < K; ++k)
        EXPECT_EQ(got[(i * J + j) * K + k], value(i, j, k))
            << "X[" << i << ", " << j << ", " << k << "] on rank " << ctx().rank;
}

/// `x` is X split along j in the order [j, k, i], each rank its block.
void expectSplitAlongJ(void *x) {
  DistArray &split = *static_cast<DistArray *>(x);
  const int64_t P = ctx().size, block = (J + P - 1) / P;
  std::vector<double> got(block * K * I, -1);
  const int64_t zero[3] = {0, 0, 0};
  tc_rt_read_tile(&split, got.data(), tc_rt::TileDesc{{block, K, I}}.encode().data(), zero);
  for (int64_t l = 0; l < block && ctx().rank * block + l < J; ++l)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t i = 0; i < I; ++i)
        EXPECT_EQ(got[(l * K + k) * I + i], stored(i, ctx().rank * block + l, k));
}

void endRun() {
  closeRunFiles();
  releaseArrays();
  ctx().statements.clear();
  ctx().storing = TC_RT_RESULT_OUTPUT;
  ctx().handOver = HandOver();
}

/// This rank's hand-over bytes so far equal their prediction.
void expectHandOverAsPredicted() {
  const HandOver &h = ctx().handOver;
  EXPECT_EQ(h.sent, h.predictedSent) << "rank " << ctx().rank;
  EXPECT_EQ(h.received, h.predictedReceived) << "rank " << ctx().rank;
}

TEST(KeptTensors, HandedOverInAnotherOrderAndLayout) {
  storeX(TC_RT_RESULT_MEMORY);
  EXPECT_TRUE(isKept("X"));
  // Random inputs of another seed: a load that did not hand over reads those.
  RandomInputs other(99);
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  expectWhole(replicated(TC_RT_INIT_INPUT), stored);
  // A replicated destination receives every element it does not hold.
  const int64_t P = ctx().size, rows = (I + P - 1) / P;
  const int64_t own =
      std::max<int64_t>(0, std::min(I, (ctx().rank + 1) * rows) - ctx().rank * rows);
  EXPECT_EQ(ctx().handOver.received, 8.0 * (I - own) * J * K);
  expectHandOverAsPredicted();
  // Out of core, split along j in the order [j, k, i].
  expectSplitAlongJ(otherSplitOnDisk(TC_RT_INIT_INPUT));
  expectHandOverAsPredicted();
  endRun();
}

TEST(KeptTensors, InputsKeptWholeAreCopiedLocally) {
  // A loop's input Y[8, 6, 3], loaded split along its first dimension, is
  // kept whole on every rank (docs/Derivations.md D54): loads in another
  // layout (split along its second) copy it locally, moving nothing, on 1
  // to 4 processes.
  const int64_t P = ctx().size, A = 8, B = 6, C = 3;
  auto load = [&](int splitDim) {
    std::vector<std::vector<int64_t>> dims = {{A, -1, -1, 0}, {B, -1, -1, 1}, {C, -1, -1, 2}};
    dims[splitDim][1] = 0;
    tc_rt::ArrayDesc d{layoutOf(TC_RT_DISTRIBUTED, {P}, dims), TC_RT_INIT_INPUT, false};
    return static_cast<DistArray *>(tc_rt_array(d.encode().data(), "Y", nullptr));
  };
  auto expectY = [&](DistArray *y) {
    std::vector<double> got(A * B * C, -1);
    const int64_t zero[3] = {0, 0, 0};
    const Shape shape = y->storeShape;
    tc_rt_read_tile(y, got.data(), tc_rt::TileDesc{shape}.encode().data(), zero);
    // This rank's block along the split dimension, the others whole.
    const int split = shape[0] != A ? 0 : 1;
    const int64_t first = ctx().rank * shape[split];
    for (int64_t a = 0; a < shape[0]; ++a)
      for (int64_t b = 0; b < shape[1]; ++b)
        for (int64_t c = 0; c < C; ++c) {
          const int64_t ga = split == 0 ? first + a : a, gb = split == 1 ? first + b : b;
          if (ga < A && gb < B)
            EXPECT_EQ(got[(a * shape[1] + b) * C + c],
                      randomValue(11, "Y", static_cast<uint64_t>((ga * B + gb) * C + c)));
        }
  };
  RandomInputs random(11);
  tc_rt_begin_statement("S", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  expectY(load(0));
  ASSERT_TRUE(isKept("Y"));
  for (const char *statement : {"T", "U"}) {
    tc_rt_begin_statement(statement, TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
    expectY(load(1));
    EXPECT_EQ(ctx().handOver.sent + ctx().handOver.received, 0.0) << "rank " << ctx().rank;
  }
  expectHandOverAsPredicted();
  releaseKept();
  endRun();
}

TEST(KeptTensors, ReadOnlyRowsOfAnInputKeptWholeAreARangeOfIt) {
  // An input Y[12, 6, 3] kept whole on every rank: a read-only array of it
  // split along its first dimension holds one range of the whole copy, and
  // lives there (no copy: a range of the kept buffer, which stays valid
  // until the array is released, even after the kept tensor is dropped).
  const int64_t P = ctx().size, A = 12, B = 6, C = 3, rows = A / P;
  auto desc = [&](int splitDim, tc_rt_kind kind) {
    std::vector<std::vector<int64_t>> dims = {{A, -1, -1, 0}, {B, -1, -1, 1}, {C, -1, -1, 2}};
    if (splitDim >= 0)
      dims[splitDim][1] = 0;
    return tc_rt::ArrayDesc{layoutOf(kind, {P}, dims), TC_RT_INIT_INPUT, false}.encode();
  };
  auto y = [&](int64_t n) { return randomValue(11, "Y", static_cast<uint64_t>(n)); };
  RandomInputs random(11);
  tc_rt_begin_statement("S", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  tc_rt_array(desc(1, TC_RT_DISTRIBUTED).data(), "Y", nullptr);
  ASSERT_TRUE(isKept("Y"));
  tc_rt_begin_statement("T", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  const std::vector<int64_t> rowsDesc = desc(0, TC_RT_DISTRIBUTED);
  void *storage = tc_rt_alloc_storage(rowsDesc.data(), "Y", /*read_only=*/1);
  if (P > 1) { // on one process the loader's block is the whole tensor, kept as it is
    void *whole = tc_rt_alloc_storage(desc(-1, TC_RT_REPLICATED).data(), "Y", /*read_only=*/1);
    EXPECT_EQ(storage, static_cast<char *>(whole) + ctx().rank * rows * B * C * sizeof(double));
    releaseBuffer(whole);
  }
  auto *x = static_cast<DistArray *>(tc_rt_array(rowsDesc.data(), "Y", storage));
  EXPECT_EQ(x->mem<void>(), storage);
  EXPECT_EQ(ctx().handOver.sent + ctx().handOver.received, 0.0) << "rank " << ctx().rank;
  releaseKept();
  const auto *values = static_cast<const double *>(storage);
  for (int64_t n = 0; n < rows * B * C; ++n)
    EXPECT_EQ(values[n], y(ctx().rank * rows * B * C + n)) << "element " << n;
  expectHandOverAsPredicted();
  releaseBuffer(storage);
  endRun();
}

TEST(KeptTensors, InputLoadedAsAGatheredOperandIsKeptOnceGathered) {
  // A replication algorithm's whole operand holds only this rank's slab when
  // loaded: a loop keeps the input once its all-gather has made it whole,
  // and the next load takes the kept values (inputs of another seed would
  // read differently), as does a whole copy made of it (what a load that
  // sums a dimension reads; a gathered layout's store wrote the root's slab
  // alone).
  RandomInputs random(11);
  tc_rt_begin_statement("A", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  void *x = gathered(TC_RT_INIT_INPUT);
  EXPECT_EQ(isKept("X"), ctx().size == 1) << "kept before its all-gather (one process: as loaded)";
  tc_rt_allgather_array(x);
  EXPECT_TRUE(isKept("X"));
  RandomInputs other(99);
  tc_rt_begin_statement("B", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  expectWhole(replicated(TC_RT_INIT_INPUT), stored);
  makeKeptWhole("X");
  tc_rt_begin_statement("C", TC_RT_RESULT_OUTPUT);
  expectWhole(replicated(TC_RT_INIT_INPUT), stored);
  releaseKept();
  endRun();
}

TEST(KeptTensors, OnOneProcessAGatheredOperandIsKeptAsLoadedAndShared) {
  // On a grid of one process a gathered array's slab is all of it and the
  // plan has no all-gather (tc-lower-plan): a loop keeps the input as loaded,
  // and the next read-only load in that layout shares the kept buffer.
  if (ctx().size != 1)
    GTEST_SKIP() << "one process only";
  RandomInputs random(11);
  tc_rt_begin_statement("A", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  expectWhole(gathered(TC_RT_INIT_INPUT), stored);
  EXPECT_TRUE(isKept("X"));
  RandomInputs other(99);
  tc_rt_begin_statement("B", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  const tc_rt::ArrayDesc d{
      layoutOf(TC_RT_GATHERED, {1}, {{I, -1, -1, 0}, {J, -1, -1, 1}, {K, -1, -1, 2}}),
      TC_RT_INIT_INPUT, false};
  void *storage = tc_rt_alloc_storage(d.encode().data(), "X", /*readOnly=*/1);
  void *x = tc_rt_array(d.encode().data(), "X", storage);
  EXPECT_EQ(static_cast<DistArray *>(x)->mem<void>(), storage);
  EXPECT_EQ(ctx().handOver.sent + ctx().handOver.received, 0.0);
  expectWhole(x, stored);
  releaseBuffer(storage);
  releaseKept();
  endRun();
}

TEST(KeptTensors, RootOnlyInputOfALoopIsKeptWhole) {
  // Inside accumulation only the root carries C's old value, but a loop that
  // keeps its inputs has every rank load it once: the next root-only load and
  // a load by every rank take the kept values, not the file's.
  RandomInputs random(11);
  tc_rt_begin_statement("C", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  auto onRoot = [](int64_t i, int64_t j, int64_t k) {
    return ctx().rank == 0 ? stored(i, j, k) : 0.0;
  };
  expectWhole(replicated(TC_RT_INIT_ROOT_INPUT), onRoot);
  EXPECT_TRUE(isKept("X"));
  RandomInputs other(99);
  tc_rt_begin_statement("D", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  expectWhole(replicated(TC_RT_INIT_ROOT_INPUT), onRoot);
  tc_rt_begin_statement("E", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  expectWhole(replicated(TC_RT_INIT_INPUT), stored);
  releaseKept();
  endRun();
}

TEST(KeptTensors, GatheredOperandTakesItsSlabThenGathers) {
  // A replication algorithm's whole operand is handed over as a load fills
  // it, each rank its slab of i, which X's kept split along i already is:
  // nothing moves; the all-gather (the plan's own) completes it.
  storeX(TC_RT_RESULT_MEMORY);
  RandomInputs other(99);
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  void *x = gathered(TC_RT_INIT_INPUT);
  EXPECT_EQ(ctx().handOver.sent, 0);
  EXPECT_EQ(ctx().handOver.received, 0);
  expectHandOverAsPredicted();
  tc_rt_allgather_array(x);
  expectWhole(x, stored);
  endRun();
}

TEST(KeptTensors, ReciprocalsInvertedOnce) {
  storeX(TC_RT_RESULT_MEMORY | TC_RT_RESULT_RECIPROCAL);
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  auto inverse = [](int64_t i, int64_t j, int64_t k) { return 1 / stored(i, j, k); };
  expectWhole(replicated(TC_RT_INIT_INPUT), inverse);
  // Made whole (as DIIS reads it), then loaded from the whole copy.
  std::string where;
  EXPECT_GE(storedIntermediateFile("X", where), 0);
  EXPECT_EQ(where, "memory");
  EXPECT_FALSE(isKept("X"));
  tc_rt_begin_statement("Z", TC_RT_RESULT_OUTPUT);
  expectWhole(replicated(TC_RT_INIT_INPUT), inverse);
  endRun();
}

TEST(KeptTensors, RootOnlyInputOnTheRootAlone) {
  storeX(TC_RT_RESULT_MEMORY);
  tc_rt_begin_statement("X", TC_RT_RESULT_MEMORY); // X += ...: the old value on the root
  void *old = replicated(TC_RT_INIT_ROOT_INPUT);
  expectWhole(
      old, [](int64_t i, int64_t j, int64_t k) { return ctx().rank == 0 ? stored(i, j, k) : 0.0; });
  endRun();
}

TEST(KeptTensors, NewValueReplacesTheKeptOne) {
  storeX(TC_RT_RESULT_MEMORY);
  // The next value of X goes to the intermediates file: the kept one is gone.
  auto next = [](int64_t i, int64_t j, int64_t k) { return 1000.0 + (i * J + j) * K + k; };
  tc_rt_begin_statement("X", TC_RT_RESULT_FILE);
  void *x = replicated(TC_RT_INIT_ZERO);
  std::vector<double> values(I * J * K);
  for (int64_t n = 0; n < I * J * K; ++n)
    values[n] = next(n / (J * K), n / K % J, n % K);
  const int64_t zero[3] = {0, 0, 0};
  tc_rt_write_tile(x, values.data(), tc_rt::TileDesc{{I, J, K}}.encode().data(), zero);
  tc_rt_store(x);
  EXPECT_FALSE(isKept("X"));
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  expectWhole(replicated(TC_RT_INIT_INPUT), next);
  endRun();
}

TEST(KeptTensors, SharesOfRowsReadAndReplacedInPlace) {
  storeX(TC_RT_RESULT_MEMORY);
  Shape dims;
  ASSERT_TRUE(keptAsRows("X", dims));
  EXPECT_EQ(dims, (Shape{I, J, K}));
  // This rank's rows of X, as DIIS reads them: handed over, not made whole.
  auto [begin, end] = StoredTensor::shareOf(dims, ctx().rank, ctx().size);
  std::vector<double> share(end - begin);
  readKeptShare("X", share.data());
  for (int64_t n = begin; n < end; ++n)
    EXPECT_EQ(share[n - begin], stored(n / (J * K), n / K % J, n % K)) << "element " << n;
  EXPECT_TRUE(isKept("X"));
  expectHandOverAsPredicted();
  // New values as shares: kept where they are, read whole by a later load.
  for (int64_t n = begin; n < end; ++n)
    share[n - begin] = -n;
  keepShares("X", dims, share.data());
  EXPECT_TRUE(isKept("X"));
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  expectWhole(replicated(TC_RT_INIT_INPUT),
              [](int64_t i, int64_t j, int64_t k) { return -1.0 * ((i * J + j) * K + k); });
  expectHandOverAsPredicted();
  endRun();
  releaseKept();
}

TEST(KeptTensors, WholeOnEveryRankReadAndReplacedWithoutMessages) {
  // A statement computing X whole on every rank (D58) keeps it so.
  {
    RandomInputs random(11);
    tc_rt_begin_statement("X", TC_RT_RESULT_MEMORY);
    tc_rt_store(replicated(TC_RT_INIT_INPUT));
  }
  Shape dims;
  ASSERT_TRUE(keptWholeEverywhere("X", dims));
  EXPECT_EQ(dims, (Shape{I, J, K}));
  std::vector<double> all(I * J * K);
  readKeptWhole("X", all.data());
  for (int64_t n = 0; n < I * J * K; ++n)
    EXPECT_EQ(all[n], stored(n / (J * K), n / K % J, n % K)) << "element " << n;
  // New values, the same on every rank: kept whole, and a later statement's
  // split of them is a local copy.
  for (int64_t n = 0; n < I * J * K; ++n)
    all[n] = -n;
  keepWhole("X", dims, all.data());
  ASSERT_TRUE(keptWholeEverywhere("X", dims));
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  expectWhole(replicated(TC_RT_INIT_INPUT),
              [](int64_t i, int64_t j, int64_t k) { return -1.0 * ((i * J + j) * K + k); });
  DistArray &split = *static_cast<DistArray *>(otherSplitOnDisk(TC_RT_INIT_INPUT, true));
  const int64_t P = ctx().size, block = (J + P - 1) / P;
  std::vector<double> got(block * K * I, 1);
  const int64_t zero[3] = {0, 0, 0};
  tc_rt_read_tile(&split, got.data(), tc_rt::TileDesc{{block, K, I}}.encode().data(), zero);
  for (int64_t l = 0; l < block && ctx().rank * block + l < J; ++l)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t i = 0; i < I; ++i)
        EXPECT_EQ(got[(l * K + k) * I + i], -1.0 * ((i * J + ctx().rank * block + l) * K + k));
  EXPECT_EQ(ctx().handOver.sent, 0) << "rank " << ctx().rank;
  EXPECT_EQ(ctx().handOver.received, 0) << "rank " << ctx().rank;
  expectHandOverAsPredicted();
  endRun();
  releaseKept();
}

TEST(KeptTensors, ReadOnlyArraysShareAKeptInput) {
  // A loop's input X, loaded split along i, is kept whole on every rank (on
  // one process, the loader's block is whole): a later read-only array of
  // the whole tensor lives in the kept buffer (no copy); a result, which
  // would overwrite it, does not.
  RandomInputs random(11);
  const int64_t P = ctx().size;
  tc_rt::ArrayDesc split{
      layoutOf(TC_RT_DISTRIBUTED, {P}, {{I, 0, -1, 0}, {J, -1, -1, 1}, {K, -1, -1, 2}}),
      TC_RT_INIT_INPUT, false};
  tc_rt::ArrayDesc whole{
      layoutOf(TC_RT_REPLICATED, {P}, {{I, -1, -1, 0}, {J, -1, -1, 1}, {K, -1, -1, 2}}),
      TC_RT_INIT_INPUT, false};
  const tc_rt::ArrayDesc &kept = P > 1 ? whole : split;
  tc_rt_begin_statement("S", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  tc_rt_array(split.encode().data(), "X", nullptr);
  ASSERT_TRUE(isKept("X"));
  tc_rt_begin_statement("T", TC_RT_RESULT_OUTPUT | TC_RT_KEEP_INPUTS);
  void *shared = tc_rt_alloc_storage(kept.encode().data(), "X", /*read_only=*/1);
  void *again = tc_rt_alloc_storage(kept.encode().data(), "X", /*read_only=*/1);
  void *result = tc_rt_alloc_storage(kept.encode().data(), "X", /*read_only=*/0);
  EXPECT_EQ(again, shared) << "both read-only arrays share the kept buffer";
  EXPECT_NE(result, shared) << "a result would overwrite a loop's input";
  auto *x = static_cast<DistArray *>(tc_rt_array(kept.encode().data(), "X", shared));
  EXPECT_TRUE(storesKeptValue(*x));
  const auto *values = static_cast<const double *>(shared); // the whole tensor
  for (int64_t n = 0; n < I * J * K; ++n)
    EXPECT_EQ(values[n], stored(n / (J * K), n / K % J, n % K)) << "element " << n;
  EXPECT_EQ(ctx().handOver.sent + ctx().handOver.received, 0.0);
  for (void *buffer : {shared, again, result})
    releaseBuffer(buffer);
  releaseKept();
  endRun();
}

/// W[i, j, k] split along i over [P] with blocks of a pooled buffer's size:
/// a statement's result that the program allocates (memref.alloc) or takes
/// from tc_rt_alloc_storage.
const int64_t WI = 40, WJ = 64, WK = 64;
tc_rt::ArrayDesc splitW(tc_rt_init init) {
  const int64_t P = ctx().size;
  return {layoutOf(TC_RT_DISTRIBUTED, {P}, {{WI * P, 0, -1, 0}, {WJ, -1, -1, 1}, {WK, -1, -1, 2}}),
          init, false};
}
double wValue(int64_t i, int64_t j, int64_t k) { return 0.5 * i - j + 0.25 * k; }

TEST(KeptTensors, AStatementAddingATermTakesTheKeptBuffer) {
  const int64_t block = WI * WJ * WK, first = ctx().rank * WI;
  // Statement 1 computes W into the program's buffer and keeps it.
  tc_rt_begin_statement("W", TC_RT_RESULT_MEMORY);
  auto *computed = static_cast<double *>(acquireBuffer(block * sizeof(double)));
  void *w = tc_rt_array(splitW(TC_RT_INIT_ZERO).encode().data(), "W", computed);
  for (int64_t n = 0; n < block; ++n)
    computed[n] = wValue(first + n / (WJ * WK), n / WK % WJ, n % WK);
  tc_rt_store(w);
  releaseBuffer(computed); // the program's memref.dealloc
  // Statement 2 adds a term: its storage is the kept buffer, loaded in place.
  tc_rt_begin_statement("W", TC_RT_RESULT_MEMORY);
  auto *storage =
      static_cast<double *>(tc_rt_alloc_storage(splitW(TC_RT_INIT_INPUT).encode().data(), "W", 0));
  EXPECT_EQ(storage, computed) << "the kept value was copied instead of shared";
  w = tc_rt_array(splitW(TC_RT_INIT_INPUT).encode().data(), "W", storage);
  for (int64_t n = 0; n < block; ++n) {
    ASSERT_EQ(storage[n], wValue(first + n / (WJ * WK), n / WK % WJ, n % WK)) << "element " << n;
    storage[n] += 1;
  }
  EXPECT_EQ(ctx().handOver.sent + ctx().handOver.received, 0.0);
  tc_rt_store(w);
  releaseBuffer(storage);
  // A reader in another layout (whole on every rank) gets the sum.
  tc_rt_begin_statement("R", TC_RT_RESULT_OUTPUT);
  const int64_t P = ctx().size;
  tc_rt::ArrayDesc whole{
      layoutOf(TC_RT_REPLICATED, {P}, {{WI * P, -1, -1, 0}, {WJ, -1, -1, 1}, {WK, -1, -1, 2}}),
      TC_RT_INIT_INPUT, false};
  void *fresh = tc_rt_alloc_storage(whole.encode().data(), "W", 0);
  if (P > 1)
    EXPECT_NE(fresh, static_cast<void *>(storage)) << "a buffer of another layout's block";
  else // one process: both layouts store the whole tensor alike
    EXPECT_EQ(fresh, static_cast<void *>(storage)) << "the whole tensor stored alike was copied";
  releaseBuffer(fresh);
  void *r = tc_rt_array(whole.encode().data(), "W", nullptr);
  std::vector<double> got(WI * P * WJ * WK);
  const int64_t zero[3] = {0, 0, 0};
  tc_rt_read_tile(r, got.data(), tc_rt::TileDesc{{WI * P, WJ, WK}}.encode().data(), zero);
  for (int64_t n = 0; n < static_cast<int64_t>(got.size()); ++n)
    ASSERT_EQ(got[n], wValue(n / (WJ * WK), n / WK % WJ, n % WK) + 1) << "element " << n;
  expectHandOverAsPredicted();
  endRun();
  releaseKept();
}

TEST(KeptTensors, AReaderWhoseLayoutHoldsTheSameElementsTakesTheKeptBuffer) {
  const int64_t P = ctx().size, block = WI * WJ * WK, first = ctx().rank * WI;
  // W split over a grid of P x 1; the reader's layout also splits j along
  // the grid's dimension of one process, skewed by the other (Cannon's
  // alignment): another layout, the same elements at the same places on
  // every rank.
  auto onPBy1 = [&](int64_t jGridDim, int64_t jSkew, tc_rt_init init) {
    return tc_rt::ArrayDesc{
        layoutOf(TC_RT_DISTRIBUTED, {P, 1},
                 {{WI * P, 0, -1, 0}, {WJ, jGridDim, jSkew, 1}, {WK, -1, -1, 2}}),
        init, false};
  };
  tc_rt_begin_statement("W", TC_RT_RESULT_MEMORY);
  auto *computed = static_cast<double *>(acquireBuffer(block * sizeof(double)));
  void *w = tc_rt_array(onPBy1(-1, -1, TC_RT_INIT_ZERO).encode().data(), "W", computed);
  for (int64_t n = 0; n < block; ++n)
    computed[n] = wValue(first + n / (WJ * WK), n / WK % WJ, n % WK);
  tc_rt_store(w);
  releaseBuffer(computed);
  tc_rt_begin_statement("R", TC_RT_RESULT_OUTPUT);
  const tc_rt::ArrayDesc reader = onPBy1(1, 0, TC_RT_INIT_INPUT);
  ASSERT_NE(reader.encode(), onPBy1(-1, -1, TC_RT_INIT_INPUT).encode());
  auto *storage =
      static_cast<double *>(tc_rt_alloc_storage(reader.encode().data(), "W", /*readOnly=*/1));
  EXPECT_EQ(storage, computed) << "the kept value was copied instead of shared";
  void *r = tc_rt_array(reader.encode().data(), "W", storage);
  for (int64_t n = 0; n < block; ++n)
    ASSERT_EQ(storage[n], wValue(first + n / (WJ * WK), n / WK % WJ, n % WK)) << "element " << n;
  EXPECT_EQ(ctx().handOver.sent + ctx().handOver.received, 0.0);
  (void)r;
  releaseBuffer(storage);
  expectHandOverAsPredicted();
  endRun();
  releaseKept();
}

} // namespace
