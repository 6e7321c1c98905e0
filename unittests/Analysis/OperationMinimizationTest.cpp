//===- OperationMinimizationTest.cpp - cheapest binary trees of products -===//
#include "TC/Analysis/OperationMinimization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace mlir::tc;

namespace {

TEST(OperationMinimization, CociorvasRunningExampleCostsSixNToTheSixth) {
  // S[a,b,i,j] = sum_{c,d,e,f,k,l} A[a,c,i,k] B[b,e,f,l] C[d,f,j,k] D[c,d,e,l]
  // (Cociorva et al. section 2): labels a b c d e f i j k l = 0..9, all N.
  const double N = 10;
  ProductProblem p{{{0, 2, 6, 8}, {1, 4, 5, 9}, {3, 5, 7, 8}, {2, 3, 4, 9}},
                   {0, 1, 6, 7},
                   std::vector<double>(10, N)};
  EXPECT_EQ(directFlops(p), 4 * std::pow(N, 10));
  ProductTree t = minimizeOperations(p);
  ASSERT_TRUE(t.error.empty());
  ASSERT_EQ(t.steps.size(), 3u);
  // Three contractions of 2 N^6 flops each; no intermediate above N^4.
  EXPECT_EQ(t.flops, 6 * std::pow(N, 6));
  EXPECT_EQ(t.largestIntermediate, std::pow(N, 4));
  for (const ProductStep &s : t.steps)
    EXPECT_EQ(s.flops, 2 * std::pow(N, 6));
  // The first step pairs B and D (the only pair sharing three labels... two
  // summed ones, e and l): T1[b,c,d,f].
  const ProductStep &first = t.steps.front();
  EXPECT_EQ(std::min(first.lhs, first.rhs), 1);
  EXPECT_EQ(std::max(first.lhs, first.rhs), 3);
  EXPECT_EQ(first.labels, (std::vector<int>{1, 2, 3, 5}));
  // The last step produces the result in its order.
  EXPECT_EQ(t.steps.back().labels, p.result);
  EXPECT_EQ(t.steps.back().lhs + t.steps.back().rhs, 0 + 5); // A and the second step
}

TEST(OperationMinimization, NearTiesPreferTheSmallerIntermediate) {
  // A[i,j] B[j,k] C[k,l] with i=2, j=3, k=10, l=4: (AB)C costs 280 flops with a
  // 20-element intermediate, A(BC) 288 (2.9% more) with 12 elements.
  ProductProblem p{{{0, 1}, {1, 2}, {2, 3}}, {0, 3}, {2, 3, 10, 4}};
  ProductTree exact = minimizeOperations(p, 0.02);
  EXPECT_EQ(exact.flops, 280);
  EXPECT_EQ(exact.largestIntermediate, 20);
  ProductTree lenient = minimizeOperations(p, 0.05);
  EXPECT_EQ(lenient.flops, 288);
  EXPECT_EQ(lenient.largestIntermediate, 12);
  EXPECT_EQ(lenient.steps.front().labels, (std::vector<int>{1, 3})); // (BC)[j,l]
}

TEST(OperationMinimization, TwoOperandsAreOneStepAndOneIsAnError) {
  ProductProblem p{{{0, 1}, {1, 2}}, {0, 2}, {4, 5, 6}};
  ProductTree t = minimizeOperations(p);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.flops, 2 * 4 * 5 * 6);
  EXPECT_EQ(t.flops, directFlops(p));
  EXPECT_EQ(t.largestIntermediate, 0);
  ProductProblem one{{{0}}, {0}, {4}};
  EXPECT_FALSE(minimizeOperations(one).error.empty());
}

TEST(OperationMinimization, EightOperandsAreSearchedExactly) {
  // A chain of 8 matrices with alternating extents: the search visits every
  // split of every subset; the best tree never costs more than left to right.
  std::vector<double> ext = {30, 5, 40, 2, 50, 10, 20, 3, 60};
  ProductProblem p;
  p.extents = ext;
  for (int i = 0; i < 8; ++i)
    p.operands.push_back({i, i + 1});
  p.result = {0, 8};
  ProductTree t = minimizeOperations(p);
  ASSERT_TRUE(t.error.empty());
  EXPECT_EQ(t.steps.size(), 7u);
  double leftToRight = 0;
  for (int i = 1; i < 8; ++i)
    leftToRight += 2 * ext[0] * ext[i] * ext[i + 1];
  EXPECT_LE(t.flops, leftToRight);
  // The classic matrix-chain recurrence gives the same optimum.
  std::vector<std::vector<double>> m(8, std::vector<double>(8, 0));
  for (int len = 2; len <= 8; ++len)
    for (int i = 0; i + len <= 8; ++i) {
      int j = i + len - 1;
      m[i][j] = 1e300;
      for (int k = i; k < j; ++k)
        m[i][j] = std::min(m[i][j], m[i][k] + m[k + 1][j] + 2 * ext[i] * ext[k + 1] * ext[j + 1]);
    }
  EXPECT_EQ(t.flops, m[0][7]);
}

} // namespace
