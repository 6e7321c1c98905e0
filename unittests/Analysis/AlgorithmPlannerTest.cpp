//===- AlgorithmPlannerTest.cpp - the registry of algorithm searches ------===//
#include "TC/Analysis/AlgorithmPlanner.h"

#include "TestMachine.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mlir::tc;

namespace {

const ParallelAlgorithm kAll[] = {
    ParallelAlgorithm::Rotation, ParallelAlgorithm::ReplicationA,
    ParallelAlgorithm::ReplicationB, ParallelAlgorithm::Accumulation,
    ParallelAlgorithm::Cosma, ParallelAlgorithm::Pumma, ParallelAlgorithm::Batch};

} // namespace

TEST(AlgorithmPlanner, EveryAlgorithmHasOneSearch) {
  std::map<ParallelAlgorithm, int> owners;
  for (const AlgorithmPlanner *planner : algorithmPlanners())
    for (ParallelAlgorithm a : planner->algorithms())
      ++owners[a];
  for (ParallelAlgorithm a : kAll)
    EXPECT_EQ(owners[a], 1) << toString(a);
  EXPECT_EQ(owners.size(), std::size(kAll));
}

// A fixed algorithm is that algorithm's search alone: every candidate is of
// it, and its search on its own finds the same candidates.
TEST(AlgorithmPlanner, FixedAlgorithmAsksOnlyItsSearch) {
  const ContractionProblem matmul{{"i", "k"}, {"k", "j"}, {"i", "j"},
                                  {{"i", 96}, {"j", 80}, {"k", 64}}, {}, {}, {}};
  const ContractionProblem batched{{"b", "i", "k"}, {"b", "k", "j"}, {"b", "i", "j"},
                                   {{"b", 8}, {"i", 24}, {"j", 20}, {"k", 16}}, {}, {}, {}};
  const MachineModel m = test::machine(4, 1e9);
  for (ParallelAlgorithm a : kAll) {
    const ContractionProblem &problem = a == ParallelAlgorithm::Batch ? batched : matmul;
    PlanDecisions d;
    d.algorithm = a;
    PlanResult r = planContraction(problem, m, d);
    ASSERT_TRUE(r.error.empty()) << toString(a) << ": " << r.error;
    for (const ContractionPlan &c : r.candidates)
      EXPECT_EQ(c.algorithm, a);

    MacroIndicesOrError macro = macroIndicesOf(problem);
    ASSERT_TRUE(macro);
    std::vector<std::string> remarks;
    PlanningContext ctx{problem, m, macro.value, d, PlanOptions{}, remarks};
    std::vector<ContractionPlan> own;
    for (const AlgorithmPlanner *planner : algorithmPlanners()) {
      std::vector<ParallelAlgorithm> mine = planner->algorithms();
      if (std::find(mine.begin(), mine.end(), a) != mine.end())
        planner->addCandidates(ctx, own);
    }
    ASSERT_EQ(own.size(), r.candidates.size()) << toString(a);
    for (size_t i = 0; i < own.size(); ++i)
      EXPECT_DOUBLE_EQ(own[i].totalSeconds(), r.candidates[i].totalSeconds());
  }
}

// Batch labels have no place in COSMA's or PUMMA's schedules: each says so.
TEST(AlgorithmPlanner, MatrixAlgorithmsSkipBatchLabels) {
  const ContractionProblem batched{{"b", "i", "k"}, {"b", "k", "j"}, {"b", "i", "j"},
                                   {{"b", 8}, {"i", 24}, {"j", 20}, {"k", 16}}, {}, {}, {}};
  PlanResult r = planContraction(batched, test::machine(4, 1e9));
  ASSERT_TRUE(r.error.empty()) << r.error;
  std::set<std::string> skipped;
  for (const std::string &remark : r.remarks)
    if (remark.find("batch labels {b}") != std::string::npos)
      skipped.insert(remark.substr(0, remark.find(' ')));
  EXPECT_EQ(skipped, (std::set<std::string>{"cosma", "pumma"}));
}
