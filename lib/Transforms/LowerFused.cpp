//===- LowerFused.cpp - the tc-lower-fused pass ---------------------------===//
//
// Materializes a function tc-fuse-distribute planned (Cociorva et al. Fig. 2(c)):
// the plan's loop nest (lib/Analysis/FusedSchedule) as scf.for loops over the
// fused indices, every array reduced to its slice (a tc.array whose fused
// dimensions hold one index per block) in the distribution it is produced and,
// when different, consumed in; inputs read and redistributed slice by slice,
// each formula's local product a tc.tile_contract on the current slices, partial
// sums combined, and the result written slice by slice. The tile-level ops then
// lower to runtime calls like a single contraction's.
//
//===----------------------------------------------------------------------===//
#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "ProgramEntry.h"
#include "TC/Analysis/FusedSchedule.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tc {
#define GEN_PASS_DEF_LOWERFUSED
#include "TC/Transforms/Passes.h.inc"
#include "TC/Layout/Ownership.h"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// One array of the tree as the program holds it: its slice where it is
/// produced and, when redistributed, where it is consumed.
struct SliceArrays {
  std::string name;
  Value produced, consumed;              ///< !tc.array handles
  Value producedBuffer, consumedBuffer;  ///< their storage
  /// Partial sums consolidated on one slice ([C] 3.3 variant 1, `1` in the
  /// produced distribution): every process accumulates its partial sums here,
  /// along those grid dimensions replicated; combined, they are copied into
  /// `produced`, whose first slice keeps its own blocks (no bytes move).
  Value accumulator, accumulatorBuffer;
  Value sum() const { return accumulator ? accumulator : produced; }
  Value sumBuffer() const { return accumulator ? accumulatorBuffer : producedBuffer; }
  Value final() const { return consumed ? consumed : produced; }
  Value finalBuffer() const { return consumed ? consumedBuffer : producedBuffer; }
};

class FusedLowering {
public:
  FusedLowering(func::FuncOp func, const MachineModel &machine)
      : func(func), machine(machine), b(func.getContext()), loc(func.getLoc()) {}

  LogicalResult run();

private:
  LogicalResult readPlan();
  void createArrays();
  void emit(const std::vector<ScheduleItem> &items);
  void emitContract(int node);
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// A constant buffer of ones of `shape` (a module-level memref.global).
  Value ones(ArrayRef<int64_t> shape) {
    const Type elementType = tree.elementType();
    auto type = MemRefType::get(shape, elementType);
    auto module = func->getParentOfType<ModuleOp>();
    std::string name;
    for (int n = 0;; ++n) {
      name = "__tc_ones_" + std::to_string(n);
      if (!module.lookupSymbol(name))
        break;
    }
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto tensorType = RankedTensorType::get(shape, elementType);
      memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                               DenseElementsAttr::get(tensorType, b.getFloatAttr(elementType, 1.0)),
                               /*constant=*/true,
                               /*alignment=*/nullptr);
    }
    return memref::GetGlobalOp::create(b, loc, type, name);
  }
  /// Shifts of node's dimensions: the open loop's value where the array is fused.
  SmallVector<Value> shifts(int node);
  /// The grid dimensions `dist` holds on their first slice only (`1`, [C] 3.1).
  SmallVector<int64_t> firstSliceDims(const Distribution &dist) const {
    SmallVector<int64_t> dims;
    for (size_t g = 0; g < plan.grid.size(); ++g)
      if (dist.entry[g] == Distribution::kFirstSlice)
        dims.push_back(static_cast<int64_t>(g));
    return dims;
  }

  func::FuncOp func;
  MachineModel machine; ///< the module's, in bytes of the tree's element type (readPlan)
  OpBuilder b;
  Location loc;
  FunctionTree tree;
  FusionPlan plan;
  FusedSchedule schedule;
  std::vector<SliceArrays> arrays;
  /// An open fused loop: its induction variable and its (virtual) blocks.
  struct OpenLoop {
    Value iv;
    int64_t parts = 1;
  };
  llvm::DenseMap<int, OpenLoop> openLoops; ///< by index
};

