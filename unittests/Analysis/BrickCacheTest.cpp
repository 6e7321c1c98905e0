//===- BrickCacheTest.cpp - an LRU cache of remote bricks across stages ---===//
#include "TC/Analysis/BrickAssignment.h"
#include "TC/Analysis/BrickCache.h"

#include "TinyPools.h"

#include <gtest/gtest.h>

#include <map>

using namespace mlir::tc;

namespace {

using pools::tinyMatmul;

/// Every task on process 1, every brick's home 0, one stage per task.
StagedSchedule allRemote(const BlockTaskPool &pool) {
  StagedSchedule s;
  s.procs = 2;
  s.taskRank.assign(pool.tasks.size(), 1);
  for (size_t t = 0; t < pool.tasks.size(); ++t)
    s.taskStage.push_back(static_cast<int>(t));
  s.brickOwner.assign(pool.bricks.size(), 0);
  return s;
}

TEST(BrickCache, WithoutACacheEveryStageFetchesItsBricks) {
  BlockTaskPool pool = tinyMatmul();
  StagedSchedule s = allRemote(pool);
  CachedTraffic none = cachedTraffic(pool, s, {0, 0});
  EXPECT_TRUE(none.hits.empty());
  // Per stage (task): one A and one B brick in, one partial sum of C out.
  EXPECT_EQ(none.received, (std::vector<double>{8 * 8, 8 * 16}));
  EXPECT_EQ(none.sent, (std::vector<double>{8 * 16, 8 * 8}));
  // One stage: what measureAssignment counts (each brick once).
  StagedSchedule one = s;
  one.taskStage.assign(pool.tasks.size(), 0);
  BrickAssignment a;
  a.taskRank = one.taskRank;
  a.brickOwner = one.brickOwner;
  measureAssignment(pool, 2, a);
  CachedTraffic together = cachedTraffic(pool, one, {0, 0});
  EXPECT_EQ(together.received, a.received);
  EXPECT_EQ(together.sent, a.sent);
}

TEST(BrickCache, ACacheServesLaterStages) {
  BlockTaskPool pool = tinyMatmul();
  StagedSchedule s = allRemote(pool);
  // Room for all 8 remote input bricks: each is received once.
  CachedTraffic all = cachedTraffic(pool, s, {0, 64});
  EXPECT_EQ(all.received[1], 8 * 8);
  EXPECT_EQ(all.hitBytes, 8 * 8);
  EXPECT_EQ(all.hits.size(), 8u);
  EXPECT_EQ(all.received[0], 8 * 8); // the partial sums, unaffected
  // Room for one brick: the last one received stays; only an immediately
  // repeated read hits.
  CachedTraffic one = cachedTraffic(pool, s, {0, 8});
  for (const CacheHit &h : one.hits) {
    ASSERT_GT(h.stage, 0);
    EXPECT_EQ(h.rank, 1);
    const BlockTask &prev = pool.tasks[h.stage - 1];
    EXPECT_TRUE(h.brick == prev.a || h.brick == prev.b);
  }
  EXPECT_EQ(one.received[1] + one.hitBytes, 16 * 8);
  // A brick larger than the cache is never kept.
  EXPECT_TRUE(cachedTraffic(pool, s, {0, 7}).hits.empty());
}

TEST(BrickCache, FootprintCountsHomeAndRemoteBricksOfTheBusiestStage) {
  BlockTaskPool pool = tinyMatmul();
  StagedSchedule s = allRemote(pool);
  // Process 0 is home of each stage's three bricks; process 1 holds them as
  // remote bricks (two inputs, one partial sum).
  EXPECT_EQ(stageFootprint(pool, s), (std::vector<double>{24, 24}));
}

TEST(BrickCache, FootprintOfATwoLevelStageIsItsSharedBricksAndItsBusiestStep) {
  BlockTaskPool pool = tinyMatmul();
  StagedSchedule s = allRemote(pool);
  s.taskStage.assign(pool.tasks.size(), 0);
  // Two read-once steps, one per k: each C brick is read by both (shared,
  // held for the stage), each A and B brick by one (held for its step).
  std::map<int, int> seen; // C brick -> its tasks so far
  for (const BlockTask &t : pool.tasks)
    s.taskStep.push_back(seen[t.c]++);
  // 4 C bricks, and a step's 2 A and 2 B bricks, 8 bytes each; without the
  // steps all 12.
  EXPECT_EQ(stageFootprint(pool, s), (std::vector<double>{64, 64}));
  s.taskStep.clear();
  EXPECT_EQ(stageFootprint(pool, s), (std::vector<double>{96, 96}));
}

} // namespace
