//===- AlgorithmLowerings.cpp - the registry of algorithm lowerings -------===//
#include "AlgorithmLowerings.h"
#include "BlockSparseLowering.h"
#include "ContractionLowering.h"
#include "DecisionAttrs.h"

#include "TC/Dialect/TCDialect.h"

using namespace mlir;
using namespace mlir::tc;

ArrayRef<AlgorithmLowering> mlir::tc::algorithmLowerings() {
  static const AlgorithmLowering registry[] = {
      {"rotation", lowering::lowerTiledContraction},
      {"replication_a", lowering::lowerTiledContraction},
      {"replication_b", lowering::lowerTiledContraction},
      {"accumulation", lowering::lowerTiledContraction},
      {"batch", lowering::lowerTiledContraction},
      {"cosma", lowering::lowerCosmaContraction},
      {"pumma", lowering::lowerPummaContraction},
      // Kurt et al.'s task pools over blocks ([K] 5-6).
      {"block_sparse", lowerBlockSparseContraction},
  };
  return registry;
}

FailureOr<AlgorithmLowering> mlir::tc::lookupAlgorithmLowering(ContractOp op) {
  StringRef name;
  if (op->hasAttr(TCDialect::getBlockPlanAttrName())) {
    name = "block_sparse";
  } else {
    PlanAttr plan = getPlan(op);
    if (!plan.getInCore())
      return lowering::missingPlanField(op, "in_core");
    if (!plan.getAlgorithm())
      return lowering::missingPlanField(op, "algorithm");
    name = stringifyParallelAlgorithm(plan.getAlgorithm().getKind());
  }
  for (const AlgorithmLowering &l : algorithmLowerings())
    if (l.algorithm == name)
      return l;
  return op.emitOpError() << "tc-lower-plan has no lowering for algorithm '" << name << "'";
}
