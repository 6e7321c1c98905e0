//===- MacroIndicesTest.cpp - labels onto C(I,J) += A(I,K) B(J,K) ---------===//
#include "TC/Analysis/MacroIndices.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {
IndexSpace spaceOf(std::vector<LabeledShape> inputs, LabeledShape result) {
  IndexSpaceOrError r = buildIndexSpace(inputs, result);
  EXPECT_TRUE(r) << r.error;
  return *r.space;
}
} // namespace

TEST(MacroIndices, PermutedLabels) {
  // C[a,b,c,d] += A[a,m,b,n] * B[n,c,m,d]: I = {a,b}, J = {c,d}, K = {m,n}.
  IndexSpace s = spaceOf({{{"a", "m", "b", "n"}, {2, 5, 3, 7}}, {{"n", "c", "m", "d"}, {7, 4, 5, 6}}},
                         {{"a", "b", "c", "d"}, {2, 3, 4, 6}});
  MacroIndicesOrError m =
      mapToMacroIndices(s, {"a", "m", "b", "n"}, {"n", "c", "m", "d"}, {"a", "b", "c", "d"});
  ASSERT_TRUE(m) << m.error;
  EXPECT_EQ(m.value.I, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(m.value.J, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(m.value.K, (std::vector<std::string>{"m", "n"}));
  EXPECT_EQ(m.value.sizes.I, 6);
  EXPECT_EQ(m.value.sizes.J, 24);
  EXPECT_EQ(m.value.sizes.K, 35);
}

TEST(MacroIndices, GaoExamples) {
  // 4-index transform T1[a,b,c,d] += A[a,b,c,p] * B[p,d]: I = {a,b,c}, J = {d}, K = {p}.
  IndexSpace s4 = spaceOf({{{"a", "b", "c", "p"}, {8, 8, 8, 8}}, {{"p", "d"}, {8, 8}}},
                          {{"a", "b", "c", "d"}, {8, 8, 8, 8}});
  MacroIndicesOrError f = mapToMacroIndices(s4, {"a", "b", "c", "p"}, {"p", "d"}, {"a", "b", "c", "d"});
  ASSERT_TRUE(f);
  EXPECT_EQ(f.value.sizes.I, 512);
  EXPECT_EQ(f.value.sizes.J, 8);
  EXPECT_EQ(f.value.sizes.K, 8);
  // CCSD T1[i,j] += A[i,a,b,c] * B[a,b,c,j]: I = {i}, J = {j}, K = {a,b,c}.
  IndexSpace sc = spaceOf({{{"i", "a", "b", "c"}, {4, 5, 5, 5}}, {{"a", "b", "c", "j"}, {5, 5, 5, 3}}},
                          {{"i", "j"}, {4, 3}});
  MacroIndicesOrError c = mapToMacroIndices(sc, {"i", "a", "b", "c"}, {"a", "b", "c", "j"}, {"i", "j"});
  ASSERT_TRUE(c);
  EXPECT_EQ(c.value.K, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c.value.sizes.K, 125);
}

TEST(MacroIndices, EmptyMacroIndicesHaveExtentOne) {
  // Pure reduction s[] = x[k] * y[k]; outer product C[i,j] = x[i] * y[j].
  IndexSpace dot = spaceOf({{{"k"}, {9}}, {{"k"}, {9}}}, {{}, {}});
  MacroIndicesOrError d = mapToMacroIndices(dot, {"k"}, {"k"}, {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d.value.sizes.I, 1);
  EXPECT_EQ(d.value.sizes.J, 1);
  EXPECT_EQ(d.value.sizes.K, 9);
  IndexSpace outer = spaceOf({{{"i"}, {3}}, {{"j"}, {4}}}, {{"i", "j"}, {3, 4}});
  MacroIndicesOrError o = mapToMacroIndices(outer, {"i"}, {"j"}, {"i", "j"});
  ASSERT_TRUE(o);
  EXPECT_TRUE(o.value.K.empty());
  EXPECT_EQ(o.value.sizes.K, 1);
}

TEST(MacroIndices, BatchAndOneInputLabels) {
  // C[b,i,j] += A[b,i,x,k] * B[k,j,y,b]: b a batch label (D30), x and y summed
  // in one input each, none of them part of I, J or K.
  IndexSpace s = spaceOf({{{"b", "i", "x", "k"}, {2, 3, 5, 7}}, {{"k", "j", "y", "b"}, {7, 4, 6, 2}}},
                         {{"b", "i", "j"}, {2, 3, 4}});
  MacroIndicesOrError r =
      mapToMacroIndices(s, {"b", "i", "x", "k"}, {"k", "j", "y", "b"}, {"b", "i", "j"});
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.value.L, (std::vector<std::string>{"b"}));
  EXPECT_EQ(r.value.I, (std::vector<std::string>{"i"}));
  EXPECT_EQ(r.value.J, (std::vector<std::string>{"j"}));
  EXPECT_EQ(r.value.K, (std::vector<std::string>{"k"}));
  EXPECT_EQ(r.value.sumA, (std::vector<std::string>{"x"}));
  EXPECT_EQ(r.value.sumB, (std::vector<std::string>{"y"}));
  EXPECT_EQ(r.value.sizes.L, 2);
  EXPECT_EQ(r.value.sizes.I * r.value.sizes.J * r.value.sizes.K, 3 * 4 * 7);
}
