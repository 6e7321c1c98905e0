//===- TCEParserTest.cpp - the tensor-expression language, parsed ---------===//
#include "TC/Frontend/TCEProgram.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir::tc::tce;

namespace {

// docs/TCELanguage.md's example.
const char *const kCcd =
    R"(# CCD-like ladder and ring terms (comments run from # or // to the end of the line)
program ccd;
range O = 4;
range V = 6;
index i, j, k, l : O;
index a, b, c, d, e, f : V;
input  T[a,b,i,j], Voovv[k,l,c,d], Vvvvv[a,b,c,d], Fvv[a,b];
output R[a,b,i,j];

R[a,b,i,j] = Voovv[i,j,a,b];
R[a,b,i,j] += 0.5 * Vvvvv[a,b,c,d] * T[c,d,i,j];
X[k,l,i,j] = sum[c,d] Voovv[k,l,c,d] * T[c,d,i,j];     # an intermediate
R[a,b,i,j] += 0.25 * T[a,b,k,l] * X[k,l,i,j];
R[a,b,i,j] += P(ab) Fvv[b,c] * T[a,c,i,j];
)";

// Declarations for short programs: four O indices, four V indices.
const std::string kDecls = "range O = 4;\n"
                           "range V = 6;\n"
                           "index i, j, k, l : O;\n"
                           "index a, b, c, d : V;\n"
                           "input T[a,b,i,j], F[a,b], G[i,j];\n"
                           "output R[a,b,i,j];\n";
constexpr int kDeclLines = 6;

using Indices = std::vector<std::string>;

Program parseOk(const std::string &text) {
  Program program;
  Diagnostic error;
  EXPECT_TRUE(parseTCE(text, program, error))
      << error.loc.line << ":" << error.loc.column << ": " << error.message;
  return program;
}

/// Fails unless `text` is rejected at line:column with a message containing `substring`.
::testing::AssertionResult rejects(const std::string &text, int line, int column,
                                   const std::string &substring) {
  Program program;
  Diagnostic error;
  if (parseTCE(text, program, error))
    return ::testing::AssertionFailure() << "parsed";
  if (error.loc.line != line || error.loc.column != column ||
      error.message.find(substring) == std::string::npos)
    return ::testing::AssertionFailure()
           << "got " << error.loc.line << ":" << error.loc.column << ": " << error.message;
  return ::testing::AssertionSuccess();
}

/// The only statement of kDecls + `statement`.
Statement parseStatement(const std::string &statement) {
  Program program = parseOk(kDecls + statement);
  if (program.statements.empty())
    return {};
  return program.statements.back();
}

TEST(TCEParser, DocumentationExample) {
  Program p = parseOk(kCcd);
  EXPECT_EQ(p.name, "ccd");
  ASSERT_EQ(p.ranges.size(), 2u);
  EXPECT_EQ(p.ranges[0].name, "O");
  EXPECT_EQ(p.ranges[0].extent, 4);
  EXPECT_EQ(p.ranges[1].extent, 6);
  EXPECT_EQ(p.ranges[1].loc.line, 4);
  ASSERT_EQ(p.indices.size(), 10u);
  EXPECT_EQ(p.indices[3].name, "l");
  EXPECT_EQ(p.indices[3].range, "O");
  EXPECT_EQ(p.indices[3].extent, 4);
  EXPECT_EQ(p.indices[9].name, "f");
  EXPECT_EQ(p.indices[9].extent, 6);
  ASSERT_NE(p.findIndex("c"), nullptr);
  EXPECT_EQ(p.findIndex("c")->range, "V");
  EXPECT_EQ(p.findIndex("z"), nullptr);

  ASSERT_EQ(p.tensors.size(), 6u);
  const char *names[] = {"T", "Voovv", "Vvvvv", "Fvv", "R", "X"};
  TensorRole roles[] = {TensorRole::Input, TensorRole::Input,  TensorRole::Input,
                        TensorRole::Input, TensorRole::Output, TensorRole::Intermediate};
  for (size_t t = 0; t < 6; ++t) {
    EXPECT_EQ(p.tensors[t].name, names[t]);
    EXPECT_EQ(p.tensors[t].role, roles[t]);
    EXPECT_EQ(p.tensors[t].element, ElementType::F64);
  }
  const Tensor *x = p.findTensor("X");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->indices, (Indices{"k", "l", "i", "j"}));
  EXPECT_EQ(x->loc.line, 12);
  EXPECT_EQ(x->loc.column, 1);
  EXPECT_EQ(p.extents(*x), (std::vector<int64_t>{4, 4, 4, 4}));
  EXPECT_EQ(p.extents(*p.findTensor("Voovv")), (std::vector<int64_t>{4, 4, 6, 6}));
  EXPECT_EQ(p.findTensor("Y"), nullptr);

  ASSERT_EQ(p.statements.size(), 5u);
  const Statement &s0 = p.statements[0];
  EXPECT_EQ(s0.target.tensor, "R");
  EXPECT_FALSE(s0.accumulate);
  EXPECT_EQ(s0.loc.line, 10);
  ASSERT_EQ(s0.terms.size(), 1u);
  EXPECT_EQ(s0.terms[0].coefficient, 1.0);
  ASSERT_EQ(s0.terms[0].factors.size(), 1u);
  EXPECT_EQ(s0.terms[0].factors[0].tensor, "Voovv");
  EXPECT_EQ(s0.terms[0].factors[0].indices, (Indices{"i", "j", "a", "b"}));
  EXPECT_EQ(s0.terms[0].factors[0].loc.column, 14);

  const Statement &s1 = p.statements[1];
  EXPECT_TRUE(s1.accumulate);
  ASSERT_EQ(s1.terms.size(), 1u);
  EXPECT_EQ(s1.terms[0].coefficient, 0.5);
  ASSERT_EQ(s1.terms[0].factors.size(), 2u);
  EXPECT_EQ(s1.terms[0].factors[0].tensor, "Vvvvv");
  EXPECT_EQ(s1.terms[0].factors[1].indices, (Indices{"c", "d", "i", "j"}));
  EXPECT_EQ(s1.terms[0].loc.column, 15);

  // The intermediate: sum[c,d] only documents the summed indices.
  const Statement &s2 = p.statements[2];
  EXPECT_EQ(s2.target.tensor, "X");
  EXPECT_EQ(s2.target.indices, (Indices{"k", "l", "i", "j"}));
  ASSERT_EQ(s2.terms.size(), 1u);
  EXPECT_EQ(s2.terms[0].coefficient, 1.0);
  ASSERT_EQ(s2.terms[0].factors.size(), 2u);
  EXPECT_EQ(s2.terms[0].factors[0].indices, (Indices{"k", "l", "c", "d"}));
  EXPECT_EQ(s2.terms[0].loc.column, 14); // at `sum`

  const Statement &s3 = p.statements[3];
  EXPECT_EQ(s3.terms[0].coefficient, 0.25);
  EXPECT_EQ(s3.terms[0].factors[1].tensor, "X");

  // P(ab) Fvv[b,c] * T[a,c,i,j] = Fvv[b,c] T[a,c,i,j] - Fvv[a,c] T[b,c,i,j].
  const Statement &s4 = p.statements[4];
  ASSERT_EQ(s4.terms.size(), 2u);
  EXPECT_EQ(s4.terms[0].coefficient, 1.0);
  EXPECT_EQ(s4.terms[1].coefficient, -1.0);
  EXPECT_EQ(s4.terms[0].factors[0].indices, (Indices{"b", "c"}));
  EXPECT_EQ(s4.terms[0].factors[1].indices, (Indices{"a", "c", "i", "j"}));
  EXPECT_EQ(s4.terms[1].factors[0].indices, (Indices{"a", "c"}));
  EXPECT_EQ(s4.terms[1].factors[1].indices, (Indices{"b", "c", "i", "j"}));
  for (const Term &term : s4.terms) {
    EXPECT_EQ(term.loc.line, 14);
    EXPECT_EQ(term.loc.column, 15);
  }
}

