//===- SelectAlgorithm.cpp - the tc-select-algorithm pass -----------------===//
//
// Chooses in-core vs out-of-core, the communication method, the parallel algorithm
// and the distributions of every contraction ([G] sections 2.1-2.3).
// Decisions already in the op's #tc.plan are kept and restrict the search.
// Later sweeps plan each contraction again with the plans of the statements
// that read its result in view, until none changes (docs/Derivations.md D59).
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
  using Base::Base;
  void runOnOperation() override {
    PlanFields fields;
    fields.algorithm = true;
    if (planSweeps < 1) {
      getOperation().emitError() << "tc-select-algorithm: plan-sweeps must be at least 1, not "
                                 << static_cast<int>(planSweeps);
      return signalPassFailure();
    }
    if (failed(
            planWithReaders(getOperation(), getAnalysis<ContractionSearch>(), fields, planSweeps)))
      return signalPassFailure();
    // Only #tc.plan fields changed: the searches still answer.
    markAnalysesPreserved<ContractionSearch>();
  }
};
} // namespace
