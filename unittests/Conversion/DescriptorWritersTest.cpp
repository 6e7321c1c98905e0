//===- DescriptorWritersTest.cpp - encoders held to the ABI declaration ---===//
//
// The writers DescriptorFields.def generates (tc_rt::<Record>Fields) check
// each part against the declaration as the compiler's encoders append it.
//
//===----------------------------------------------------------------------===//
#include "TC/Runtime/Descriptors.h"

#include <gtest/gtest.h>

using namespace tc_rt;

namespace {

// A writer out of the declared order, or of another length than the fields
// before it give, stops the encoder in every build: a compiler bug must not
// emit a description the runtime misreads.
TEST(DescriptorsDeathTest, WritersCheckTheDeclaration) {
  Desc d(TileContractFields::fixedSize);
  TileContractFields::rank(d.data(), TC_RT_OPERAND_A, 2);
  TileContractFields::rank(d.data(), TC_RT_OPERAND_B, 1);
  TileContractFields::rank(d.data(), TC_RT_OPERAND_C, 1);
  EXPECT_DEATH(TileContractFields::labels(d, TC_RT_OPERAND_A, {0, 1}), "a part out of order");
  EXPECT_DEATH(TileContractFields::shape(d, TC_RT_OPERAND_A, {4}),
               "a part of another length than declared");
  EXPECT_DEATH(TileContractFields::shape(d, TC_RT_OPERAND_B, {4}), "a part out of order");
  TileContractFields::shape(d, TC_RT_OPERAND_A, {4, 5});
  EXPECT_DEATH(TileContractFields::checked(d), "a part missing");

  Desc s(ShiftTileFields::fixedSize);
  ShiftTileFields::rank(s.data(), 2);
  ShiftTileFields::shape(s, {6, 4});
  EXPECT_DEATH(ShiftTileFields::subshape(s, {3}), "a part of another length than declared");

  Desc p(BlockPlanFields::fixedSize);
  BlockPlanFields::numTasks(p.data(), 0);
  EXPECT_DEATH(BlockPlanFields::tasks(p, 0), "more members than counted");
}

} // namespace
