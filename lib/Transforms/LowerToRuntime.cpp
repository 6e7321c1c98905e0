//===- LowerToRuntime.cpp - the tc-lower-to-runtime pass ------------------===//
//
// One runtime call per tile-level op (include/TC/Runtime/Runtime.h). Buffers go
// by pointer; static descriptions become private memref.global constants;
// offsets are stored into one stack buffer per op, allocated at function entry
// so that loops do not grow the stack.
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCOps.h"
#include "TC/Runtime/Runtime.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tc {
#define GEN_PASS_DEF_LOWERTORUNTIME
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

class RuntimeCalls {
public:
  explicit RuntimeCalls(ModuleOp module)
      : module(module), b(module.getContext()), symbols(module) {}

  LogicalResult lower(Operation *op);

private:
  Type ptrType() { return LLVM::LLVMPointerType::get(b.getContext()); }
  Value ptrOf(Location loc, Value memref);
  Value constant(Location loc, StringRef prefix, DenseElementsAttr data);
  /// A constant array of int64 (a static description), by address.
  Value global(Location loc, ArrayRef<int64_t> values);
  Value string(Location loc, StringRef s);
  Value offsetsBuffer(Location loc, ValueRange offsets);
  Value handle(Value array) { return handles.lookup(array); }
  Value call(Location loc, StringRef name, ValueRange args, TypeRange results = {});
  SmallVector<int64_t> shapeDesc(MemRefType type, int64_t flag);
  /// name(array, buffer, desc, offsets): the calling form of the per-tile ops.
  void tileCall(Location loc, StringRef name, Value array, Value buffer,
                ArrayRef<int64_t> desc, ValueRange offsets) {
    call(loc, name,
         {handle(array), ptrOf(loc, buffer), global(loc, desc), offsetsBuffer(loc, offsets)});
  }

  ModuleOp module;
  OpBuilder b;
  SymbolTable symbols;
  DenseMap<Value, Value> handles; ///< !tc.array value -> !llvm.ptr
  unsigned numGlobals = 0;

public:
  /// Lowered ops, erased last-first once every user is lowered.
  SmallVector<Operation *> toErase;
};

Value RuntimeCalls::ptrOf(Location loc, Value memref) {
  Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), idx);
  return LLVM::IntToPtrOp::create(b, loc, ptrType(), i64);
}

/// The address of a new private constant 1-d global `prefix<N>` holding `data`.
Value RuntimeCalls::constant(Location loc, StringRef prefix, DenseElementsAttr data) {
  auto type = MemRefType::get(data.getType().getShape(), data.getElementType());
  std::string name = (prefix + Twine(numGlobals++)).str();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type, data,
                             /*constant=*/true, /*alignment=*/nullptr);
  }
  return ptrOf(loc, memref::GetGlobalOp::create(b, loc, type, name));
}

Value RuntimeCalls::global(Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())}, b.getI64Type());
  return constant(loc, "__tc_desc_", DenseElementsAttr::get(type, values));
}

Value RuntimeCalls::string(Location loc, StringRef s) {
  SmallVector<int8_t> bytes(s.begin(), s.end());
  bytes.push_back(0); // NUL-terminated for the C ABI
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
  return constant(loc, "__tc_name_", DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes)));
}

Value RuntimeCalls::offsetsBuffer(Location loc, ValueRange offsets) {
  auto type = MemRefType::get({std::max<int64_t>(1, offsets.size())}, b.getI64Type());
  Value buf;
  {
    OpBuilder::InsertionGuard guard(b);
    auto func = b.getInsertionBlock()->getParentOp()->getParentOfType<func::FuncOp>();
    if (!func)
      func = cast<func::FuncOp>(b.getInsertionBlock()->getParentOp());
    b.setInsertionPointToStart(&func.getBody().front());
    buf = memref::AllocaOp::create(b, loc, type);
  }
  for (auto [i, v] : llvm::enumerate(offsets)) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    memref::StoreOp::create(b, loc, i64, buf,
                            ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
  }
  return ptrOf(loc, buf);
}

