//===- TCToRuntime.cpp - tile-level tc ops to runtime calls ---------------===//
//
// One OpConversionPattern per tile-level op, each emitting one call into tc's
// runtime. What the runtime decodes (array, tile, slice and contraction
// descriptors) is encoded with the runtime's own encoders
// (include/TC/Runtime/Descriptors.h), so the two sides cannot drift apart.
//
//===----------------------------------------------------------------------===//
#include "TC/Conversion/TCToRuntime/TCToRuntime.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Runtime/Descriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;
namespace abi = ::tc_rt;

namespace {

/// Declares runtime function `name` (private, external) unless the module has it.
void declareRuntimeFunction(OpBuilder &b, ModuleOp module, Location loc, StringRef name,
                            FunctionType type) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  func::FuncOp::create(b, loc, name, type).setPrivate();
}

/// Builds the operands of a runtime call in front of one op: pointers to
/// buffers, constant descriptors, strings and offsets.
class RuntimeCallBuilder {
public:
  RuntimeCallBuilder(ConversionPatternRewriter &rewriter, Operation *op)
      : rewriter(rewriter), loc(op->getLoc()), module(op->getParentOfType<ModuleOp>()) {}

  Type ptrType() { return LLVM::LLVMPointerType::get(rewriter.getContext()); }

  /// The aligned pointer of a memref: its first element, since every tile op
  /// verifies its buffers have the identity layout (no offset).
  Value pointer(Value memref) {
    Value idx = memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
    Value i64 = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), idx);
    return LLVM::IntToPtrOp::create(rewriter, loc, ptrType(), i64);
  }

  Value null() { return LLVM::ZeroOp::create(rewriter, loc, ptrType()); }

  Value i64(int64_t v) {
    return arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(v));
  }

  Value f64(FloatAttr v) { return arith::ConstantOp::create(rewriter, loc, v); }

  /// The address of a constant int64 array (a descriptor).
  Value descriptor(ArrayRef<int64_t> values) {
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      rewriter.getI64Type());
    return constant("__tc_desc_", DenseElementsAttr::get(type, values));
  }

  Value doubles(ArrayRef<double> values) {
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      rewriter.getF64Type());
    return constant("__tc_pred_", DenseElementsAttr::get(type, values));
  }

  /// A NUL-terminated string constant, for the C ABI.
  Value string(StringRef s) {
    SmallVector<int8_t> bytes(s.begin(), s.end());
    bytes.push_back(0);
    auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                      rewriter.getI8Type());
    return constant("__tc_name_", DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes)));
  }

  /// Calls `name`, declaring it privately on first use.
  Value call(StringRef name, ValueRange args, TypeRange results = {}) {
    declareRuntimeFunction(rewriter, module, loc, name,
                           rewriter.getFunctionType(args.getTypes(), results));
    auto c = func::CallOp::create(rewriter, loc, name, results, args);
    return results.empty() ? Value() : c.getResult(0);
  }

  /// Calls `name(leading..., offsets)` where `offsets` is a pointer to the
  /// index values stored as int64. The stack buffer lives in an alloca scope
  /// around the call, so a call inside a loop does not grow the stack.
  Value callWithOffsets(StringRef name, ValueRange leading, ValueRange offsets,
                        TypeRange results = {}) {
    auto scope = memref::AllocaScopeOp::create(rewriter, loc, results);
    Block *body = rewriter.createBlock(&scope.getBodyRegion());
    rewriter.setInsertionPointToStart(body);
    auto type = MemRefType::get({std::max<int64_t>(1, offsets.size())}, rewriter.getI64Type());
    Value buffer = memref::AllocaOp::create(rewriter, loc, type);
    for (auto [i, v] : llvm::enumerate(offsets)) {
      Value value = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), v);
      memref::StoreOp::create(rewriter, loc, value, buffer,
                              ValueRange{arith::ConstantIndexOp::create(rewriter, loc, i)});
    }
    SmallVector<Value> args(leading);
    args.push_back(pointer(buffer));
    Value result = call(name, args, results);
    memref::AllocaScopeReturnOp::create(rewriter, loc,
                                        result ? ValueRange{result} : ValueRange{});
    rewriter.setInsertionPointAfter(scope);
    return results.empty() ? Value() : scope.getResult(0);
  }

