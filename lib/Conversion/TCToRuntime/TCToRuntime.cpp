//===- TCToRuntime.cpp - tile-level tc ops to runtime calls ---------------===//
//
// One OpConversionPattern per tile-level op, each emitting one call into tc's
// runtime. What the runtime decodes (array, tile, slice and contraction
// descriptors) is encoded with the runtime's own encoders
// (include/TC/Runtime/Descriptors.h), and every call is typed by the
// function's one declaration (RuntimeFunctions.def, through RuntimeCalls.h),
// so the two sides cannot drift apart.
//
//===----------------------------------------------------------------------===//
#include "TC/Conversion/TCToRuntime/TCToRuntime.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Runtime/Descriptors.h"

#include "RuntimeCalls.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;
namespace abi = ::tc_rt;

namespace {

using runtime::Function;
using runtime::RuntimeCallBuilder;

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
    // The init enum carries the runtime's values (TCEnums.td); the layout is
    // the layout library's, whose holdings are tc_rt_kind's.
    static_assert(int(ArrayInitKind::Input) == TC_RT_INIT_INPUT &&
                  int(ArrayInitKind::Zero) == TC_RT_INIT_ZERO &&
                  int(ArrayInitKind::RootInput) == TC_RT_INIT_ROOT_INPUT &&
                  int(ArrayInitKind::Ones) == TC_RT_INIT_ONES);
    desc.layout = op.getLayout().getLayout();
    desc.init = static_cast<tc_rt_init>(op.getInit());
    desc.onDisk = op.getOnDisk();
    desc.elem = elementCode(op.getType().getElementType());
    RuntimeCallBuilder b(rewriter, op);
    runtime::Buffer storage =
        adaptor.getStorage() ? b.pointer(adaptor.getStorage()) : b.null();
    runtime::Handle handle = b.call<Function::tc_rt_array>(
        {b.descriptor(desc.encode()), b.string(op.getName()), storage});
    rewriter.replaceOp(op, handle.value);
    return success();
  }
};

/// The runtime's buffer as a memref: the descriptor finalize-memref-to-llvm
/// builds for a statically shaped memref at that pointer (upstream's
/// MemRefDescriptor), cast to the memref type; reconcile-unrealized-casts
/// removes the cast once the memref's uses are lowered to the same descriptor.
Value memrefOfBuffer(OpBuilder &b, Location loc, MemRefType type, Value pointer) {
  LLVMTypeConverter converter(b.getContext());
  Value desc = MemRefDescriptor::fromStaticShape(b, loc, converter, type, pointer);
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

struct AllocStorageOpLowering : OpConversionPattern<AllocStorageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AllocStorageOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto array = cast<ArrayType>(op.getArray());
    abi::ArrayDesc desc;
    desc.layout = array.getLayout().getLayout();
    desc.init = TC_RT_INIT_INPUT;
    desc.elem = elementCode(array.getElementType());
    RuntimeCallBuilder b(rewriter, op);
    runtime::Buffer buffer = b.call<Function::tc_rt_alloc_storage>(
        {b.descriptor(desc.encode()), b.string(op.getName()), b.i64(op.getReadOnly() ? 1 : 0)});
    rewriter.replaceOp(
        op, memrefOfBuffer(rewriter, op.getLoc(), op.getBuffer().getType(), buffer.value));
    return success();
  }
};

