//===- IntermediatesTest.cpp - statements handing tensors on --------------===//
//
// A program's statements (tc_rt_begin_statement) hand an intermediate to the
// later ones by its name: kept whole in every rank's memory or in the run's
// intermediates file. Stored in one layout, it loads in another: its values,
// a scalar's and a block-sparse tensor's (other homes), are the ones stored,
// on any number of processes; nothing is left in the scratch directory.
//
//===----------------------------------------------------------------------===//
#include "BlockArray.h"
#include "TestArrays.h"

#include <dirent.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

using namespace tc_rt;
using tc_rt::test::RandomInputs;

namespace {

const int64_t R = 7, C = 5; // uneven blocks on 2-4 processes

/// X[R, C] split along dimension `splitDim` over the grid [P].
void *matrix(int splitDim, tc_rt_init init, bool onDisk) {
  return tc_rt::test::makeGridArray("X", {R, C}, {ctx().size},
                                    {splitDim == 0 ? 0 : -1, splitDim == 1 ? 0 : -1}, {-1, -1},
                                    init, onDisk);
}

/// The elements of this process's block of a matrix split along dimension 1.
void expectColumns(void *array, const std::function<double(int64_t, int64_t)> &value) {
  const int64_t block = (C + ctx().size - 1) / ctx().size;
  std::vector<double> buf(R * block, -1);
  int64_t zero[2] = {0, 0};
  tc_rt_read_tile(array, buf.data(), tc_rt::TileDesc{{R, block}}.encode().data(), zero);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t l = 0; l < block && ctx().rank * block + l < C; ++l)
      EXPECT_EQ(buf[r * block + l], value(r, ctx().rank * block + l))
          << "X[" << r << ", " << ctx().rank * block + l << "]";
}

/// Entries of `dir` named as the run's intermediates file (not the lock
/// files OpenMPI's MPI-IO keeps beside a file while it is open).
int64_t filesIn(const std::string &dir) {
  const std::string name = ".tc-intermediates-" + std::to_string(ctx().jobId) + ".h5";
  int64_t n = 0;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      n += name == e->d_name;
    closedir(d);
  }
  return n;
}

class Intermediates : public ::testing::TestWithParam<int64_t> {};

