//===- BrickCache.h - remote bricks kept across out-of-core stages -*- C++ -*-===//
//
// Krishnamoorthy et al. section 6 ([K] 6): the memory a process has left beside
// a stage's bricks holds an LRU cache of the remote bricks it received, so a
// later stage whose tasks read a brick still cached receives nothing. Given a
// staged schedule (tasks to processes and stages, bricks to homes) and each
// process's cache size, this computes which reads hit the cache and what every
// process then receives and sends; the runtime follows the hits it is given.
// docs/BlockSparse.md.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_BRICKCACHE_H
#define TC_ANALYSIS_BRICKCACHE_H

#include "TC/Analysis/BlockSparse.h"

#include <vector>

namespace mlir::tc {

/// A staged schedule of a task pool.
struct StagedSchedule {
  std::vector<int> taskRank, taskStage, brickOwner;
  int procs = 1;
  /// Each task's read-once step within its stage ([K] 6.2-6.3; empty: one
  /// step per stage).
  std::vector<int> taskStep = {};
  int stages() const;
};

/// Per process, the bytes resident at its busiest stage: the bricks it is home
/// of that the stage touches, the remote bricks its tasks read and the partial
/// sums of remote C bricks they write; of a two-level stage, those its steps
/// share plus those of its busiest step (the runtime frees a step's own bricks
/// when the step ends).
std::vector<double> stageFootprint(const BlockTaskPool &pool, const StagedSchedule &s);

struct CacheHit {
  int stage, brick, rank;
  bool operator==(const CacheHit &o) const {
    return stage == o.stage && brick == o.brick && rank == o.rank;
  }
};

struct CachedTraffic {
  std::vector<double> received, sent; ///< per process, over all stages
  std::vector<CacheHit> hits;         ///< reads served by a cache, in stage order
  double hitBytes = 0;                ///< bytes those reads did not move
};

/// Per stage, a process receives each remote A or B brick its tasks read once
/// unless its cache (LRU, `cacheBytes` per process, bricks in order of their
/// index within a stage) still holds it from an earlier stage, and sends each
/// partial sum of a remote C brick once to its home ([K] 5-6). With no cache
/// this is the sum over stages of measureAssignment's traffic.
CachedTraffic cachedTraffic(const BlockTaskPool &pool, const StagedSchedule &s,
                            const std::vector<double> &cacheBytes);

} // namespace mlir::tc

#endif // TC_ANALYSIS_BRICKCACHE_H
