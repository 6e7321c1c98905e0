//===- UnitsTest.cpp - sizes and rates with units -------------------------===//
#include "TC/Analysis/Units.h"

#include <gtest/gtest.h>

using namespace mlir::tc;

TEST(Units, ByteSizes) {
  EXPECT_EQ(parseByteSize("4096"), 4096.0);
  EXPECT_EQ(parseByteSize("64MB"), 64e6);
  EXPECT_EQ(parseByteSize("64 MB"), 64e6);
  EXPECT_EQ(parseByteSize("2GiB"), 2.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(parseByteSize("1.5KiB"), 1536.0);
  EXPECT_EQ(parseByteSize("512B"), 512.0);
  EXPECT_EQ(parseByteSize("1e9"), 1e9);
  EXPECT_EQ(parseByteSize("1TB"), 1e12);
}

TEST(Units, MalformedSizes) {
  EXPECT_FALSE(parseByteSize(""));
  EXPECT_FALSE(parseByteSize("MB"));
  EXPECT_FALSE(parseByteSize("64mb"));
  EXPECT_FALSE(parseByteSize("64 XB"));
  EXPECT_FALSE(parseByteSize("-1MB"));
  EXPECT_FALSE(parseByteSize("64MB/s"));
  EXPECT_FALSE(parseByteSize("inf"));
}

TEST(Units, Rates) {
  EXPECT_EQ(parseByteRate("200MB/s"), 200e6);
  EXPECT_EQ(parseByteRate("8MB/s"), 8e6);
  EXPECT_EQ(parseByteRate("1GiB/s"), 1073741824.0);
  EXPECT_EQ(parseByteRate("2e8"), 2e8);
  EXPECT_FALSE(parseByteRate("/s"));
  EXPECT_FALSE(parseByteRate("fast"));
}
