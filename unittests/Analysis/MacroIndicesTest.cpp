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

TEST(MacroIndices, UncoveredLabelsNamed) {
  IndexSpace batch = spaceOf({{{"b", "i"}, {2, 3}}, {{"b", "j"}, {2, 4}}}, {{"b", "i", "j"}, {2, 3, 4}});
  MacroIndicesOrError r = mapToMacroIndices(batch, {"b", "i"}, {"b", "j"}, {"b", "i", "j"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.rfind("label 'b' appears in both inputs and the result (a batch index)", 0), 0u)
      << r.error;
  IndexSpace lone = spaceOf({{{"i", "x"}, {2, 3}}, {{"j"}, {4}}}, {{"i", "j"}, {2, 4}});
  MacroIndicesOrError l = mapToMacroIndices(lone, {"i", "x"}, {"j"}, {"i", "j"});
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error.rfind("label 'x' is summed but appears only in the first input", 0), 0u);
}
