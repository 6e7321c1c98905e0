//===- LinalgToTC.cpp - contraction-shaped linalg ops -> tc.contract ------===//
//
// The converse of tc-convert-to-linalg for binary contractions: a linalg op
// whose loops, maps and body make it C[out] += A[..] * B[..] becomes the
// tc.contract with one label per loop, so tc plans and lowers it.
//
//===----------------------------------------------------------------------===//
#include "TC/Conversion/LinalgToTC/LinalgToTC.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tc {
#define GEN_PASS_DEF_RAISELINALGTOTC
#include "TC/Conversion/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

bool isStaticFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.hasStaticShape() && !tensor.getEncoding() &&
         (tensor.getElementType().isF32() || tensor.getElementType().isF64());
}

/// Whether `v` is a linalg.fill of a floating-point zero (a fresh result).
bool isZeroFilled(Value v) {
  auto fill = v.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

struct RaiseContraction : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a contraction on tensors");
    Value a = op.getDpsInputOperand(0)->get(), b = op.getDpsInputOperand(1)->get();
    Value init = op.getDpsInitOperand(0)->get();
    Type elem = cast<ShapedType>(init.getType()).getElementType();
    for (Value v : {a, b, init})
      if (!isStaticFloatTensor(v.getType()) ||
          cast<ShapedType>(v.getType()).getElementType() != elem)
        return rewriter.notifyMatchFailure(op, "needs static f32 or f64 tensors of one type");
    // One label per loop; a map's results name its operand's dimensions.
    auto labelsOf = [&](AffineMap map) {
      SmallVector<std::string> names;
      for (AffineExpr e : map.getResults())
        names.push_back("d" + std::to_string(cast<AffineDimExpr>(e).getPosition()));
      SmallVector<StringRef> refs(names.begin(), names.end());
      return rewriter.getStrArrayAttr(refs);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    const bool fresh = isZeroFilled(init);
    auto contract = ContractOp::create(
        rewriter, op.getLoc(), op->getResult(0).getType(), ValueRange{a, b},
        fresh ? Value() : init, rewriter.getArrayAttr({labelsOf(maps[0]), labelsOf(maps[1])}),
        labelsOf(maps[2]), /*scale=*/FloatAttr());
    rewriter.replaceOp(op, contract.getResult());
    return success();
  }
};

struct RaiseLinalgToTCPass : public tc::impl::RaiseLinalgToTCBase<RaiseLinalgToTCPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLinalgToTCPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::tc::populateLinalgToTCPatterns(RewritePatternSet &patterns) {
  patterns.add<RaiseContraction>(patterns.getContext());
}
