//===- PartitionersTest.cpp - hypergraph partitioners on task-brick hypergraphs ===//
//
// The same properties of every partitioner the planner can use: Zoltan's PHG
// and the builtin one (no MPI).
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/BrickAssignment.h"
#include "TC/Analysis/DiskSchedule.h"
#include "TC/Analysis/Partitioners.h"
#include "TC/Partition/ZoltanPartitioner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

using namespace mlir::tc;

namespace {

/// [K] 5.2's shape, scaled down: C[a,b,c,d] = A[a,b,i] * B[i,c,d], a..d in
/// O = (8, 4, 2, 2), i in V = (16, 8, 4, 4), all totally symmetric.
BlockTaskPool fourIndexPool() {
  BlockContraction c;
  std::vector<int64_t> o = {8, 4, 2, 2}, v = {16, 8, 4, 4};
  c.labelSegments = {o, o, o, o, v};
  c.aLabels = {0, 1, 4};
  c.bLabels = {4, 2, 3};
  c.cLabels = {0, 1, 2, 3};
  c.aPresence.kind = c.bPresence.kind = c.cPresence.kind = BlockPresence::Kind::Symmetry;
  return buildTaskPool(c, 8);
}

/// Every task in exactly one step of one stage, every stage within memory,
/// and a stage's bricks are exactly those its tasks touch.
void expectValid(const Hypergraph &h, const DiskSchedule &s, double mem) {
  ASSERT_EQ(s.error, "");
  std::multiset<int> seen;
  for (const DiskStage &stage : s.stages) {
    EXPECT_LE(stage.peakMemory(h), mem);
    std::vector<int> tasks;
    for (const std::vector<int> &step : stage.steps)
      tasks.insert(tasks.end(), step.begin(), step.end());
    seen.insert(tasks.begin(), tasks.end());
    std::sort(tasks.begin(), tasks.end());
    EXPECT_DOUBLE_EQ(stage.io(h), memoryOf(h, tasks));
  }
  std::vector<int> all(h.numVertices());
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(std::vector<int>(seen.begin(), seen.end()), all);
}

class Partitioners : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    registerZoltanPartitioner();
    partitioner = createHypergraphPartitioner(GetParam());
    ASSERT_TRUE(partitioner);
  }
  std::unique_ptr<HypergraphPartitioner> partitioner;
};

TEST_P(Partitioners, BalancesFlopsAndRespectsFixedVertices) {
  BlockTaskPool pool = fourIndexPool();
  Hypergraph h = taskBrickHypergraph(pool);
  PartitionRequest r;
  r.parts = 4;
  r.imbalance = 0.2;
  std::vector<int> part = partitioner->partition(h, r);
  ASSERT_EQ(part.size(), pool.tasks.size()) << partitioner->error();
  PartitionMetrics m = measurePartition(h, part, 4);
  // Within the tolerance, give or take one task (tasks are indivisible).
  double largest = 0;
  for (const BlockTask &t : pool.tasks)
    largest = std::max(largest, t.flops);
  const double avg = pool.totalFlops() / 4;
  for (double w : m.weight)
    EXPECT_LE(w, avg * 1.2 + largest);
  // Deterministic: the same answer again.
  EXPECT_EQ(partitioner->partition(h, r), part);
  // Fixed vertices stay where they are put.
  r.fixed.assign(h.numVertices(), -1);
  r.fixed[0] = 3;
  r.fixed[1] = 2;
  std::vector<int> fixedPart = partitioner->partition(h, r);
  ASSERT_EQ(fixedPart.size(), part.size());
  EXPECT_EQ(fixedPart[0], 3);
  EXPECT_EQ(fixedPart[1], 2);
}

TEST_P(Partitioners, ConnectivityBeatsRoundRobin) {
  Hypergraph h = taskBrickHypergraph(fourIndexPool());
  PartitionRequest r;
  r.parts = 4;
  std::vector<int> part = partitioner->partition(h, r);
  std::vector<int> roundRobin(h.numVertices());
  for (int v = 0; v < h.numVertices(); ++v)
    roundRobin[v] = v % 4;
  EXPECT_LT(measurePartition(h, part, 4).connectivityMinusOne,
            measurePartition(h, roundRobin, 4).connectivityMinusOne);
}

TEST_P(Partitioners, OutOfCoreSchedulesFitAndCoverEveryTask) {
  BlockTaskPool pool = fourIndexPool();
  Hypergraph h = taskBrickHypergraph(pool);
  // A fifth of the bricks, or 1.5 times the largest task's if more.
  double largestTask = 0;
  for (int v = 0; v < h.numVertices(); ++v)
    largestTask = std::max(largestTask, memoryOf(h, {v}));
  const double mem = std::max(pool.totalBytes() / 5, 1.5 * largestTask);
  std::vector<DiskSchedule> both = diskSchedules(h, mem, *partitioner);
  ASSERT_EQ(both.size(), 2u);
  for (const DiskSchedule &s : both) {
    expectValid(h, s, mem);
    size_t steps = 0; // the bricks do not fit at once: more than one step
    for (const DiskStage &stage : s.stages)
      steps += stage.steps.size();
    EXPECT_GT(steps, 1u);
    EXPECT_GE(s.io(h), pool.totalBytes()); // every brick at least once
  }
  EXPECT_LE(both[0].io(h), both[1].io(h));
}

TEST_P(Partitioners, InMemoryAssignmentBeatsALocalityObliviousOne) {
  // [K] 5: bricks owned round-robin (fixed), tasks free. Against tasks dealt
  // round-robin (locality-oblivious, as [K]'s Random and NextTask are), the
  // partitioned assignment moves fewer bytes within the flop balance, and its
  // traffic is its connectivity-1.
  BlockTaskPool pool = fourIndexPool();
  const int procs = 4;
  std::vector<int> owners(pool.bricks.size());
  for (size_t j = 0; j < owners.size(); ++j)
    owners[j] = static_cast<int>(j % procs);
  BrickAssignment ours = assignBricks(pool, procs, owners, *partitioner, 0.2);
  ASSERT_EQ(ours.error, "");
  EXPECT_EQ(ours.brickOwner, owners);
  double received = 0, sent = 0;
  for (int p = 0; p < procs; ++p) {
    received += ours.received[p];
    sent += ours.sent[p];
  }
  EXPECT_DOUBLE_EQ(received, ours.connectivityMinusOne);
  EXPECT_DOUBLE_EQ(sent, ours.connectivityMinusOne);
  double largest = 0;
  for (const BlockTask &t : pool.tasks)
    largest = std::max(largest, t.flops);
  for (double f : ours.flops)
    EXPECT_LE(f, pool.totalFlops() / procs * 1.2 + largest);
  BrickAssignment dealt;
  dealt.brickOwner = owners;
  for (size_t t = 0; t < pool.tasks.size(); ++t)
    dealt.taskRank.push_back(static_cast<int>(t % procs));
  measureAssignment(pool, procs, dealt);
  EXPECT_LT(ours.connectivityMinusOne, dealt.connectivityMinusOne);
}

INSTANTIATE_TEST_SUITE_P(ZoltanAndBuiltin, Partitioners, ::testing::Values("zoltan", "builtin"),
                         [](const auto &info) { return info.param; });

TEST(Partitioners, RegistryNamesBuiltinFirstAndRefusesUnknownNames) {
  registerZoltanPartitioner();
  std::vector<std::string> names = hypergraphPartitionerNames();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names.front(), "builtin");
  EXPECT_EQ(createHypergraphPartitioner("metis"), nullptr);
  EXPECT_NE(createHypergraphPartitioner("default"), nullptr);
}

} // namespace
