//===- TileContractToLinalg.cpp - tc.tile_contract -> linalg --------------===//
//
// The local tile contraction as linalg, for compilers that generate their own
// code for it instead of calling the runtime's permute + dgemm kernel: each
// operand's sub-tile is a memref.subview of its buffer (offsets, the labels'
// extents, the steps as strides), and one linalg.generic over the labels
// (result labels parallel, the others reductions) adds alpha times the product
// into C's sub-tile.
//
//===----------------------------------------------------------------------===//
#include "MultiplyAdd.h"
#include "TC/Conversion/TCToLinalg/TCToLinalg.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tc;

namespace {

struct TileContractLowering : OpConversionPattern<TileContractOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(TileContractOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    DictionaryAttr extents = op.getExtents();
    // One loop per label, in the (sorted) order of `extents`.
    llvm::StringMap<unsigned> loopOf;
    SmallVector<int64_t> extentOf;
    for (NamedAttribute e : extents) {
      loopOf[e.getName()] = extentOf.size();
      extentOf.push_back(cast<IntegerAttr>(e.getValue()).getInt());
    }
    const unsigned numLoops = extentOf.size();
    struct Operand {
      Value buffer;
      ValueRange offsets;
      ArrayAttr labels;
      std::optional<ArrayRef<int64_t>> steps;
    };
    Operand operands[3] = {
        {adaptor.getA(), adaptor.getAOffsets(), op.getALabels(), op.getASteps()},
        {adaptor.getB(), adaptor.getBOffsets(), op.getBLabels(), op.getBSteps()},
        {adaptor.getC(), adaptor.getCOffsets(), op.getCLabels(), op.getCSteps()}};
    SmallVector<Value> views;
    SmallVector<AffineMap> maps;
    for (const Operand &x : operands) {
      SmallVector<OpFoldResult> offsets(x.offsets.begin(), x.offsets.end()), sizes, strides;
      SmallVector<AffineExpr> dims;
      for (auto [d, label] : llvm::enumerate(x.labels)) {
        unsigned loop = loopOf.at(cast<StringAttr>(label).getValue());
        sizes.push_back(rewriter.getIndexAttr(extentOf[loop]));
        strides.push_back(rewriter.getIndexAttr(x.steps ? (*x.steps)[d] : 1));
        dims.push_back(rewriter.getAffineDimExpr(loop));
      }
      // A scalar (the ones of a one-tensor term) is its own sub-tile.
      views.push_back(x.labels.empty() ? x.buffer
                                       : memref::SubViewOp::create(rewriter, loc, x.buffer,
                                                                   offsets, sizes, strides)
                                             .getResult());
      maps.push_back(AffineMap::get(numLoops, 0, dims, rewriter.getContext()));
    }
    SmallVector<utils::IteratorType> iterators(numLoops, utils::IteratorType::reduction);
    for (Attribute label : op.getCLabels())
      iterators[loopOf.at(cast<StringAttr>(label).getValue())] = utils::IteratorType::parallel;
    const double alpha = op.getAlphaOrOne();
    linalg::GenericOp::create(rewriter, loc, TypeRange{}, ValueRange{views[0], views[1]},
                              ValueRange{views[2]}, maps, iterators,
                              [&](OpBuilder &body, Location l, ValueRange args) {
                                buildMultiplyAdd(body, l, args, alpha);
                              });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tc::populateTileContractToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<TileContractLowering>(patterns.getContext());
}
