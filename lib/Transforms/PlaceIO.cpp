//===- PlaceIO.cpp - the tc-place-io pass ---------------------------------===//
//
// Chooses the read order of every planned contraction: where its disk reads and
// the write of C sit in the tiling-loop nest ([G] section 3).
// Decisions already in the op's #tc.plan are kept and restrict the search.
//
//===----------------------------------------------------------------------===//
#include "ContractionSearch.h"
#include "TC/Transforms/Passes.h"

namespace mlir::tc {
#define GEN_PASS_DEF_PLACEIO
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {
struct PlaceIOPass : public tc::impl::PlaceIOBase<PlaceIOPass> {
  void runOnOperation() override {
    PlanFields fields;
    fields.order = true;
    if (failed(recordPlanFields(getOperation(), getAnalysis<ContractionSearch>(), fields,
                                /*emitRemarks=*/false)))
      return signalPassFailure();
    // Only #tc.plan fields changed: the searches still answer.
    markAnalysesPreserved<ContractionSearch>();
  }
};
} // namespace
