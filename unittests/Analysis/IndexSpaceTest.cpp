//===- IndexSpaceTest.cpp - labels, extents, roles ------------------------===//
#include "TC/Analysis/IndexSpace.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {
LabeledShape shape(std::vector<std::string> labels, std::vector<int64_t> extents) {
  return LabeledShape{std::move(labels), std::move(extents)};
}
} // namespace

TEST(IndexSpace, GaoExample21) {
  // C(a,b,c,d) = sum_{m,n} A(a,b,m,n) * B(c,d,m,n)   (Gao et al. eq. 2.1)
  IndexSpaceOrError r = buildIndexSpace(
      {shape({"a", "b", "m", "n"}, {2, 3, 4, 5}), shape({"c", "d", "m", "n"}, {6, 7, 4, 5})},
      shape({"a", "b", "c", "d"}, {2, 3, 6, 7}));
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.space->labels, (std::vector<std::string>{"a", "b", "c", "d", "m", "n"}));
  EXPECT_EQ(r.space->summed, (std::vector<std::string>{"m", "n"}));
  EXPECT_EQ(r.space->extent("d"), 7);
  EXPECT_EQ(r.space->volume({"m", "n"}), 20);
  EXPECT_EQ(r.space->volume({}), 1);
}

TEST(IndexSpace, ScalarResultSumsEverything) {
  IndexSpaceOrError r = buildIndexSpace({shape({"i", "j"}, {3, 4})}, shape({}, {}));
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.space->summed, (std::vector<std::string>{"i", "j"}));
}

TEST(IndexSpace, RankMismatch) {
  IndexSpaceOrError r =
      buildIndexSpace({shape({"a", "b"}, {2, 3, 4})}, shape({"a"}, {2}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "input #0 has 2 labels for a rank-3 tensor");
}

TEST(IndexSpace, ExtentConflictNamesBothOperands) {
  IndexSpaceOrError r = buildIndexSpace(
      {shape({"i", "k"}, {4, 6}), shape({"k", "j"}, {5, 3})}, shape({"i", "j"}, {4, 3}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "label 'k' has extent 6 in input #0 but 5 in input #1");
}

TEST(IndexSpace, ResultExtentConflict) {
  IndexSpaceOrError r = buildIndexSpace({shape({"i"}, {4})}, shape({"i"}, {5}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "label 'i' has extent 5 in the result but 4 in input #0");
}

TEST(IndexSpace, RepeatedLabel) {
  IndexSpaceOrError r = buildIndexSpace({shape({"i", "i"}, {4, 4})}, shape({}, {}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "label 'i' appears twice in input #0");
}

TEST(IndexSpace, ResultLabelWithoutInput) {
  IndexSpaceOrError r = buildIndexSpace({shape({"i"}, {4})}, shape({"i", "z"}, {4, 2}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "result label 'z' appears in no input");
}

TEST(IndexSpace, DynamicExtentRejected) {
  IndexSpaceOrError r =
      buildIndexSpace({shape({"i", "j"}, {4, kDynamicExtent})}, shape({"i"}, {4}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "input #0 dimension 1 (label 'j') is dynamic; tc needs static extents");
}

TEST(IndexSpace, LabelsMustBeIdentifiers) {
  EXPECT_TRUE(isValidLabel("mu_2"));
  EXPECT_TRUE(isValidLabel("_x"));
  EXPECT_FALSE(isValidLabel(""));
  EXPECT_FALSE(isValidLabel("2a"));
  EXPECT_FALSE(isValidLabel("*"));
  EXPECT_FALSE(isValidLabel("a.b"));
  IndexSpaceOrError r = buildIndexSpace({shape({"a", "*"}, {4, 4})}, shape({"a"}, {4}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "input #0 dimension 1 has label '*', which is not an identifier");
}

TEST(IndexSpace, ClassifyBinaryRoles) {
  // C[a,b,c,d] += A[a,m,b,n,x] * B[n,c,m,d,y,b]: I = {a}, J = {c,d}, K = {m,n},
  // batch = {b}, x summed in A alone, y in B alone.
  std::map<std::string, IndexRole> roles = classifyBinary(
      {"a", "m", "b", "n", "x"}, {"n", "c", "m", "d", "y", "b"}, {"a", "b", "c", "d"});
  EXPECT_EQ(roles.at("a"), IndexRole::I);
  EXPECT_EQ(roles.at("c"), IndexRole::J);
  EXPECT_EQ(roles.at("d"), IndexRole::J);
  EXPECT_EQ(roles.at("m"), IndexRole::K);
  EXPECT_EQ(roles.at("n"), IndexRole::K);
  EXPECT_EQ(roles.at("b"), IndexRole::Batch);
  EXPECT_EQ(roles.at("x"), IndexRole::SumA);
  EXPECT_EQ(roles.at("y"), IndexRole::SumB);
  EXPECT_EQ(roles.size(), 8u);
  EXPECT_STREQ(toString(IndexRole::SumB), "sum-B");
}
