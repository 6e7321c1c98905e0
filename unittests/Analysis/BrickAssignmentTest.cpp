//===- BrickAssignmentTest.cpp - in-memory traffic of a task assignment ---===//
#include "TC/Analysis/BrickAssignment.h"

#include "TinyPools.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {

using pools::tinyMatmul;

TEST(BrickAssignment, RemoteBricksAreFetchedOnceAndPartialSumsSentOnce) {
  BlockTaskPool pool = tinyMatmul();
  ASSERT_EQ(pool.tasks.size(), 8u);
  BrickAssignment a;
  // Rows of C (and A) on the process of their row, B's rows likewise: each
  // process reads the two B blocks of the other row.
  for (const BlockTask &t : pool.tasks)
    a.taskRank.push_back(static_cast<int>(pool.bricks[t.c].block[0]));
  for (const Brick &b : pool.bricks)
    a.brickOwner.push_back(static_cast<int>(b.block[0]));
  measureAssignment(pool, 2, a);
  EXPECT_EQ(a.received, (std::vector<double>{16, 16}));
  EXPECT_EQ(a.sent, (std::vector<double>{16, 16}));
  EXPECT_EQ(a.connectivityMinusOne, 32);
  EXPECT_EQ(a.flops, (std::vector<double>{8, 8}));

  // Tasks by k instead (on the owner of their B block): process r reads the
  // remote A[r', r] (one block) and sends partial sums of the remote C[r', j]
  // (two); it receives as much from the other side.
  for (size_t t = 0; t < pool.tasks.size(); ++t)
    a.taskRank[t] = static_cast<int>(pool.bricks[pool.tasks[t].b].block[0]);
  measureAssignment(pool, 2, a);
  EXPECT_EQ(a.received, (std::vector<double>{24, 24}));
  EXPECT_EQ(a.sent, (std::vector<double>{24, 24}));
  EXPECT_EQ(a.connectivityMinusOne, 48);
}

TEST(BrickAssignment, DataVerticesJoinTheirNets) {
  BlockTaskPool pool = tinyMatmul();
  Hypergraph h = taskDataHypergraph(pool);
  EXPECT_EQ(h.numVertices(), 8 + 12);
  for (int j = 0; j < h.numNets(); ++j) {
    EXPECT_EQ(h.netPins[j].back(), 8 + j);
    EXPECT_EQ(h.vertexWeight[8 + j], 0);
  }
}

} // namespace

TEST(BrickAssignment, NextTaskDealsTasksToTheLeastLoadedAndBricksRoundRobin) {
  BlockTaskPool pool = tinyMatmul();
  // Equal tasks: dealt 0, 1, 2, 0, 1, 2, ...; bricks 0, 1, 2, 0, ...
  BrickAssignment a = nextTaskAssignment(pool, 3);
  ASSERT_TRUE(a.error.empty());
  for (size_t t = 0; t < pool.tasks.size(); ++t)
    EXPECT_EQ(a.taskRank[t], static_cast<int>(t % 3));
  for (size_t j = 0; j < pool.bricks.size(); ++j)
    EXPECT_EQ(a.brickOwner[j], static_cast<int>(j % 3));
  EXPECT_EQ(a.flops, (std::vector<double>{6, 6, 4}));
  // The traffic is that of the assignment, as measureAssignment counts it.
  BrickAssignment same{a.taskRank, a.brickOwner, {}, {}, {}, 0, ""};
  measureAssignment(pool, 3, same);
  EXPECT_EQ(a.received, same.received);
  EXPECT_EQ(a.sent, same.sent);
  // Given owners are kept.
  std::vector<int> owners(pool.bricks.size(), 1);
  EXPECT_EQ(nextTaskAssignment(pool, 3, owners).brickOwner, owners);
  EXPECT_FALSE(nextTaskAssignment(pool, 3, {0}).error.empty());
}