Value RuntimeCalls::call(Location loc, StringRef name, ValueRange args, TypeRange results) {
  if (!symbols.lookup(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto decl = func::FuncOp::create(b, loc, name, b.getFunctionType(args.getTypes(), results));
    decl.setPrivate();
    symbols.insert(decl);
  }
  auto c = func::CallOp::create(b, loc, name, results, args);
  return results.empty() ? Value() : c.getResult(0);
}

SmallVector<int64_t> RuntimeCalls::shapeDesc(MemRefType type, int64_t flag) {
  SmallVector<int64_t> d = {type.getRank(), flag};
  llvm::append_range(d, type.getShape());
  return d;
}

LogicalResult RuntimeCalls::lower(Operation *op) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  if (auto a = dyn_cast<ArrayOp>(op)) {
    // The kind and init enums carry the runtime's values (TCEnums.td).
    static_assert(int(ArrayKind::Distributed) == TC_RT_DISTRIBUTED &&
                  int(ArrayKind::Replicated) == TC_RT_REPLICATED &&
                  int(ArrayKind::Slab) == TC_RT_SLAB && int(ArrayKind::Gathered) == TC_RT_GATHERED);
    static_assert(int(ArrayInitKind::Input) == TC_RT_INIT_INPUT &&
                  int(ArrayInitKind::Zero) == TC_RT_INIT_ZERO &&
                  int(ArrayInitKind::RootInput) == TC_RT_INIT_ROOT_INPUT);
    SmallVector<int64_t> d = {static_cast<int64_t>(a.getExtents().size()),
                              static_cast<int64_t>(a.getKind()),
                              static_cast<int64_t>(a.getInit()),
                              a.getOnDisk() ? 1 : 0,
                              static_cast<int64_t>(a.getGrid().size())};
    llvm::append_range(d, a.getGrid());
    std::optional<ArrayRef<int64_t>> fileDims = a.getFileDims();
    for (size_t i = 0; i < a.getExtents().size(); ++i)
      d.append({a.getExtents()[i], a.getDims()[i], a.getSkew()[i],
                fileDims ? (*fileDims)[i] : static_cast<int64_t>(i)});
    Value storage = a.getStorage() ? ptrOf(loc, a.getStorage())
                                   : LLVM::ZeroOp::create(b, loc, ptrType()).getResult();
    Value h = call(loc, "tc_rt_array", {global(loc, d), string(loc, a.getName()), storage},
                   ptrType());
    handles[a.getResult()] = h;
  } else if (auto p = dyn_cast<PredictedVolumesOp>(op)) {
    auto f64 = [&](FloatAttr v) { return arith::ConstantOp::create(b, loc, v).getResult(); };
    call(loc, "tc_rt_plan",
         {f64(p.getDiskBytesAttr()), f64(p.getCommBytesAttr()), f64(p.getFlopsAttr()),
          arith::ConstantOp::create(b, loc, p.getChunkBytesAttr()).getResult()});
    if (p.getSentPerRank() && p.getReceivedPerRank()) {
      auto doubles = [&](ArrayRef<double> values) {
        auto type = RankedTensorType::get({static_cast<int64_t>(values.size())}, b.getF64Type());
        return constant(loc, "__tc_pred_", DenseElementsAttr::get(type, values));
      };
      call(loc, "tc_rt_plan_per_rank",
           {doubles(*p.getSentPerRank()), doubles(*p.getReceivedPerRank()),
            arith::ConstantOp::create(
                b, loc, b.getI64IntegerAttr(static_cast<int64_t>(p.getSentPerRank()->size())))
                .getResult()});
    }
  } else if (auto r = dyn_cast<ReadTileOp>(op)) {
    tileCall(loc, "tc_rt_read_tile", r.getArray(), r.getBuffer(),
             shapeDesc(r.getBuffer().getType(), r.getRootOnly()), r.getOffsets());
  } else if (auto w = dyn_cast<WriteTileOp>(op)) {
    tileCall(loc, "tc_rt_write_tile", w.getArray(), w.getBuffer(),
             shapeDesc(w.getBuffer().getType(), 0), w.getOffsets());
  } else if (auto bc = dyn_cast<BroadcastTileOp>(op)) {
    tileCall(loc, "tc_rt_broadcast_tile", bc.getArray(), bc.getBuffer(),
             shapeDesc(bc.getBuffer().getType(), 0), bc.getOffsets());
  } else if (auto s = dyn_cast<ShiftTileOp>(op)) {
    SmallVector<int64_t> d = shapeDesc(s.getBuffer().getType(), s.getGridDim());
    llvm::append_range(d, s.getSizes());
    tileCall(loc, "tc_rt_shift_tile", s.getArray(), s.getBuffer(), d, s.getOffsets());
  } else if (auto ar = dyn_cast<AllReduceTileOp>(op)) {
    SmallVector<int64_t> d = {ar.getBuffer().getType().getRank()};
    llvm::append_range(d, ar.getBuffer().getType().getShape());
    call(loc, "tc_rt_allreduce_tile", {ptrOf(loc, ar.getBuffer()), global(loc, d)});
  } else if (auto sa = dyn_cast<ShiftArrayOp>(op)) {
    call(loc, "tc_rt_shift_array",
         {handle(sa.getArray()),
          arith::ConstantOp::create(b, loc, sa.getGridDimAttr()).getResult()});
  } else if (auto g = dyn_cast<AllGatherArrayOp>(op)) {
    call(loc, "tc_rt_allgather_array", {handle(g.getArray())});
  } else if (auto ra = dyn_cast<AllReduceArrayOp>(op)) {
    call(loc, "tc_rt_allreduce_array", {handle(ra.getArray())});
  } else if (auto rd = dyn_cast<RedistributeArrayOp>(op)) {
    call(loc, "tc_rt_redistribute", {handle(rd.getSource()), handle(rd.getDestination())});
  } else if (auto st = dyn_cast<StoreOp>(op)) {
    call(loc, "tc_rt_store", {handle(st.getArray())});
  } else if (isa<LoadSliceOp, StoreSliceOp>(op)) {
    auto [array, extents, shift] =
        isa<LoadSliceOp>(op)
            ? std::make_tuple(cast<LoadSliceOp>(op).getArray(),
                              cast<LoadSliceOp>(op).getTensorExtents(),
                              cast<LoadSliceOp>(op).getShift())
            : std::make_tuple(cast<StoreSliceOp>(op).getArray(),
                              cast<StoreSliceOp>(op).getTensorExtents(),
                              cast<StoreSliceOp>(op).getShift());
    SmallVector<int64_t> d = {static_cast<int64_t>(extents.size())};
    llvm::append_range(d, extents);
    call(loc, isa<LoadSliceOp>(op) ? "tc_rt_load_slice" : "tc_rt_store_slice",
         {handle(array), global(loc, d), offsetsBuffer(loc, shift)});
  } else if (auto fs = dyn_cast<FinishStoreOp>(op)) {
    call(loc, "tc_rt_finish_store", {handle(fs.getArray())});
  } else if (auto z = dyn_cast<ZeroArrayOp>(op)) {
    call(loc, "tc_rt_zero_array", {handle(z.getArray())});
  } else if (auto cp = dyn_cast<CombinePartialOp>(op)) {
    int64_t mask = 0;
    for (int64_t g : cp.getGridDims())
      mask |= int64_t(1) << g;
    call(loc, "tc_rt_combine_partial",
         {handle(cp.getArray()), arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(mask))
                                     .getResult()});
  } else if (auto tcOp = dyn_cast<TileContractOp>(op)) {
    DictionaryAttr extents = tcOp.getExtents();
    auto id = [&](Attribute l) {
      StringRef name = cast<StringAttr>(l).getValue();
      return static_cast<int64_t>(llvm::find_if(extents, [&](NamedAttribute e) {
                                    return e.getName() == name;
                                  }) - extents.begin());
    };
    MemRefType types[3] = {tcOp.getA().getType(), tcOp.getB().getType(), tcOp.getC().getType()};
    ArrayAttr labels[3] = {tcOp.getALabels(), tcOp.getBLabels(), tcOp.getCLabels()};
    SmallVector<int64_t> d;
    for (MemRefType t : types)
      d.push_back(t.getRank());
    for (MemRefType t : types)
      llvm::append_range(d, t.getShape());
    for (ArrayAttr ls : labels)
      for (Attribute l : ls)
        d.push_back(id(l));
    d.push_back(extents.size());
    for (NamedAttribute e : extents)
      d.push_back(cast<IntegerAttr>(e.getValue()).getInt());
    SmallVector<Value> offs(tcOp.getAOffsets());
    llvm::append_range(offs, tcOp.getBOffsets());
    llvm::append_range(offs, tcOp.getCOffsets());
    call(loc, "tc_rt_tile_contract",
         {global(loc, d), ptrOf(loc, tcOp.getA()), ptrOf(loc, tcOp.getB()),
          ptrOf(loc, tcOp.getC()), offsetsBuffer(loc, offs)});
  } else {
    return success(); // not a tile-level op
  }
  toErase.push_back(op);
  return success();
}

struct LowerToRuntimePass : public tc::impl::LowerToRuntimeBase<LowerToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<TCDialect>(op->getDialect()))
        ops.push_back(op);
    });
    RuntimeCalls calls(module);
    for (Operation *op : ops) {
      if (isa<ContractOp, SumOp, MultiContractOp, RedistributeOp>(op)) {
        op->emitOpError() << "must be lowered by tc-lower-plan (or, in an operator tree, "
                             "tc-lower-fused) before tc-lower-to-runtime";
        return signalPassFailure();
      }
      if (failed(calls.lower(op)))
        return signalPassFailure();
    }
    for (Operation *op : llvm::reverse(calls.toErase))
      op->erase();
    // The machine model has served the planners; LLVM IR has no place for it.
    module->removeAttr(TCDialect::getMachineAttrName());
  }
};

} // namespace
