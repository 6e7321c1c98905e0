//===- AlgorithmLowerings.h - each parallel algorithm's program -*- C++ -*-===//
//
// tc-lower-plan turns a planned tc.contract into the program of its plan's
// algorithm, looked up here by the algorithm's keyword (the `algorithm` of
// #tc.plan; `block_sparse` for a #tc.block_plan). Each algorithm's lowering is
// one file; a new algorithm adds its file and one entry to the registry
// (docs/Architecture.md).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_ALGORITHMLOWERINGS_H
#define TC_LIB_TRANSFORMS_ALGORITHMLOWERINGS_H

#include "MachineSetup.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tc {

/// Replaces `func`, which holds the planned `op`, by the program of its plan.
using LowerContractionFn = LogicalResult (*)(ContractOp op, func::FuncOp func,
                                             const MachineModel &machine);

struct AlgorithmLowering {
  /// The algorithm's keyword in #tc.plan (or `block_sparse`).
  StringRef algorithm;
  LowerContractionFn lower;
};

/// Every algorithm tc-lower-plan lowers.
ArrayRef<AlgorithmLowering> algorithmLowerings();

/// The lowering of `op`'s plan, or an error naming what is missing.
FailureOr<AlgorithmLowering> lookupAlgorithmLowering(ContractOp op);

namespace lowering {
/// Gao et al.'s Table 1 algorithms and batch (LowerGaoProgram.cpp).
LogicalResult lowerTiledContraction(ContractOp op, func::FuncOp func,
                                    const MachineModel &machine);
/// COSMA (LowerCosmaProgram.cpp).
LogicalResult lowerCosmaContraction(ContractOp op, func::FuncOp func,
                                    const MachineModel &machine);
/// PUMMA (LowerPummaProgram.cpp).
LogicalResult lowerPummaContraction(ContractOp op, func::FuncOp func,
                                    const MachineModel &machine);
} // namespace lowering

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_ALGORITHMLOWERINGS_H
