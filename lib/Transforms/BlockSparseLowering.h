//===- BlockSparseLowering.h - lowering a planned block-sparse contraction ===//
#ifndef TC_TRANSFORMS_BLOCKSPARSELOWERING_H
#define TC_TRANSFORMS_BLOCKSPARSELOWERING_H

#include "MachineSetup.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tc {

/// Replaces `func`, which holds `op` (a contraction with a #tc.block_plan),
/// by the program of its schedule: the three block arrays, a loop over the
/// stages running tc.block_stage, the result stored, and the plan's per-rank
/// predictions (docs/BlockSparse.md).
LogicalResult lowerBlockSparseContraction(ContractOp op, func::FuncOp func,
                                          const MachineModel &machine);

} // namespace mlir::tc

#endif // TC_TRANSFORMS_BLOCKSPARSELOWERING_H
