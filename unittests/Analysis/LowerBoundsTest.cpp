//===- LowerBoundsTest.cpp - no candidate beats its bounds ----------------===//
#include "TC/Analysis/LowerBounds.h"

#include "TestMachine.h"

#include <array>
#include <cmath>

#include <gtest/gtest.h>

using namespace mlir::tc;

namespace {

using test::machine;

ContractionProblem product(int64_t I, int64_t J, int64_t K) {
  return {{"i", "k"}, {"j", "k"}, {"i", "j"}, {{"i", I}, {"j", J}, {"k", K}}, {}, {}, {}};
}

/// Every candidate of every algorithm, method, order and memory moves at
/// least its bounds: disk and network together at least the traffic bound.
void expectNoCandidateBelow(const ContractionProblem &p, const MachineModel &m) {
  PlanResult r = planContraction(p, m);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ContractionBounds b = contractionBounds(p, m);
  for (const ContractionPlan &c : r.candidates) {
    CandidateBounds cb = candidateBounds(b, c);
    std::string what = std::string(toString(c.algorithm)) + " " + toString(c.method) +
                       (c.inCore ? " in core" : " out of core");
    EXPECT_GE(c.totalDiskBytes() + c.totalCommBytes(), b.trafficBytes * (1 - 1e-12)) << what;
    EXPECT_GE(c.totalDiskBytes(), cb.diskBytes * (1 - 1e-12)) << what;
    EXPECT_GE(c.totalCommBytes(), cb.commBytes * (1 - 1e-12)) << what;
  }
}

TEST(LowerBounds, TheReportedCaseIsNoLongerBeaten) {
  // C[i,j] += A[i,k] * B[j,k], 3000^3, 4 processes of 16 MB: the chosen plan
  // (inside, replication-a, shared memory) read 9.0e7 disk bytes per process
  // against a "disk bound" of 9.44e7 that assumed every operand came from
  // disk. It receives A over the network: its disk bound is the traffic less
  // what it receives.
  ContractionProblem p = product(3000, 3000, 3000);
  MachineModel m = machine(4, 16e6);
  m.netBandwidth = 200e6;
  m.diskBandwidth = 8e6;
  expectNoCandidateBelow(p, m);
  ContractionBounds b = contractionBounds(p, m);
  const double S = 16e6 / 8, W = 2.7e10 / 4;
  EXPECT_NEAR(b.trafficBytes, 8 * (W * S / std::pow(2 * S / 3, 1.5) - S), 1);
  EXPECT_EQ(b.inCoreCommBytes, 0); // the shares do not fit: no in-core bound
  // The old figure, Theorem 1 for a process's share as if all came from disk,
  // is beaten by the chosen plan: no bound for plans that communicate.
  PlanResult r = planContraction(p, m);
  const ContractionPlan &chosen = r.candidates[*r.chosen];
  EXPECT_GT(chosen.totalCommBytes(), 0);
  EXPECT_LT(chosen.totalDiskBytes(), 8 * (2 * W / std::sqrt(S) + 3000.0 * 3000 / 4));
}

TEST(LowerBounds, NoCandidateOfAnyShapeIsBelowItsBounds) {
  // The planner tests' shapes: square, tall, flat and skinny, uneven extents,
  // in and out of core, 1 to 16 processes.
  for (auto [I, J, K] : {std::array<int64_t, 3>{3000, 3000, 3000}, {4096, 4096, 4096},
                         {512, 512, 8192}, {4096, 4096, 64}, {8192, 96, 512},
                         {300, 301, 302}, {1000, 1000, 1000}, {777, 333, 1999}, {64, 64, 64}})
    for (int64_t procs : {1, 2, 3, 4, 6, 16})
      for (double mem : {1e6, 4e6, 16e6, 64e6, 1e9}) {
        SCOPED_TRACE(std::to_string(I) + "x" + std::to_string(J) + "x" + std::to_string(K) +
                     " P=" + std::to_string(procs) + " mem=" + std::to_string(mem));
        expectNoCandidateBelow(product(I, J, K), machine(procs, mem));
      }
}

TEST(LowerBounds, BatchLabelsMultiplyTheWork) {
  // C[b,i,j] += A[b,i,k] B[b,k,j]: L = 8 products of 256^3.
  ContractionProblem p{{"b", "i", "k"}, {"b", "k", "j"}, {"b", "i", "j"},
                       {{"b", 8}, {"i", 256}, {"j", 256}, {"k", 256}}, {}, {}, {}};
  MachineModel m = machine(2, 1e6);
  ContractionBounds b = contractionBounds(p, m);
  ContractionBounds one = contractionBounds(product(256, 256, 256), m);
  EXPECT_GT(b.trafficBytes, 8 * one.trafficBytes);
  expectNoCandidateBelow(p, m);
}

} // namespace
