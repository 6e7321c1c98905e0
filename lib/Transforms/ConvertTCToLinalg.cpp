//===- ConvertTCToLinalg.cpp - tc contractions -> linalg.generic ----------===//
//
// The serial meaning of a tc program: each labeled op becomes one linalg.generic
// whose loops are the op's labels (result labels parallel, summed labels reduction).
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tc {
#define GEN_PASS_DEF_CONVERTTCTOLINALG
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// Replaces a verified labeled op by an equivalent linalg.generic.
template <typename OpTy>
void lowerLabeledOp(RewriterBase &rewriter, OpTy op) {
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Type elementType = resultType.getElementType();
  IndexSpaceOrError space =
      computeIndexSpace(op.getInputs().getTypes(), op.getInputLabels(),
                        op.getResultLabels(), resultType);
  assert(space && "verified op has a valid index space");

  llvm::StringMap<unsigned> loopOf;
  for (auto [loop, label] : llvm::enumerate(space.space->labels))
    loopOf[label] = loop;
  unsigned numLoops = space.space->labels.size();
  auto mapFor = [&](ArrayAttr labels) {
    SmallVector<AffineExpr> exprs;
    for (Attribute label : labels)
      exprs.push_back(
          rewriter.getAffineDimExpr(loopOf.at(cast<StringAttr>(label).getValue())));
    return AffineMap::get(numLoops, 0, exprs, rewriter.getContext());
  };
  SmallVector<AffineMap> maps;
  for (Attribute labels : op.getInputLabels())
    maps.push_back(mapFor(cast<ArrayAttr>(labels)));
  maps.push_back(mapFor(op.getResultLabels()));

  SmallVector<utils::IteratorType> iterators(numLoops, utils::IteratorType::parallel);
  for (const std::string &label : space.space->summed)
    iterators[loopOf.at(label)] = utils::IteratorType::reduction;

  rewriter.setInsertionPoint(op);
  Value init = op.getInit();
  if (!init) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                          elementType);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getFloatAttr(elementType, 0.0));
    init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  }
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{resultType}, op.getInputs(), ValueRange{init}, maps,
      iterators, [](OpBuilder &b, Location l, ValueRange args) {
        // args = (inputs..., accumulator): acc + in0 * in1 * ...
        Value product = args.front();
        for (Value factor : args.drop_front().drop_back())
          product = arith::MulFOp::create(b, l, product, factor);
        Value sum = arith::AddFOp::create(b, l, args.back(), product);
        linalg::YieldOp::create(b, l, sum);
      });
  rewriter.replaceOp(op, generic.getResults());
}

struct ConvertTCToLinalgPass
    : public tc::impl::ConvertTCToLinalgBase<ConvertTCToLinalgPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (auto contract = dyn_cast<ContractOp>(op))
        lowerLabeledOp(rewriter, contract);
      else if (auto sum = dyn_cast<SumOp>(op))
        lowerLabeledOp(rewriter, sum);
      else if (auto multi = dyn_cast<MultiContractOp>(op))
        lowerLabeledOp(rewriter, multi);
      else if (auto redistribute = dyn_cast<RedistributeOp>(op))
        // On one process every distribution holds the whole array.
        rewriter.replaceOp(redistribute, redistribute.getSource());
    });
  }
};

} // namespace
