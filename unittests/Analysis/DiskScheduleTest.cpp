//===- DiskScheduleTest.cpp - one-level, read-once and two-level stages ---===//
//
// The accounting of [K] 6 on the reconstructed example of [K] Figs. 3-4: nine
// tasks, six bricks of one unit, memory three. A scripted partitioner splits
// by the example's stages, so the tests check the algorithms and their I/O,
// not a partitioner's optimality (the Zoltan tests do the latter's part).
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/DiskSchedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace mlir::tc;

namespace {

/// Bricks n1, n2, d3, d4, d5, d6 (nets 0-5); tasks t1..t9 (vertices 0-8, the
/// vertex weight is the task's number, which the scripted partitioner reads).
/// Stage S1 = t1-t3, S2 = t4-t6, S3 = t7-t9.
Hypergraph nineTasks() {
  const std::vector<std::vector<int>> touches = {{0, 2}, {2, 3}, {0, 3}, {0, 1}, {1, 4},
                                                 {0, 4}, {0, 5}, {1, 5}, {0, 1}};
  Hypergraph h;
  h.netCost.assign(6, 1);
  h.netPins.resize(6);
  for (int t = 0; t < 9; ++t) {
    h.vertexWeight.push_back(t + 1);
    for (int brick : touches[t])
      h.netPins[brick].push_back(t);
  }
  return h;
}

int stageOf(const Hypergraph &h, int v) { return (static_cast<int>(h.vertexWeight[v]) - 1) / 3; }

/// Splits by the example's stages: with more than two parts, one part per
/// stage present; with two, the first stage present against the rest
/// (`firstApart`) or the last against the rest.
struct ByStage : HypergraphPartitioner {
  bool firstApart;
  int calls = 0;
  explicit ByStage(bool firstApart) : firstApart(firstApart) {}
  std::vector<int> partition(const Hypergraph &h, const PartitionRequest &r) override {
    ++calls;
    std::set<int> stages;
    for (int v = 0; v < h.numVertices(); ++v)
      stages.insert(stageOf(h, v));
    std::vector<int> part;
    for (int v = 0; v < h.numVertices(); ++v) {
      int rank = static_cast<int>(std::distance(stages.begin(), stages.find(stageOf(h, v))));
      if (r.parts == 2)
        part.push_back(firstApart ? (rank == 0 ? 0 : 1)
                                  : (rank + 1 == static_cast<int>(stages.size()) ? 1 : 0));
      else
        part.push_back(std::min(rank, r.parts - 1));
    }
    return part;
  }
};

std::vector<int> stagesOfSteps(const Hypergraph &h, const std::vector<int> &tasks) {
  std::set<int> s;
  for (int t : tasks)
    s.insert(stageOf(h, t));
  return {s.begin(), s.end()};
}

TEST(DiskSchedule, MemoryCountsEveryBrickATaskTouches) {
  Hypergraph h = nineTasks();
  EXPECT_EQ(memoryOf(h, {0, 1, 2}), 3);     // S1: n1, d3, d4
  EXPECT_EQ(memoryOf(h, {0, 1, 2, 3, 4, 5}), 5); // S1 u S2 does not fit in 3
  EXPECT_EQ(memoryOf(h, {0, 1, 2, 3, 4, 5, 6, 7, 8}), 6);
  PartitionMetrics m = measurePartition(h, {0, 0, 0, 1, 1, 1, 2, 2, 2}, 3);
  EXPECT_EQ(m.connectivity, (std::vector<int>{3, 2, 1, 1, 1, 1}));
  EXPECT_EQ(m.cutNet, 2);
  EXPECT_EQ(m.connectivityMinusOne, 3);
  EXPECT_EQ(m.internalCost, (std::vector<double>{2, 1, 1}));
  EXPECT_EQ(m.weight, (std::vector<double>{6, 15, 24}));
}

TEST(DiskSchedule, OneLevelReadsEachStagesBricks) {
  // [K] Fig. 3: three stages of three bricks, n1 and n2 cut: I/O 9.
  Hypergraph h = nineTasks();
  ByStage partitioner(/*firstApart=*/true);
  DiskSchedule s = oneLevelSchedule(h, 3, partitioner);
  ASSERT_EQ(s.error, "");
  ASSERT_EQ(s.stages.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(stagesOfSteps(h, s.stages[i].steps.front()), std::vector<int>{i});
    EXPECT_TRUE(s.stages[i].shared.empty());
  }
  EXPECT_EQ(s.io(h), 9);
  EXPECT_EQ(s.peakMemory(h), 3);
}

TEST(DiskSchedule, TwoLevelSharesABrickBetweenTwoSteps) {
  // [K] Fig. 4: S1 and S2 become the steps of one read-once stage sharing n1
  // (cutsize 1 + C_p 2 <= 3); with S3 the I/O is 5 + 3 = 8.
  Hypergraph h = nineTasks();
  ByStage partitioner(/*firstApart=*/false);
  DiskSchedule s = twoLevelSchedule(h, 3, partitioner);
  ASSERT_EQ(s.error, "");
  ASSERT_EQ(s.stages.size(), 2u);
  const DiskStage &first = s.stages[0];
  ASSERT_EQ(first.steps.size(), 2u);
  EXPECT_EQ(stagesOfSteps(h, first.steps[0]), std::vector<int>{0});
  EXPECT_EQ(stagesOfSteps(h, first.steps[1]), std::vector<int>{1});
  EXPECT_EQ(first.shared, std::vector<int>{0}); // n1
  EXPECT_EQ(first.local[0], (std::vector<int>{2, 3}));
  EXPECT_EQ(first.local[1], (std::vector<int>{1, 4}));
  EXPECT_EQ(first.io(h), 5);
  EXPECT_EQ(first.peakMemory(h), 3);
  EXPECT_EQ(s.stages[1].steps.size(), 1u);
  EXPECT_EQ(s.io(h), 8);
  EXPECT_LE(s.peakMemory(h), 3);
}

TEST(DiskSchedule, TwoLevelMayBeatThePapersFigure) {
  // Splitting S1 off first leaves S2 u S3, whose read-once split shares n1 and
  // n2 (cutsize 2 + C_p 1 <= 3): 3 + 4 = 7, below the figure's 8.
  Hypergraph h = nineTasks();
  ByStage partitioner(/*firstApart=*/true);
  std::vector<DiskSchedule> both = diskSchedules(h, 3, partitioner);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].kind, BlockSchedule::TwoLevel);
  EXPECT_EQ(both[0].io(h), 7);
  EXPECT_EQ(both[0].stages[1].shared, (std::vector<int>{0, 1}));
  EXPECT_EQ(both[1].kind, BlockSchedule::OneLevel);
  EXPECT_EQ(both[1].io(h), 9);
}

