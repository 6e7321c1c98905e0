//===- LowerPlan.cpp - the tc-lower-plan pass -----------------------------===//
//
// A planned tc.contract becomes the program of Gao et al. Figures 1-2
// (docs/Derivations.md D3): arrays in the algorithm's distributions (Table 1),
// the tiling loops of the plan's groups D1..D4 (section 3, Figure 3b) with each
// array read at the top of its group's body, and the method's communication
// (sections 4-5).
//
// Tile geometry. Label l is split into p_l blocks across processes (its
// distribution), so a process's block has b_l = ceil(N_l / p_l) elements; the
// plan's loops over l have counts c_1..c_m (outer to inner), T_l = prod c, and
// the innermost tile has t_l = ceil(b_l / T_l) elements. Loop j steps by
// E_j = t_l * prod_{i>j} c_i, so tiles nest exactly and every tile has the same
// (padded) shape; the runtime clips reads and writes at the block's edge.
//
//===----------------------------------------------------------------------===//
#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "ProgramEntry.h"
#include "TC/Analysis/CosmaSchedule.h"
#include "TC/Analysis/PummaSchedule.h"
#include "TC/Analysis/StorageOrder.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

namespace mlir::tc {
#define GEN_PASS_DEF_LOWERPLAN
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

enum Role { RA = 0, RB = 1, RC = 2 };
const char *const kDefaultNames[3] = {"A", "B", "C"};

struct ArrayInfo {
  std::string name;
  std::vector<std::string> labels; ///< in stored order
  SmallVector<int64_t> fileDims;   ///< the tensor dimension of each stored one
  SmallVector<int64_t> extents, dims, skew;
  SmallVector<int64_t> split; ///< COSMA: the grid dimension splitting each block again
  SmallVector<int64_t> cyclic; ///< PUMMA: each dimension's block-cyclic block size (0: none)
  ArrayKind kind = ArrayKind::Distributed;
  ArrayInitKind init = ArrayInitKind::Input;
  int64_t shiftDim = -1; ///< rotation: the grid dimension this array moves along
  Value handle, buffer;
};

/// One tiling loop of the nest, with its step in elements.
struct Loop {
  std::string label;
  unsigned group;
  int64_t count, step = 0;
  Value iv;
};

class ContractionLowering {
public:
  ContractionLowering(ContractOp op, func::FuncOp func, const MachineModel &machine)
      : op(op), func(func), machine(machine), b(op.getContext()) {}

