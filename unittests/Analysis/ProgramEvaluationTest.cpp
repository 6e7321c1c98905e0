//===- ProgramEvaluationTest.cpp - programs evaluated on small arrays -----===//
#include "TC/Analysis/ProgramEvaluation.h"

#include <gtest/gtest.h>

#include <limits>

using namespace mlir::tc;

namespace {

TEST(ProgramEvaluation, ContractIsAMatrixProductWithScaleAndInit) {
  DenseArray a{{2, 3}, {1, 2, 3, 4, 5, 6}};
  DenseArray b{{3, 2}, {1, 0, 0, 1, 1, 1}};
  DenseArray c{{2, 2}, {10, 20, 30, 40}};
  DenseArray r = contract({&a, &b}, {{"i", "k"}, {"k", "j"}}, {"i", "j"}, {2, 2}, 2.0, &c);
  // A*B = [[4,5],[10,11]]
  EXPECT_EQ(r.data, (std::vector<double>{18, 30, 50, 62}));
}

TEST(ProgramEvaluation, TransposedResultAndOneInputLabelsSummed) {
  DenseArray a{{2, 3}, {1, 2, 3, 4, 5, 6}};
  DenseArray one{{}, {1.0}};
  // R[k] = sum_i A[i,k]; T[k,i] = A[i,k].
  EXPECT_EQ(contract({&a, &one}, {{"i", "k"}, {}}, {"k"}, {3}, 1.0, nullptr).data,
            (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(contract({&a, &one}, {{"i", "k"}, {}}, {"k", "i"}, {3, 2}, 1.0, nullptr).data,
            (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

/// X0 = D; X1 = X0 + C; X2 = X1 + X0 (the second term reads X's old value).
EvalFunction updates() {
  EvalFunction f;
  f.numArgs = 3; // D, C, ones
  f.formulas.push_back({{0, 2}, {{"a"}, {}}, {"a"}, {2}, 1.0, -1});
  f.formulas.push_back({{1, 2}, {{"a"}, {}}, {"a"}, {2}, 1.0, 3});
  f.formulas.push_back({{3, 2}, {{"a"}, {}}, {"a"}, {2}, 1.0, 4});
  f.returned = {5};
  return f;
}

TEST(ProgramEvaluation, StatementsInPlaceDifferFromValuesWhenAnOldValueIsReadLate) {
  DenseArray d{{2}, {1, 2}}, c{{2}, {10, 20}}, one{{}, {1.0}};
  std::vector<DenseArray> values = evaluate(updates(), {d, c, one});
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0].data, (std::vector<double>{12, 24})); // D + C + D

  // The same formulas as statements that store every value under "X": the
  // last reads X after the second stored X + C in place.
  auto single = [](EvalFormula x, int numArgs) {
    EvalFunction f;
    f.numArgs = numArgs;
    f.formulas = {x};
    f.returned = {numArgs};
    return f;
  };
  std::vector<EvalStatement> inPlace = {
      {{"D", ""}, single({{0, 1}, {{"a"}, {}}, {"a"}, {2}, 1.0, -1}, 2), "X", "s1"},
      {{"C", "", "X"}, single({{0, 1}, {{"a"}, {}}, {"a"}, {2}, 1.0, 2}, 3), "X", "s2"},
      {{"X", "", "X"}, single({{0, 1}, {{"a"}, {}}, {"a"}, {2}, 1.0, 2}, 3), "X", "s3"},
  };
  std::map<std::string, DenseArray> store = {{"D", d}, {"C", c}};
  EXPECT_EQ(runStatements(inPlace, store), "");
  EXPECT_EQ(store["X"].data, (std::vector<double>{22, 44})); // reads the new X
  EXPECT_GT(maxDifference(store["X"], values[0]), 1.0);

  // With a copy of the old X (tc-split-program's X~2) the two readings agree.
  std::vector<EvalStatement> copied = {
      inPlace[0],
      {{"X", ""}, single({{0, 1}, {{"a"}, {}}, {"a"}, {2}, 1.0, -1}, 2), "X~2", "copy"},
      inPlace[1],
      {{"X~2", "", "X"}, single({{0, 1}, {{"a"}, {}}, {"a"}, {2}, 1.0, 2}, 3), "X", "s3"},
  };
  store = {{"D", d}, {"C", c}};
  EXPECT_EQ(runStatements(copied, store), "");
  EXPECT_EQ(maxDifference(store["X"], values[0]), 0.0);
}

TEST(ProgramEvaluation, AnAccumulationReadsItsResultsTensorNotItsArgumentsName) {
  // The lowering reads C from the result's tensor: accumulating into "A" but
  // storing "Y" adds to Y's stored value.
  EvalFunction f;
  f.numArgs = 3;
  f.formulas = {{{1, 2}, {{"a"}, {}}, {"a"}, {1}, 1.0, 0}};
  f.returned = {3};
  std::map<std::string, DenseArray> store = {{"A", {{1}, {1}}}, {"B", {{1}, {2}}},
                                             {"Y", {{1}, {100}}}};
  EXPECT_EQ(runStatements({{{"A", "B", ""}, f, "Y", "s"}}, store), "");
  EXPECT_EQ(store["Y"].data, (std::vector<double>{102}));
  std::map<std::string, DenseArray> empty;
  EXPECT_NE(runStatements({{{"A", "B", ""}, f, "Y", "s"}}, empty).find("loads 'A'"),
            std::string::npos);
}

TEST(ProgramEvaluation, OnesOfAShapeBroadcastATerm) {
  // D[a,i] = e[i] * ones[a]: the statement's ones argument has the shape of
  // the broadcast indices, so every a gets e.
  EvalFunction f;
  f.numArgs = 2;
  f.formulas = {{{0, 1}, {{"i"}, {"a"}}, {"a", "i"}, {3, 2}, 1.0, -1}};
  f.returned = {2};
  std::map<std::string, DenseArray> store = {{"e", {{2}, {5, 7}}}};
  EvalStatement s{{"e", ""}, f, "D", "s"};
  s.onesShapes = {{}, {3}};
  EXPECT_EQ(runStatements({s}, store), "");
  EXPECT_EQ(store["D"].shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(store["D"].data, (std::vector<double>{5, 7, 5, 7, 5, 7}));
  EXPECT_EQ(DenseArray::filled({}, 2.0).data, (std::vector<double>{2.0}));
}

TEST(ProgramEvaluation, RandomArraysAreSeededAndShaped) {
  DenseArray a = randomArray({2, 3}, 7), b = randomArray({2, 3}, 7), c = randomArray({2, 3}, 8);
  EXPECT_EQ(a.data.size(), 6u);
  EXPECT_EQ(maxDifference(a, b), 0.0);
  EXPECT_GT(maxDifference(a, c), 0.0);
  for (double v : a.data) {
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
  }
  EXPECT_EQ(maxDifference(a, randomArray({3, 2}, 7)), std::numeric_limits<double>::infinity());
}

} // namespace
