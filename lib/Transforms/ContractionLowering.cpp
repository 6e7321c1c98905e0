//===- ContractionLowering.cpp - what tc-lower-plan reads from a plan -----===//
//
// Reading a planned tc.contract: its shape, its plan attribute and its arrays
// in the plan's distributions (Gao et al. Table 1), and what every algorithm's
// program shares: predictions, array creation, stages 1 and 3 of [G] 2.3.
//
//===----------------------------------------------------------------------===//
#include "ContractionLowering.h"
#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "ProgramEntry.h"
#include "TC/Analysis/StorageOrder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;

namespace mlir::tc::lowering {

/// The function argument behind an operand, looking through a tc.redistribute.
static Value functionArgument(Value v) {
  if (auto r = v.getDefiningOp<RedistributeOp>())
    v = r.getSource();
  return isa_and_nonnull<BlockArgument>(v) ? v : Value();
}

std::string arrayName(func::FuncOp func, Value operand, Operand role) {
  std::string name = kDefaultNames[role];
  if (Value v = operand ? functionArgument(operand) : Value())
    if (auto attr = func.getArgAttrOfType<StringAttr>(cast<BlockArgument>(v).getArgNumber(),
                                                      "tc.name"))
      name = attr.str();
  // The result's name (its HDF5 dataset) may also sit on the function result.
  if (role == Operand::C)
    if (auto attr = func.getResultAttrOfType<StringAttr>(0, "tc.name"))
      name = attr.str();
  return name;
}

bool isOnes(func::FuncOp func, Value operand) {
  Value v = operand ? functionArgument(operand) : Value();
  return v && func.getArgAttr(cast<BlockArgument>(v).getArgNumber(),
                              TCDialect::getOnesAttrName());
}

bool namesClash(func::FuncOp func, StringRef x, Value xOperand, StringRef y, Value yOperand,
                bool yIsResult) {
  if (x != y || (xOperand && xOperand == yOperand))
    return false;
  return !yIsResult || func->hasAttr(TCDialect::getIntermediateAttrName());
}

LogicalResult ContractionLowering::checkShape() {
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  // Accepted: redistributions of arguments into the inputs, the contraction, a
  // redistribution of its result, and the return of the final value.
  auto fail = [&]() {
    return op.emitOpError() << "tc-lower-plan needs a function whose body is one "
                               "tc.contract of its arguments (each possibly through a "
                               "tc.redistribute) and a return of its result (possibly "
                               "through one tc.redistribute)";
  };
  Value returned = op.getResult();
  for (Operation &other : body.without_terminator()) {
    if (&other == op.getOperation())
      continue;
    auto r = dyn_cast<RedistributeOp>(&other);
    if (!r)
      return fail();
    if (r.getSource() == op.getResult()) {
      if (resultRedistribution)
        return fail();
      resultRedistribution = r;
      returned = r.getResult();
    } else if (!isa<BlockArgument>(r.getSource()) || !r->hasOneUse() ||
               *r->getUsers().begin() != op.getOperation()) {
      return fail();
    }
  }
  if (!ret || ret.getNumOperands() != 1 || ret.getOperand(0) != returned ||
      (resultRedistribution && !op.getResult().hasOneUse()))
    return fail();
  SmallVector<Value> operands(op.getInputs());
  if (op.getInit())
    operands.push_back(op.getInit());
  for (Value v : operands)
    if (!functionArgument(v) || (v == op.getInit() && !isa<BlockArgument>(v)))
      return op.emitOpError() << "tc-lower-plan needs every operand to be a function "
                                 "argument (compose programs of several contractions "
                                 "with the fusion pipeline)";
  return success();
}

LogicalResult missingPlanField(ContractOp op, StringRef field) {
  return op.emitOpError() << "has no complete plan (missing '" << field
                          << "'): run --tc-plan before --tc-lower-plan";
}

LogicalResult ContractionLowering::readPlan() {
  plan = getPlan(op);
  auto missing = [&](StringRef field) { return missingPlanField(op, field); };
  // lookupAlgorithmLowering found the algorithm and in_core.
  assert(plan.getInCore() && plan.getAlgorithm() && "no lowering without in_core and algorithm");
  inCore = plan.getInCore().getValue();
  if (!plan.getGrid())
    return missing("grid");
  if (!plan.getDistA() || !plan.getDistB() || !plan.getDistC())
    return missing("dist_a/dist_b/dist_c");
  PlanDecisions d = readDecisions(plan);
  algorithm = *d.algorithm;
  iContiguous = d.iContiguous;
  if (!inCore && tilesOutOfCore()) {
    if (!d.method)
      return missing("method");
    if (!d.nest)
      return missing(d.order ? "loops" : "order");
    inside = *d.method == CommMethod::Inside;
    nest = *d.nest;
  }
  grid.assign(plan.getGrid().getShape().begin(), plan.getGrid().getShape().end());
  // Every algorithm runs on all the machine's processes but COSMA, which may
  // leave the ranks past its grid idle (Kwasniewski et al. section 7.1; the
  // runtime runs them without data).
  int64_t used = plan.getGrid().getNumProcs();
  if (used > machine.procs)
    return op.emitOpError() << "the plan's grid " << plan.getGrid() << " has " << used
                            << " processes but the machine has " << machine.procs;
  if (used < machine.procs && algorithm != ParallelAlgorithm::Cosma)
    return op.emitOpError() << "algorithm = "
                            << stringifyParallelAlgorithm(*plan.getAlgorithmKind())
                            << " runs on every process, but the plan's grid " << plan.getGrid()
                            << " has " << used << " of the machine's " << machine.procs
                            << " (only cosma leaves processes idle)";
  return readAlgorithm();
}

Layout ContractionLowering::computeLayout(Operand x) const {
  return layoutOf(plan.getGrid(), distOf(x));
}

LogicalResult ContractionLowering::buildArrays() {
  FailureOr<ContractionProblem> p = buildProblem(op);
  if (failed(p))
    return failure();
  // The arrays hold the tensors' labels but those summed at load (D30); the
  // plan runs the contraction without them.
  const ContractionProblem full = *p;
  problem = withoutOneInputLabels(full);
  const PerOperand<const std::vector<std::string> *> labels = {
      {&full.labelsA, &full.labelsB, &full.labelsC}};
  if (failed(readLayouts()))
    return failure();
  const PerOperand<Value> operands = {{op.getLhs(), op.getRhs(), op.getInit()}};
  // Stored dimension order: the plan's i_contiguous (lib/Analysis/StorageOrder.h
  // when absent) stores C as [J, I] and A as [K, I], the long I contiguous.
  auto in = [](const std::vector<std::string> &ls, const std::string &l) {
    return llvm::is_contained(ls, l);
  };
  const bool longI = iContiguous.value_or(prefersIContiguous(problem));
  for (Operand x : kOperands) {
    ArrayInfo &a = arrays[x];
    a.layout = tc_layout::ArrayLayout::whole(tc_layout::Holding::Distributed, {},
                                             {grid.begin(), grid.end()});
    auto order = llvm::to_vector(llvm::seq<int64_t>(0, labels[x]->size()));
    // Labels of this input only are summed out as it is loaded (D30): the
    // array holds the other dimensions of the tensor.
    if (x != Operand::C)
      llvm::erase_if(order, [&](int64_t d) {
        const std::string &l = (*labels[x])[d];
        if (in(problem.labelsC, l) || in(*labels[otherInput(x)], l))
          return false;
        a.layout.summedFileDim.push_back(d);
        a.layout.summedExtent.push_back(problem.extents.at(l));
        return true;
      });
    if (longI && x != Operand::B) // the other labels first, then I's (contiguous)
      std::stable_partition(order.begin(), order.end(), [&](int64_t d) {
        const std::string &l = (*labels[x])[d];
        return !(in(problem.labelsA, l) && in(problem.labelsC, l));
      });
    for (int64_t d : order)
      a.labels.push_back((*labels[x])[d]);
    a.name = arrayName(func, operands[x], x);
    if (x != Operand::C && isOnes(func, operands[x]))
      a.init = ArrayInitKind::Ones;
    for (auto [l, fileDim] : llvm::zip_equal(a.labels, order)) {
      int64_t dim = -1;
      for (unsigned g = 0; g < grid.size(); ++g)
        if (distOf(x).getDistributedLabel(g) == l)
          dim = g;
      tc_layout::ArrayLayout &h = a.layout;
      h.extents.push_back(problem.extents.at(l));
      h.gridDim.push_back(dim);
      h.skewDim.push_back(-1);
      h.splitDim.push_back(-1);
      h.cyclic.push_back(dim >= 0 ? cyclicBlock(l) : 0);
      h.fileDim.push_back(fileDim);
    }
    const bool isReplicated = wholeOperand() == x;
    const bool slab = x == Operand::C ? slabResult() : inside;
    if (isReplicated) {
      a.layout.kind = slab              ? tc_layout::Holding::Slab
                      : x == Operand::C ? tc_layout::Holding::Replicated
                                        : tc_layout::Holding::Gathered;
      a.layout.gridDim.assign(a.layout.rank(), -1);
      a.layout.cyclic.assign(a.layout.rank(), 0);
    }
    if (x == Operand::C)
      a.init = !op.getInit()           ? ArrayInitKind::Zero
               : isReplicated && !slab ? ArrayInitKind::RootInput
                                       : ArrayInitKind::Input;
  }
  auto clash = [&](Operand x, Operand y) {
    return namesClash(func, arrays[x].name, operands[x], arrays[y].name, operands[y],
                      y == Operand::C);
  };
  if (clash(Operand::A, Operand::B) || clash(Operand::A, Operand::C) ||
      clash(Operand::B, Operand::C))
    return op.emitOpError() << "arrays need distinct names (tc.name), got '"
                            << arrays[Operand::A].name << "', '" << arrays[Operand::B].name
                            << "', '" << arrays[Operand::C].name << "'";
  if (failed(placeArrays()))
    return failure();
  // Blocks per label, which every distributed array holding it must agree on
  // (PUMMA's labels lie on different grid dimensions in different arrays).
  for (Operand x : kOperands)
    for (auto [d, l] : llvm::enumerate(arrays[x].labels)) {
      if (!splitsLabelsAlike())
        break;
      const int64_t g = arrays[x].layout.gridDim[d];
      const int64_t p = g >= 0 ? grid[g] : 1;
      auto [it, fresh] = parts.insert({l, p});
      if (!fresh && it->second != p && arrays[x].distributed())
        return op.emitOpError() << "plan splits label '" << l << "' into " << it->second
                                << " and " << p << " blocks in different arrays";
      it->second = std::max(it->second, p);
    }
  // Stage 1/3 layouts ([G] 2.3): an input arriving in, or a result required in,
  // another distribution gets an array of its own in that layout.
  const PerOperand<const std::optional<Layout> *> layouts = {
      {&problem.givenA, &problem.givenB, &problem.requiredC}};
  for (Operand x : kOperands) {
    if (!*layouts[x])
      continue;
    const Layout &l = **layouts[x];
    Layout algorithmLayout = canonicalBlocks(computeLayout(x), problem.extents);
    if (l.samePartition(algorithmLayout) && arrays[x].distributed())
      continue;
    if (l.grid != std::vector<int64_t>(grid.begin(), grid.end()))
      return op.emitOpError() << "the " << (x == Operand::C ? "required" : "given") << " layout "
                              << l.str() << " of " << arrays[x].name
                              << " is on another grid than the plan's";
    ArrayInfo g = arrays[x];
    g.layout.kind = tc_layout::Holding::Distributed;
    g.init = x == Operand::C ? ArrayInitKind::Zero : ArrayInitKind::Input;
    for (auto [d, label] : llvm::enumerate(g.labels)) {
      g.layout.gridDim[d] = -1;
      g.layout.skewDim[d] = -1;
      g.layout.splitDim[d] = -1;
      g.layout.cyclic[d] = 0;
      for (unsigned gd = 0; gd < l.dims.size(); ++gd)
        if (l.dims[gd] == label) {
          g.layout.gridDim[d] = gd;
          g.layout.cyclic[d] = l.cyclicBlock(gd);
        }
        else if (l.dims[gd] == Layout::kFirstSlice)
          return op.emitOpError() << "layouts holding only the first slice ('1') are "
                                     "not supported by the runtime";
    }
    given[x] = g;
    if (x != Operand::C)
      arrays[x].init = ArrayInitKind::Zero; // filled by the redistribution
  }
  return success();
}

void ContractionLowering::emitPredictions(const RankVolumes *volumes) {
  // Per used process: a COSMA grid may leave processes idle.
  // Labels of one input only are summed out while packing: additions, not
  // counted as flops (lib/Runtime/TileContract.cpp).
  double flops = 2;
  for (auto &[l, e] : problem.extents)
    if (llvm::is_contained(problem.labelsC, l) ||
        (llvm::is_contained(problem.labelsA, l) && llvm::is_contained(problem.labelsB, l)))
      flops *= e;
  // Per-rank predictions replace the per-process figure (the runtime adds
  // each rank's entry to it).
  double comm = plan.getCommBytes() ? plan.getCommBytes().getValueAsDouble() : 0;
  double disk = plan.getDiskBytes() ? plan.getDiskBytes().getValueAsDouble() : 0;
  if (volumes)
    comm = 0;
  const bool diskPerRank = volumes && !volumes->disk.empty();
  if (diskPerRank)
    disk = 0;
  auto perRank = [&](const std::vector<double> *v) {
    return volumes ? b.getDenseF64ArrayAttr(*v) : DenseF64ArrayAttr();
  };
  PredictedVolumesOp::create(
      b, loc, b.getF64FloatAttr(disk), b.getF64FloatAttr(comm),
      b.getF64FloatAttr(flops / static_cast<double>(plan.getGrid().getNumProcs())),
      // Staging and out-of-core collectives move at most this much at a time, on
      // top of the tiles: a fixed 4 MiB (less when the tile budget is smaller).
      b.getI64IntegerAttr(std::min<int64_t>(4 << 20, machine.tileBudget())),
      perRank(volumes ? &volumes->sent : nullptr),
      perRank(volumes ? &volumes->received : nullptr),
      diskPerRank ? b.getDenseF64ArrayAttr(volumes->disk) : DenseF64ArrayAttr());
}

Value ContractionLowering::createArray(ArrayInfo &a, Value storage) {
  auto type = ArrayType::get(b.getContext(), elementType(op),
                             ArrayLayoutAttr::get(b.getContext(), a.layout));
  return ArrayOp::create(b, loc, type, a.name, a.init, /*on_disk=*/!inCore, storage).getResult();
}

void ContractionLowering::emitGivenInputs() {
  for (Operand x : {Operand::A, Operand::B})
    if (given[x]) {
      given[x]->handle = createArray(*given[x], Value());
      RedistributeArrayOp::create(b, loc, given[x]->handle, arrays[x].handle);
    }
}

void ContractionLowering::emitStore() {
  Value result = arrays[Operand::C].handle;
  if (given[Operand::C]) { // stage 3: the result in its required layout
    result = createArray(*given[Operand::C], Value());
    RedistributeArrayOp::create(b, loc, arrays[Operand::C].handle, result);
  }
  StoreOp::create(b, loc, result);
}

void ContractionLowering::emitZeroFill(Value buffer) {
  OpBuilder::InsertionGuard guard(b);
  auto type = cast<MemRefType>(buffer.getType());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  SmallVector<Value> ivs;
  for (int64_t extent : type.getShape()) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(extent), index(1));
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  memref::StoreOp::create(b, loc, zero, buffer, ivs);
}

LogicalResult ContractionLowering::run() {
  if (failed(checkShape()) || failed(readPlan()) || failed(buildArrays()) || failed(prepare()))
    return failure();
  func::FuncOp newFunc = createLoweredFunction(func);
  emitProgram(newFunc);
  func.erase();
  return success();
}
} // namespace mlir::tc::lowering