  LogicalResult run();

private:
  LogicalResult checkShape();
  LogicalResult readPlan();
  LogicalResult buildArrays();
  LogicalResult buildLoops();
  void emitProgram(func::FuncOp newFunc);
  LogicalResult readCosmaLayout();
  LogicalResult prepareCosma();
  void emitCosmaProgram(func::FuncOp newFunc);
  LogicalResult readPummaChoice();
  void emitPummaProgram(func::FuncOp newFunc);
  /// Stage 1 ([G] 2.3): inputs given in another layout, redistributed.
  void emitGivenInputs();
  /// Stage 3 and the output: the result in its required layout, stored.
  void emitStore();
  /// A loop nest writing zeros into `buffer`.
  void emitZeroFill(Value buffer);
  Value createArray(ArrayInfo &a, Value storage);
  /// The plan's predictions; COSMA's come per rank (`volumes`).
  void emitPredictions(const RankVolumes *volumes);
  void emitGroup(unsigned n);
  void emitContraction();
  Value offsetOf(Role x, bool inside);
  SmallVector<Value> offsets(Role x, bool inside);
  SmallVector<int64_t> tileShape(Role x, unsigned group);
  bool hasLabel(Role x, const std::string &l) const {
    return llvm::is_contained(arrays[x].labels, l);
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The array's file_dims, or none when stored in the tensor's own order.
  DenseI64ArrayAttr fileDimsAttr(const ArrayInfo &a) {
    for (auto [i, d] : llvm::enumerate(a.fileDims))
      if (d != static_cast<int64_t>(i))
        return b.getDenseI64ArrayAttr(a.fileDims);
    return nullptr;
  }

  ContractOp op;
  func::FuncOp func;
  const MachineModel &machine;
  OpBuilder b;
  Location loc = op.getLoc();
  PlanAttr plan;
  ContractionProblem problem;
  bool inCore = false, inside = false;
  std::optional<bool> iContiguous; ///< the plan's storage order, when recorded
  ParallelAlgorithm algorithm = ParallelAlgorithm::Accumulation;
  TileNest nest;
  SmallVector<int64_t> grid;
  ArrayInfo arrays[3];
  std::map<std::string, int64_t> parts, innerTile;
  std::vector<Loop> loops;
  RedistributeOp resultRedistribution; ///< moves the result to its required layout
  /// Arrays in the given (inputs) or required (result) layouts, when they differ
  /// from the algorithm's ([G] 2.3 stages 1 and 3).
  std::optional<ArrayInfo> given[3];
  int replicated = -1; ///< the replicated operand of a replication algorithm
  /// COSMA (Kwasniewski et al.): its layout and its rounds over K.
  std::optional<CosmaLayout> cosma;
  std::vector<TileLoop> rounds;
  /// PUMMA (Choi, Dongarra, Walker): the rolled input, mode and blocks.
  std::optional<PummaChoice> pumma;
};

/// The function argument behind an operand, looking through a tc.redistribute.
static Value functionArgument(Value v) {
  if (auto r = v.getDefiningOp<RedistributeOp>())
    v = r.getSource();
  return isa_and_nonnull<BlockArgument>(v) ? v : Value();
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
  operands.push_back(op.getResult());
  for (Value v : operands)
    if (!cast<RankedTensorType>(v.getType()).getElementType().isF64())
      return op.emitOpError() << "the runtime computes in f64; got " << v.getType();
  return success();
}

LogicalResult ContractionLowering::readPlan() {
  plan = getPlan(op);
  auto missing = [&](StringRef field) {
    return op.emitOpError() << "has no complete plan (missing '" << field
                            << "'): run --tc-plan before --tc-lower-plan";
  };
  if (!plan.getInCore())
    return missing("in_core");
  inCore = plan.getInCore().getValue();
  if (!plan.getAlgorithm())
    return missing("algorithm");
  if (!plan.getGrid())
    return missing("grid");
  if (!plan.getDistA() || !plan.getDistB() || !plan.getDistC())
    return missing("dist_a/dist_b/dist_c");
  PlanDecisions d = readDecisions(plan);
  algorithm = *d.algorithm;
  iContiguous = d.iContiguous;
  if (!inCore) {
    if (!d.method)
      return missing("method");
    if (!d.nest)
      return missing(d.order ? "loops" : "order");
    inside = *d.method == CommMethod::Inside;
    nest = *d.nest;
  }
  grid.assign(plan.getGrid().getShape().begin(), plan.getGrid().getShape().end());
  if (algorithm == ParallelAlgorithm::Cosma && (!inCore || grid.size() != 3))
    return op.emitOpError() << "algorithm = cosma runs in core on a 3-d grid (out-of-core "
                               "COSMA is not implemented); the plan has in_core = "
                            << inCore << " and grid " << plan.getGrid();
  if (DictionaryAttr r = plan.getRounds())
    for (NamedAttribute round : r)
      rounds.push_back({round.getName().getValue().str(),
                        cast<IntegerAttr>(round.getValue()).getInt()});
  if (algorithm == ParallelAlgorithm::Pumma && (!inCore || grid.size() != 2))
    return op.emitOpError() << "algorithm = pumma runs in core on a 2-d grid (out-of-core "
                               "PUMMA is not implemented); the plan has in_core = "
                            << inCore << " and grid " << plan.getGrid();
  if (algorithm == ParallelAlgorithm::Pumma && !plan.getRoll())
    return missing("roll");
  if (algorithm == ParallelAlgorithm::Rotation && grid.size() != 2)
    return op.emitOpError() << "rotation needs a 2-d grid, the plan has "
                            << plan.getGrid();
  if (algorithm == ParallelAlgorithm::ReplicationA)
    replicated = RA;
  if (algorithm == ParallelAlgorithm::ReplicationB)
    replicated = RB;
  return success();
}

LogicalResult ContractionLowering::buildArrays() {
  FailureOr<ContractionProblem> p = buildProblem(op);
  if (failed(p))
    return failure();
  problem = *p;
  const std::vector<std::string> *labels[3] = {&problem.labelsA, &problem.labelsB,
                                               &problem.labelsC};
  for (const std::string &l : problem.labelsC)
    if (llvm::is_contained(problem.labelsA, l) && llvm::is_contained(problem.labelsB, l))
      return op.emitOpError() << "label '" << l << "' is in both inputs and the result "
                              << "(a batch index); the runtime does not run these yet";
  for (int x = 0; x < 2; ++x)
    for (const std::string &l : *labels[x])
      if (!llvm::is_contained(problem.labelsC, l) && !llvm::is_contained(*labels[1 - x], l))
        return op.emitOpError() << "label '" << l << "' is only in input #" << x
                                << " (summed before the product); the runtime does not "
                                << "run these yet: sum it with tc.sum first";
  if (algorithm == ParallelAlgorithm::Cosma && failed(readCosmaLayout()))
    return failure();
  if (algorithm == ParallelAlgorithm::Pumma && failed(readPummaChoice()))
    return failure();
  DistAttr dists[3] = {plan.getDistA(), plan.getDistB(), plan.getDistC()};
  Value operands[3] = {op.getLhs(), op.getRhs(), op.getInit()};
  // Stored dimension order: the plan's i_contiguous (lib/Analysis/StorageOrder.h
  // when absent) stores C as [J, I] and A as [K, I], the long I contiguous.
  auto in = [](const std::vector<std::string> &ls, const std::string &l) {
    return llvm::is_contained(ls, l);
  };
  const bool longI = iContiguous.value_or(prefersIContiguous(problem));
  for (int x = 0; x < 3; ++x) {
    ArrayInfo &a = arrays[x];
    auto order = llvm::to_vector(llvm::seq<int64_t>(0, labels[x]->size()));
    if (longI && x != RB) // the other labels first, then I's (contiguous)
      std::stable_partition(order.begin(), order.end(), [&](int64_t d) {
        const std::string &l = (*labels[x])[d];
        return !(in(problem.labelsA, l) && in(problem.labelsC, l));
      });
    for (int64_t d : order)
      a.labels.push_back((*labels[x])[d]);
    a.fileDims = order;
    a.name = kDefaultNames[x];
    Value v = operands[x] ? functionArgument(operands[x]) : Value();
    if (v) {
      auto arg = cast<BlockArgument>(v);
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tc.name"))
        a.name = name.str();
    }
    // The result's name (its HDF5 dataset) may also sit on the function result.
    if (x == RC)
      if (auto name = func.getResultAttrOfType<StringAttr>(0, "tc.name"))
        a.name = name.str();
    for (const std::string &l : a.labels) {
      a.extents.push_back(problem.extents.at(l));
      int64_t dim = -1;
      for (unsigned g = 0; g < grid.size(); ++g)
        if (dists[x].getDistributedLabel(g) == l)
          dim = g;
      a.dims.push_back(dim);
      a.skew.push_back(-1);
      a.cyclic.push_back(pumma && dim >= 0 ? pumma->blockOf(l) : 0);
    }
    bool isReplicated = x == replicated ||
                        (x == RC && algorithm == ParallelAlgorithm::Accumulation);
    if (isReplicated) {
      a.kind = x == RC ? ArrayKind::Replicated
                       : (inside ? ArrayKind::Slab : ArrayKind::Gathered);
      a.dims.assign(a.dims.size(), -1);
    }
    if (x == RC)
      a.init = !op.getInit()  ? ArrayInitKind::Zero
               : isReplicated ? ArrayInitKind::RootInput
                              : ArrayInitKind::Input;
  }
  if (arrays[RA].name == arrays[RB].name || arrays[RA].name == arrays[RC].name ||
      arrays[RB].name == arrays[RC].name)
    return op.emitOpError() << "arrays need distinct names (tc.name), got '"
                            << arrays[RA].name << "', '" << arrays[RB].name << "', '"
                            << arrays[RC].name << "'";
  // Cannon ([G] 2.2): A's and B's contracted block index starts at the sum of the
  // coordinates (the initial skew) and advances by one per shift.
  if (algorithm == ParallelAlgorithm::Rotation)
    for (int x : {RA, RB}) {
      ArrayInfo &a = arrays[x];
      for (auto [d, l] : llvm::enumerate(a.labels))
        if (a.dims[d] >= 0 && hasLabel(Role(1 - x), l)) {
          a.shiftDim = a.dims[d];
          a.skew[d] = 1 - a.dims[d];
        }
      if (a.shiftDim < 0)
        return op.emitOpError() << "rotation plan distributes no contracted label of "
                                << (x == RA ? "A" : "B");
    }
  // Blocks per label, which every distributed array holding it must agree on
  // (PUMMA's labels lie on different grid dimensions in different arrays).
  for (int x = 0; x < 3 && !pumma; ++x)
    for (auto [d, l] : llvm::enumerate(arrays[x].labels)) {
      int64_t p = arrays[x].dims[d] >= 0 ? grid[arrays[x].dims[d]] : 1;
      auto [it, fresh] = parts.insert({l, p});
      if (!fresh && it->second != p && arrays[x].kind == ArrayKind::Distributed)
        return op.emitOpError() << "plan splits label '" << l << "' into " << it->second
                                << " and " << p << " blocks in different arrays";
      it->second = std::max(it->second, p);
    }
  // Stage 1/3 layouts ([G] 2.3): an input arriving in, or a result required in,
  // another distribution gets an array of its own in that layout.
  const std::optional<Layout> *layouts[3] = {&problem.givenA, &problem.givenB,
                                             &problem.requiredC};
  for (int x = 0; x < 3; ++x) {
    if (!*layouts[x])
      continue;
    const Layout &l = **layouts[x];
    Layout algorithmLayout =
        canonicalBlocks(pumma ? pumma->layout(Operand(x)) : layoutOf(plan.getGrid(), dists[x]),
                        problem.extents);
    if (l.samePartition(algorithmLayout) && arrays[x].kind == ArrayKind::Distributed)
      continue;
    if (l.grid != std::vector<int64_t>(grid.begin(), grid.end()))
      return op.emitOpError() << "the " << (x == RC ? "required" : "given") << " layout "
                              << l.str() << " of " << arrays[x].name
                              << " is on another grid than the plan's";
    ArrayInfo g = arrays[x];
    g.kind = ArrayKind::Distributed;
    g.init = x == RC ? ArrayInitKind::Zero : ArrayInitKind::Input;
    for (auto [d, label] : llvm::enumerate(g.labels)) {
      g.dims[d] = -1;
      g.skew[d] = -1;
      g.cyclic[d] = 0;
      for (unsigned gd = 0; gd < l.dims.size(); ++gd)
        if (l.dims[gd] == label) {
          g.dims[d] = gd;
          g.cyclic[d] = l.cyclicBlock(gd);
        }
        else if (l.dims[gd] == Layout::kFirstSlice)
          return op.emitOpError() << "layouts holding only the first slice ('1') are "
                                     "not supported by the runtime";
    }
    given[x] = g;
    if (x != RC)
      arrays[x].init = ArrayInitKind::Zero; // filled by the redistribution
  }
  return success();
}

/// COSMA's plan (docs/Derivations.md D27): the distributed labels in the
/// roles Algorithm 1 gives them, rounds over K, and the labels split again.
LogicalResult ContractionLowering::readCosmaLayout() {
  MacroIndicesOrError macroOrError = macroIndicesOf(problem);
  if (!macroOrError)
    return op.emitOpError() << macroOrError.error;
  const MacroIndices &macro = macroOrError.value;
  DistAttr dists[3] = {plan.getDistA(), plan.getDistB(), plan.getDistC()};
  std::string i = dists[RA].getDistributedLabel(0).str(),
              j = dists[RB].getDistributedLabel(1).str(),
              k = dists[RA].getDistributedLabel(2).str();
  if (i.empty() || j.empty() || k.empty() || !llvm::is_contained(macro.I, i) ||
      !llvm::is_contained(macro.J, j) || !llvm::is_contained(macro.K, k) ||
      dists[RB].getDistributedLabel(2) != k || dists[RC].getDistributedLabel(0) != i ||
      dists[RC].getDistributedLabel(1) != j)
    return op.emitOpError() << "algorithm = cosma needs dist_a = <[i, *, k]>, dist_b = "
                               "<[*, j, k]> and dist_c = <[i, j, *]> with i in I, j in J "
                               "and k in K; got "
                            << dists[RA] << ", " << dists[RB] << ", " << dists[RC];
  for (const TileLoop &r : rounds)
    if (!llvm::is_contained(macro.K, r.label))
      return op.emitOpError() << "algorithm = cosma rounds run over K labels, but '"
                              << r.label << "' is not one";
  std::vector<int64_t> g(grid.begin(), grid.end());
  cosma = completeCosmaLayout(problem, macro, g, i, j, k);
  return success();
}

/// COSMA's arrays: the compute views of the plan (A <i,*,k>, B <*,j,k>,
/// C <i,j,*>), each block split again along the grid dimension its view
/// replicates, so that no element is stored twice.
LogicalResult ContractionLowering::prepareCosma() {
  for (int x = 0; x < 3; ++x)
    if (given[x])
      return op.emitOpError() << "algorithm = cosma does not redistribute given or "
                                 "required layouts yet; plan another algorithm";
  for (Operand x : {Operand::A, Operand::B, Operand::C}) {
    ArrayInfo &a = arrays[static_cast<int>(x)];
    a.split.assign(a.labels.size(), -1);
    for (auto [d, l] : llvm::enumerate(a.labels))
      if (l == cosma->splitLabel(x))
        a.split[d] = CosmaLayout::splitGridDim(x);
  }
  return success();
}

/// PUMMA's plan (docs/Derivations.md D28): the variant the three layouts and
/// the rolled input describe.
LogicalResult ContractionLowering::readPummaChoice() {
  MacroIndicesOrError macroOrError = macroIndicesOf(problem);
  if (!macroOrError)
    return op.emitOpError() << macroOrError.error;
  PummaChoiceOrError choice = pummaChoiceOf(
      problem, macroOrError.value, std::vector<int64_t>(grid.begin(), grid.end()),
      *plan.getRoll() == InputKind::A ? Operand::A : Operand::B,
      layoutOf(plan.getGrid(), plan.getDistA()), layoutOf(plan.getGrid(), plan.getDistB()),
      layoutOf(plan.getGrid(), plan.getDistC()));
  if (!choice.value)
    return op.emitOpError() << "algorithm = pumma: " << choice.error;
  pumma = choice.value;
  return success();
}

LogicalResult ContractionLowering::buildLoops() {
  for (unsigned g = 0; g < 4; ++g)
    for (const TileLoop &t : nest.groups[g])
      if (t.count > 1)
        loops.push_back({t.label, g, t.count});
  for (auto &[l, p] : parts) {
    int64_t block = (problem.extents.at(l) + p - 1) / p, total = 1;
    for (const Loop &lp : loops)
      if (lp.label == l)
        total *= lp.count;
    if (total > block)
      return op.emitOpError() << "plan splits label '" << l << "' into " << total
                              << " tiles but a process holds only " << block
                              << " of its elements";
    int64_t t = (block + total - 1) / total;
    innerTile[l] = t;
    int64_t step = t;
    for (Loop &lp : llvm::reverse(loops))
      if (lp.label == l) {
        lp.step = step;
        step *= lp.count;
      }
  }
  return success();
}

/// Shape of x's buffer when read after the loops of groups 0..group.
SmallVector<int64_t> ContractionLowering::tileShape(Role x, unsigned group) {
  SmallVector<int64_t> shape;
  for (const std::string &l : arrays[x].labels) {
    int64_t e = innerTile.at(l);
    for (const Loop &lp : loops)
      if (lp.label == l && lp.group > group)
        e *= lp.count;
    shape.push_back(e);
  }
  return shape;
}

/// Offsets of x's tile in its block (loops up to its read group) or, with
/// `inside`, of the current sub-tile within its buffer (the deeper loops).
SmallVector<Value> ContractionLowering::offsets(Role x, bool insideBuffer) {
  unsigned readGroup = nest.readGroup(Operand(x));
  SmallVector<Value> out;
  for (const std::string &l : arrays[x].labels) {
    Value sum;
    for (const Loop &lp : loops) {
      if (lp.label != l || (lp.group > readGroup) != insideBuffer)
        continue;
      Value term = arith::MulIOp::create(b, loc, lp.iv, index(lp.step));
      sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
    }
    out.push_back(sum ? sum : index(0));
  }
  return out;
}

void ContractionLowering::emitContraction() {
  SmallVector<NamedAttribute> extents;
  for (auto &[l, t] : innerTile)
    extents.push_back(b.getNamedAttr(l, b.getI64IntegerAttr(t)));
  auto labelsAttr = [&](Role x) {
    SmallVector<StringRef> ls(arrays[x].labels.begin(), arrays[x].labels.end());
    return b.getStrArrayAttr(ls);
  };
  SmallVector<Value> sub[3] = {offsets(RA, true), offsets(RB, true), offsets(RC, true)};
  auto contract = [&]() {
    TileContractOp::create(b, loc, arrays[RC].buffer, sub[RC], labelsAttr(RC),
                           arrays[RA].buffer, sub[RA], labelsAttr(RA), arrays[RB].buffer,
                           sub[RB], labelsAttr(RB), b.getDictionaryAttr(extents));
  };
  if (!(inside && algorithm == ParallelAlgorithm::Rotation)) {
    contract();
    return;
  }
  // Inside rotation ([G] 5.1): sqrt(P) steps, shifting the A and B tiles in use.
  OpBuilder::InsertionGuard guard(b);
  auto steps = scf::ForOp::create(b, loc, index(0), index(grid[0]), index(1));
  b.setInsertionPointToStart(steps.getBody());
  contract();
  for (Role x : {RA, RB}) {
    SmallVector<int64_t> sizes;
    for (const std::string &l : arrays[x].labels)
      sizes.push_back(innerTile.at(l));
    ShiftTileOp::create(b, loc, arrays[x].buffer, sub[x], b.getDenseI64ArrayAttr(sizes),
                        b.getI64IntegerAttr(arrays[x].shiftDim), arrays[x].handle);
  }
}

void ContractionLowering::emitGroup(unsigned n) {
  OpBuilder::InsertionGuard guard(b);
  for (Loop &lp : loops)
    if (lp.group == n) {
      auto f = scf::ForOp::create(b, loc, index(0), index(lp.count), index(1));
      lp.iv = f.getInductionVar();
      b.setInsertionPointToStart(f.getBody());
    }
  if (n == 3) {
    emitContraction();
    return;
  }
  Role x = Role(nest.readIn(n));
  ArrayInfo &a = arrays[x];
  SmallVector<Value> offs = offsets(x, false);
  bool rootOnly = x == RC && inside && algorithm == ParallelAlgorithm::Accumulation;
  ReadTileOp::create(b, loc, a.handle, offs, a.buffer, rootOnly);
  if (inside && x == replicated)
    BroadcastTileOp::create(b, loc, a.buffer, a.handle, offs);
  emitGroup(n + 1);
  if (x == RC) {
    if (inside && algorithm == ParallelAlgorithm::Accumulation)
      AllReduceTileOp::create(b, loc, a.buffer);
    WriteTileOp::create(b, loc, a.buffer, a.handle, offs);
  }
}

void ContractionLowering::emitPredictions(const RankVolumes *volumes) {
  double flops = 2;
  for (auto &[l, e] : problem.extents)
    flops *= e;
  // Per-rank predictions replace the per-process figure (the runtime adds
  // each rank's entry to it).
  double comm = plan.getCommBytes() ? plan.getCommBytes().getValueAsDouble() : 0;
  if (volumes)
    comm = 0;
  auto perRank = [&](const std::vector<double> *v) {
    return volumes ? b.getDenseF64ArrayAttr(*v) : DenseF64ArrayAttr();
  };
  PredictedVolumesOp::create(
      b, loc, b.getF64FloatAttr(plan.getDiskBytes() ? plan.getDiskBytes().getValueAsDouble() : 0),
      b.getF64FloatAttr(comm),
      b.getF64FloatAttr(flops / machine.procs),
      // Staging and out-of-core collectives move at most this much at a time, on
      // top of the tiles: a fixed 4 MiB (less when the tile budget is smaller).
      b.getI64IntegerAttr(std::min<int64_t>(4 << 20, machine.tileBudget())),
      perRank(volumes ? &volumes->sent : nullptr),
      perRank(volumes ? &volumes->received : nullptr));
}

Value ContractionLowering::createArray(ArrayInfo &a, Value storage) {
  auto type = ArrayType::get(b.getContext(), a.extents.size(), b.getF64Type(), grid.size());
  DenseI64ArrayAttr split = llvm::any_of(a.split, [](int64_t g) { return g >= 0; })
                                ? b.getDenseI64ArrayAttr(a.split)
                                : nullptr;
  DenseI64ArrayAttr cyclic = llvm::any_of(a.cyclic, [](int64_t nb) { return nb > 0; })
                                 ? b.getDenseI64ArrayAttr(a.cyclic)
                                 : nullptr;
  return ArrayOp::create(b, loc, type, a.name, a.extents, grid, a.dims, a.skew, a.kind, a.init,
                         !inCore, fileDimsAttr(a), split, cyclic, storage)
      .getResult();
}

void ContractionLowering::emitProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  emitPredictions(nullptr);
  for (int x = 0; x < 3; ++x) {
    auto type = MemRefType::get(tileShape(Role(x), nest.readGroup(Operand(x))), b.getF64Type());
    arrays[x].buffer = memref::AllocOp::create(b, loc, type);
  }
  // In core, each array lives in its tile buffer (one tile = the whole block), so
  // reading and writing tiles copies nothing and memory holds each array once.
  for (ArrayInfo &a : arrays)
    a.handle = createArray(a, inCore ? a.buffer : Value());
  emitGivenInputs();
  if (replicated >= 0 && !inside)
    AllGatherArrayOp::create(b, loc, arrays[replicated].handle);
  if (algorithm == ParallelAlgorithm::Rotation && !inside) {
    // Outside rotation ([G] 4.1): sqrt(P) passes, A and B shifted disk to disk.
    OpBuilder::InsertionGuard guard(b);
    auto passes = scf::ForOp::create(b, loc, index(0), index(grid[0]), index(1));
    b.setInsertionPointToStart(passes.getBody());
    emitGroup(0);
    for (Role x : {RA, RB})
      ShiftArrayOp::create(b, loc, arrays[x].handle, b.getI64IntegerAttr(arrays[x].shiftDim));
  } else {
    emitGroup(0);
  }
  if (algorithm == ParallelAlgorithm::Accumulation && !inside)
    AllReduceArrayOp::create(b, loc, arrays[RC].handle);
  // Out of core, the tiles are free before the output is written (memory cap);
  // in core they are the arrays' storage and live until it is.
  if (!inCore)
    for (ArrayInfo &a : arrays)
      memref::DeallocOp::create(b, loc, a.buffer);
  emitStore();
  if (inCore)
    for (ArrayInfo &a : arrays)
      memref::DeallocOp::create(b, loc, a.buffer);
  func::ReturnOp::create(b, loc);
}

void ContractionLowering::emitGivenInputs() {
  for (Role x : {RA, RB})
    if (given[x]) {
      given[x]->handle = createArray(*given[x], Value());
      RedistributeArrayOp::create(b, loc, given[x]->handle, arrays[x].handle);
    }
}

void ContractionLowering::emitStore() {
  Value result = arrays[RC].handle;
  if (given[RC]) { // stage 3: the result in its required layout
    result = createArray(*given[RC], Value());
    RedistributeArrayOp::create(b, loc, arrays[RC].handle, result);
  }
  StoreOp::create(b, loc, result);
}

void ContractionLowering::emitZeroFill(Value buffer) {
  OpBuilder::InsertionGuard guard(b);
  auto type = cast<MemRefType>(buffer.getType());
  Value zero = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0.0));
  SmallVector<Value> ivs;
  for (int64_t extent : type.getShape()) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(extent), index(1));
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  memref::StoreOp::create(b, loc, zero, buffer, ivs);
}

