//===- DiskSchedule.cpp - out-of-core stages of a task pool ---------------===//
#include "TC/Analysis/DiskSchedule.h"

#include <algorithm>
#include <functional>

using namespace mlir::tc;

namespace {

double costOf(const Hypergraph &h, const std::vector<int> &nets) {
  double bytes = 0;
  for (int j : nets)
    bytes += h.netCost[j];
  return bytes;
}

/// The nets of `h` with a pin in `tasks`.
std::vector<int> netsTouched(const Hypergraph &h, const std::vector<int> &tasks) {
  std::vector<int> netOf;
  subHypergraph(h, tasks, &netOf);
  return netOf;
}

/// Splits `tasks` in two with the partitioner (cut-net, net-cost balance);
/// a partitioner that leaves a side empty gets the halves of the list, so the
/// recursion always progresses.
bool bisect(const Hypergraph &h, const std::vector<int> &tasks,
            HypergraphPartitioner &partitioner, std::vector<int> &first,
            std::vector<int> &second, std::string &error) {
  PartitionRequest request;
  request.parts = 2;
  request.metric = CutMetric::CutNet;
  request.balanceNetCost = true;
  std::vector<int> part = partitioner.partition(subHypergraph(h, tasks), request);
  if (part.size() != tasks.size()) {
    error = "the hypergraph partitioner failed: " + partitioner.error();
    return false;
  }
  first.clear();
  second.clear();
  for (size_t i = 0; i < tasks.size(); ++i)
    (part[i] == 0 ? first : second).push_back(tasks[i]);
  if (first.empty() || second.empty()) {
    first.assign(tasks.begin(), tasks.begin() + tasks.size() / 2);
    second.assign(tasks.begin() + tasks.size() / 2, tasks.end());
  }
  return true;
}

/// The recursion of [K] 6.1 and 6.3: `fits` makes a stage of a part, or none.
void bisectInto(const Hypergraph &h, const std::vector<int> &tasks, double memLimit,
                HypergraphPartitioner &partitioner,
                const std::function<std::optional<DiskStage>(const std::vector<int> &)> &fits,
                DiskSchedule &out) {
  if (!out.error.empty())
    return;
  if (std::optional<DiskStage> stage = fits(tasks)) {
    out.stages.push_back(std::move(*stage));
    return;
  }
  if (tasks.size() == 1) {
    out.error = "task " + std::to_string(tasks.front()) + " touches " +
                std::to_string(static_cast<long long>(memoryOf(h, tasks))) +
                " bytes of bricks, more than the memory of " +
                std::to_string(static_cast<long long>(memLimit)) + " bytes";
    return;
  }
  std::vector<int> first, second;
  if (!bisect(h, tasks, partitioner, first, second, out.error))
    return;
  bisectInto(h, first, memLimit, partitioner, fits, out);
  bisectInto(h, second, memLimit, partitioner, fits, out);
}

std::vector<int> allTasks(const Hypergraph &h) {
  std::vector<int> tasks(h.numVertices());
  for (int v = 0; v < h.numVertices(); ++v)
    tasks[v] = v;
  return tasks;
}

} // namespace

double DiskStage::io(const Hypergraph &h) const {
  double bytes = costOf(h, shared);
  for (const std::vector<int> &own : local)
    bytes += costOf(h, own);
  return bytes;
}

double DiskStage::peakMemory(const Hypergraph &h) const {
  double largest = 0;
  for (const std::vector<int> &own : local)
    largest = std::max(largest, costOf(h, own));
  return costOf(h, shared) + largest;
}

const char *mlir::tc::toString(BlockSchedule kind) {
  switch (kind) {
  case BlockSchedule::OneLevel:
    return "one-level";
  case BlockSchedule::TwoLevel:
    return "two-level";
  case BlockSchedule::InOrder:
    return "in-order";
  }
  return "?";
}

double DiskSchedule::io(const Hypergraph &h) const {
  double bytes = 0;
  for (const DiskStage &s : stages)
    bytes += s.io(h);
  return bytes;
}

double DiskSchedule::peakMemory(const Hypergraph &h) const {
  double peak = 0;
  for (const DiskStage &s : stages)
    peak = std::max(peak, s.peakMemory(h));
  return peak;
}

DiskStage mlir::tc::singleStepStage(const Hypergraph &h, const std::vector<int> &tasks) {
  DiskStage stage;
  stage.steps.push_back(tasks);
  stage.local.push_back(netsTouched(h, tasks));
  return stage;
}

