//===- AlgorithmLoweringsTest.cpp - every algorithm has its three parts ---===//
//
// A parallel algorithm is its attribute (the dialect), its search (the
// analyses) and its lowering (tc-lower-plan), each keyed by the algorithm
// (docs/Architecture.md): none of the three may be missing for any of them.
//
//===----------------------------------------------------------------------===//
#include "AlgorithmLowerings.h"

#include "TC/Analysis/AlgorithmPlanner.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tc;

TEST(AlgorithmLowerings, EveryAlgorithmHasAttributeSearchAndLowering) {
  MLIRContext ctx;
  ctx.loadDialect<TCDialect>();
  for (uint32_t v = 0; v <= getMaxEnumValForParallelAlgorithm(); ++v) {
    std::optional<ParallelAlgorithm> kind = symbolizeParallelAlgorithm(v);
    ASSERT_TRUE(kind);
    StringRef name = stringifyParallelAlgorithm(*kind);
    AlgorithmAttrInterface attr = getAlgorithmAttr(&ctx, *kind);
    ASSERT_TRUE(attr) << name.str();
    EXPECT_EQ(attr.getKind(), *kind);
    EXPECT_FALSE(attr.hasParameters()) << name.str();
    EXPECT_EQ(llvm::count_if(algorithmLowerings(),
                             [&](const AlgorithmLowering &l) { return l.algorithm == name; }),
              1)
        << name.str();
    EXPECT_EQ(llvm::count_if(algorithmPlanners(),
                             [&](const AlgorithmPlanner *p) {
                               return llvm::is_contained(p->algorithms(), *kind);
                             }),
              1)
        << name.str();
  }
  // Task pools over blocks: planned by tc-plan-block-sparse, lowered here.
  EXPECT_TRUE(llvm::any_of(algorithmLowerings(), [](const AlgorithmLowering &l) {
    return l.algorithm == "block_sparse";
  }));
}