LogicalResult FusedLowering::readPlan() {
  FailureOr<FunctionTree> built = buildFunctionTree(func);
  if (failed(built))
    return failure();
  tree = std::move(*built);
  machine = forElementType(machine, tree.elementType());
  auto planAttr = func->getAttrOfType<FusionPlanAttr>(TCDialect::getFusionPlanAttrName());
  Grid grid(planAttr.getGrid().getShape().begin(), planAttr.getGrid().getShape().end());
  FailureOr<std::vector<NodeDecision>> decisions = readFusionDecisions(func, tree, grid);
  if (failed(decisions))
    return failure();
  FusionMachine fm{machine.procs, machine.memBytes, machine.elemBytes, machine.flopRate, true};
  AnalyticCommCost comm(0, machine.netBandwidth, machine.elemBytes);
  EvaluatedPlan evaluated = evaluateFusionPlan(tree.tree, grid, *decisions, fm, comm);
  if (!evaluated.error.empty())
    return func.emitError() << "the fusion plan of @" << func.getSymName()
                            << " is not legal: " << evaluated.error;
  plan = evaluated.plan;
  if (failed(checkRecordedEdges(func, tree, plan)))
    return failure();
  int64_t procs = gridProcs(grid);
  if (procs != machine.procs)
    return func.emitError() << "the fusion plan's grid has " << procs
                            << " processes, the machine " << machine.procs;
  for (size_t id = 0; id < plan.nodes.size(); ++id)
    for (int i : tree.tree.node(static_cast<int>(id)).dims) {
      const FusionEdge &edge = plan.nodes[id].edge;
      if (!contains(edge.fused, i))
        continue;
      int64_t parts = virtualParts(grid, edge, i);
      if (tree.tree.extent(i) % parts != 0)
        return func.emitError()
               << "index '" << tree.tree.indexName(i) << "' (extent " << tree.tree.extent(i)
               << ") is fused and split into " << parts
               << " (virtual) blocks, which do not divide it; tc-lower-fused needs equal "
                  "blocks of fused indices";
    }
  schedule = buildFusedSchedule(tree.tree, plan);
  if (!schedule.error.empty())
    return func.emitError() << "@" << func.getSymName() << ": " << schedule.error;
  return success();
}

void FusedLowering::createArrays() {
  arrays.resize(tree.values.size());
  for (size_t id = 0; id < tree.values.size(); ++id) {
    int node = static_cast<int>(id);
    const OperatorTree::Node &v = tree.tree.node(node);
    SliceArrays &a = arrays[id];
    a.name = v.name; // inputs and the result: their datasets
    const FusionEdge &edge = plan.nodes[id].edge;
    auto create = [&](const Distribution &dist, Value &buffer) {
      const tc_layout::ArrayLayout layout = sliceLayout(tree.tree, plan, node, dist);
      auto type = MemRefType::get(layout.paddedBlock(), tree.elementType());
      buffer = memref::AllocOp::create(b, loc, type);
      auto arrayType = ArrayType::get(b.getContext(), tree.elementType(),
                                      ArrayLayoutAttr::get(b.getContext(), layout));
      return ArrayOp::create(b, loc, arrayType, a.name, ArrayInitKind::Zero, /*on_disk=*/false,
                             buffer)
          .getResult();
    };
    a.produced = create(edge.produced, a.producedBuffer);
    if (!v.isInput()) {
      // Where the partial sums go to one slice, the processes add them up
      // replicated first (the runtime's combine sums onto all).
      const Distribution &gamma = plan.nodes[id].decision.compute;
      Distribution accumulating = edge.produced;
      for (size_t g = 0; g < plan.grid.size(); ++g)
        if (accumulating.entry[g] == Distribution::kFirstSlice && gamma.entry[g] >= 0 &&
            contains(v.summed(), gamma.entry[g]))
          accumulating.entry[g] = Distribution::kReplicated;
      if (!(accumulating == edge.produced))
        a.accumulator = create(accumulating, a.accumulatorBuffer);
    }
    if (!(edge.produced == edge.consumed))
      a.consumed = create(edge.consumed, a.consumedBuffer);
  }
}

