//===- BrickCache.cpp - remote bricks kept across out-of-core stages ------===//
#include "TC/Analysis/BrickCache.h"

#include <algorithm>
#include <list>
#include <map>
#include <set>

using namespace mlir::tc;

int StagedSchedule::stages() const {
  return taskStage.empty() ? 1 : *std::max_element(taskStage.begin(), taskStage.end()) + 1;
}

namespace {

/// Per stage and process, the bricks its tasks touch.
std::vector<std::vector<std::set<int>>> touchedBy(const BlockTaskPool &pool,
                                                  const StagedSchedule &s) {
  std::vector<std::vector<std::set<int>>> touched(s.stages(),
                                                  std::vector<std::set<int>>(s.procs));
  for (size_t t = 0; t < pool.tasks.size(); ++t) {
    const int stage = s.taskStage.empty() ? 0 : s.taskStage[t];
    for (int brick : {pool.tasks[t].a, pool.tasks[t].b, pool.tasks[t].c})
      touched[stage][s.taskRank[t]].insert(brick);
  }
  return touched;
}

/// A process's LRU cache of remote bricks (most recent at the front).
struct Lru {
  double capacity = 0, used = 0;
  std::list<int> order;
  std::map<int, std::list<int>::iterator> where;

  bool hit(int brick) {
    auto it = where.find(brick);
    if (it == where.end())
      return false;
    order.splice(order.begin(), order, it->second);
    return true;
  }
  void insert(int brick, double bytes, const BlockTaskPool &pool) {
    if (bytes > capacity)
      return; // never fits: not kept
    order.push_front(brick);
    where[brick] = order.begin();
    used += bytes;
    while (used > capacity) {
      int old = order.back();
      order.pop_back();
      where.erase(old);
      used -= pool.bricks[old].bytes;
    }
  }
};

} // namespace

std::vector<double> mlir::tc::stageFootprint(const BlockTaskPool &pool, const StagedSchedule &s) {
  std::vector<double> peak(s.procs, 0);
  std::vector<std::vector<int>> tasksOf(s.stages());
  for (size_t t = 0; t < pool.tasks.size(); ++t)
    tasksOf[s.taskStage.empty() ? 0 : s.taskStage[t]].push_back(static_cast<int>(t));
  auto stepOf = [&](int t) { return s.taskStep.empty() ? 0 : s.taskStep[t]; };
  for (const std::vector<int> &tasks : tasksOf) {
    // [K] 6.2-6.3: a brick touched by several steps is held for the whole
    // stage (phase -1); one touched by a single step only during that step.
    std::map<int, std::set<int>> stepsOf;
    for (int t : tasks)
      for (int brick : {pool.tasks[t].a, pool.tasks[t].b, pool.tasks[t].c})
        stepsOf[brick].insert(stepOf(t));
    auto phaseOf = [&](int brick) {
      const std::set<int> &steps = stepsOf[brick];
      return steps.size() > 1 ? -1 : *steps.begin();
    };
    std::vector<std::map<int, double>> bytes(s.procs); // process -> phase -> bytes
    std::set<std::pair<int, int>> remote;              // (brick, process)
    for (int t : tasks) {
      const int p = s.taskRank[t];
      for (int brick : {pool.tasks[t].a, pool.tasks[t].b, pool.tasks[t].c})
        if (s.brickOwner[brick] != p && remote.insert({brick, p}).second)
          bytes[p][phaseOf(brick)] += pool.bricks[brick].bytes;
    }
    for (const auto &[brick, steps] : stepsOf)
      bytes[s.brickOwner[brick]][phaseOf(brick)] += pool.bricks[brick].bytes;
    for (int p = 0; p < s.procs; ++p) {
      double shared = 0, step = 0;
      for (const auto &[phase, b] : bytes[p]) {
        if (phase < 0)
          shared = b;
        else
          step = std::max(step, b);
      }
      peak[p] = std::max(peak[p], shared + step);
    }
  }
  return peak;
}

CachedTraffic mlir::tc::cachedTraffic(const BlockTaskPool &pool, const StagedSchedule &s,
                                      const std::vector<double> &cacheBytes) {
  CachedTraffic out;
  out.received.assign(s.procs, 0);
  out.sent.assign(s.procs, 0);
  std::vector<Lru> cache(s.procs);
  for (int p = 0; p < s.procs; ++p)
    cache[p].capacity = p < static_cast<int>(cacheBytes.size()) ? cacheBytes[p] : 0;
  std::vector<std::vector<std::set<int>>> touched = touchedBy(pool, s);
  for (size_t stage = 0; stage < touched.size(); ++stage)
    for (int p = 0; p < s.procs; ++p)
      for (int brick : touched[stage][p]) {
        const int home = s.brickOwner[brick];
        if (home == p)
          continue;
        const double bytes = pool.bricks[brick].bytes;
        if (pool.bricks[brick].tensor == Operand::C) { // a partial sum to its home
          out.sent[p] += bytes;
          out.received[home] += bytes;
          continue;
        }
        if (cache[p].hit(brick)) {
          out.hits.push_back({static_cast<int>(stage), brick, p});
          out.hitBytes += bytes;
          continue;
        }
        out.received[p] += bytes;
        out.sent[home] += bytes;
        cache[p].insert(brick, bytes, pool);
      }
  return out;
}