TEST_P(Intermediates, StoredByRowsLoadByColumns) {
  const std::string scratch = "/tmp/tc-intermediates-test-" + std::to_string(ctx().jobId);
  if (ctx().rank == 0)
    mkdir(scratch.c_str(), 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  Options saved = ctx().options;
  {
    RandomInputs random(11);
    tc_rt_begin_statement("X", GetParam());
    void *rows = matrix(0, TC_RT_INIT_INPUT, /*onDisk=*/false);
    ctx().options.scratch = scratch;
    tc_rt_store(rows);
  }
  // Loading X now reads the intermediate, not the random input.
  ctx().options.randomInputs = true, ctx().options.seed = 99;
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  void *columns = matrix(1, TC_RT_INIT_INPUT, /*onDisk=*/true);
  expectColumns(columns, [](int64_t r, int64_t c) {
    return randomValue(11, "X", static_cast<uint64_t>(r * C + c));
  });
  EXPECT_EQ(filesIn(scratch), 0) << "the intermediates file has no name";
  ctx().options = saved;
  closeRunFiles();
  releaseArrays();
  ctx().statements.clear();
  ctx().storing = TC_RT_RESULT_OUTPUT;
  MPI_Barrier(MPI_COMM_WORLD);
  if (ctx().rank == 0)
    rmdir(scratch.c_str());
}

TEST_P(Intermediates, AScalarKeepsItsValue) {
  ctx().options.scratch = "/tmp";
  const int64_t grid[] = {ctx().size};
  auto scalar = [&](tc_rt_init init) {
    tc_rt::ArrayDesc d{tc_layout::ArrayLayout::whole(Holding::Distributed, {}, {grid[0]}), init,
                       false};
    return tc_rt_array(d.encode().data(), "E", nullptr);
  };
  tc_rt_begin_statement("E", GetParam());
  void *e = scalar(TC_RT_INIT_ZERO);
  double v = 2.5;
  tc_rt_write_tile(e, &v, tc_rt::TileDesc{{}}.encode().data(), nullptr);
  tc_rt_store(e);
  tc_rt_begin_statement("F", TC_RT_RESULT_OUTPUT);
  void *back = scalar(TC_RT_INIT_INPUT);
  double got = -1;
  tc_rt_read_tile(back, &got, tc_rt::TileDesc{{}}.encode().data(), nullptr);
  EXPECT_EQ(got, 2.5);
  closeRunFiles();
  releaseArrays();
  ctx().statements.clear();
  ctx().storing = TC_RT_RESULT_OUTPUT;
}

/// A block-sparse X[3, 4] (segments [2, 1] x [3, 1], blocks (0, 0) and (1, 1)),
/// block i's home rank (i + shift) mod P.
BlockArray *blocks(tc_rt_init init, bool onDisk, int shift) {
  const int64_t p = ctx().size;
  tc_rt::BlockArrayDesc d{init, onDisk, TC_RT_F64, {{2, 1}, {3, 1}}, {{0, 0}, {1, 1}},
                          {shift % p, (1 + shift) % p}};
  return static_cast<BlockArray *>(tc_rt_block_array(d.encode().data(), "X"));
}

double blockValue(int64_t block, int64_t element) { return 10.0 * block + element + 0.5; }

/// Writes blockValue into the bricks of `x` this rank is home of.
void writeBlockValues(BlockArray *x) {
  for (int64_t b = 0; b < 2; ++b)
    if (x->home[b] == ctx().rank) {
      std::vector<double> v(x->blockElements(b));
      for (size_t e = 0; e < v.size(); ++e)
        v[e] = blockValue(b, static_cast<int64_t>(e));
      x->writeHome(b, reinterpret_cast<const char *>(v.data()));
    }
}

TEST_P(Intermediates, BlocksStoredByOneHomeLoadByAnother) {
  const std::string scratch = "/tmp/tc-block-intermediates-test-" + std::to_string(ctx().jobId);
  if (ctx().rank == 0)
    mkdir(scratch.c_str(), 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  Options saved = ctx().options;
  ctx().options.scratch = scratch;
  tc_rt_begin_statement("X", GetParam());
  BlockArray *x = blocks(TC_RT_INIT_ZERO, /*onDisk=*/false, 0);
  writeBlockValues(x);
  tc_rt_block_store(x);
  // Loaded in the next statement by other homes, in memory and from files.
  tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
  for (bool onDisk : {false, true}) {
    BlockArray *back = blocks(TC_RT_INIT_INPUT, onDisk, 1);
    for (int64_t b = 0; b < 2; ++b)
      if (back->home[b] == ctx().rank) {
        std::vector<double> v(back->blockElements(b), -1);
        back->readHome(b, reinterpret_cast<char *>(v.data()));
        for (size_t e = 0; e < v.size(); ++e)
          EXPECT_EQ(v[e], blockValue(b, static_cast<int64_t>(e)))
              << "block " << b << " element " << e << (onDisk ? " (on disk)" : "");
      }
  }
  EXPECT_EQ(filesIn(scratch), 0) << "the intermediates file has no name";
  ctx().options = saved;
  closeRunFiles();
  releaseBlockArrays();
  ctx().statements.clear();
  ctx().storing = TC_RT_RESULT_OUTPUT;
  MPI_Barrier(MPI_COMM_WORLD);
  if (ctx().rank == 0)
    rmdir(scratch.c_str());
}

TEST(KeptBlocks, BricksMoveOnlyWhereTheirHomeChanges) {
  // Kept in memory at its homes (block i on rank i mod P), X is loaded by a
  // statement whose homes are shifted by one: each brick moves from its old
  // home to its new one, and nothing else moves; the bytes every rank sends
  // and receives are the prediction's. A second load takes the kept bricks
  // again, and no rank holds a brick it is not home of.
  tc_rt_begin_statement("X", TC_RT_RESULT_MEMORY);
  BlockArray *x = blocks(TC_RT_INIT_ZERO, /*onDisk=*/false, 0);
  std::vector<int> oldHome = x->home;
  writeBlockValues(x);
  tc_rt_block_store(x);
  for (int load = 0; load < 2; ++load) {
    tc_rt_begin_statement("Y", TC_RT_RESULT_OUTPUT);
    const HandOver before = ctx().handOver;
    BlockArray *back = blocks(TC_RT_INIT_INPUT, /*onDisk=*/false, 1);
    const HandOver moved = ctx().handOver.since(before);
    double sent = 0, received = 0;
    for (int64_t b = 0; b < 2; ++b) {
      const double bytes = static_cast<double>(back->blockBytes(b));
      if (oldHome[b] != back->home[b]) {
        sent += oldHome[b] == ctx().rank ? bytes : 0;
        received += back->home[b] == ctx().rank ? bytes : 0;
      }
      if (back->home[b] != ctx().rank) {
        EXPECT_FALSE(back->data[b]) << "block " << b;
        continue;
      }
      std::vector<double> v(back->blockElements(b), -1);
      back->readHome(b, reinterpret_cast<char *>(v.data()));
      for (size_t e = 0; e < v.size(); ++e)
        EXPECT_EQ(v[e], blockValue(b, static_cast<int64_t>(e))) << "block " << b;
    }
    EXPECT_EQ(moved.sent, sent) << "rank " << ctx().rank;
    EXPECT_EQ(moved.received, received) << "rank " << ctx().rank;
    EXPECT_EQ(moved.predictedSent, sent) << "rank " << ctx().rank;
    EXPECT_EQ(moved.predictedReceived, received) << "rank " << ctx().rank;
  }
  closeRunFiles();
  releaseBlockArrays();
  ctx().statements.clear();
  ctx().storing = TC_RT_RESULT_OUTPUT;
  ctx().handOver = HandOver();
}

INSTANTIATE_TEST_SUITE_P(Places, Intermediates,
                         ::testing::Values(TC_RT_RESULT_MEMORY, TC_RT_RESULT_FILE),
                         [](const auto &info) {
                           return info.param == TC_RT_RESULT_MEMORY ? "InMemory" : "InFile";
                         });

} // namespace