std::optional<DiskStage> mlir::tc::readOnceStage(const Hypergraph &h,
                                                 const std::vector<int> &tasks, double memLimit,
                                                 HypergraphPartitioner &partitioner,
                                                 int maxParts) {
  if (memoryOf(h, tasks) <= memLimit)
    return singleStepStage(h, tasks);
  std::vector<int> netOf;
  Hypergraph sub = subHypergraph(h, tasks, &netOf);
  const int most = std::min<int>(maxParts, static_cast<int>(tasks.size()));
  for (int parts = 2; parts <= most; ++parts) {
    PartitionRequest request;
    request.parts = parts;
    request.metric = CutMetric::CutNet;
    request.balanceNetCost = true;
    std::vector<int> part = partitioner.partition(sub, request);
    if (part.size() != tasks.size())
      return std::nullopt;
    PartitionMetrics m = measurePartition(sub, part, parts);
    if (m.cutNet + *std::max_element(m.internalCost.begin(), m.internalCost.end()) > memLimit)
      continue;
    // Steps in part order; parts left empty are no step.
    DiskStage stage;
    std::vector<int> stepOfPart(parts, -1);
    for (int p : part)
      stepOfPart[p] = 0;
    int steps = 0;
    for (int &step : stepOfPart)
      if (step == 0)
        step = steps++;
    stage.steps.resize(steps);
    stage.local.resize(steps);
    for (size_t i = 0; i < tasks.size(); ++i)
      stage.steps[stepOfPart[part[i]]].push_back(tasks[i]);
    for (int j = 0; j < sub.numNets(); ++j) {
      if (m.connectivity[j] > 1)
        stage.shared.push_back(netOf[j]);
      else
        stage.local[stepOfPart[part[sub.netPins[j].front()]]].push_back(netOf[j]);
    }
    return stage;
  }
  return std::nullopt;
}

DiskSchedule mlir::tc::oneLevelSchedule(const Hypergraph &h, double memLimit,
                                        HypergraphPartitioner &partitioner) {
  DiskSchedule schedule;
  schedule.kind = BlockSchedule::OneLevel;
  bisectInto(h, allTasks(h), memLimit, partitioner,
             [&](const std::vector<int> &tasks) -> std::optional<DiskStage> {
               if (memoryOf(h, tasks) <= memLimit)
                 return singleStepStage(h, tasks);
               return std::nullopt;
             },
             schedule);
  if (!schedule.error.empty())
    schedule.stages.clear();
  return schedule;
}

DiskSchedule mlir::tc::twoLevelSchedule(const Hypergraph &h, double memLimit,
                                        HypergraphPartitioner &partitioner, int maxParts) {
  DiskSchedule schedule;
  schedule.kind = BlockSchedule::TwoLevel;
  bisectInto(h, allTasks(h), memLimit, partitioner,
             [&](const std::vector<int> &tasks) {
               return readOnceStage(h, tasks, memLimit, partitioner, maxParts);
             },
             schedule);
  if (!schedule.error.empty())
    schedule.stages.clear();
  return schedule;
}

DiskSchedule mlir::tc::inOrderSchedule(const Hypergraph &h, double memLimit) {
  DiskSchedule schedule;
  schedule.kind = BlockSchedule::InOrder;
  std::vector<int> stage;
  auto close = [&] {
    if (!stage.empty())
      schedule.stages.push_back(singleStepStage(h, stage));
    stage.clear();
  };
  for (int t = 0; t < h.numVertices(); ++t) {
    if (memoryOf(h, {t}) > memLimit) {
      schedule.error = "task " + std::to_string(t) + " touches " +
                       std::to_string(static_cast<long long>(memoryOf(h, {t}))) +
                       " bytes of bricks, more than the memory of " +
                       std::to_string(static_cast<long long>(memLimit)) + " bytes";
      schedule.stages.clear();
      return schedule;
    }
    stage.push_back(t);
    if (memoryOf(h, stage) > memLimit) {
      stage.pop_back();
      close();
      stage.push_back(t);
    }
  }
  close();
  return schedule;
}

std::vector<DiskSchedule> mlir::tc::diskSchedules(const Hypergraph &h, double memLimit,
                                                  HypergraphPartitioner &partitioner,
                                                  int maxParts) {
  std::vector<DiskSchedule> all = {oneLevelSchedule(h, memLimit, partitioner),
                                   twoLevelSchedule(h, memLimit, partitioner, maxParts)};
  std::stable_sort(all.begin(), all.end(), [&](const DiskSchedule &x, const DiskSchedule &y) {
    if (x.error.empty() != y.error.empty())
      return x.error.empty();
    if (x.io(h) != y.io(h))
      return x.io(h) < y.io(h);
    return x.peakMemory(h) < y.peakMemory(h);
  });
  return all;
}
