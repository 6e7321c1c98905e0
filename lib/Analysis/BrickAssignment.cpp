//===- BrickAssignment.cpp - tasks and bricks to processes, in memory -----===//
#include "TC/Analysis/BrickAssignment.h"

#include <algorithm>
#include <set>

using namespace mlir::tc;

Hypergraph mlir::tc::taskDataHypergraph(const BlockTaskPool &pool) {
  Hypergraph h = taskBrickHypergraph(pool);
  const int tasks = static_cast<int>(pool.tasks.size());
  for (int j = 0; j < h.numNets(); ++j) {
    h.vertexWeight.push_back(0);
    h.netPins[j].push_back(tasks + j); // brick vertices follow the tasks
  }
  return h;
}

void mlir::tc::measureAssignment(const BlockTaskPool &pool, int procs, BrickAssignment &a) {
  a.received.assign(procs, 0);
  a.sent.assign(procs, 0);
  a.flops.assign(procs, 0);
  a.connectivityMinusOne = 0;
  std::vector<std::set<int>> users(pool.bricks.size());
  for (size_t t = 0; t < pool.tasks.size(); ++t) {
    const BlockTask &task = pool.tasks[t];
    a.flops[a.taskRank[t]] += task.flops;
    for (int brick : {task.a, task.b, task.c})
      users[brick].insert(a.taskRank[t]);
  }
  for (size_t j = 0; j < pool.bricks.size(); ++j) {
    const int owner = a.brickOwner[j];
    const double bytes = pool.bricks[j].bytes;
    for (int rank : users[j]) {
      if (rank == owner)
        continue;
      a.connectivityMinusOne += bytes;
      // A and B travel to their readers; C's partial sums to its owner.
      const bool toOwner = pool.bricks[j].tensor == Operand::C;
      a.received[toOwner ? owner : rank] += bytes;
      a.sent[toOwner ? rank : owner] += bytes;
    }
  }
}

BrickAssignment mlir::tc::assignBricks(const BlockTaskPool &pool, int procs,
                                       const std::vector<int> &owners,
                                       HypergraphPartitioner &partitioner, double imbalance) {
  BrickAssignment a;
  const int tasks = static_cast<int>(pool.tasks.size());
  const int bricks = static_cast<int>(pool.bricks.size());
  if (!owners.empty() && static_cast<int>(owners.size()) != bricks) {
    a.error = "owners given for " + std::to_string(owners.size()) + " bricks of " +
              std::to_string(bricks);
    return a;
  }
  Hypergraph h = taskDataHypergraph(pool);
  PartitionRequest request;
  request.parts = procs;
  request.metric = CutMetric::Connectivity;
  request.imbalance = imbalance;
  if (!owners.empty()) {
    request.fixed.assign(tasks + bricks, -1);
    for (int j = 0; j < bricks; ++j)
      request.fixed[tasks + j] = owners[j];
  }
  std::vector<int> part = partitioner.partition(h, request);
  if (static_cast<int>(part.size()) != tasks + bricks) {
    a.error = "the hypergraph partitioner failed: " + partitioner.error();
    return a;
  }
  a.taskRank.assign(part.begin(), part.begin() + tasks);
  a.brickOwner.assign(part.begin() + tasks, part.end());
  measureAssignment(pool, procs, a);
  return a;
}

BrickAssignment mlir::tc::nextTaskAssignment(const BlockTaskPool &pool, int procs,
                                             const std::vector<int> &owners) {
  BrickAssignment a;
  if (!owners.empty() && owners.size() != pool.bricks.size()) {
    a.error = "owners given for " + std::to_string(owners.size()) + " bricks of " +
              std::to_string(pool.bricks.size());
    return a;
  }
  std::vector<double> load(procs, 0);
  for (const BlockTask &task : pool.tasks) {
    const int rank = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    a.taskRank.push_back(rank);
    load[rank] += task.flops;
  }
  for (size_t j = 0; j < pool.bricks.size(); ++j)
    a.brickOwner.push_back(owners.empty() ? static_cast<int>(j % procs) : owners[j]);
  measureAssignment(pool, procs, a);
  return a;
}