TEST(TCEParser, DefaultsAndDeclarationOrder) {
  // No program name; outputs before inputs; an index before a later range.
  Program p = parseOk("range O = 3;\nindex i : O;\noutput R[i];\nrange V = 2;\n"
                      "index a : V;\ninput A[i,a], B[a];\nR[i] = A[i,a] B[a];\n");
  EXPECT_EQ(p.name, "tce");
  ASSERT_EQ(p.tensors.size(), 3u);
  // Inputs, outputs, then intermediates, whatever the text order.
  EXPECT_EQ(p.tensors[0].name, "A");
  EXPECT_EQ(p.tensors[1].name, "B");
  EXPECT_EQ(p.tensors[2].name, "R");
  EXPECT_EQ(p.tensors[2].loc.line, 3);
  EXPECT_EQ(p.tensors[2].loc.column, 8);
}

TEST(TCEParser, TwoAntisymmetrizersGiveFourTerms) {
  Statement s = parseStatement("R[a,b,i,j] = P(ij) P(ab) 2 * F[a,c] * T[c,b,i,j];");
  ASSERT_EQ(s.terms.size(), 4u);
  double signs[] = {2, -2, -2, 2};
  Indices f[] = {{"a", "c"}, {"a", "c"}, {"b", "c"}, {"b", "c"}};
  Indices t[] = {
      {"c", "b", "i", "j"}, {"c", "b", "j", "i"}, {"c", "a", "i", "j"}, {"c", "a", "j", "i"}};
  for (size_t n = 0; n < 4; ++n) {
    EXPECT_EQ(s.terms[n].coefficient, signs[n]) << n;
    EXPECT_EQ(s.terms[n].factors[0].indices, f[n]) << n;
    EXPECT_EQ(s.terms[n].factors[1].indices, t[n]) << n;
    EXPECT_EQ(s.terms[n].loc.column, 14);
  }
}

TEST(TCEParser, OverlappingAntisymmetrizersActRightmostFirst) {
  // P(ij) (P(jk) t): the last copy exchanges j,k and then i,j.
  Program p = parseOk("range O = 3;\nindex i, j, k : O;\ninput A[i,j,k];\n"
                      "X[i,j,k] = P(ij) P(jk) A[i,j,k];\n");
  const std::vector<Term> &terms = p.statements[0].terms;
  ASSERT_EQ(terms.size(), 4u);
  Indices expected[] = {{"i", "j", "k"}, {"j", "i", "k"}, {"i", "k", "j"}, {"j", "k", "i"}};
  double signs[] = {1, -1, -1, 1};
  for (size_t n = 0; n < 4; ++n) {
    EXPECT_EQ(terms[n].factors[0].indices, expected[n]) << n;
    EXPECT_EQ(terms[n].coefficient, signs[n]) << n;
  }
}

TEST(TCEParser, AntisymmetrizerSpellings) {
  for (const char *p : {"P(ij)", "P(i,j)", "P(i j)", "P( j , i )"}) {
    Statement s = parseStatement(std::string("R[a,b,i,j] = ") + p + " T[a,b,i,j];");
    ASSERT_EQ(s.terms.size(), 2u) << p;
    EXPECT_EQ(s.terms[1].coefficient, -1.0);
    EXPECT_EQ(s.terms[1].factors[0].indices, (Indices{"a", "b", "j", "i"})) << p;
  }
  // A declared index `ij` is one index, not two letters.
  EXPECT_TRUE(rejects(kDecls + "index ij : O;\nR[a,b,i,j] = P(ij) T[a,b,i,j];", kDeclLines + 2, 14,
                      "exactly two indices, not 1"));
  // Terms after a P'd term keep their own sign.
  Statement s = parseStatement("R[a,b,i,j] = T[a,b,i,j] - P(ab) T[a,b,i,j];");
  ASSERT_EQ(s.terms.size(), 3u);
  EXPECT_EQ(s.terms[1].coefficient, -1.0);
  EXPECT_EQ(s.terms[2].coefficient, 1.0);
  EXPECT_EQ(s.terms[2].factors[0].indices, (Indices{"b", "a", "i", "j"}));
}