TEST(DiskSchedule, ReadOnceNeedsNoSplitWhenEverythingFits) {
  Hypergraph h = nineTasks();
  ByStage partitioner(true);
  std::optional<DiskStage> s = readOnceStage(h, {0, 1, 2, 3, 4, 5, 6, 7, 8}, 6, partitioner);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->steps.size(), 1u);
  EXPECT_EQ(s->io(h), 6);
  EXPECT_EQ(partitioner.calls, 0);
  // No split of the nine tasks fits in 3 (every one tried shares n1 and n2).
  EXPECT_FALSE(readOnceStage(h, {0, 1, 2, 3, 4, 5, 6, 7, 8}, 3, partitioner));
}

TEST(DiskSchedule, ATaskLargerThanMemoryIsAnError) {
  Hypergraph h = nineTasks();
  ByStage partitioner(true);
  DiskSchedule s = oneLevelSchedule(h, 1, partitioner);
  EXPECT_TRUE(s.stages.empty());
  EXPECT_EQ(s.error, "task 0 touches 2 bytes of bricks, more than the memory of 1 bytes");
  EXPECT_FALSE(twoLevelSchedule(h, 1, partitioner).error.empty());
}

} // namespace

TEST(DiskSchedule, InOrderFillsStagesWithConsecutiveTasks) {
  Hypergraph h = nineTasks();
  // Memory 3: t1-t3, t4-t6, t7-t9 (the example's stages happen to be in order).
  DiskSchedule three = inOrderSchedule(h, 3);
  ASSERT_TRUE(three.error.empty());
  EXPECT_EQ(three.kind, BlockSchedule::InOrder);
  ASSERT_EQ(three.stages.size(), 3u);
  EXPECT_EQ(three.stages[1].steps, (std::vector<std::vector<int>>{{3, 4, 5}}));
  EXPECT_EQ(three.io(h), 9);
  // Memory 2: no two consecutive tasks fit together, one stage per task.
  DiskSchedule two = inOrderSchedule(h, 2);
  EXPECT_EQ(two.stages.size(), 9u);
  EXPECT_EQ(two.io(h), 18);
  // Memory 1: task 0 alone touches two bricks.
  DiskSchedule one = inOrderSchedule(h, 1);
  EXPECT_TRUE(one.stages.empty());
  EXPECT_EQ(one.error, "task 0 touches 2 bytes of bricks, more than the memory of 1 bytes");
}
