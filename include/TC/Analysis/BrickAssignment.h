//===- BrickAssignment.h - tasks and bricks to processes, in memory -*- C++ -*-===//
//
// Krishnamoorthy et al. section 5 ([K] 5): with every brick in (aggregate)
// memory, a process fetches each remote brick its tasks read once and sends
// each remote brick its tasks accumulate into once (its partial sum), so its
// communication is the bytes of the distinct remote bricks its tasks touch.
// Summed over bricks that is the connectivity-1 metric of the hypergraph with
// a vertex per task (weight: flops), a vertex per brick (weight 0) and a net
// per brick joining them: partitioning it under a flop balance assigns tasks,
// and bricks too unless their owners are given (then their vertices are fixed).
// docs/Derivations.md D33.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_BRICKASSIGNMENT_H
#define TC_ANALYSIS_BRICKASSIGNMENT_H

#include "TC/Analysis/TaskHypergraph.h"

#include <string>
#include <vector>

namespace mlir::tc {

struct BrickAssignment {
  std::vector<int> taskRank;   ///< the process running each task
  std::vector<int> brickOwner; ///< the process holding each brick
  /// Per process: bytes received (remote A and B bricks its tasks read, and
  /// partial sums of its C bricks computed elsewhere) and sent (its A and B
  /// bricks read elsewhere, its partial sums of remote C bricks).
  std::vector<double> received, sent;
  std::vector<double> flops; ///< per process
  double connectivityMinusOne = 0;
  std::string error;
};

/// The [K] 5 hypergraph of `pool`: vertices 0..T-1 the tasks, T..T+B-1 the
/// bricks; net j joins brick j's vertex and its tasks.
Hypergraph taskDataHypergraph(const BlockTaskPool &pool);

/// The traffic of a given assignment (what the runtime moves).
void measureAssignment(const BlockTaskPool &pool, int procs, BrickAssignment &a);

/// Assigns the tasks (and the bricks, when `owners` is empty) of `pool` to
/// `procs` processes, minimizing connectivity-1 within a flop imbalance.
BrickAssignment assignBricks(const BlockTaskPool &pool, int procs,
                             const std::vector<int> &owners, HypergraphPartitioner &partitioner,
                             double imbalance = 0.05);

/// The locality-oblivious baseline ([K] 5.2's NextTask, 6.4's GetNext): each
/// task in pool order to the process with the fewest flops so far (what a
/// shared task counter gives processes of equal speed), bricks dealt to homes
/// round-robin unless `owners` gives them.
BrickAssignment nextTaskAssignment(const BlockTaskPool &pool, int procs,
                                   const std::vector<int> &owners = {});

} // namespace mlir::tc

#endif // TC_ANALYSIS_BRICKASSIGNMENT_H