TEST(TCEParser, Numbers) {
  auto coefficient = [](const std::string &term) {
    Statement s = parseStatement("R[a,b,i,j] = " + term + ";");
    return s.terms.empty() ? 0.0 : s.terms[0].coefficient;
  };
  EXPECT_EQ(coefficient("0.5 T[a,b,i,j]"), 0.5);
  EXPECT_EQ(coefficient(".25 * T[a,b,i,j]"), 0.25);
  EXPECT_EQ(coefficient("1e-1 * T[a,b,i,j]"), 1e-1);
  EXPECT_EQ(coefficient("2.5E+2 * T[a,b,i,j]"), 250.0);
  EXPECT_EQ(coefficient("2. * T[a,b,i,j]"), 2.0);
  EXPECT_EQ(coefficient("3E2 T[a,b,i,j]"), 300.0);
  EXPECT_EQ(coefficient("-2 * T[a,b,i,j]"), -2.0);
  EXPECT_EQ(coefficient("+2 * T[a,b,i,j]"), 2.0);
  EXPECT_EQ(coefficient("- T[a,b,i,j]"), -1.0);
  EXPECT_EQ(coefficient("2 * 3 * T[a,b,i,j]"), 6.0);
  EXPECT_EQ(coefficient("0.5 T[a,b,i,j] 4"), 2.0); // numbers may follow the tensors

  Statement s = parseStatement("R[a,b,i,j] = -0.5 T[a,b,i,j] - 2 T[a,b,j,i] + .5 * 3 T[b,a,i,j];");
  ASSERT_EQ(s.terms.size(), 3u);
  EXPECT_EQ(s.terms[0].coefficient, -0.5);
  EXPECT_EQ(s.terms[1].coefficient, -2.0);
  EXPECT_EQ(s.terms[2].coefficient, 1.5);
  EXPECT_EQ(s.terms[0].loc.column, 14); // the sign
  EXPECT_EQ(s.terms[1].loc.column, 32); // after the separator
  EXPECT_EQ(s.terms[2].loc.column, 47);

  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = 1.5.2 T[a,b,i,j];", kDeclLines + 1, 14,
                      "malformed number '1.5.2'"));
  EXPECT_TRUE(
      rejects(kDecls + "R[a,b,i,j] = 2T[a,b,i,j];", kDeclLines + 1, 14, "malformed number '2T'"));
  EXPECT_TRUE(
      rejects(kDecls + "R[a,b,i,j] = 1e999 T[a,b,i,j];", kDeclLines + 1, 14, "out of range"));
  // Only the first term may carry its own sign.
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = T[a,b,i,j] - -T[a,b,i,j];", kDeclLines + 1, 27,
                      "expected a number, P(...), sum[...] or a tensor reference, found '-'"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = 2 * T[a,b,i,j] *;", kDeclLines + 1, 30, "found ';'"));
}

TEST(TCEParser, Sum) {
  Statement s = parseStatement("R[a,b,i,j] = sum[c,k] F[a,c] * T[c,b,k,j] * G[k,i] "
                               "+ sum[] T[a,b,i,j] - T[a,b,k,l] G[k,i] G[l,j];");
  ASSERT_EQ(s.terms.size(), 3u);
  EXPECT_EQ(s.terms[0].factors.size(), 3u);
  EXPECT_EQ(s.terms[2].coefficient, -1.0);

  const std::string r = "R[a,b,i,j] = ";
  int line = kDeclLines + 1;
  EXPECT_TRUE(rejects(kDecls + r + "sum[c,d] F[a,c] * T[c,b,i,j];", line, 20,
                      "index 'd' is summed but appears in no factor of this term"));
  EXPECT_TRUE(rejects(kDecls + r + "sum[c,i] F[a,c] * T[c,b,i,j];", line, 20,
                      "index 'i' is summed but is an index of the target"));
  EXPECT_TRUE(rejects(kDecls + r + "sum[k] F[a,c] * T[c,b,k,j] G[k,i];", line, 25,
                      "index 'c' is not in the target and must be listed in sum[...]"));
  EXPECT_TRUE(
      rejects(kDecls + r + "sum[c] F[a,c] * sum[c] T[c,b,i,j];", line, 30, "at most one sum[...]"));
  EXPECT_TRUE(rejects(kDecls + r + "sum[c,c] F[a,c] * T[c,b,i,j];", line, 20,
                      "index 'c' appears twice in sum[...]"));
  EXPECT_TRUE(
      rejects(kDecls + r + "sum[z] F[a,c] * T[c,b,i,j];", line, 18, "index 'z' is not declared"));
}

TEST(TCEParser, ScalarsAndElementTypes) {
  Program p = parseOk("range O = 3;\nindex i, j : O;\ninput A[i,j], s[] : f32;\n"
                      "output E[] : f32;\nS[] = s[] * A[i,j] * A[i,j];\nE[] += 2 S[];\n");
  const Tensor *s = p.findTensor("S");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->role, TensorRole::Intermediate);
  EXPECT_EQ(s->element, ElementType::F32);
  EXPECT_TRUE(s->indices.empty());
  EXPECT_EQ(p.findTensor("A")->element, ElementType::F32);
  EXPECT_TRUE(p.extents(*s).empty());

  EXPECT_TRUE(
      rejects("range O = 3;\nindex i : O;\ninput A[i] : f32;\ninput B[i];\noutput R[i] : f32;\n"
              "R[i] = A[i] * B[i];\n",
              6, 15, "'B' is f64 but this statement computes f32"));
  EXPECT_TRUE(rejects("range O = 3;\nindex i : O;\ninput A[i] : f32;\ninput B[i];\n"
                      "X[i] = A[i] + B[i];\n",
                      5, 15, "'B' is f64 but this statement computes f32"));
  // The element type ends the declaration: it applies to all of its tensors.
  EXPECT_TRUE(rejects("range O = 3;\nindex i : O;\ninput A[i] : f32, B[i];\n", 3, 17,
                      "expected 'symmetry', 'charge', 'blocks' or ';', found ','"));
  EXPECT_TRUE(rejects("range O = 3;\nindex i : O;\ninput A[i] : f16;\n", 3, 14,
                      "expected 'f64', 'f32', 'symmetry', 'charge' or 'blocks', found 'f16'"));
}

TEST(TCEParser, KeywordsOnlyWhereExpected) {
  // Declaration keywords and f64 may name tensors, indices and ranges.
  Program p = parseOk("range range = 2;\nindex index, f64 : range;\n"
                      "input input[index], program[f64];\noutput output[index];\n"
                      "output[index] = input[index] * program[f64];\n"
                      "range[index] = output[index];\n");
  EXPECT_EQ(p.ranges[0].name, "range");
  EXPECT_EQ(p.statements.size(), 2u);
  EXPECT_EQ(p.findTensor("range")->role, TensorRole::Intermediate);
  EXPECT_TRUE(rejects(kDecls + "P[a,b,i,j] = T[a,b,i,j];\n", kDeclLines + 1, 1, "'P' is reserved"));
  EXPECT_TRUE(
      rejects("range O = 2;\nindex i : O;\ninput A[i], sum[i];\n", 3, 13, "'sum' is reserved"));
  EXPECT_TRUE(
      rejects(kDecls + "R[a,b,i,j] = P[a,b,i,j];\n", kDeclLines + 1, 14, "'P' is reserved"));
}