struct PredictedVolumesOpLowering : OpConversionPattern<PredictedVolumesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PredictedVolumesOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    b.call<Function::tc_rt_plan>({b.f64(op.getDiskBytesAttr()), b.f64(op.getCommBytesAttr()),
                                  b.f64(op.getFlopsAttr()), b.i64(op.getChunkBytes())});
    if (op.getSentPerRank() && op.getReceivedPerRank())
      b.call<Function::tc_rt_plan_per_rank>(
          {b.doubles(*op.getSentPerRank()), b.doubles(*op.getReceivedPerRank()),
           b.i64(static_cast<int64_t>(op.getSentPerRank()->size()))});
    if (op.getDiskPerRank())
      b.call<Function::tc_rt_plan_disk_per_rank>(
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
template <typename OpTy, Function F>
struct TileTransferLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    auto call = [&] {
      return b.callWithOffsets<F>(
          {b.handle(adaptor.getArray()), b.pointer(adaptor.getBuffer()), b.descriptor(describe(op))},
          adaptor.getOffsets());
    };
    if constexpr (std::is_void_v<runtime::ResultOf<F>>) {
      call();
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, call().value);
    }
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
    RuntimeCallBuilder b(rewriter, op);
    b.call<Function::tc_rt_wait>({b.handle(adaptor.getTransfer())});
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
    runtime::I64 coord = b.call<Function::tc_rt_grid_coord>(
        {b.handle(adaptor.getArray()), b.i64(op.getGridDim())});
    rewriter.replaceOp(op, arith::IndexCastOp::create(rewriter, op.getLoc(),
                                                      rewriter.getIndexType(), coord.value));
    return success();
  }
};