/// PUMMA (Choi, Dongarra, Walker sections 3.1-3.2; docs/Derivations.md D28):
/// every array lives in its padded block; grid[R] stages, at stage t the
/// rolled input X holds the blocks of residue class (coordinate along R + t)
/// mod grid[R] of its label along R. Gather: Y's matching K panel is gathered
/// along G and C += X * panel. Reduce: panel = X * Y (X's current free
/// blocks of C), summed into C's owners along G. X then moves one step along
/// R (not after the last stage).
void ContractionLowering::emitPummaProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  RankVolumes volumes = pummaVolumes(problem, *pumma, machine.elemBytes);
  // Stages 1 and 3 move given inputs in and the result out, rank by rank.
  const std::optional<Layout> *layouts[3] = {&problem.givenA, &problem.givenB,
                                             &problem.requiredC};
  const std::vector<std::string> *labelsOf[3] = {&problem.labelsA, &problem.labelsB,
                                                 &problem.labelsC};
  for (int x = 0; x < 3; ++x)
    if (given[x]) {
      Layout compute = pumma->layout(Operand(x));
      std::vector<double> sent, received;
      redistributionVolumes(x == RC ? compute : **layouts[x], x == RC ? **layouts[x] : compute,
                            *labelsOf[x], problem.extents, machine.elemBytes, sent, received);
      for (size_t r = 0; r < sent.size(); ++r) {
        volumes.sent[r] += sent[r];
        volumes.received[r] += received[r];
      }
    }
  emitPredictions(&volumes);
  const int64_t R = pumma->rollDim, Q = pumma->stages();
  const Role X = pumma->roll == Operand::A ? RA : RB, Y = Role(1 - X);
  const bool gather = pumma->mode == PummaMode::Gather;
  // Local extent of every label: its padded block (the panel's residue class
  // has X's padded length along R, both being whole blocks of one class).
  std::map<std::string, int64_t> extent;
  auto shapeOf = [&](Role x) {
    Layout layout = pumma->layout(Operand(x));
    SmallVector<int64_t> shape;
    for (const std::string &l : arrays[x].labels) {
      shape.push_back(layout.paddedLocal(l, problem.extents.at(l)));
      extent[l] = std::max(extent[l], shape.back());
    }
    return shape;
  };
  for (Role x : {RA, RB, RC}) {
    arrays[x].buffer = memref::AllocOp::create(b, loc, MemRefType::get(shapeOf(x), b.getF64Type()));
    arrays[x].handle = createArray(arrays[x], arrays[x].buffer);
  }
  emitGivenInputs();
  const Role holder = gather ? Y : RC;
  const std::string &label = gather ? pumma->k : pumma->freeX();
  const int64_t dim = llvm::find(arrays[holder].labels, label) - arrays[holder].labels.begin();
  SmallVector<int64_t> panelShape = shapeOf(holder);
  panelShape[dim] = pummaPanelRows(problem.extents.at(label), pumma->blockOf(label), Q);
  extent[label] = panelShape[dim];
  Value panel = memref::AllocOp::create(b, loc, MemRefType::get(panelShape, b.getF64Type()));
  SmallVector<NamedAttribute> extents;
  for (auto &[l, e] : extent)
    extents.push_back(b.getNamedAttr(l, b.getI64IntegerAttr(e)));
  auto labelsAttr = [&](Role x) {
    SmallVector<StringRef> ls(arrays[x].labels.begin(), arrays[x].labels.end());
    return b.getStrArrayAttr(ls);
  };
  auto zeros = [&](Role x) { return SmallVector<Value>(arrays[x].labels.size(), index(0)); };
  Value coord =
      GridCoordOp::create(b, loc, b.getIndexType(), arrays[RC].handle, b.getI64IntegerAttr(R));
  auto stages = scf::ForOp::create(b, loc, index(0), index(Q), index(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(stages.getBody());
    Value t = stages.getInductionVar();
    Value residue = arith::RemUIOp::create(b, loc, arith::AddIOp::create(b, loc, coord, t),
                                           index(Q));
    Value ops[3] = {arrays[RA].buffer, arrays[RB].buffer, arrays[RC].buffer};
    if (gather) {
      GatherCyclicOp::create(b, loc, arrays[Y].handle, b.getI64IntegerAttr(dim), residue,
                             b.getI64IntegerAttr(Q), panel);
      ops[Y] = panel;
    } else {
      emitZeroFill(panel);
      ops[RC] = panel;
    }
    TileContractOp::create(b, loc, ops[RC], zeros(RC), labelsAttr(RC), ops[RA], zeros(RA),
                           labelsAttr(RA), ops[RB], zeros(RB), labelsAttr(RB),
                           b.getDictionaryAttr(extents));
    if (!gather)
      ReduceCyclicOp::create(b, loc, panel, arrays[RC].handle, b.getI64IntegerAttr(dim),
                             residue, b.getI64IntegerAttr(Q));
    // Roll X one step along R, but not after the last stage.
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t, index(Q - 1));
    auto roll = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
    b.setInsertionPointToStart(roll.thenBlock());
    auto shape = cast<MemRefType>(arrays[X].buffer.getType()).getShape();
    ShiftTileOp::create(b, loc, arrays[X].buffer, zeros(X), b.getDenseI64ArrayAttr(shape),
                        b.getI64IntegerAttr(R), arrays[X].handle);
  }
  memref::DeallocOp::create(b, loc, panel);
  emitStore();
  for (ArrayInfo &a : arrays)
    memref::DeallocOp::create(b, loc, a.buffer);
  func::ReturnOp::create(b, loc);
}