TEST(TCEParser, LexicalErrorsAndComments) {
  EXPECT_TRUE(rejects("range O = 4; @", 1, 14, "unexpected character '@'"));
  // A tab is one column; comments of both kinds are skipped.
  EXPECT_TRUE(
      rejects("// comment\n# another\n\trange O = 4 $;", 3, 14, "unexpected character '$'"));
  // A lone / is a token (1 / X), not half a comment.
  EXPECT_TRUE(
      rejects("range O = 4;\n/ 2", 2, 1, "expected a declaration or a statement, found '/'"));
  EXPECT_TRUE(rejects("range O = 4;\n\xc3\xa9", 2, 1, "unexpected byte 0xc3"));
  // Errors come in text order: a syntax error before a bad character wins.
  EXPECT_TRUE(rejects("range O 4; @", 1, 9, "expected '=' after the range name, found '4'"));
  Program p = parseOk(kDecls + "R[a,b,i,j] = T[a,b,i,j]; // done\n# end");
  EXPECT_EQ(p.statements.size(), 1u);
}

TEST(TCEParser, DeclarationErrors) {
  EXPECT_TRUE(rejects("", 1, 1, "the program has no statements"));
  EXPECT_TRUE(rejects("# nothing\n", 1, 1, "the program has no statements"));
  EXPECT_TRUE(rejects(kDecls, 1, 1, "the program has no statements"));
  EXPECT_TRUE(rejects("range O = 4;\nrange V = 2;\n  range O = 3;", 3, 9,
                      "range 'O' is already declared at line 1"));
  EXPECT_TRUE(rejects("range O = 4;\nindex i : O;\nindex j, i : O;", 3, 10,
                      "index 'i' is already declared at line 2"));
  EXPECT_TRUE(
      rejects("range O = 4;\nindex i,\n  i : O;", 3, 3, "index 'i' is already declared at line 2"));
  EXPECT_TRUE(rejects("range O = 4;\nindex i : O;\ninput A[i];\noutput B[i], A[i];", 4, 14,
                      "tensor 'A' is already declared at line 3"));
  EXPECT_TRUE(rejects(kDecls + "X[i] = G[i,i];\n", kDeclLines + 1, 12, "appears twice in 'G'"));
  EXPECT_TRUE(rejects("range O = 0;", 1, 11, "must be a positive integer, not '0'"));
  EXPECT_TRUE(rejects("range O = 2.5;", 1, 11, "must be a positive integer, not '2.5'"));
  EXPECT_TRUE(rejects("range O = -3;", 1, 11, "expected the extent of range 'O', found '-'"));
  EXPECT_TRUE(rejects("range O = 99999999999999999999;", 1, 11, "must be a positive integer"));
  EXPECT_TRUE(rejects("index i : O;\nrange O = 4;", 1, 11,
                      "range 'O' is not declared (declare it with 'range O = N;')"));
  EXPECT_TRUE(rejects("range O = 4;\ninput A[i];\nindex i : O;", 2, 9,
                      "index 'i' is not declared (declare it with 'index i : RANGE;')"));
  EXPECT_TRUE(rejects("range O = 4;\nindex i : O;\ninput A[i, i];", 3, 12,
                      "index 'i' appears twice in 'A'"));
  EXPECT_TRUE(rejects("program a;\nrange O = 4;\nprogram b;", 3, 1,
                      "the program is already named 'a' at line 1"));
  EXPECT_TRUE(rejects("program;", 1, 8, "expected a program name, found ';'"));
  EXPECT_TRUE(rejects("range O = 4;\nindex i : O;\ninput A[i]\noutput R[i];", 4, 1,
                      "expected ',', ':' or ';' after the tensor, found 'output'"));
  EXPECT_TRUE(rejects("range O = 4;\nindex i : O;\ninput A[i,];", 3, 11,
                      "expected an index name, found ']'"));
  EXPECT_TRUE(rejects("range O = 4;\nindex i : O;\ninput A[i", 3, 10,
                      "expected ',' or ']' after index 'i', found the end of the text"));
  EXPECT_TRUE(rejects("range O = 4;\n;", 2, 1, "expected a declaration or a statement"));
}

TEST(TCEParser, StatementErrors) {
  int line = kDeclLines + 1;
  EXPECT_TRUE(
      rejects(kDecls + "T[a,b,i,j] = R[a,b,i,j];", line, 1, "input 'T' cannot be assigned"));
  EXPECT_TRUE(rejects(kDecls + "X[a,b] = F[a,b];\nX[a] = F[a,b];", line + 1, 1,
                      "'X' has 2 indices, not 1"));
  EXPECT_TRUE(rejects(kDecls + "X[a,z] = F[a,b];", line, 5, "index 'z' is not declared"));
  EXPECT_TRUE(rejects(kDecls + "X[a,b] += F[a,b];", line, 1,
                      "'X' is accumulated (+=) before it is assigned"));
  // A target index no factor has broadcasts its term (orbital-energy
  // denominators built from vectors), summed indices or not.
  Program broadcast = parseOk(kDecls + "R[a,b,i,j] = T[a,b,i,j] + F[a,b] G[i,k] - 2 * F[a,b];");
  ASSERT_EQ(broadcast.statements.size(), 1u);
  EXPECT_EQ(broadcast.statements[0].terms.size(), 3u);
  // An intermediate may be accumulated once assigned; an output from the start.
  parseOk(kDecls + "X[a,b] = F[a,b];\nX[a,b] += F[b,a];\nR[a,b,i,j] += X[a,b] G[i,j];");
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = Y[a,b] * G[i,j];\nY[a,b] = F[a,b];", line, 14,
                      "'Y' is used before it is assigned"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = Z[a,b] * G[i,j];", line, 14, "'Z'"));
  EXPECT_TRUE(
      rejects(kDecls + "X[a,b] = F[a,b] + X[b,a];", line, 19, "'X' is used before it is assigned"));
  EXPECT_TRUE(rejects(kDecls + "output S[a,b];\nR[a,b,i,j] = S[a,b] G[i,j];\nS[a,b] = F[a,b];",
                      line + 1, 14, "'S' is used before it is assigned"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = T[a,b,i];", line, 14, "'T' has 4 indices, not 3"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i] = T[a,b,i,j];", line, 1, "'R' has 4 indices, not 3"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = F[a,b] * G[i,b];", line, 27,
                      "index 'b' ranges over V but dimension 2 of 'G' ranges over O"));
  EXPECT_TRUE(
      rejects(kDecls + "R[a,b,i,j] = T[a,b,i,a];", line, 22, "index 'a' appears twice in 'T'"));
  EXPECT_TRUE(rejects(kDecls + "X[a,a] = F[a,a];", line, 5, "index 'a' appears twice in 'X'"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = T[a,b,i,z];", line, 22, "index 'z' is not declared"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = 2 * 3;", line, 14,
                      "a term needs at least one tensor reference"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = T[a,b,i,j]);", line, 24,
                      "expected '*', '+', '-' or ';', found ')'"));
  // Without the ';' the next target reads as one more factor of the term.
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] = T[a,b,i,j]\nX[a,b] = F[a,b];", line + 1, 1,
                      "'X' is not declared"));
  EXPECT_TRUE(rejects(kDecls + "R[a,b,i,j] : T[a,b,i,j];", line, 12,
                      "expected '=' or '+=' after the target, found ':'"));
  EXPECT_TRUE(rejects(kDecls + "R = T[a,b,i,j];", line, 3, "expected '[' after 'R', found '='"));
  EXPECT_TRUE(rejects(kDecls + "output S[a];\nR[a,b,i,j] = T[a,b,i,j];", line, 8,
                      "output 'S' is never assigned"));
}

