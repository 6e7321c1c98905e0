//===- SolveTiles.cpp - the tc-solve-tiles pass ---------------------------===//
//
// Chooses every index's tile counts and records the predicted volumes ([G]
// sections 4-5; docs/Derivations.md D6-D8 and D9 step 6).
// Decisions already in the op's #tc.plan are kept and restrict the search.
//
//===----------------------------------------------------------------------===//
#include "ContractionSearch.h"
#include "TC/Transforms/Passes.h"

namespace mlir::tc {
#define GEN_PASS_DEF_SOLVETILES
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {
struct SolveTilesPass : public tc::impl::SolveTilesBase<SolveTilesPass> {
  void runOnOperation() override {
    PlanFields fields;
    fields.tiles = true;
    if (failed(recordPlanFields(getOperation(), getAnalysis<ContractionSearch>(), fields,
                                /*emitRemarks=*/false)))
      return signalPassFailure();
    // Only #tc.plan fields changed: the searches still answer.
    markAnalysesPreserved<ContractionSearch>();
  }
};
} // namespace
