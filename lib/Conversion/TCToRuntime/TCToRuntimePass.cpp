//===- TCToRuntimePass.cpp - the tc-lower-to-runtime pass -----------------===//
//
// Drives the TCToRuntime patterns with the conversion framework: every tc op is
// illegal afterwards, and `!tc.array` values crossing function boundaries,
// blocks or scf loops are converted along with the ops that carry them.
//
//===----------------------------------------------------------------------===//
#include "TC/Conversion/Passes.h"
#include "TC/Conversion/TCToLinalg/TCToLinalg.h"
#include "TC/Conversion/TCToRuntime/TCToRuntime.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace mlir::tc {
#define GEN_PASS_DEF_LOWERTORUNTIME
#include "TC/Conversion/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// A branch and the blocks it jumps to: their arguments and its operands take
/// the converted types together. (The function signature pattern converts the
/// entry block only.)
struct SuccessorBlockConversion : ConversionPattern {
  SuccessorBlockConversion(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<BranchOpInterface>(op))
      return failure();
    for (Block *successor : op->getSuccessors()) {
      if (getTypeConverter()->isLegal(successor->getArgumentTypes()))
        continue;
      std::optional<TypeConverter::SignatureConversion> conversion =
          getTypeConverter()->convertBlockSignature(successor);
      if (!conversion)
        return failure();
      rewriter.applySignatureConversion(successor, *conversion, getTypeConverter());
    }
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(operands); });
    return success();
  }
};

struct LowerToRuntimePass : public tc::impl::LowerToRuntimeBase<LowerToRuntimePass> {
  using Base::Base;

  /// Against the module's machine (when it has one), what the runtime checks
  /// when the program starts: an array's grid has at most the machine's
  /// processes, and fewer only for a distributed array (the processes past the
  /// grid stay idle, holding none of it: COSMA, Kwasniewski et al. section
  /// 7.1); per-rank predictions have one entry per process.
  static LogicalResult checkProcesses(ModuleOp module) {
    WalkResult walked = module.walk([&](Operation *op) {
      if (!isa<ArrayOp, PredictedVolumesOp>(op))
        return WalkResult::advance();
      // The function's own machine when specialized for a process count.
      MachineAttr machine = getEnclosingMachine(op);
      if (!machine)
        return WalkResult::advance();
      const int64_t procs = machine.getProcs();
      if (auto array = dyn_cast<ArrayOp>(op)) {
        tc_layout::ArrayLayout layout = array.getLayout().getLayout();
        const int64_t used = layout.procs();
        if (used > procs) {
          array.emitOpError() << "array '" << array.getName() << "' is on a grid of " << used
                              << " processes but the machine has " << procs;
          return WalkResult::interrupt();
        }
        if (used < procs && !layout.distributed()) {
          array.emitOpError() << "array '" << array.getName() << "' of kind "
                              << stringifyArrayKind(array.getLayout().getKind())
                              << " is on a grid of " << used << " of the machine's " << procs
                              << " processes; only distributed arrays leave processes idle";
          return WalkResult::interrupt();
        }
      }
      if (auto predicted = dyn_cast<PredictedVolumesOp>(op))
        for (std::optional<ArrayRef<double>> perRank :
             {predicted.getSentPerRank(), predicted.getReceivedPerRank()})
          if (perRank && static_cast<int64_t>(perRank->size()) != procs) {
            predicted.emitOpError() << "predicts " << perRank->size()
                                    << " processes' volumes but the machine has " << procs;
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    return failure(walked.wasInterrupted());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Contraction-level ops have no runtime call: say which pass lowers them.
    WalkResult unplanned = module.walk([](Operation *op) {
      if (isa<ContractOp, SumOp, MultiContractOp, RedistributeOp>(op)) {
        op->emitOpError() << "must be lowered by tc-lower-plan (or, in an operator tree, "
                             "tc-lower-fused) before tc-lower-to-runtime";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unplanned.wasInterrupted())
      return signalPassFailure();
    if (failed(checkProcesses(module)))
      return signalPassFailure();
    if (tileContraction != "runtime" && tileContraction != "linalg") {
      module.emitError() << "tile-contraction: '" << tileContraction
                         << "' is neither runtime nor linalg";
      return signalPassFailure();
    }
    if (tileContraction == "linalg") {
      ConversionTarget target(getContext());
      target.addIllegalOp<TileContractOp>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      RewritePatternSet patterns(&getContext());
      populateTileContractToLinalgPatterns(patterns);
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    populateTCToRuntimeTypeConversions(converter);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<TCDialect>();
    target.addLegalOp<ModuleOp>();
    // Everything else is legal once no !tc.array is left on it.
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return converter.isLegal(op) && llvm::all_of(op->getSuccessors(), [&](Block *block) {
               return converter.isLegal(block->getArgumentTypes());
             });
    });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             (func.isExternal() ||
              converter.isLegal(func.getBody().front().getArgumentTypes()));
    });

    RewritePatternSet patterns(ctx);
    populateTCToRuntimeConversionPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    patterns.add<SuccessorBlockConversion>(converter, ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    if (failed(insertProcessCountCheck(module)))
      return signalPassFailure();
    insertRuntimeABICheck(module);
    // The machine models have served the planners and the statements' marks
    // are tc.begin_statement calls now; LLVM IR has no place for them.
    module->removeAttr(TCDialect::getMachineAttrName());
    for (auto func : module.getOps<func::FuncOp>()) {
      for (StringRef name : TCDialect::getStatementMarkNames())
        func->removeAttr(name);
      func->removeAttr(TCDialect::getProgramPartAttrName());
    }
  }
};

} // namespace