TEST(TCEParser, AntisymmetrizerErrors) {
  int line = kDeclLines + 1;
  const std::string r = "R[a,b,i,j] = ";
  EXPECT_TRUE(rejects(kDecls + r + "P(ia) T[a,b,i,j];", line, 14, "range over O and V"));
  EXPECT_TRUE(rejects(kDecls + r + "P(ik) T[a,b,i,j];", line, 17,
                      "index 'k' of P(...) is not an index of the target"));
  EXPECT_TRUE(rejects(kDecls + r + "P(iz) T[a,b,i,j];", line, 17, "index 'z' is not declared"));
  EXPECT_TRUE(rejects(kDecls + r + "P(ii) T[a,b,i,j];", line, 17, "not 'i' with itself"));
  EXPECT_TRUE(rejects(kDecls + r + "P(ijk) T[a,b,i,j];", line, 14, "exactly two indices, not 3"));
  EXPECT_TRUE(
      rejects(kDecls + r + "P() T[a,b,i,j];", line, 16, "expected an index name in P(...)"));
  EXPECT_TRUE(rejects(kDecls + r + "P(i,j T[a,b,i,j];", line, 21,
                      "expected ',', an index name or ')' in P(...), found '['"));
  std::string many;
  for (int n = 0; n < 11; ++n)
    many += "P(ij) ";
  EXPECT_TRUE(rejects(kDecls + r + many + "T[a,b,i,j];", line, 74, "at most 10 antisymmetrizers"));
}

// Block-sparse declarations: two segmented ranges.
const std::string kBlockDecls = "range O = 3 : segments [2, 1];\n"
                                "range V = 4 : segments [1, 1, 2];\n"
                                "index i, j, k : O;\n"
                                "index a, b : V;\n"
                                "input F[i,j], G[i,j] : symmetry 0;\n"
                                "input D[a,i] : f64 blocks [[0, 0], [2, 1]];\n"
                                "output R[a,i] : symmetry 1;\n";

TEST(TCEParser, BlockSparseDeclarations) {
  Program p = parseOk(kBlockDecls + "X[a,i] = D[a,i] * F[i,j] * F[j,k]; R[a,i] = X[a,i];\n"
                                    "E[] = D[a,i] * D[a,i];\n");
  EXPECT_EQ(p.findRange("O")->segments, (std::vector<int64_t>{2, 1}));
  EXPECT_TRUE(p.findRange("V")->segments.size() == 3);
  const Tensor *f = p.findTensor("F"), *d = p.findTensor("D"), *r = p.findTensor("R");
  ASSERT_TRUE(f && d && r);
  EXPECT_TRUE(f->blockSparse && d->blockSparse && r->blockSparse);
  EXPECT_EQ(f->presence.kind, mlir::tc::BlockPresence::Kind::Symmetry);
  EXPECT_EQ(r->presence.symmetry, 1);
  EXPECT_EQ(d->presence.blocks, (std::vector<std::vector<int64_t>>{{0, 0}, {2, 1}}));
  EXPECT_EQ(p.segments(*d), (std::vector<std::vector<int64_t>>{{1, 1, 2}, {2, 1}}));
  // X[a,k] = D[a,i] F[i,j] F[j,k] with F diagonal in segments (XOR 0): D's
  // blocks; E, a sum over everything, is the scalar's one block.
  const Tensor *x = p.findTensor("X"), *e = p.findTensor("E");
  ASSERT_TRUE(x && e);
  EXPECT_TRUE(x->blockSparse && e->blockSparse);
  EXPECT_EQ(x->presence.kind, mlir::tc::BlockPresence::Kind::List);
  EXPECT_EQ(x->presence.blocks, d->presence.blocks);
  EXPECT_EQ(e->presence.kind, mlir::tc::BlockPresence::Kind::All);
  // Blocks grow to a fixed point: Y read before its second assignment.
  Program q = parseOk(kBlockDecls + "Y[i,j] = F[i,j]; Z[i,j] = Y[i,k] * G[k,j];\n"
                                    "Y[i,j] += G[i,k] * Z[k,j] * F[j,i]; R[a,i] = D[a,j] * Y[j,i];\n");
  EXPECT_EQ(q.findTensor("Y")->presence.kind, mlir::tc::BlockPresence::Kind::Symmetry);
}