SmallVector<Value> FusedLowering::shifts(int node) {
  SmallVector<Value> out;
  for (int i : tree.tree.node(node).dims)
    out.push_back(contains(plan.nodes[node].edge.fused, i) ? openLoops.lookup(i).iv : index(0));
  return out;
}

/// The coefficient of a formula's product (no attribute for 1).
static FloatAttr alphaOf(Operation *formula) {
  return isa<ContractOp>(formula) ? scaleAttr(cast<ContractOp>(formula))
                                  : scaleAttr(cast<SumOp>(formula));
}

void FusedLowering::emitContract(int node) {
  const OperatorTree::Node &u = tree.tree.node(node);
  // An open loop not fused for an operand selects this iteration's element of
  // each virtual block in the operand's block, where the virtual blocks lie one
  // after another: every (extent / parts)-th element from the loop's value on.
  SmallVector<Value> offsets[3];
  SmallVector<Attribute> labels[3];
  SmallVector<int64_t> steps[3];
  auto operand = [&](int id, int x) {
    for (int i : tree.tree.node(id).dims) {
      auto open = openLoops.find(i);
      bool sliced = open != openLoops.end() && !contains(plan.nodes[id].edge.fused, i);
      offsets[x].push_back(sliced ? open->second.iv : index(0));
      steps[x].push_back(sliced ? tree.tree.extent(i) / open->second.parts : 1);
      labels[x].push_back(b.getStringAttr(tree.tree.indexName(i)));
    }
  };
  auto stepsAttr = [&](int x) {
    return llvm::all_of(steps[x], [](int64_t s) { return s == 1; })
               ? DenseI64ArrayAttr()
               : b.getDenseI64ArrayAttr(steps[x]);
  };
  operand(u.children[0], 0);
  operand(node, 2);
  SmallVector<NamedAttribute> extents;
  SmallVector<int64_t> summedShape;
  for (int i = 0; i < tree.tree.numIndices(); ++i)
    if (contains(u.indices, i)) {
      int64_t parts = plan.nodes[node].decision.compute.parts(plan.grid, i);
      auto open = openLoops.find(i);
      // Inside a loop: one element of each of its virtual blocks this process holds.
      int64_t local = open != openLoops.end() ? open->second.parts / parts
                                              : tc_layout::ceilDiv(tree.tree.extent(i), parts);
      extents.push_back(b.getNamedAttr(tree.tree.indexName(i), b.getI64IntegerAttr(local)));
      if (contains(u.summed(), i)) {
        summedShape.push_back(local);
        labels[1].push_back(b.getStringAttr(tree.tree.indexName(i)));
      }
    }
  Value second;
  if (u.children.size() == 2) {
    labels[1].clear();
    operand(u.children[1], 1);
    second = arrays[u.children[1]].finalBuffer();
  } else {
    // A summation ([C] 2) is the contraction with ones over the summed indices.
    second = ones(summedShape);
    offsets[1].assign(summedShape.size(), index(0));
    steps[1].assign(summedShape.size(), 1);
  }
  // A formula computed on first slices (`1`) runs only there: the other
  // processes hold none of its arrays (tc.grid_coord is -1 on them).
  OpBuilder::InsertionGuard guard(b);
  if (!firstSliceDims(plan.nodes[node].decision.compute).empty()) {
    Value coord =
        GridCoordOp::create(b, loc, b.getIndexType(), arrays[node].sum(), b.getI64IntegerAttr(0));
    Value holds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, coord, index(0));
    auto onSlice = scf::IfOp::create(b, loc, holds, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&onSlice.getThenRegion().front());
  }
  TileContractOp::create(b, loc, arrays[node].sumBuffer(), offsets[2],
                         b.getArrayAttr(labels[2]), arrays[u.children[0]].finalBuffer(),
                         offsets[0], b.getArrayAttr(labels[0]), second, offsets[1],
                         b.getArrayAttr(labels[1]), b.getDictionaryAttr(extents),
                         stepsAttr(2), stepsAttr(0), stepsAttr(1), alphaOf(tree.ops[node]));
}