private:
  /// A private constant global holding `data`; equal contents share one.
  Value constant(StringRef prefix, DenseElementsAttr data) {
    auto type = MemRefType::get(data.getType().getShape(), data.getElementType());
    // Named by a hash of the contents (FNV-1a), so names are stable run to run.
    uint32_t hash = 2166136261u;
    for (char c : data.getRawData())
      hash = (hash ^ static_cast<uint8_t>(c)) * 16777619u;
    std::string name;
    for (unsigned attempt = 0;; ++attempt) {
      name = (prefix + Twine(hash) +
              (attempt ? "_" + Twine(attempt) : Twine()))
                 .str();
      auto existing = module.lookupSymbol<memref::GlobalOp>(name);
      if (!existing)
        break;
      if (existing.getType() == type && existing.getInitialValueAttr() == data)
        return pointer(memref::GetGlobalOp::create(rewriter, loc, type, name));
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      memref::GlobalOp::create(rewriter, loc, name, rewriter.getStringAttr("private"), type,
                               data, /*constant=*/true, /*alignment=*/nullptr);
    }
    return pointer(memref::GetGlobalOp::create(rewriter, loc, type, name));
  }

  ConversionPatternRewriter &rewriter;
  Location loc;
  ModuleOp module;
};

/// A pattern whose op becomes a call of `callee`, for ops that share a
/// calling form and differ only in the runtime function they call.
template <typename OpTy>
struct RuntimeCallPattern : OpConversionPattern<OpTy> {
  RuntimeCallPattern(const TypeConverter &converter, MLIRContext *ctx, StringRef callee)
      : OpConversionPattern<OpTy>(converter, ctx), callee(callee) {}

protected:
  std::string callee;
};

abi::Desc shapeOf(Type memref) {
  ArrayRef<int64_t> shape = cast<MemRefType>(memref).getShape();
  return abi::Desc(shape.begin(), shape.end());
}

/// The runtime's code of an element type (the verifiers admit f32 and f64).
tc_rt_elem elementCode(Type elementType) {
  return elementType.isF32() ? TC_RT_F32 : TC_RT_F64;
}

//===----------------------------------------------------------------------===//
// Arrays and the plan's predictions
//===----------------------------------------------------------------------===//

struct ArrayOpLowering : OpConversionPattern<ArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ArrayOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    abi::ArrayDesc desc;
    // The kind and init enums carry the runtime's values (TCEnums.td).
    static_assert(int(ArrayKind::Distributed) == TC_RT_DISTRIBUTED &&
                  int(ArrayKind::Replicated) == TC_RT_REPLICATED &&
                  int(ArrayKind::Slab) == TC_RT_SLAB && int(ArrayKind::Gathered) == TC_RT_GATHERED);
    static_assert(int(ArrayInitKind::Input) == TC_RT_INIT_INPUT &&
                  int(ArrayInitKind::Zero) == TC_RT_INIT_ZERO &&
                  int(ArrayInitKind::RootInput) == TC_RT_INIT_ROOT_INPUT &&
                  int(ArrayInitKind::Ones) == TC_RT_INIT_ONES);
    desc.kind = static_cast<tc_rt_kind>(op.getKind());
    desc.init = static_cast<tc_rt_init>(op.getInit());
    desc.onDisk = op.getOnDisk();
    desc.elem = elementCode(op.getType().getElementType());
    for (int64_t g : op.getFirstSlice().value_or(ArrayRef<int64_t>()))
      desc.firstSlice |= int64_t(1) << g;
    desc.grid.assign(op.getGrid().begin(), op.getGrid().end());
    std::optional<ArrayRef<int64_t>> fileDims = op.getFileDims();
    std::optional<ArrayRef<int64_t>> split = op.getSplit();
    for (size_t d = 0; d < op.getExtents().size(); ++d) {
      desc.dims.push_back({op.getExtents()[d], op.getDims()[d], op.getSkew()[d],
                           fileDims ? (*fileDims)[d] : static_cast<int64_t>(d)});
      desc.dims.back().splitDim = split ? (*split)[d] : -1;
      desc.dims.back().cyclic = op.getCyclic() ? (*op.getCyclic())[d] : 0;
    }
    if (std::optional<ArrayRef<int64_t>> summed = op.getSummedFileDims())
      for (auto [fileDim, extent] : llvm::zip_equal(*summed, *op.getSummedExtents()))
        desc.summed.push_back({fileDim, extent});
    RuntimeCallBuilder b(rewriter, op);
    Value storage = adaptor.getStorage() ? b.pointer(adaptor.getStorage()) : b.null();
    Value handle = b.call("tc_rt_array",
                          {b.descriptor(desc.encode()), b.string(op.getName()), storage},
                          b.ptrType());
    rewriter.replaceOp(op, handle);
    return success();
  }
};