// Segments labelled by irreducible representation, some absent from a range
// (a molecule with no occupied orbital of irrep 1): `symmetry S` keeps the
// blocks whose labels XOR to S; an intermediate's blocks follow.
TEST(TCEParser, LabelledSegments) {
  Program p = parseOk("range O = 5 : segments [3, 1, 1] labels [0, 2, 3];\n"
                      "range V = 6 : segments [2, 1, 2, 1] labels [0, 1, 2, 3];\n"
                      "index i, j : O;\nindex a, b : V;\n"
                      "input F[i,j] : symmetry 0;\ninput T[a,i] : symmetry 1;\n"
                      "output R[a,j] : symmetry 1;\nR[a,j] = T[a,i] * F[i,j];\n");
  EXPECT_EQ(p.findRange("O")->labels, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(p.findRange("O")->label(2), 3);
  EXPECT_EQ(p.findRange("V")->label(2), 2);
  // F: labels equal (diagonal); as segment ids XOR 0 too, so a symmetry.
  const Tensor *f = p.findTensor("F"), *t = p.findTensor("T"), *r = p.findTensor("R");
  EXPECT_EQ(f->presence.kind, mlir::tc::BlockPresence::Kind::Symmetry);
  EXPECT_EQ(f->presence.symmetry, 0);
  // T[a,i]: label(a) ^ label(i) = 1: (V1, O0), (V2, O2: labels 2 ^ 3 = 1),
  // (V3, O1: labels 3 ^ 2 = 1). Segment ids would give other blocks.
  EXPECT_EQ(t->presence.kind, mlir::tc::BlockPresence::Kind::List);
  EXPECT_EQ(t->presence.blocks, (std::vector<std::vector<int64_t>>{{1, 0}, {2, 2}, {3, 1}}));
  EXPECT_EQ(r->presence.blocks, t->presence.blocks);
  EXPECT_EQ(p.symmetricBlocks(*t, 0), (std::vector<std::vector<int64_t>>{{0, 0}, {2, 1}, {3, 2}}));
}

// Segments with charges (twice the spin projection): `charge Q signs [...]`
// keeps the blocks whose signed charges sum to Q, with `symmetry S` as well
// when both are given, or alone.
TEST(TCEParser, ChargedSegments) {
  Program p = parseOk("range O = 4 : segments [1, 1, 1, 1] labels [0, 1, 4, 5] "
                      "charges [1, 1, -1, -1];\n"
                      "index i, j : O;\n"
                      "input F[i,j] : charge 0 signs [+, -];\n"
                      "input G[i,j] : symmetry 1 charge -2 signs [-, -];\n"
                      "output R[i,j] : charge 0 signs [+, -];\nR[i,j] = F[i,j] + G[i,j];\n");
  EXPECT_EQ(p.findRange("O")->charges, (std::vector<int64_t>{1, 1, -1, -1}));
  EXPECT_EQ(p.findRange("O")->charge(3), -1);
  EXPECT_EQ(p.findRange("O")->charge(0), 1);
  // F: equal spins.
  EXPECT_EQ(p.findTensor("F")->presence.blocks,
            (std::vector<std::vector<int64_t>>{
                {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3}}));
  // G: -c(i) - c(j) = -2 (both alpha: segments 0 and 1) and labels XOR to 1.
  EXPECT_EQ(p.findTensor("G")->presence.blocks,
            (std::vector<std::vector<int64_t>>{{0, 1}, {1, 0}}));
  // One alpha and one beta, with and without a symmetry.
  ChargeRule rule{0, {1, 1}};
  EXPECT_EQ(p.symmetricBlocks(*p.findTensor("F"), 4, &rule),
            (std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}, {2, 0}, {3, 1}}));
  EXPECT_EQ(p.symmetricBlocks(*p.findTensor("F"), std::nullopt, &rule).size(), 8u);
}

/// The pairs of tensor `name`, as (first, second, antisymmetric) triples.
std::vector<std::tuple<int64_t, int64_t, bool>> pairsOf(const Program &p, const char *name) {
  std::vector<std::tuple<int64_t, int64_t, bool>> out;
  for (const mlir::tc::PairSymmetry &q : p.findTensor(name)->presence.pairs)
    out.emplace_back(q.first, q.second, q.antisymmetric);
  return out;
}

TEST(TCEParser, PairSymmetriesAreDeclaredAndInferred) {
  using Pairs = std::vector<std::tuple<int64_t, int64_t, bool>>;
  const std::string decls = "range O = 4 : segments [2, 2];\n"
                            "range V = 6 : segments [3, 3];\n"
                            "index i, j, k : O;\n"
                            "index a, b, c, d : V;\n"
                            "input V[a,b,c,d] : blocks all antisymmetric [a, b] [c, d];\n"
                            "input T[a,b,i,j] : blocks all antisymmetric [b, a] [i, j];\n"
                            "input F[a,c] : blocks all symmetric [a, c];\n"
                            "input X[k,b,c,j] : blocks all;\n"
                            "output R[a,b,i,j] : blocks all antisymmetric [a, b];\n";
  Program p = parseOk(decls +
                      // Antisymmetric alone (V's pair), and by pairing up (P(ab)).
                      "Y[a,b,i,j] = 0.5 * V[a,b,c,d] * T[c,d,i,j] + P(ab) F[a,c] * T[c,b,i,j];\n"
                      // No pair in a, b (X breaks it); i, j from T's pair.
                      "Z[a,b,i,j] = T[a,c,i,j] * F[c,b];\n"
                      // P(ij) P(ab) copies pair up in both.
                      "W[a,b,i,j] = P(ij) P(ab) T[a,c,i,k] * X[k,b,c,j];\n"
                      // Symmetric: a sum of a term and its exchange.
                      "S[a,b] = F[a,c] * F[c,b] + F[a,b];\n"
                      "R[a,b,i,j] = Y[a,b,i,j] + W[a,b,i,j];\n");
  EXPECT_EQ(pairsOf(p, "T"), (Pairs{{0, 1, true}, {2, 3, true}}));
  EXPECT_EQ(pairsOf(p, "F"), (Pairs{{0, 1, false}}));
  EXPECT_EQ(pairsOf(p, "Y"), (Pairs{{0, 1, true}, {2, 3, true}}));
  EXPECT_EQ(pairsOf(p, "Z"), (Pairs{{2, 3, true}}));
  EXPECT_EQ(pairsOf(p, "W"), (Pairs{{0, 1, true}, {2, 3, true}}));
  EXPECT_EQ(pairsOf(p, "S"), (Pairs{{0, 1, false}}));
  // A declared output whose terms do not keep its pair: an error at the statement.
  EXPECT_TRUE(rejects(decls + "R[a,b,i,j] = T[a,c,i,j] * F[c,b];\n", 10, 1,
                      "'R' is declared antisymmetric [a, b] but the terms assigning it here are "
                      "not: exchanging a and b does not change their sign"));
}

