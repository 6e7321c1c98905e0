//===- OwnershipTest.cpp - the distribution arithmetic every layer shares -===//
#include "TC/Layout/Ownership.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tc_layout;

namespace {

/// Every element of every extent is held by exactly one part, in order: the
/// contiguous and balanced splits tile [0, extent), the cyclic one deals each
/// element to the owner of its block.
TEST(Ownership, EveryElementHasOneOwner) {
  for (int64_t extent = 0; extent <= 23; ++extent)
    for (int64_t parts = 1; parts <= 7; ++parts) {
      int64_t next = 0, balancedNext = 0;
      for (int64_t c = 0; c < parts; ++c) {
        if (blockLength(extent, parts, c) > 0)
          EXPECT_EQ(blockStart(extent, parts, c), next);
        next += blockLength(extent, parts, c);
        EXPECT_EQ(balancedStart(extent, parts, c), balancedNext);
        balancedNext += balancedLength(extent, parts, c);
        EXPECT_LE(blockLength(extent, parts, c), ceilDiv(extent, parts));
      }
      EXPECT_EQ(next, extent);
      EXPECT_EQ(balancedNext, extent);
      for (int64_t nb = 1; nb <= 5; ++nb) {
        std::vector<int64_t> held(parts, 0);
        for (int64_t i = 0; i < extent; ++i)
          ++held[(i / nb) % parts];
        for (int64_t c = 0; c < parts; ++c) {
          EXPECT_EQ(cyclicLength(extent, nb, parts, c), held[c])
              << "extent " << extent << " nb " << nb << " parts " << parts << " c " << c;
          EXPECT_LE(held[c], cyclicRows(extent, nb, parts));
        }
      }
    }
}

TEST(Ownership, BalancedPartsDifferByOneAtMost) {
  // 10 over 4: 3, 3, 2, 2 (the longer first); contiguous: 3, 3, 3, 1.
  EXPECT_EQ(balancedLength(10, 4, 0), 3);
  EXPECT_EQ(balancedLength(10, 4, 3), 2);
  EXPECT_EQ(blockLength(10, 4, 3), 1);
  // 5 over 4 in blocks of 2: the last part holds nothing.
  EXPECT_EQ(blockLength(5, 4, 3), 0);
}

} // namespace
