//===- TreeLabelsTest.cpp - one name per loop of an operator tree ---------===//
#include "TC/Analysis/TreeLabels.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {

using Names = std::map<std::string, std::string>;

TEST(TreeLabels, ConsistentTreeKeepsItsNames) {
  // T[i,k] = A[i,j] * B[j,k]; R[i,l] = T[i,k] * C[k,l]
  std::vector<WrittenFormula> f = {
      {{"i", "k"}, {{"i", "j"}, {"j", "k"}}, {-1, -1}},
      {{"i", "l"}, {{"i", "k"}, {"k", "l"}}, {0, -1}},
  };
  auto names = unifyTreeLabels(f);
  EXPECT_EQ(names[0], (Names{{"i", "i"}, {"j", "j"}, {"k", "k"}}));
  EXPECT_EQ(names[1], (Names{{"i", "i"}, {"k", "k"}, {"l", "l"}}));
}

TEST(TreeLabels, IntermediateReadUnderAnotherNameTakesTheReadersName) {
  // X2[i] = X1[b,i] * A[i]; O[a] = B[a,j,i] * X2[j]: X2's i is the root's j,
  // and the root's summed i is another loop.
  std::vector<WrittenFormula> f = {
      {{"i"}, {{"b", "i"}, {"i"}}, {-1, -1}},
      {{"a"}, {{"a", "j", "i"}, {"j"}}, {-1, 0}},
  };
  auto names = unifyTreeLabels(f);
  EXPECT_EQ(names[1], (Names{{"a", "a"}, {"i", "i"}, {"j", "j"}}));
  EXPECT_EQ(names[0], (Names{{"b", "b"}, {"i", "j"}}));
}

TEST(TreeLabels, UnrelatedLoopsOfOneNameAreSeparated) {
  // T[i] = A[i,k] * B[k]; R[a] = C[a,i,k] * T[i]: the two k are two loops.
  std::vector<WrittenFormula> f = {
      {{"i"}, {{"i", "k"}, {"k"}}, {-1, -1}},
      {{"a"}, {{"a", "i", "k"}, {"i"}}, {-1, 0}},
  };
  auto names = unifyTreeLabels(f);
  EXPECT_EQ(names[1], (Names{{"a", "a"}, {"i", "i"}, {"k", "k"}}));
  EXPECT_EQ(names[0].at("i"), "i");
  EXPECT_NE(names[0].at("k"), "k");
  EXPECT_EQ(names[0].at("k"), "k2");
}

TEST(TreeLabels, TwoIntermediatesJoinedByTheirReader) {
  // T1[p] = A[p,q]; T2[x] = B[x,y]; R[m] = T1[m] * T2[m]: p and x are R's m.
  std::vector<WrittenFormula> f = {
      {{"p"}, {{"p", "q"}}, {-1}},
      {{"x"}, {{"x", "y"}}, {-1}},
      {{"m"}, {{"m"}, {"m"}}, {0, 1}},
  };
  auto names = unifyTreeLabels(f);
  EXPECT_EQ(names[0].at("p"), "m");
  EXPECT_EQ(names[1].at("x"), "m");
  EXPECT_EQ(names[0].at("q"), "q");
  EXPECT_EQ(names[1].at("y"), "y");
}

TEST(TreeLabels, NewNamesAvoidEveryWrittenLabel) {
  // The producer's summed k clashes with the root's k; k2 is written in the
  // root too, so the new name is k3.
  std::vector<WrittenFormula> f = {
      {{"i"}, {{"i", "k"}}, {-1}},
      {{"a"}, {{"a", "k", "k2"}, {"k2"}}, {-1, 0}},
  };
  auto names = unifyTreeLabels(f);
  EXPECT_EQ(names[0].at("i"), "k2");
  EXPECT_EQ(names[0].at("k"), "k3");
}

} // namespace