struct PredictedVolumesOpLowering : OpConversionPattern<PredictedVolumesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PredictedVolumesOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    b.call("tc_rt_plan", {b.f64(op.getDiskBytesAttr()), b.f64(op.getCommBytesAttr()),
                          b.f64(op.getFlopsAttr()), b.i64(op.getChunkBytes())});
    if (op.getSentPerRank() && op.getReceivedPerRank())
      b.call("tc_rt_plan_per_rank",
             {b.doubles(*op.getSentPerRank()), b.doubles(*op.getReceivedPerRank()),
              b.i64(static_cast<int64_t>(op.getSentPerRank()->size()))});
    if (op.getDiskPerRank())
      b.call("tc_rt_plan_disk_per_rank",
             {b.doubles(*op.getDiskPerRank()),
              b.i64(static_cast<int64_t>(op.getDiskPerRank()->size()))});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tiles: name(array, buffer, descriptor, offsets)
//===----------------------------------------------------------------------===//

/// read_tile, write_tile, broadcast_tile, shift_tile, gather_tile(_start) and
/// reduce_scatter_tile: the buffer's shape (and, for a shift, the grid
/// dimension and the moving sub-tile's shape). A started gather returns the
/// runtime's handle of the transfer.
template <typename OpTy>
struct TileTransferLowering : RuntimeCallPattern<OpTy> {
  using RuntimeCallPattern<OpTy>::RuntimeCallPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    SmallVector<Type> results;
    if (failed(this->getTypeConverter()->convertTypes(op->getResultTypes(), results)))
      return failure();
    Value handle = b.callWithOffsets(this->callee,
                                     {adaptor.getArray(), b.pointer(adaptor.getBuffer()),
                                      b.descriptor(describe(op))},
                                     adaptor.getOffsets(), results);
    if (handle)
      rewriter.replaceOp(op, handle);
    else
      rewriter.eraseOp(op);
    return success();
  }

private:
  static abi::Desc describe(OpTy op) {
    abi::Desc shape = shapeOf(op.getBuffer().getType());
    if constexpr (std::is_same_v<OpTy, ShiftTileOp>)
      return abi::ShiftTileDesc{static_cast<int64_t>(op.getGridDim()), shape,
                                abi::Desc(op.getSizes().begin(), op.getSizes().end())}
          .encode();
    bool rootOnly = false;
    if constexpr (std::is_same_v<OpTy, ReadTileOp>)
      rootOnly = op.getRootOnly();
    return abi::TileDesc{shape, rootOnly}.encode();
  }
};

struct WaitOpLowering : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder(rewriter, op).call("tc_rt_wait", {adaptor.getTransfer()});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// PUMMA: grid coordinates and cyclic panels, name(array, buffer, desc, residue)
//===----------------------------------------------------------------------===//

struct GridCoordOpLowering : OpConversionPattern<GridCoordOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GridCoordOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Value coord = b.call("tc_rt_grid_coord", {adaptor.getArray(), b.i64(op.getGridDim())},
                         rewriter.getI64Type());
    rewriter.replaceOp(op, arith::IndexCastOp::create(rewriter, op.getLoc(),
                                                      rewriter.getIndexType(), coord));
    return success();
  }
};