TEST(TCEParser, BlockSparseErrors) {
  const std::string ranges = "range O = 3 : segments [2, 1];\nrange P = 2;\nindex i, j : O;\n"
                             "index p : P;\n";
  EXPECT_TRUE(rejects("range O = 3 : segments [2, 2];\n", 1, 15,
                      "the segments of range 'O' sum to 4, not its extent 3"));
  EXPECT_TRUE(rejects("range O = 3 : segments [2, 0, 1];\n", 1, 28,
                      "a segment length must be an integer of at least 1, not '0'"));
  EXPECT_TRUE(rejects("range O = 3 : blocks [3];\n", 1, 15, "expected 'segments' after ':'"));
  EXPECT_TRUE(rejects(ranges + "input A[i,p] : symmetry 0;\n", 5, 16,
                      "'A' is block-sparse but its index 'p' ranges over P, which has no segments"));
  EXPECT_TRUE(rejects(ranges + "input A[i,j] : blocks [[0, 2]];\n", 5, 16,
                      "the blocks of 'A': a listed block names segment 2 of dimension 1"));
  EXPECT_TRUE(rejects(ranges + "input A[i,j] : blocks [[0]];\n", 5, 16,
                      "a listed block has 1 segment ids for rank 2"));
  EXPECT_TRUE(rejects(ranges + "input A[i,j] : symmetry -1;\n", 5, 25,
                      "expected the symmetry, found '-'"));
  EXPECT_TRUE(
      rejects(ranges + "input A[i,j] : symmetry 0 f32 blocks all;\n", 5, 31,
              "expected 'restricted', 'antisymmetric', 'symmetric' or ';', found 'blocks'"));
  EXPECT_TRUE(rejects(ranges + "input A[i,j] : symmetry 4;\n", 5, 16,
                      "'A' has no present block (no block's segment labels XOR to 4)"));
  EXPECT_TRUE(
      rejects("range O = 3 : segments [2, 1] 4;\n", 1, 31,
              "expected ';', 'labels [...]', 'charges [...]' or 'flip [...]' after the segments, "
              "found '4'"));
  EXPECT_TRUE(rejects("range O = 3 : segments [2, 1] labels [0];\n", 1, 31,
                      "range 'O' has 2 segments but 1 labels"));
  EXPECT_TRUE(rejects("range O = 3 : segments [2, 1] labels [0, -3];\n", 1, 42,
                      "expected a segment label, found '-'"));
  EXPECT_TRUE(rejects("range O = 3 : segments [2, 1] labels [1, 2] 3;\n", 1, 45,
                      "expected ';', 'charges [...]' or 'flip [...]' after the labels, found '3'"));
  EXPECT_TRUE(rejects("range O = 3 labels [1, 2];\n", 1, 13,
                      "expected ';' or ': segments [...]' after the range extent"));
  EXPECT_TRUE(rejects("range O = 3 : segments [2, 1] labels [0, 1];\nindex i, j : O;\n"
                      "input A[i,j] : symmetry 2;\n",
                      3, 16, "'A' has no present block (no block's segment labels XOR to 2)"));
  EXPECT_TRUE(rejects(ranges + "input A[i,j] : blocks some;\n", 5, 23,
                      "expected 'all' or '[' after 'blocks', found 'some'"));
  // One statement is all block-sparse or all dense, its target included.
  const std::string mixed = ranges + "input A[i,j] : symmetry 0;\ninput B[i,j];\n"
                                     "output C[i,j] : symmetry 0;\n";
  EXPECT_TRUE(rejects(mixed + "C[i,j] = A[i,p] * B[p,j];\n", 8, 14,
                      "ranges over P but dimension 2 of 'A' ranges over O"));
  EXPECT_TRUE(rejects(mixed + "C[i,j] = A[i,j] * B[j,i];\n", 8, 19,
                      "'B' is dense but this statement computes with block-sparse tensors"));
  EXPECT_TRUE(rejects(mixed + "X[i,j] = B[i,j];\nC[i,j] = X[i,j];\n", 9, 10,
                      "'X' is dense but this statement computes with block-sparse tensors"));
  // An intermediate none of whose blocks a term can fill.
  EXPECT_TRUE(rejects(ranges + "input A[i] : symmetry 1;\ninput B[i] : symmetry 0;\n"
                               "output C[] : symmetry 0;\nX[] = A[i] * B[i];\nC[] = X[];\n",
                      8, 1, "no block of the block-sparse intermediate 'X' can be non-zero"));
}

const std::vector<std::string> &validPrograms() {
  static const std::vector<std::string> programs = {
      kCcd,
      kDecls + "R[a,b,i,j] = -.5e1 * P(ij) P(ab) sum[c] F[a,c] T[c,b,i,j] + 2. T[b,a,j,i];\n",
      "range O = 3; index i, j : O; input s[], A[i,j] : f32; output E[] : f32;\n"
      "S[] = s[] A[i,j] A[j,i]; E[] += S[] - 1e-3 * s[];",
      kBlockDecls + "X[a,i] = D[a,i] * F[i,j] * F[j,k]; R[a,i] = 0.5 * X[a,j] G[j,i] - D[a,i];\n",
  };
  return programs;
}

TEST(TCEParser, TruncatedProgramsNeverCrash) {
  for (const std::string &text : validPrograms()) {
    for (size_t length = 0; length <= text.size(); ++length) {
      Program program;
      Diagnostic error;
      bool parsed = parseTCE(std::string_view(text).substr(0, length), program, error);
      if (!parsed) {
        EXPECT_FALSE(error.message.empty()) << length;
        EXPECT_GE(error.loc.line, 1) << length;
        EXPECT_GE(error.loc.column, 1) << length;
      }
    }
    Program program;
    Diagnostic error;
    EXPECT_TRUE(parseTCE(text, program, error)) << error.message;
  }
}

TEST(TCEParser, MutatedProgramsNeverCrash) {
  std::mt19937 random(12345);
  const std::string alphabet = "[](),;:=+-*.#/ \t\nPsumijabcdTRFGXe0123456789@\x80";
  for (const std::string &text : validPrograms()) {
    for (int trial = 0; trial < 2000; ++trial) {
      std::string mutated = text;
      int edits = 1 + static_cast<int>(random() % 4);
      for (int e = 0; e < edits && !mutated.empty(); ++e) {
        size_t at = random() % mutated.size();
        switch (random() % 3) {
        case 0:
          mutated[at] = alphabet[random() % alphabet.size()];
          break;
        case 1:
          mutated.erase(at, 1 + random() % 3);
          break;
        default:
          mutated.insert(at, 1, alphabet[random() % alphabet.size()]);
          break;
        }
      }
      Program program;
      Diagnostic error;
      if (!parseTCE(mutated, program, error)) {
        EXPECT_FALSE(error.message.empty()) << mutated;
        EXPECT_GE(error.loc.line, 1) << mutated;
      }
    }
  }
}

} // namespace

