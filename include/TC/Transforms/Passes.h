//===- Passes.h - tc passes -------------------------------------*- C++ -*-===//
#ifndef TC_TRANSFORMS_PASSES_H
#define TC_TRANSFORMS_PASSES_H

#include "TC/Dialect/TCDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tc {

#define GEN_PASS_DECL
#include "TC/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TC/Transforms/Passes.h.inc"

/// The passes tc-plan runs, with its options forwarded: tc-set-machine,
/// tc-fuse-distribute, tc-select-algorithm, tc-place-io, tc-solve-tiles,
/// tc-plan-report.
void buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options);

} // namespace mlir::tc

#endif // TC_TRANSFORMS_PASSES_H
