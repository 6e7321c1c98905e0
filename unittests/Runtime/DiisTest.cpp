//===- DiisTest.cpp - DIIS coefficients and stored shares -----------------===//
#include "Diis.h"
#include "Context.h"
#include "KeptTensors.h"
#include "StoredTensors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace tc_rt;

namespace {

/// B from error vectors (rows), row-major m x m.
std::vector<double> overlaps(const std::vector<std::vector<double>> &errors) {
  const size_t m = errors.size();
  std::vector<double> b(m * m);
  for (size_t k = 0; k < m; ++k)
    for (size_t l = 0; l < m; ++l)
      b[k * m + l] = std::inner_product(errors[k].begin(), errors[k].end(), errors[l].begin(), 0.0);
  return b;
}

// Two errors of equal length pointing opposite ways: the midpoint cancels them.
TEST(Diis, OppositeErrorsAverage) {
  std::vector<double> c = diisCoefficients(overlaps({{1, 0}, {-1, 0}}), 2);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_NEAR(c[0], 0.5, 1e-15);
  EXPECT_NEAR(c[1], 0.5, 1e-15);
}

// The coefficients sum to one and minimize |sum c e|: for orthogonal errors
// of norms 1 and 2, c is proportional to 1/|e|^2 (4/5, 1/5).
TEST(Diis, OrthogonalErrorsWeighByInverseNorm) {
  std::vector<double> c = diisCoefficients(overlaps({{1, 0, 0}, {0, 2, 0}}), 2);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_NEAR(c[0], 0.8, 1e-15);
  EXPECT_NEAR(c[1], 0.2, 1e-15);
}

// Normalized overlaps keep tiny errors (near convergence) solvable: the
// same answer at 1e-160.
TEST(Diis, TinyErrorsScale) {
  std::vector<double> c = diisCoefficients(overlaps({{1e-160, 0, 0}, {0, 2e-160, 0}}), 2);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_NEAR(c[0], 0.8, 1e-14);
}

// Three errors, one a combination of the others: the system is singular
// only when B is; here the minimum is reached exactly (zero residual).
TEST(Diis, ResidualIsMinimal) {
  std::vector<std::vector<double>> e = {{1, 2, 0}, {3, -1, 1}, {-2, 0.5, 4}};
  std::vector<double> c = diisCoefficients(overlaps(e), 3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_NEAR(c[0] + c[1] + c[2], 1.0, 1e-14);
  // Perturbing c along the constraint (sum stays 1) cannot lower the norm.
  auto norm = [&](const std::vector<double> &k) {
    double s = 0;
    for (int i = 0; i < 3; ++i) {
      double v = 0;
      for (int j = 0; j < 3; ++j)
        v += k[j] * e[j][i];
      s += v * v;
    }
    return s;
  };
  const double best = norm(c);
  for (double d : {1e-3, -1e-3})
    for (int j = 1; j < 3; ++j) {
      std::vector<double> k = c;
      k[0] += d, k[j] -= d;
      EXPECT_GT(norm(k), best);
    }
}

// Errors of very different sizes but independent directions (geometric
// convergence) still extrapolate; errors that are parallel with one sign
// (a drift, each step the same change up to rounding) do not.
TEST(Diis, DependenceNotSizeDecides) {
  std::vector<double> c = diisCoefficients(overlaps({{1, 0.5}, {0, 1e-9}}), 2);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_NEAR(c[0] + c[1], 1.0, 1e-15);
  EXPECT_TRUE(diisCoefficients(overlaps({{3, 1}, {3 * (1 + 1e-15), 1}}), 2).empty());
}

// Parallel errors of one sign whose lengths differ by rounding (an f32
// scalar growing by the same amount): the combination that cancels them
// has coefficients of the size of 1 / that difference; none is taken.
TEST(Diis, CancellingNearlyEqualErrorsGivesNone) {
  EXPECT_TRUE(diisCoefficients(overlaps({{2.5}, {2.5 * (1 + 1e-7)}}), 2).empty());
  EXPECT_TRUE(diisCoefficients(overlaps({{1, 1}, {1.00001, 1.00001}}), 2).empty());
  // Lengths a tenth apart extrapolate (coefficients 11 and -10).
  std::vector<double> c = diisCoefficients(overlaps({{1.0}, {1.1}}), 2);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_NEAR(c[0], 11, 1e-9);
  EXPECT_NEAR(c[1], -10, 1e-9);
}

TEST(Diis, SingularOrZeroGivesNone) {
  EXPECT_TRUE(diisCoefficients(overlaps({{0, 0}, {0, 0}}), 2).empty());
  EXPECT_TRUE(diisCoefficients(overlaps({{1, 1}, {1, 1}}), 2).empty());
  EXPECT_TRUE(diisCoefficients(overlaps({{1, 1}, {0, 0}}), 2).empty());
}

/// T (5 x 3) kept whole on every rank with values value(n).
const Shape kWholeDims{5, 3};
void keepT(const std::function<double(int64_t)> &value) {
  std::vector<double> v(product(kWholeDims));
  for (int64_t n = 0; n < product(kWholeDims); ++n)
    v[n] = value(n);
  keepWhole("T", kWholeDims, v.data());
}

// A carried tensor kept whole on every rank (computed so, D58): DIIS works on
// all its values on every rank with no message, keeps the extrapolation
// whole, and a checkpoint's shares of its entries come back as they went.
TEST(Diis, WholeOnEveryRankStaysWhole) {
  const int64_t n = product(kWholeDims);
  auto a = [](int64_t i) { return 0.0 * i; };
  auto b = [](int64_t i) { return 1.0 + (i % 3); };
  auto c = [](int64_t i) { return 1.5 + 0.25 * (i % 5); };
  keepT(a);
  Diis diis({"T"}, 4, "test");
  diis.beginIteration();
  keepT(b); // the first iteration's values
  EXPECT_EQ(diis.endIteration(), 1);
  diis.beginIteration();
  keepT(c);
  const int used = diis.endIteration();
  Shape dims;
  ASSERT_TRUE(keptWholeEverywhere("T", dims));
  // The extrapolation of the two entries, from errors b - a and c - b.
  std::vector<double> e1(n), e2(n), got(n);
  for (int64_t i = 0; i < n; ++i)
    e1[i] = b(i) - a(i), e2[i] = c(i) - b(i);
  std::vector<double> coefficients = diisCoefficients(overlaps({e1, e2}), 2);
  ASSERT_EQ(coefficients.size(), 2u);
  EXPECT_EQ(used, 2);
  readKeptWhole("T", got.data());
  for (int64_t i = 0; i < n; ++i)
    EXPECT_NEAR(got[i], coefficients[0] * b(i) + coefficients[1] * c(i), 1e-12) << i;
  EXPECT_EQ(ctx().handOver.sent, 0) << "rank " << ctx().rank;
  EXPECT_EQ(ctx().handOver.received, 0) << "rank " << ctx().rank;
  // Checkpoint shares: this rank's rows of each entry, appended to another
  // history, come back the same.
  auto [begin, end] = StoredTensor::shareOf(kWholeDims, ctx().rank, ctx().size);
  EXPECT_EQ(diis.shareSize(), end - begin);
  Diis restored({"T"}, 4, "test");
  std::vector<std::vector<double>> values(2), errors(2);
  for (int k = 0; k < 2; ++k) {
    diis.entry(k, values[k], errors[k]);
    ASSERT_EQ(static_cast<int64_t>(values[k].size()), end - begin);
    for (int64_t i = begin; i < end; ++i) {
      EXPECT_EQ(values[k][i - begin], k == 0 ? b(i) : c(i));
      EXPECT_EQ(errors[k][i - begin], k == 0 ? e1[i] : e2[i]);
    }
    restored.append(values[k], errors[k]);
  }
  for (int k = 0; k < 2; ++k) {
    std::vector<double> v, e;
    restored.entry(k, v, e);
    EXPECT_EQ(v, values[k]);
    EXPECT_EQ(e, errors[k]);
  }
  releaseKept();
  releaseArrays();
}

// A plan may keep a carried tensor whole before the loop and split in it,
// or the other way: DIIS follows, its history and start converted, and
// extrapolates as if nothing changed.
TEST(Diis, FollowsACarriedTensorBetweenWholeAndSplit) {
  const int64_t n = product(kWholeDims);
  auto a = [](int64_t i) { return 0.5 * (i % 2); };
  auto b = [](int64_t i) { return 1.0 + (i % 3); };
  auto c = [](int64_t i) { return 1.5 + 0.25 * (i % 5); };
  keepT(a);
  Diis diis({"T"}, 4, "test");
  diis.beginIteration(); // whole
  // The iteration leaves T split: this rank's rows only.
  auto [begin, end] = StoredTensor::shareOf(kWholeDims, ctx().rank, ctx().size);
  std::vector<double> rows;
  for (int64_t i = begin; i < end; ++i)
    rows.push_back(b(i));
  keepShares("T", kWholeDims, rows.data());
  EXPECT_EQ(diis.endIteration(), 1);
  diis.beginIteration(); // split
  keepT(c);              // whole again
  EXPECT_EQ(diis.endIteration(), 2);
  std::vector<double> e1(n), e2(n), got(n);
  for (int64_t i = 0; i < n; ++i)
    e1[i] = b(i) - a(i), e2[i] = c(i) - b(i);
  std::vector<double> coefficients = diisCoefficients(overlaps({e1, e2}), 2);
  ASSERT_EQ(coefficients.size(), 2u);
  Shape dims;
  ASSERT_TRUE(keptWholeEverywhere("T", dims));
  readKeptWhole("T", got.data());
  for (int64_t i = 0; i < n; ++i)
    EXPECT_NEAR(got[i], coefficients[0] * b(i) + coefficients[1] * c(i), 1e-12) << i;
  releaseKept();
  releaseArrays();
}

// Shares are whole rows of dimension 0, cover the tensor, and do not overlap.
TEST(StoredTensor, SharesCoverRows) {
  for (int p = 1; p <= 5; ++p) {
    for (const Shape &dims : {Shape{7, 3}, Shape{2, 4, 5}, Shape{11}, Shape{}}) {
      int64_t next = 0;
      for (int r = 0; r < p; ++r) {
        auto [b, e] = StoredTensor::shareOf(dims, r, p);
        EXPECT_EQ(b, next);
        const int64_t row = dims.size() > 1 ? product(Shape(dims.begin() + 1, dims.end())) : 1;
        EXPECT_EQ(b % row, 0);
        EXPECT_EQ(e % row, 0);
        next = e;
      }
      EXPECT_EQ(next, product(dims));
    }
  }
}

} // namespace