namespace {

// A loop: T starts from the input and is carried; E is what it converges on.
const std::string kLoopDecls = "range O = 2;\n"
                               "range V = 3;\n"
                               "index i, j : O;\n"
                               "index a, b : V;\n"
                               "input T[a,i], F[a,b], D[a,i];\n"
                               "output E[];\n";

TEST(TCEParserTest, LoopsRepeatTheirStatements) {
  Program p = parseOk(kLoopDecls + "X[a,i] = F[a,b] * T[b,i];\n"
                                   "iterate max 30 until E converges to 1e-9 {\n"
                                   "  R[a,i] = X[a,i] + F[a,b] * T[b,i];\n"
                                   "  T[a,i] = R[a,i] * D[a,i];\n"
                                   "  E[] = T[a,i] * T[a,i];\n"
                                   "}\n"
                                   "iterate 3 diis 2 { T[a,i] = 0.5 * T[a,i]; }\n");
  ASSERT_EQ(p.loops.size(), 2u);
  EXPECT_EQ(p.loops[0].diis, 0);
  EXPECT_EQ(p.loops[1].diis, 2);
  EXPECT_EQ(p.loops[0].maxIterations, 30);
  EXPECT_EQ(p.loops[0].converge, "E");
  EXPECT_DOUBLE_EQ(p.loops[0].tolerance, 1e-9);
  EXPECT_EQ(p.loops[0].first, 1u);
  EXPECT_EQ(p.loops[0].count, 3u);
  EXPECT_EQ(p.loops[0].loc.line, 8);
  EXPECT_EQ(p.loops[1].maxIterations, 3);
  EXPECT_TRUE(p.loops[1].converge.empty());
  EXPECT_EQ(p.loops[1].first, 4u);
  EXPECT_EQ(p.loops[1].count, 1u);
  std::vector<int> loopOf;
  for (const Statement &s : p.statements)
    loopOf.push_back(s.loop);
  EXPECT_EQ(loopOf, (std::vector<int>{-1, 0, 0, 0, 1}));
}

TEST(TCEParserTest, LoopErrorsPointAtTheirToken) {
  const std::string body = " { T[a,i] = F[a,b] * T[b,i]; E[] = T[a,i] * T[a,i]; }\n";
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5" + body, 7, 15, "expected 'until"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 0" + body, 7, 9, "at least 1"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 5 until E converges to 1e-9" + body, 7, 11,
                      "largest number of iterations"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5 until E converges to -1" + body, 7, 36,
                      "expected a tolerance"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5 until E converges to 0" + body, 7, 36,
                      "must be positive"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5 until D converges to 1e-9" + body, 7, 21,
                      "'D' is not assigned in the loop"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5 until T converges to 1e-9" + body, 7, 21,
                      "has 2 indices: a loop converges on a scalar"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 5 { iterate 2 { E[] = T[a,i] * T[a,i]; } }\n", 7, 13,
                      "loops do not nest"));
  EXPECT_TRUE(
      rejects(kLoopDecls + "iterate 5 { input Q[a]; }\n", 7, 13, "declarations go outside loops"));
  EXPECT_TRUE(
      rejects(kLoopDecls + "iterate 5 { E[] = T[a,i] * T[a,i];\n", 8, 1, "has no closing '}'"));
  EXPECT_TRUE(
      rejects(kLoopDecls + "iterate 5 { }\nE[] = T[a,i] * T[a,i];\n", 7, 13, "has no statements"));
  // A tensor the loop reads before assigning it needs a value before the loop.
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 5 { E[] = Y[a,i] * T[a,i]; Y[a,i] = 2 * T[a,i]; }\n", 7,
                      19, "needs a value before the loop"));
  // An output the loop accumulates into needs a value before the loop.
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 5 { E[] += T[a,i] * T[a,i]; }\n", 7, 13,
                      "accumulated (+=) in a loop before it has a value"));
  // DIIS: at least two iterations, after the count or tolerance, of a loop
  // that carries a tensor (T here is assigned before it is read: none).
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5 until E converges to 1e-9 diis 1" + body, 7, 46,
                      "at least 2"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 5 diis" + body, 7, 16,
                      "expected the number of iterations DIIS extrapolates from"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate max 5 until E converges to 1e-9 dis 3" + body, 7, 41,
                      "expected '{' or 'diis' after the tolerance"));
  EXPECT_TRUE(rejects(kLoopDecls + "iterate 5 diis 4 { T[a,i] = 2 * D[a,i]; E[] = T[a,i] * "
                                   "T[a,i]; }\n",
                      7, 11, "this loop carries none"));
  // An input is assigned only in a loop (its first value).
  EXPECT_TRUE(
      rejects(kLoopDecls + "T[a,i] = D[a,i];\nE[] = T[a,i] * T[a,i];\n", 7, 1, "except in a loop"));
}

} // namespace

namespace {

TEST(TCEParserTest, ReciprocalsInvertTheStatementsValue) {
  Program p = parseOk(kLoopDecls + "X[a,i] = 1 / (T[a,i] * T[a,i] + 2 * D[a,i]);\n"
                                   "Y[a,i] = 1 / D[a,i];\n"
                                   "Z[a,i] = 1 * D[a,i];\n"
                                   "E[] = X[a,i] * Y[a,i] * Z[a,i];\n");
  ASSERT_EQ(p.statements.size(), 4u);
  EXPECT_TRUE(p.statements[0].reciprocal);
  EXPECT_EQ(p.statements[0].terms.size(), 2u);
  EXPECT_DOUBLE_EQ(p.statements[0].terms[1].coefficient, 2);
  EXPECT_TRUE(p.statements[1].reciprocal);
  EXPECT_EQ(p.statements[1].terms.size(), 1u);
  EXPECT_FALSE(p.statements[2].reciprocal); // 1 * D: a coefficient
  EXPECT_FALSE(p.statements[3].reciprocal);
}

TEST(TCEParserTest, ReciprocalErrorsPointAtTheirToken) {
  const std::string tail = "E[] = T[a,i] * T[a,i];\n";
  EXPECT_TRUE(rejects(kLoopDecls + "X[a,i] = 1 / 2 * D[a,i];\n" + tail, 7, 14,
                      "'1 /' without parentheses takes one tensor"));
  EXPECT_TRUE(rejects(kLoopDecls + "X[a,i] = 1 / D[a,i] + T[a,i];\n" + tail, 7, 21,
                      "'1 /' takes one tensor: write '1 / (...)'"));
  EXPECT_TRUE(rejects(kLoopDecls + "X[a,i] = 1 / (D[a,i] + T[a,i];\n" + tail, 7, 30,
                      "expected '*', '+', '-' or ')'"));
  EXPECT_TRUE(rejects(kLoopDecls + "X[a,i] = D[a,i];\nX[a,i] += 1 / D[a,i];\n" + tail, 8, 11,
                      "takes '=', not '+='"));
}

} // namespace