/// COSMA (Kwasniewski et al. Algorithm 1 lines 4-12, docs/Derivations.md D27):
/// the process's partial sums of its C block stay in one buffer; round by
/// round over its K range, the panels of A and B are gathered from the
/// processes sharing their blocks into one of two buffers each while the
/// previous round's panels are multiplied (double buffering, section 7.3); the
/// partial sums are then reduce-scattered into the processes sharing C's block.
void ContractionLowering::emitCosmaProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  RankVolumes volumes = cosmaVolumes(problem, *cosma, machine.elemBytes);
  emitPredictions(&volumes);
  // Extent of every label in the local contraction: its padded block, and for
  // the K labels the rounds run over, one round's share of it.
  std::map<std::string, int64_t> tile;
  for (auto &[l, p] : parts)
    tile[l] = (problem.extents.at(l) + p - 1) / p;
  int64_t totalRounds = 1;
  for (const TileLoop &r : rounds) {
    tile[r.label] = (tile[r.label] + r.count - 1) / r.count;
    totalRounds *= r.count;
  }
  auto bufferType = [&](Role x) {
    SmallVector<int64_t> shape;
    for (const std::string &l : arrays[x].labels)
      shape.push_back(tile.at(l));
    return MemRefType::get(shape, b.getF64Type());
  };
  Value partial = memref::AllocOp::create(b, loc, bufferType(RC));
  Value panels[2][2];
  for (Role x : {RA, RB})
    for (int parity : {0, 1})
      panels[x][parity] = memref::AllocOp::create(b, loc, bufferType(x));
  for (ArrayInfo &a : arrays)
    a.handle = createArray(a, Value());
  auto zeros = [&](Role x) { return SmallVector<Value>(arrays[x].labels.size(), index(0)); };
  // Each process reads C's initial value in its own sub-block only (zeros
  // elsewhere), so the reduce-scatter adds it exactly once.
  ReadTileOp::create(b, loc, arrays[RC].handle, zeros(RC), partial, false);
  // Offsets of round r's panel in x's block: the rounds are row-major over the
  // round labels.
  auto roundOffsets = [&](Role x, Value r) {
    SmallVector<Value> out;
    for (const std::string &l : arrays[x].labels) {
      Value offset = index(0);
      int64_t stride = totalRounds;
      for (const TileLoop &round : rounds) {
        stride /= round.count;
        if (round.label != l)
          continue;
        Value n = arith::DivUIOp::create(b, loc, r, index(stride));
        n = arith::RemUIOp::create(b, loc, n, index(round.count));
        offset = arith::MulIOp::create(b, loc, n, index(tile.at(l)));
      }
      out.push_back(offset);
    }
    return out;
  };
  auto start = [&](Role x, Value r, Value buffer) -> Value {
    return GatherTileStartOp::create(b, loc, TransferType::get(b.getContext()),
                                     arrays[x].handle, roundOffsets(x, r), buffer);
  };
  SmallVector<NamedAttribute> extents;
  for (auto &[l, t] : tile)
    extents.push_back(b.getNamedAttr(l, b.getI64IntegerAttr(t)));
  auto labelsAttr = [&](Role x) {
    SmallVector<StringRef> ls(arrays[x].labels.begin(), arrays[x].labels.end());
    return b.getStrArrayAttr(ls);
  };
  auto multiply = [&](Value a, Value bb) {
    TileContractOp::create(b, loc, partial, zeros(RC), labelsAttr(RC), a, zeros(RA),
                           labelsAttr(RA), bb, zeros(RB), labelsAttr(RB),
                           b.getDictionaryAttr(extents));
  };
  SmallVector<Value> first = {start(RA, index(0), panels[RA][0]),
                              start(RB, index(0), panels[RB][0])};
  // Rounds 0..T-2: wait for round r, start round r+1 into the other buffers,
  // multiply round r. The last round is peeled: nothing follows it.
  SmallVector<Value> inFlight = first;
  if (totalRounds > 1) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(totalRounds - 1), index(1),
                              first);
    inFlight.assign(loop.getResults().begin(), loop.getResults().end());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    for (Value t : loop.getRegionIterArgs())
      WaitOp::create(b, loc, t);
    Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       arith::RemUIOp::create(b, loc, r, index(2)), index(0));
    Value next = arith::AddIOp::create(b, loc, r, index(1));
    Value current[2], started[2];
    for (Role x : {RA, RB}) {
      current[x] = arith::SelectOp::create(b, loc, even, panels[x][0], panels[x][1]);
      Value other = arith::SelectOp::create(b, loc, even, panels[x][1], panels[x][0]);
      started[x] = start(x, next, other);
    }
    multiply(current[RA], current[RB]);
    scf::YieldOp::create(b, loc, ValueRange{started[RA], started[RB]});
  }
  for (Value t : inFlight)
    WaitOp::create(b, loc, t);
  const int last = static_cast<int>((totalRounds - 1) % 2);
  multiply(panels[RA][last], panels[RB][last]);
  ReduceScatterTileOp::create(b, loc, partial, arrays[RC].handle, zeros(RC));
  WriteTileOp::create(b, loc, partial, arrays[RC].handle, zeros(RC));
  for (Role x : {RA, RB})
    for (int parity : {0, 1})
      memref::DeallocOp::create(b, loc, panels[x][parity]);
  memref::DeallocOp::create(b, loc, partial);
  StoreOp::create(b, loc, arrays[RC].handle);
  func::ReturnOp::create(b, loc);
}