void FusedLowering::emit(const std::vector<ScheduleItem> &items) {
  for (const ScheduleItem &item : items) {
    int node = item.node;
    switch (item.kind) {
    case ScheduleItem::Kind::Loop: {
      auto loop = scf::ForOp::create(b, loc, index(0), index(item.trips), index(1));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      openLoops[item.index] = {loop.getInductionVar(), item.parts};
      emit(item.body);
      openLoops.erase(item.index);
      break;
    }
    case ScheduleItem::Kind::Zero:
      ZeroArrayOp::create(b, loc, arrays[node].sum());
      break;
    case ScheduleItem::Kind::Load:
    case ScheduleItem::Kind::Store: {
      SmallVector<int64_t> full;
      for (int i : tree.tree.node(node).dims)
        full.push_back(tree.tree.extent(i));
      if (item.kind == ScheduleItem::Kind::Load)
        LoadSliceOp::create(b, loc, arrays[node].produced, full, shifts(node));
      else
        StoreSliceOp::create(b, loc, arrays[node].final(), full, shifts(node));
      break;
    }
    case ScheduleItem::Kind::Contract:
      emitContract(node);
      break;
    case ScheduleItem::Kind::Combine: {
      SmallVector<int64_t> dims;
      const Distribution &gamma = plan.nodes[node].decision.compute;
      for (size_t d = 0; d < plan.grid.size(); ++d)
        if (gamma.entry[d] >= 0 && contains(tree.tree.node(node).summed(), gamma.entry[d]))
          dims.push_back(static_cast<int64_t>(d));
      CombinePartialOp::create(b, loc, arrays[node].sum(), dims);
      if (arrays[node].accumulator)
        RedistributeArrayOp::create(b, loc, arrays[node].accumulator, arrays[node].produced);
      break;
    }
    case ScheduleItem::Kind::Redistribute:
      RedistributeArrayOp::create(b, loc, arrays[node].produced, arrays[node].consumed);
      break;
    }
  }
}

LogicalResult FusedLowering::run() {
  if (failed(readPlan()))
    return failure();
  func::FuncOp lowered = createLoweredFunction(func);
  b.setInsertionPointToStart(lowered.addEntryBlock());
  ExchangeVolumes predicted = predictedCommBytes(tree.tree, plan, schedule, machine.elemBytes);
  double flops = 0;
  for (size_t id = 0; id < plan.nodes.size(); ++id)
    if (!tree.tree.node(static_cast<int>(id)).isInput())
      flops += 2 * calcCost(tree.tree, plan.grid, static_cast<int>(id),
                            plan.nodes[id].decision.compute);
  int64_t chunk = fusedStagingChunk(machine.memBytes);
  PredictedVolumesOp::create(b, loc, b.getF64FloatAttr(0), b.getF64FloatAttr(0),
                             b.getF64FloatAttr(flops), b.getI64IntegerAttr(chunk),
                             b.getDenseF64ArrayAttr(predicted.sent),
                             b.getDenseF64ArrayAttr(predicted.received),
                             /*disk_per_rank=*/DenseF64ArrayAttr());
  createArrays();
  emit(schedule.program);
  FinishStoreOp::create(b, loc, arrays[tree.tree.root()].final());
  for (const SliceArrays &a : arrays)
    for (Value buffer : {a.producedBuffer, a.consumedBuffer, a.accumulatorBuffer})
      if (buffer)
        memref::DeallocOp::create(b, loc, buffer);
  func::ReturnOp::create(b, loc);
  func.erase();
  return success();
}

struct LowerFusedPass : public tc::impl::LowerFusedBase<LowerFusedPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> work;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(TCDialect::getFusionPlanAttrName()))
        work.push_back(func);
    if (work.empty())
      return;
    SmallVector<StringAttr> lowered;
    for (func::FuncOp func : work) {
      StringAttr name = func.getSymNameAttr();
      FailureOr<MachineModel> machine = getMachineModel(func);
      if (failed(machine) || failed(FusedLowering(func, *machine).run()))
        return signalPassFailure();
      lowered.push_back(name);
    }
    if (failed(appendToProgramEntry(module, lowered)))
      return signalPassFailure();
  }
};

} // namespace
