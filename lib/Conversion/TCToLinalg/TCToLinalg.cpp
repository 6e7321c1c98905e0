//===- TCToLinalg.cpp - tc ops -> linalg ----------------------------------===//
//
// The serial meaning of a tc program: each labeled op becomes one linalg op whose
// loops are the op's labels (result labels parallel, summed labels reduction).
//
// The patterns are OpConversionPatterns although no type changes: they read their
// operands from the adaptor, so they stay correct inside another compiler's
// conversion whose patterns (or type converter) replace the values tc ops use.
//
//===----------------------------------------------------------------------===//
#include "TC/Conversion/TCToLinalg/TCToLinalg.h"
#include "MultiplyAdd.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tc {
#define GEN_PASS_DEF_CONVERTTCTOLINALG
#include "TC/Conversion/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// A labeled op's loop nest as linalg sees it: one loop per label in index-space
/// order, one indexing map per input and a last one for the result.
struct LoopNest {
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iterators;
};

template <typename OpTy>
FailureOr<LoopNest> getLoopNest(OpTy op, Builder &b) {
  IndexSpaceOrError space =
      computeIndexSpace(op.getInputs().getTypes(), op.getInputLabels(),
                        op.getResultLabels(), op.getResult().getType());
  if (!space)
    return failure();

  llvm::StringMap<unsigned> loopOf;
  for (auto [loop, label] : llvm::enumerate(space.space->labels))
    loopOf[label] = loop;
  unsigned numLoops = space.space->labels.size();
  auto mapFor = [&](ArrayAttr labels) {
    SmallVector<AffineExpr> exprs;
    for (Attribute label : labels)
      exprs.push_back(b.getAffineDimExpr(loopOf.at(cast<StringAttr>(label).getValue())));
    return AffineMap::get(numLoops, 0, exprs, b.getContext());
  };

  LoopNest nest;
  for (Attribute labels : op.getInputLabels())
    nest.maps.push_back(mapFor(cast<ArrayAttr>(labels)));
  nest.maps.push_back(mapFor(op.getResultLabels()));
  nest.iterators.assign(numLoops, utils::IteratorType::parallel);
  for (const std::string &label : space.space->summed)
    nest.iterators[loopOf.at(label)] = utils::IteratorType::reduction;
  return nest;
}

/// The linalg.generic computing `init + scale * inputs[0] * inputs[1] * ...`
/// over `nest`.
Value createGeneric(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                    const LoopNest &nest, double scale) {
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, nest.maps,
      nest.iterators, [&](OpBuilder &body, Location l, ValueRange args) {
        buildMultiplyAdd(body, l, args, scale);
      });
  return generic.getResult(0);
}

/// linalg.contract's verifier accepts maps (A, B, C) only if every loop either
/// indexes C and an input or is contracted (indexes A and B but not C), and at
/// least one loop is contracted.
bool isLinalgContract(ArrayRef<AffineMap> maps) {
  bool anyContracted = false;
  for (unsigned loop = 0, e = maps[2].getNumDims(); loop < e; ++loop) {
    bool inA = maps[0].isFunctionOfDim(loop), inB = maps[1].isFunctionOfDim(loop);
    bool contracted = inA && inB && !maps[2].isFunctionOfDim(loop);
    bool parallel = maps[2].isFunctionOfDim(loop) && (inA || inB);
    if (!contracted && !parallel)
      return false;
    anyContracted |= contracted;
  }
  return anyContracted;
}

/// One labeled op -> one linalg op over its loop nest. `=` accumulates into a
/// zero-filled tensor.empty, `+=` into the op's accumulator.
template <typename OpTy>
struct LabeledOpLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    FailureOr<LoopNest> nest = getLoopNest(op, rewriter);
    if (failed(nest))
      return rewriter.notifyMatchFailure(op, "labels do not form an index space");

    Location loc = op.getLoc();
    Value init = adaptor.getInit();
    if (!init) {
      auto type = cast<RankedTensorType>(op.getResult().getType());
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(type.getElementType(), 0.0));
      init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    }
    rewriter.replaceOp(op, createLinalgOp(rewriter, loc, adaptor.getInputs(), init, *nest,
                                          op.getScale().convertToDouble()));
    return success();
  }

  /// The linalg op computing `init + scale * product of inputs` over `nest`.
  virtual Value createLinalgOp(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                               const LoopNest &nest, double scale) const {
    return createGeneric(b, loc, inputs, init, nest, scale);
  }
};

using SumOpLowering = LabeledOpLowering<SumOp>;
using MultiContractOpLowering = LabeledOpLowering<MultiContractOp>;

/// tc.contract: linalg.generic, or with `useContract` linalg.contract when its
/// verifier accepts the maps (its iterator types follow from them) and the
/// product has no coefficient (linalg.contract has none).
struct ContractOpLowering : LabeledOpLowering<ContractOp> {
  ContractOpLowering(MLIRContext *context, bool useContract)
      : LabeledOpLowering(context), useContract(useContract) {}

  Value createLinalgOp(OpBuilder &b, Location loc, ValueRange inputs, Value init,
                       const LoopNest &nest, double scale) const override {
    if (!useContract || scale != 1.0 || !isLinalgContract(nest.maps))
      return LabeledOpLowering::createLinalgOp(b, loc, inputs, init, nest, scale);
    return linalg::ContractOp::create(b, loc, TypeRange{init.getType()}, inputs,
                                      ValueRange{init},
                                      b.getAffineMapArrayAttr(nest.maps))
        .getResult(0);
  }

  bool useContract;
};

/// On one process every distribution holds the whole array.
struct RedistributeOpLowering : OpConversionPattern<RedistributeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RedistributeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

struct ConvertTCToLinalgPass
    : public tc::impl::ConvertTCToLinalgBase<ConvertTCToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.addIllegalOp<ContractOp, SumOp, MultiContractOp, RedistributeOp>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           tensor::TensorDialect>();
    RewritePatternSet patterns(context);
    populateTCToLinalgConversionPatterns(patterns, useContract);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::tc::populateTCToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                    bool useContract) {
  MLIRContext *context = patterns.getContext();
  patterns.add<SumOpLowering, MultiContractOpLowering, RedistributeOpLowering>(
      context);
  patterns.add<ContractOpLowering>(context, useContract);
}
