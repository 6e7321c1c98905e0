//===- ProgramPartitionTest.cpp - a program's statements ------------------===//
#include "TC/Analysis/ProgramPartition.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {

/// Leaves A=0, B=1, C=2, D=3 (and constants after them); formula f is value 4 + f.
ProgramGraph graph(std::vector<ProgramFormula> formulas, std::vector<int> returned,
                   std::vector<bool> constants = {false, false, false, false}) {
  ProgramGraph g;
  g.numLeaves = static_cast<int>(constants.size());
  g.constantLeaf = constants;
  g.formulas = std::move(formulas);
  g.returned = std::move(returned);
  return g;
}

std::vector<std::vector<int>> formulasOf(const ProgramPartition &p) {
  std::vector<std::vector<int>> out;
  for (const ProgramStatement &s : p.statements)
    out.push_back(s.formulas);
  return out;
}

TEST(ProgramPartition, AnOperatorTreeIsOneStatement) {
  // T = A * B; R = T * C (Cociorva et al.'s trees): nothing to cut.
  ProgramPartition p = partitionProgram(graph({{{0, 1}}, {{4, 2}}}, {5}));
  ASSERT_TRUE(p.error.empty());
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0, 1}}));
  EXPECT_EQ(p.statements[0].leaves, (std::vector<int>{0, 1, 2}));
}

TEST(ProgramPartition, ASharedIntermediateIsItsOwnStatement) {
  // X = A * B read by Y = X * C and Z = X * D; both returned.
  ProgramPartition p = partitionProgram(graph({{{0, 1}}, {{4, 2}}, {{4, 3}}}, {5, 6}));
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0}, {1}, {2}}));
  EXPECT_EQ(p.statements[1].leaves, (std::vector<int>{4, 2}));
  EXPECT_EQ(p.statements[2].leaves, (std::vector<int>{4, 3}));
}

TEST(ProgramPartition, AccumulationsRunAlone) {
  // R1 = (A * B) * C is a tree; R2 = R1 + (C * D) * A accumulates, so its
  // product's intermediate C * D is a statement of its own.
  ProgramPartition p =
      partitionProgram(graph({{{0, 1}}, {{4, 2}}, {{2, 3}}, {{6, 0}, /*init=*/5}}, {7}));
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0, 1}, {2}, {3}}));
  EXPECT_EQ(p.statements[2].leaves, (std::vector<int>{6, 0, 5}));
}

TEST(ProgramPartition, ProductsWithOnesRunAlone) {
  // X = A * B; R = X * 1 (a one-tensor term): X is cut from R's statement.
  ProgramPartition p =
      partitionProgram(graph({{{0, 1}}, {{5, 4}}}, {6}, {false, false, false, false, true}));
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0}, {1}}));
  EXPECT_EQ(p.statements[1].leaves, (std::vector<int>{5, 4}));
}

TEST(ProgramPartition, SingleFormulasRunAlone) {
  // The tree T = A * B; R = T * C, but block-sparse (single): two statements.
  ProgramFormula t{{0, 1}, -1, /*single=*/true}, r{{4, 2}, -1, /*single=*/true};
  ProgramPartition p = partitionProgram(graph({t, r}, {5}));
  ASSERT_TRUE(p.error.empty());
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0}, {1}}));
  EXPECT_EQ(p.statements[1].leaves, (std::vector<int>{4, 2}));
}

TEST(ProgramPartition, ATreeReadingAValueTwiceIsCut) {
  // T = A * B; R = T * A: an operator tree reads each array once.
  ProgramPartition p = partitionProgram(graph({{{0, 1}}, {{4, 0}}}, {5}));
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0}, {1}}));
  // A single formula may read a value twice (C += C * B reads C twice: one leaf).
  ProgramPartition q = partitionProgram(graph({{{0, 0}}}, {4}));
  EXPECT_EQ(formulasOf(q), (std::vector<std::vector<int>>{{0}}));
  EXPECT_EQ(q.statements[0].leaves, (std::vector<int>{0}));
}

TEST(ProgramPartition, UnusedValuesAreStatementsToo) {
  // X = A * B is read by nobody; R = C * D is returned.
  ProgramPartition p = partitionProgram(graph({{{0, 1}}, {{2, 3}}}, {5}));
  EXPECT_EQ(formulasOf(p), (std::vector<std::vector<int>>{{0}, {1}}));
}

TEST(ProgramPartition, ReturningAnInputIsRefused) {
  ProgramPartition p = partitionProgram(graph({{{0, 1}}}, {4, 2}));
  EXPECT_NE(p.error.find("input #2"), std::string::npos) << p.error;
}

} // namespace