LogicalResult ContractionLowering::run() {
  if (failed(checkShape()) || failed(readPlan()) || failed(buildArrays()))
    return failure();
  const bool isCosma = algorithm == ParallelAlgorithm::Cosma;
  if (isCosma ? failed(prepareCosma()) : !pumma && failed(buildLoops()))
    return failure();
  OpBuilder mb(func);
  auto newFunc = func::FuncOp::create(mb, func.getLoc(), func.getSymName(),
                                      mb.getFunctionType({}, {}));
  if (isCosma)
    emitCosmaProgram(newFunc);
  else if (pumma)
    emitPummaProgram(newFunc);
  else
    emitProgram(newFunc);
  func.erase();
  return success();
}

struct LowerPlanPass : public tc::impl::LowerPlanBase<LowerPlanPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, ContractOp>> work;
    bool failedAny = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func->hasAttr(TCDialect::getFusionPlanAttrName()))
        continue; // an operator tree: tc-lower-fused's
      SmallVector<ContractOp> contracts(func.getOps<ContractOp>());
      if (contracts.size() > 1) {
        func.emitOpError() << "has " << contracts.size()
                           << " tc.contract ops; tc-lower-plan lowers one per function";
        failedAny = true;
      } else if (contracts.size() == 1) {
        work.push_back({func, contracts.front()});
      }
    }
    if (failedAny)
      return signalPassFailure();
    if (work.empty())
      return;
    FailureOr<MachineModel> machine = getMachineModel(module);
    if (failed(machine))
      return signalPassFailure();
    SmallVector<StringAttr> lowered;
    for (auto [func, op] : work) {
      StringAttr name = func.getSymNameAttr();
      if (failed(ContractionLowering(op, func, *machine).run()))
        return signalPassFailure();
      lowered.push_back(name);
    }
    if (failed(appendToProgramEntry(module, lowered)))
      return signalPassFailure();
  }
};

} // namespace
