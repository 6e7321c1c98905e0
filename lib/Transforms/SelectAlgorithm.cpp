//===- SelectAlgorithm.cpp - the tc-select-algorithm pass -----------------===//
//
// Chooses in-core vs out-of-core, the communication method, the parallel algorithm
// and the distributions of every contraction ([G] sections 2.1-2.3).
// Decisions already in the op's #tc.plan are kept and restrict the search.
//
//===----------------------------------------------------------------------===//
#include "ContractionSearch.h"
#include "TC/Transforms/Passes.h"

namespace mlir::tc {
#define GEN_PASS_DEF_SELECTALGORITHM
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {
struct SelectAlgorithmPass : public tc::impl::SelectAlgorithmBase<SelectAlgorithmPass> {
  void runOnOperation() override {
    PlanFields fields;
    fields.algorithm = true;
    if (failed(recordPlanFields(getOperation(), getAnalysis<ContractionSearch>(), fields,
                                /*emitRemarks=*/true)))
      return signalPassFailure();
    // Only #tc.plan fields changed: the searches still answer.
    markAnalysesPreserved<ContractionSearch>();
  }
};
} // namespace
