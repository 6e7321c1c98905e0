//===- BlasKernelTest.cpp - which OpenBLAS kernel a CPU should run --------===//
#include "BlasKernel.h"

#include <gtest/gtest.h>

using namespace tc_rt;

namespace {

CpuFeatures avx512() {
  CpuFeatures f;
  f.avx512f = f.avx512bw = f.avx512dq = f.avx512vl = f.avx2 = f.fma = true;
  return f;
}

CpuFeatures avx2() {
  CpuFeatures f;
  f.avx2 = f.fma = true;
  return f;
}

// A Xeon OpenBLAS 0.3.21 does not know (family 6, model 207) gets Prescott:
// its AVX-512 units call for SkylakeX, AVX2 alone for Haswell.
TEST(BlasKernel, GenericFallbackOnAKnownVectorUnit) {
  EXPECT_EQ(betterBlasKernel("Prescott", avx512()), "SkylakeX");
  EXPECT_EQ(betterBlasKernel("prescott", avx2()), "Haswell");
  EXPECT_EQ(betterBlasKernel("Nehalem", avx2()), "Haswell");
  EXPECT_EQ(betterBlasKernel("Core2", avx512()), "SkylakeX");
}

// AVX-512 needs all four of F, BW, DQ and VL for SkylakeX.
TEST(BlasKernel, PartialAvx512IsHaswell) {
  CpuFeatures f = avx512();
  f.avx512vl = false;
  EXPECT_EQ(betterBlasKernel("Prescott", f), "Haswell");
}

// A kernel OpenBLAS chose for the CPU (an AVX one) stays; so does the
// generic one on a CPU without AVX2 and FMA.
TEST(BlasKernel, KeepsWhatFits) {
  EXPECT_EQ(betterBlasKernel("Zen", avx2()), "");
  EXPECT_EQ(betterBlasKernel("Haswell", avx512()), "");
  EXPECT_EQ(betterBlasKernel("SkylakeX", avx512()), "");
  EXPECT_EQ(betterBlasKernel("Prescott", CpuFeatures()), "");
  CpuFeatures noFma;
  noFma.avx2 = true;
  EXPECT_EQ(betterBlasKernel("Prescott", noFma), "");
}

// The choice this process runs with is known once startProcess ran.
TEST(BlasKernel, ChoiceIsRecorded) {
  EXPECT_FALSE(blasKernelChoice().kernel.empty());
  EXPECT_FALSE(blasKernelChoice().chosenBy.empty());
}

} // namespace