/// tc.gather_cyclic and tc.reduce_cyclic: the panel's dimension, modulus and
/// buffer shape, the residue at run time.
template <typename OpTy>
struct CyclicPanelLowering : RuntimeCallPattern<OpTy> {
  using RuntimeCallPattern<OpTy>::RuntimeCallPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    abi::CyclicPanelDesc desc{static_cast<int64_t>(op.getDim()),
                              static_cast<int64_t>(op.getModulus()),
                              shapeOf(op.getBuffer().getType())};
    Value residue = arith::IndexCastOp::create(rewriter, op.getLoc(), rewriter.getI64Type(),
                                               adaptor.getResidue());
    b.call(this->callee, {adaptor.getArray(), b.pointer(adaptor.getBuffer()),
                          b.descriptor(desc.encode()), residue});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AllReduceTileOpLowering : OpConversionPattern<AllReduceTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AllReduceTileOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    b.call("tc_rt_allreduce_tile",
           {b.pointer(adaptor.getBuffer()),
            b.descriptor(abi::AllReduceTileDesc{shapeOf(op.getBuffer().getType()),
                                                elementCode(op.getBuffer().getType().getElementType())}
                             .encode())});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Whole arrays: name(array[, immediate])
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct ArrayCallLowering : RuntimeCallPattern<OpTy> {
  using RuntimeCallPattern<OpTy>::RuntimeCallPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    SmallVector<Value> args = {adaptor.getArray()};
    if constexpr (std::is_same_v<OpTy, ShiftArrayOp>)
      args.push_back(b.i64(op.getGridDim()));
    if constexpr (std::is_same_v<OpTy, CombinePartialOp>) {
      int64_t mask = 0; // tc_rt_combine_partial takes the grid dimensions as bits
      for (int64_t g : op.getGridDims())
        mask |= int64_t(1) << g;
      args.push_back(b.i64(mask));
    }
    b.call(this->callee, args);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Block-sparse arrays and schedules (Krishnamoorthy et al., docs/BlockSparse.md)
//===----------------------------------------------------------------------===//

struct BeginStatementOpLowering : OpConversionPattern<BeginStatementOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BeginStatementOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    tc_rt_result result = !op.getIntermediate() ? TC_RT_RESULT_OUTPUT
                          : op.getInMemory()    ? TC_RT_RESULT_MEMORY
                                                : TC_RT_RESULT_FILE;
    Value code =
        arith::ConstantOp::create(rewriter, op.getLoc(), rewriter.getI64IntegerAttr(result));
    b.call("tc_rt_begin_statement", {b.string(op.getName()), code});
    rewriter.eraseOp(op);
    return success();
  }
};

struct BlockArrayOpLowering : OpConversionPattern<BlockArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BlockArrayOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    abi::BlockArrayDesc desc;
    desc.init = static_cast<tc_rt_init>(op.getInit());
    desc.onDisk = op.getOnDisk();
    desc.elem = elementCode(op.getType().getTensorType().getElementType());
    BlocksAttr blocks = op.getType().getBlocks();
    for (unsigned d = 0; d < blocks.getRank(); ++d) {
      SmallVector<int64_t> segments = blocks.getSegments(d);
      desc.segments.emplace_back(segments.begin(), segments.end());
    }
    desc.blocks = blocks.toShape().presentBlocks();
    desc.homes.assign(op.getHomes().begin(), op.getHomes().end());
    RuntimeCallBuilder b(rewriter, op);
    rewriter.replaceOp(op, b.call("tc_rt_block_array",
                                  {b.descriptor(desc.encode()), b.string(op.getName())},
                                  b.ptrType()));
    return success();
  }
};

struct BlockStageOpLowering : OpConversionPattern<BlockStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BlockStageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    abi::BlockPlanDesc plan;
    ArrayRef<int64_t> labels[3] = {op.getLabelsA(), op.getLabelsB(), op.getLabelsC()};
    for (int x = 0; x < 3; ++x)
      plan.labels[x].assign(labels[x].begin(), labels[x].end());
    ArrayRef<int64_t> tasks = op.getTasks();
    for (size_t t = 0; t + 6 <= tasks.size(); t += 6)
      plan.tasks.push_back(
          {tasks[t], tasks[t + 1], tasks[t + 2], tasks[t + 3], tasks[t + 4], tasks[t + 5]});
    plan.stages = op.getStages();
    ArrayRef<int64_t> cached = op.getCached().value_or(ArrayRef<int64_t>());
    for (size_t i = 0; i + 4 <= cached.size(); i += 4)
      plan.cached.push_back({cached[i], cached[i + 1], cached[i + 2], cached[i + 3]});
    if (FloatAttr alpha = op.getAlphaAttr())
      plan.alpha = alpha.getValueAsDouble();
    RuntimeCallBuilder b(rewriter, op);
    Value stage = arith::IndexCastOp::create(rewriter, op.getLoc(), rewriter.getI64Type(),
                                             adaptor.getStage());
    b.call("tc_rt_block_stage", {b.descriptor(plan.encode()), adaptor.getA(), adaptor.getB(),
                                 adaptor.getC(), stage});
    rewriter.eraseOp(op);
    return success();
  }
};