/// tc.gather_cyclic and tc.reduce_cyclic: the panel's dimension, modulus and
/// buffer shape, the residue at run time.
template <typename OpTy, Function F>
struct CyclicPanelLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    abi::CyclicPanelDesc desc{static_cast<int64_t>(op.getDim()),
                              static_cast<int64_t>(op.getModulus()),
                              shapeOf(op.getBuffer().getType())};
    runtime::I64 residue = b.index(adaptor.getResidue());
    b.call<F>({b.handle(adaptor.getArray()), b.pointer(adaptor.getBuffer()),
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
    b.call<Function::tc_rt_allreduce_tile>(
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

template <typename OpTy, Function F>
struct ArrayCallLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    runtime::Handle array = b.handle(adaptor.getArray());
    if constexpr (std::is_same_v<OpTy, ShiftArrayOp>) {
      b.call<F>({array, b.i64(op.getGridDim())});
    } else if constexpr (std::is_same_v<OpTy, CombinePartialOp>) {
      int64_t mask = 0; // tc_rt_combine_partial takes the grid dimensions as bits
      for (int64_t g : op.getGridDims())
        mask |= int64_t(1) << g;
      b.call<F>({array, b.i64(mask)});
    } else {
      b.call<F>({array});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Programs: statements and loops (docs/Derivations.md D35, D38)
//===----------------------------------------------------------------------===//

struct BeginStatementOpLowering : OpConversionPattern<BeginStatementOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BeginStatementOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    tc_rt_result result = !op.getIntermediate() ? TC_RT_RESULT_OUTPUT
                          : op.getInMemory()    ? TC_RT_RESULT_MEMORY
                                                : TC_RT_RESULT_FILE;
    runtime::I64 code = b.i64(result | (op.getReciprocal() ? TC_RT_RESULT_RECIPROCAL : 0) |
                              (op.getKeepInputs() ? TC_RT_KEEP_INPUTS : 0));
    b.call<Function::tc_rt_begin_statement>({b.string(op.getName()), code});
    rewriter.eraseOp(op);
    return success();
  }
};

struct BeginIterationOpLowering : OpConversionPattern<BeginIterationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BeginIterationOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    LoopAttr loop = op.getLoop();
    std::string carried;
    if (loop.getCarried())
      for (Attribute name : loop.getCarried())
        carried += (carried.empty() ? "" : ",") + cast<StringAttr>(name).getValue().str();
    b.call<Function::tc_rt_begin_iteration>(
        {b.string(loop.getLabel()), b.string(carried), b.i64(loop.getDiis())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct EndIterationOpLowering : OpConversionPattern<EndIterationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(EndIterationOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    LoopAttr loop = op.getLoop();
    FloatAttr tolerance = loop.getTolerance() ? loop.getTolerance() : rewriter.getF64FloatAttr(0);
    Value again = b.call<Function::tc_rt_end_iteration>({b.string(loop.getLabel()),
                                                         b.string(loop.getConverge()),
                                                         b.f64(tolerance), b.i64(loop.getMax())})
                      .value;
    Value zero = b.i64(0).value;
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, arith::CmpIPredicate::ne, again, zero);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Block-sparse arrays and schedules (Krishnamoorthy et al., docs/BlockSparse.md)
//===----------------------------------------------------------------------===//

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
    const BlockSparseShape shape = blocks.toShape();
    desc.blocks = shape.storedBlocks();
    desc.homes.assign(op.getHomes().begin(), op.getHomes().end());
    desc.flip = shape.presence.flip;
    for (const PairSymmetry &pair : shape.presence.pairs)
      desc.pairs.push_back({pair.first, pair.second, pair.antisymmetric ? 1 : 0});
    RuntimeCallBuilder b(rewriter, op);
    runtime::Handle array =
        b.call<Function::tc_rt_block_array>({b.descriptor(desc.encode()), b.string(op.getName())});
    rewriter.replaceOp(op, array.value);
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
    ArrayRef<int64_t> reads = op.getReads().value_or(ArrayRef<int64_t>());
    const size_t ra = labels[0].size(), rb = labels[1].size(), width = 2 + ra + rb;
    for (size_t i = 0; i + width <= reads.size(); i += width)
      plan.reads.push_back({reads[i], abi::Desc(reads.begin() + i + 1, reads.begin() + i + 1 + ra),
                            abi::Desc(reads.begin() + i + 1 + ra, reads.begin() + i + 1 + ra + rb),
                            reads[i + width - 1]});
    RuntimeCallBuilder b(rewriter, op);
    runtime::I64 stage = b.index(adaptor.getStage());
    b.call<Function::tc_rt_block_stage>({b.descriptor(plan.encode()), b.handle(adaptor.getA()),
                                         b.handle(adaptor.getB()), b.handle(adaptor.getC()),
                                         stage});
    rewriter.eraseOp(op);
    return success();
  }
};

struct RedistributeArrayOpLowering : OpConversionPattern<RedistributeArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RedistributeArrayOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    b.call<Function::tc_rt_redistribute>(
        {b.handle(adaptor.getSource()), b.handle(adaptor.getDestination())});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Slices of tensors (fused programs): name(array, extents descriptor, shift)
//===----------------------------------------------------------------------===//

template <typename OpTy, Function F>
struct SliceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    abi::SliceDesc desc{abi::Desc(op.getTensorExtents().begin(), op.getTensorExtents().end())};
    b.callWithOffsets<F>({b.handle(adaptor.getArray()), b.descriptor(desc.encode())},
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
    b.callWithOffsets<Function::tc_rt_tile_contract>(
        {b.descriptor(desc.encode()), b.pointer(adaptor.getA()), b.pointer(adaptor.getB()),
         b.pointer(adaptor.getC())},
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
  patterns.add<ArrayOpLowering, AllocStorageOpLowering, PredictedVolumesOpLowering,
               AllReduceTileOpLowering, RedistributeArrayOpLowering, TileContractOpLowering,
               WaitOpLowering, GridCoordOpLowering, BlockArrayOpLowering, BlockStageOpLowering,
               BeginStatementOpLowering, BeginIterationOpLowering, EndIterationOpLowering>(
      converter, ctx);
  patterns.add<CyclicPanelLowering<GatherCyclicOp, Function::tc_rt_gather_cyclic>,
               CyclicPanelLowering<ReduceCyclicOp, Function::tc_rt_reduce_cyclic>,
               TileTransferLowering<ReadTileOp, Function::tc_rt_read_tile>,
               TileTransferLowering<WriteTileOp, Function::tc_rt_write_tile>,
               TileTransferLowering<BroadcastTileOp, Function::tc_rt_broadcast_tile>,
               TileTransferLowering<ShiftTileOp, Function::tc_rt_shift_tile>,
               TileTransferLowering<GatherTileOp, Function::tc_rt_gather_tile>,
               TileTransferLowering<GatherTileStartOp, Function::tc_rt_gather_tile_start>,
               TileTransferLowering<ReduceScatterTileOp, Function::tc_rt_reduce_scatter_tile>,
               ArrayCallLowering<ShiftArrayOp, Function::tc_rt_shift_array>,
               ArrayCallLowering<AllGatherArrayOp, Function::tc_rt_allgather_array>,
               ArrayCallLowering<AllReduceArrayOp, Function::tc_rt_allreduce_array>,
               ArrayCallLowering<StoreOp, Function::tc_rt_store>,
               ArrayCallLowering<BlockStoreOp, Function::tc_rt_block_store>,
               ArrayCallLowering<FinishStoreOp, Function::tc_rt_finish_store>,
               ArrayCallLowering<ZeroArrayOp, Function::tc_rt_zero_array>,
               ArrayCallLowering<CombinePartialOp, Function::tc_rt_combine_partial>,
               SliceLowering<LoadSliceOp, Function::tc_rt_load_slice>,
               SliceLowering<StoreSliceOp, Function::tc_rt_store_slice>>(converter, ctx);
}

void mlir::tc::insertRuntimeABICheck(ModuleOp module) {
  auto entry = module.lookupSymbol<func::FuncOp>("tc_main");
  if (!entry || entry.isExternal())
    return;
  OpBuilder b(module.getContext());
  Location loc = entry.getLoc();
  runtime::declare(b, module, loc, Function::tc_rt_check_abi);
  // Once per program, even when the pass runs again on its own output.
  for (auto call : entry.getBody().front().getOps<func::CallOp>())
    if (call.getCallee() == runtime::nameOf(Function::tc_rt_check_abi))
      return;
  b.setInsertionPointToStart(&entry.getBody().front());
  RuntimeCallBuilder rt(b, loc, module);
  rt.call<Function::tc_rt_check_abi>({rt.i64(TC_RT_API_VERSION)});
}

LogicalResult mlir::tc::insertProcessCountCheck(ModuleOp module) {
  auto entry = module.lookupSymbol<func::FuncOp>("tc_main");
  if (!entry || entry.isExternal())
    return success();
  Block &body = entry.getBody().front();
  for (auto call : body.getOps<func::CallOp>())
    if (call.getCallee() == runtime::nameOf(Function::tc_rt_check_procs) ||
        call.getCallee() == runtime::nameOf(Function::tc_rt_select_procs))
      return success(); // once per program
  // Each call of a planned function with the process count it was planned for.
  SmallVector<std::pair<func::CallOp, int64_t>> calls;
  SmallVector<int64_t> counts;
  func::CallOp unspecialized;
  SmallVector<func::CallOp> entryCalls; // a loop's calls too
  entry.walk([&](func::CallOp call) { entryCalls.push_back(call); });
  for (auto call : entryCalls) {
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
  b.setInsertionPointToStart(&body);
  RuntimeCallBuilder rt(b, loc, module);
  if (counts.size() == 1) {
    // The ranks a grid leaves idle are the run's beyond its product: the run
    // must have the machine's number (docs/RuntimeABI.md, idle ranks).
    rt.call<Function::tc_rt_check_procs>({rt.i64(counts.front())});
    return success();
  }
  if (unspecialized)
    return unspecialized.emitError()
           << "tc_main calls @" << unspecialized.getCallee()
           << ", planned for the module's process count, among functions specialized for "
              "several; specialize every function (tc-specialize-procs)";
  for (int64_t p : counts)
    rt.call<Function::tc_rt_plan_for_procs>({rt.i64(p)});
  Value run = rt.call<Function::tc_rt_select_procs>({}).value;
  for (auto [call, p] : calls) {
    b.setInsertionPoint(call);
    Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, run, rt.i64(p).value);
    auto guard = scf::IfOp::create(b, loc, mine, /*withElseRegion=*/false);
    call->moveBefore(guard.thenBlock()->getTerminator());
  }
  return success();
}
