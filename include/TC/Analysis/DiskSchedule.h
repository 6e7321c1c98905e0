//===- DiskSchedule.h - out-of-core stages of a task pool -------*- C++ -*-===//
//
// Krishnamoorthy et al. section 6 ([K] 6): a task pool whose bricks exceed
// memory runs in stages. Each stage reads the bricks its tasks touch, runs
// them and writes the bricks they update back. Three ways to form the stages:
//   - one-level (6.1): bisect the task-brick hypergraph until every part's
//     bricks fit in memory; each part is a stage;
//   - read-once (6.2): split a stage's tasks into P steps; the bricks shared
//     by steps (the cut nets) stay in memory for the whole stage, each step's
//     own bricks only for that step, so the stage fits when
//     cutsize + C_p <= M for every step p; every brick of the stage is then
//     read and written once;
//   - two-level (6.3): bisect, as one-level does, only until a part has a
//     feasible read-once split.
// A stage's I/O is the bytes of the bricks it touches, each once; a schedule's
// is the sum over its stages ([K] 6.1 counts each (brick, stage) pair once).
// docs/Derivations.md D33.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_DISKSCHEDULE_H
#define TC_ANALYSIS_DISKSCHEDULE_H

#include "TC/Analysis/Decisions.h"
#include "TC/Analysis/TaskHypergraph.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

/// One stage: its steps' tasks, the bricks (nets of the hypergraph) shared by
/// its steps and those local to each step. A one-level stage has one step and
/// no shared bricks.
struct DiskStage {
  std::vector<std::vector<int>> steps;
  std::vector<int> shared;
  std::vector<std::vector<int>> local;

  /// Bytes the stage moves between disk and memory (each brick once).
  double io(const Hypergraph &h) const;
  /// Bytes resident at the stage's peak: the shared bricks and the largest
  /// step's own.
  double peakMemory(const Hypergraph &h) const;
};

const char *toString(BlockSchedule kind);

struct DiskSchedule {
  BlockSchedule kind = BlockSchedule::OneLevel;
  std::vector<DiskStage> stages;
  std::string error; ///< why there is no schedule (then `stages` is empty)

  double io(const Hypergraph &h) const;
  double peakMemory(const Hypergraph &h) const;
};

/// The stage of `tasks` as one step: every brick they touch is local.
DiskStage singleStepStage(const Hypergraph &h, const std::vector<int> &tasks);

/// [K] 6.2: a read-once split of `tasks` (vertices of `h`) into steps whose
/// shared and own bricks fit in `memLimit` bytes, trying P = 2, 3, ... up to
/// `maxParts` parts with the cut-net metric and net-cost balance; a single step
/// when all of the bricks fit. None when no P tried is feasible.
std::optional<DiskStage> readOnceStage(const Hypergraph &h, const std::vector<int> &tasks,
                                       double memLimit, HypergraphPartitioner &partitioner,
                                       int maxParts = 127);

/// [K] 6.1: recursive memory-constrained bisection; each part whose bricks fit
/// is a stage, in the order of the recursion.
DiskSchedule oneLevelSchedule(const Hypergraph &h, double memLimit,
                              HypergraphPartitioner &partitioner);

/// [K] 6.3: the same bisection, stopping at parts with a feasible read-once
/// split.
DiskSchedule twoLevelSchedule(const Hypergraph &h, double memLimit,
                              HypergraphPartitioner &partitioner, int maxParts = 127);

/// The locality-oblivious baseline (the order a NextTask/GetNext counter hands
/// tasks out in, [K] 6.4): stages of consecutive tasks in pool order, each
/// grown while the bricks it touches fit in `memLimit` bytes.
DiskSchedule inOrderSchedule(const Hypergraph &h, double memLimit);

/// Both schedules, the one with less I/O first (one-level on a tie: fewer
/// resident bricks); an error when neither exists (a task's own bricks exceed
/// the memory).
std::vector<DiskSchedule> diskSchedules(const Hypergraph &h, double memLimit,
                                        HypergraphPartitioner &partitioner, int maxParts = 127);

} // namespace mlir::tc

#endif // TC_ANALYSIS_DISKSCHEDULE_H