struct RedistributeArrayOpLowering : OpConversionPattern<RedistributeArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RedistributeArrayOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder(rewriter, op)
        .call("tc_rt_redistribute", {adaptor.getSource(), adaptor.getDestination()});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Slices of tensors (fused programs): name(array, extents descriptor, shift)
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct SliceLowering : RuntimeCallPattern<OpTy> {
  using RuntimeCallPattern<OpTy>::RuntimeCallPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    abi::SliceDesc desc{abi::Desc(op.getTensorExtents().begin(), op.getTensorExtents().end())};
    b.callWithOffsets(this->callee, {adaptor.getArray(), b.descriptor(desc.encode())},
                      adaptor.getShift());
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Local contraction
//===----------------------------------------------------------------------===//

struct TileContractOpLowering : OpConversionPattern<TileContractOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TileContractOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    DictionaryAttr extents = op.getExtents();
    // Labels travel as their position in `extents` (a sorted dictionary).
    auto ids = [&](ArrayAttr labels) {
      abi::Desc out;
      for (Attribute l : labels)
        out.push_back(llvm::find_if(extents, [&](NamedAttribute e) {
                        return e.getName() == cast<StringAttr>(l).getValue();
                      }) - extents.begin());
      return out;
    };
    auto steps = [](std::optional<ArrayRef<int64_t>> s) {
      return s ? abi::Desc(s->begin(), s->end()) : abi::Desc();
    };
    abi::TileContractDesc desc;
    desc.a = {shapeOf(op.getA().getType()), ids(op.getALabels()), steps(op.getASteps())};
    desc.b = {shapeOf(op.getB().getType()), ids(op.getBLabels()), steps(op.getBSteps())};
    desc.c = {shapeOf(op.getC().getType()), ids(op.getCLabels()), steps(op.getCSteps())};
    for (NamedAttribute e : extents)
      desc.labelExtents.push_back(cast<IntegerAttr>(e.getValue()).getInt());
    desc.elem = elementCode(op.getC().getType().getElementType());
    desc.alpha = op.getAlphaOrOne();

    RuntimeCallBuilder b(rewriter, op);
    SmallVector<Value> offsets(adaptor.getAOffsets());
    llvm::append_range(offsets, adaptor.getBOffsets());
    llvm::append_range(offsets, adaptor.getCOffsets());
    b.callWithOffsets("tc_rt_tile_contract",
                      {b.descriptor(desc.encode()), b.pointer(adaptor.getA()),
                       b.pointer(adaptor.getB()), b.pointer(adaptor.getC())},
                      offsets);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tc::populateTCToRuntimeTypeConversions(TypeConverter &converter) {
  converter.addConversion([](ArrayType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](BlockArrayType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](TransferType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
}

void mlir::tc::populateTCToRuntimeConversionPatterns(const TypeConverter &converter,
                                                     RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ArrayOpLowering, PredictedVolumesOpLowering, AllReduceTileOpLowering,
               RedistributeArrayOpLowering, TileContractOpLowering, WaitOpLowering,
               GridCoordOpLowering, BlockArrayOpLowering, BlockStageOpLowering,
               BeginStatementOpLowering>(converter, ctx);
  patterns.add<CyclicPanelLowering<GatherCyclicOp>>(converter, ctx, "tc_rt_gather_cyclic");
  patterns.add<CyclicPanelLowering<ReduceCyclicOp>>(converter, ctx, "tc_rt_reduce_cyclic");
  patterns.add<TileTransferLowering<ReadTileOp>>(converter, ctx, "tc_rt_read_tile");
  patterns.add<TileTransferLowering<WriteTileOp>>(converter, ctx, "tc_rt_write_tile");
  patterns.add<TileTransferLowering<BroadcastTileOp>>(converter, ctx, "tc_rt_broadcast_tile");
  patterns.add<TileTransferLowering<ShiftTileOp>>(converter, ctx, "tc_rt_shift_tile");
  patterns.add<TileTransferLowering<GatherTileOp>>(converter, ctx, "tc_rt_gather_tile");
  patterns.add<TileTransferLowering<GatherTileStartOp>>(converter, ctx,
                                                        "tc_rt_gather_tile_start");
  patterns.add<TileTransferLowering<ReduceScatterTileOp>>(converter, ctx,
                                                          "tc_rt_reduce_scatter_tile");
  patterns.add<ArrayCallLowering<ShiftArrayOp>>(converter, ctx, "tc_rt_shift_array");
  patterns.add<ArrayCallLowering<AllGatherArrayOp>>(converter, ctx, "tc_rt_allgather_array");
  patterns.add<ArrayCallLowering<AllReduceArrayOp>>(converter, ctx, "tc_rt_allreduce_array");
  patterns.add<ArrayCallLowering<StoreOp>>(converter, ctx, "tc_rt_store");
  patterns.add<ArrayCallLowering<BlockStoreOp>>(converter, ctx, "tc_rt_block_store");
  patterns.add<ArrayCallLowering<FinishStoreOp>>(converter, ctx, "tc_rt_finish_store");
  patterns.add<ArrayCallLowering<ZeroArrayOp>>(converter, ctx, "tc_rt_zero_array");
  patterns.add<ArrayCallLowering<CombinePartialOp>>(converter, ctx, "tc_rt_combine_partial");
  patterns.add<SliceLowering<LoadSliceOp>>(converter, ctx, "tc_rt_load_slice");
  patterns.add<SliceLowering<StoreSliceOp>>(converter, ctx, "tc_rt_store_slice");
}

void mlir::tc::insertRuntimeABICheck(ModuleOp module) {
  auto entry = module.lookupSymbol<func::FuncOp>("tc_main");
  if (!entry || entry.isExternal())
    return;
  OpBuilder b(module.getContext());
  Location loc = entry.getLoc();
  declareRuntimeFunction(b, module, loc, "tc_rt_check_abi",
                         b.getFunctionType({b.getI64Type()}, {}));
  // Once per program, even when the pass runs again on its own output.
  for (auto call : entry.getBody().front().getOps<func::CallOp>())
    if (call.getCallee() == "tc_rt_check_abi")
      return;
  b.setInsertionPointToStart(&entry.getBody().front());
  Value version = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(TC_RT_API_VERSION));
  func::CallOp::create(b, loc, "tc_rt_check_abi", TypeRange{}, ValueRange{version});
}

LogicalResult mlir::tc::insertProcessCountCheck(ModuleOp module) {
  auto entry = module.lookupSymbol<func::FuncOp>("tc_main");
  if (!entry || entry.isExternal())
    return success();
  Block &body = entry.getBody().front();
  for (auto call : body.getOps<func::CallOp>())
    if (call.getCallee() == "tc_rt_check_procs" || call.getCallee() == "tc_rt_select_procs")
      return success(); // once per program
  // Each call of a planned function with the process count it was planned for.
  SmallVector<std::pair<func::CallOp, int64_t>> calls;
  SmallVector<int64_t> counts;
  func::CallOp unspecialized;
  for (auto call : body.getOps<func::CallOp>()) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    MachineAttr machine =
        callee && !callee.isExternal() ? getEnclosingMachine(callee) : MachineAttr();
    if (!machine)
      continue;
    if (!callee->hasAttr(TCDialect::getMachineAttrName()))
      unspecialized = call;
    calls.emplace_back(call, machine.getProcs());
    if (!llvm::is_contained(counts, machine.getProcs()))
      counts.push_back(machine.getProcs());
  }
  if (calls.empty())
    if (MachineAttr machine = getEnclosingMachine(module))
      counts.push_back(machine.getProcs());
  if (counts.empty())
    return success();
  OpBuilder b(module.getContext());
  Location loc = entry.getLoc();
  auto declare = [&](StringRef name, FunctionType type) {
    OpBuilder::InsertionGuard guard(b);
    declareRuntimeFunction(b, module, loc, name, type);
  };
  b.setInsertionPointToStart(&body);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  if (counts.size() == 1) {
    // The ranks a grid leaves idle are the run's beyond its product: the run
    // must have the machine's number (docs/RuntimeABI.md, idle ranks).
    declare("tc_rt_check_procs", b.getFunctionType({b.getI64Type()}, {}));
    func::CallOp::create(b, loc, "tc_rt_check_procs", TypeRange{},
                         ValueRange{constant(counts.front())});
    return success();
  }
  if (unspecialized)
    return unspecialized.emitError()
           << "tc_main calls @" << unspecialized.getCallee()
           << ", planned for the module's process count, among functions specialized for "
              "several; specialize every function (tc-specialize-procs)";
  declare("tc_rt_plan_for_procs", b.getFunctionType({b.getI64Type()}, {}));
  declare("tc_rt_select_procs", b.getFunctionType({}, {b.getI64Type()}));
  for (int64_t p : counts)
    func::CallOp::create(b, loc, "tc_rt_plan_for_procs", TypeRange{}, ValueRange{constant(p)});
  Value run = func::CallOp::create(b, loc, "tc_rt_select_procs", TypeRange{b.getI64Type()},
                                   ValueRange{})
                  .getResult(0);
  for (auto [call, p] : calls) {
    b.setInsertionPoint(call);
    Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, run, constant(p));
    auto guard = scf::IfOp::create(b, loc, mine, /*withElseRegion=*/false);
    call->moveBefore(guard.thenBlock()->getTerminator());
  }
  return success();
}
