//===- LowerCosmaProgram.cpp - COSMA's program ----------------------------===//
//
// Kwasniewski et al. Algorithm 1 as tc runs it (docs/Derivations.md D27):
// arrays in the compute views, split again so no element is stored twice,
// rounds of gathered panels double buffered, partial C reduce-scattered. Out
// of core (D56) the same program with the sub-blocks in scratch files.
//
//===----------------------------------------------------------------------===//
#include "AlgorithmLowerings.h"
#include "ContractionLowering.h"
#include "TC/Analysis/CosmaSchedule.h"
#include "DecisionAttrs.h"
#include "PlanProblems.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;

namespace mlir::tc::lowering {

namespace {

class CosmaLowering : public ContractionLowering {
public:
  using ContractionLowering::ContractionLowering;

private:
  LogicalResult readAlgorithm() override;
  bool tilesOutOfCore() const override { return false; }
  LogicalResult readLayouts() override;
  LogicalResult prepare() override;
  void emitProgram(func::FuncOp newFunc) override;

  /// The plan's layout in Algorithm 1's roles, and its rounds over K.
  std::optional<CosmaLayout> cosma;
  std::vector<TileLoop> rounds;
};

} // namespace

LogicalResult lowerCosmaContraction(ContractOp op, func::FuncOp func,
                                    const MachineModel &machine) {
  return CosmaLowering(op, func, machine).run();
}

LogicalResult CosmaLowering::readAlgorithm() {
  if (grid.size() != 3)
    return op.emitOpError() << "algorithm = cosma runs on a 3-d grid; the plan has grid "
                            << plan.getGrid();
  if (DictionaryAttr r = cast<CosmaAttr>(plan.getAlgorithm()).getRounds())
    for (NamedAttribute round : r)
      rounds.push_back({round.getName().getValue().str(),
                        cast<IntegerAttr>(round.getValue()).getInt()});
  return success();
}

/// COSMA's plan (docs/Derivations.md D27): the distributed labels in the
/// roles Algorithm 1 gives them, rounds over K, and the labels split again.
LogicalResult CosmaLowering::readLayouts() {
  MacroIndicesOrError macroOrError = macroIndicesOf(problem);
  if (!macroOrError)
    return op.emitOpError() << macroOrError.error;
  const MacroIndices &macro = macroOrError.value;
  std::string i = distOf(Operand::A).getDistributedLabel(0).str(),
              j = distOf(Operand::B).getDistributedLabel(1).str(),
              k = distOf(Operand::A).getDistributedLabel(2).str();
  if (i.empty() || j.empty() || k.empty() || !llvm::is_contained(macro.I, i) ||
      !llvm::is_contained(macro.J, j) || !llvm::is_contained(macro.K, k) ||
      distOf(Operand::B).getDistributedLabel(2) != k ||
      distOf(Operand::C).getDistributedLabel(0) != i ||
      distOf(Operand::C).getDistributedLabel(1) != j)
    return op.emitOpError() << "algorithm = cosma needs dist_a = <[i, *, k]>, dist_b = "
                               "<[*, j, k]> and dist_c = <[i, j, *]> with i in I, j in J "
                               "and k in K; got "
                            << distOf(Operand::A) << ", " << distOf(Operand::B) << ", "
                            << distOf(Operand::C);
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
LogicalResult CosmaLowering::prepare() {
  for (Operand x : kOperands)
    if (given[x])
      return op.emitOpError() << "algorithm = cosma does not redistribute given or "
                                 "required layouts yet; plan another algorithm";
  for (Operand x : {Operand::A, Operand::B, Operand::C}) {
    ArrayInfo &a = arrays[x];
    for (auto [d, l] : llvm::enumerate(a.labels))
      if (l == cosma->splitLabel(x))
        a.layout.splitDim[d] = CosmaLayout::splitGridDim(x);
  }
  return success();
}


/// COSMA (Kwasniewski et al. Algorithm 1 lines 4-12, docs/Derivations.md D27):
/// the process's partial sums of its C block stay in one buffer; round by
/// round over its K range, the panels of A and B are gathered from the
/// processes sharing their blocks into one of two buffers each while the
/// previous round's panels are multiplied (double buffering, section 7.3); the
/// partial sums are then reduce-scattered into the processes sharing C's block.
///
/// A block no other process shares (its split grid dimension has extent 1) is
/// used in place when in core: its buffer is the array's storage, so it is not
/// copied into panels (A, B), nor read, reduced and written back (C). With
/// neither A nor B gathered the rounds have nothing to overlap: one round.
void CosmaLowering::emitProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  RankVolumes volumes = cosmaVolumes(problem, *cosma, machine.elemBytes);
  // Out of core each process reads its sub-blocks of A and B once, as their
  // panels are gathered, and writes C's (D56).
  const bool readsC = static_cast<bool>(op.getInit());
  // A grid of fewer ranks than the machine's leaves the others idle
  // (Kwasniewski et al. section 7.1, Fig. 5): they move nothing.
  const int64_t used = static_cast<int64_t>(volumes.sent.size());
  if (!inCore) {
    volumes.disk = cosmaDiskBytes(problem, *cosma, machine.elemBytes, readsC);
    volumes.disk.resize(machine.procs, 0.0);
  }
  volumes.sent.resize(machine.procs, 0.0);
  volumes.received.resize(machine.procs, 0.0);
  emitPredictions(&volumes);
  PerOperand<bool> inPlace;
  for (Operand x : {Operand::A, Operand::B, Operand::C})
    inPlace[x] = inCore && grid[CosmaLayout::splitGridDim(x)] == 1;
  // Extent of every label in the process's padded block, and in the local
  // contraction (`tile`): for the K labels the rounds run over, one round's
  // share of the block.
  std::map<std::string, int64_t> block, tile, roundsOf;
  for (auto &[l, p] : parts)
    block[l] = tile[l] = (problem.extents.at(l) + p - 1) / p;
  int64_t totalRounds = 1;
  std::vector<TileLoop> roundLoops;
  if (!inPlace[Operand::A] || !inPlace[Operand::B])
    roundLoops = rounds;
  for (const TileLoop &r : roundLoops) {
    tile[r.label] = (tile[r.label] + r.count - 1) / r.count;
    totalRounds *= r.count;
    roundsOf[r.label] = r.count;
  }
  // In place, a round is a sub-tile of the block: the rounds must cover it
  // exactly, or the last one would run past the storage.
  for (Operand x : {Operand::A, Operand::B})
    for (auto &[l, count] : roundsOf)
      if (hasLabel(x, l) && tile.at(l) * count != block.at(l))
        inPlace[x] = false;
  auto typeOf = [&](Operand x, const std::map<std::string, int64_t> &extent) {
    SmallVector<int64_t> shape;
    for (const std::string &l : arrays[x].labels)
      shape.push_back(extent.at(l));
    return MemRefType::get(shape, elementType(op));
  };
  Value partial = memref::AllocOp::create(b, loc, typeOf(Operand::C, block));
  if (inPlace[Operand::C])
    arrays[Operand::C].buffer = partial;
  SmallVector<Operand> gathered;
  PerOperand<std::array<Value, 2>> panels;
  for (Operand x : {Operand::A, Operand::B}) {
    if (inPlace[x]) {
      arrays[x].buffer = memref::AllocOp::create(b, loc, typeOf(x, block));
      continue;
    }
    gathered.push_back(x);
    for (int parity : {0, 1})
      panels[x][parity] = memref::AllocOp::create(b, loc, typeOf(x, tile));
  }
  for (ArrayInfo &a : arrays)
    a.handle = createArray(a, a.buffer);
  // Idle ranks (past the grid, where tc.grid_coord is -1) hold no data and
  // skip the rounds and the reduction; they create and store the arrays with
  // the others (collectives over every process).
  scf::IfOp inGrid;
  if (used < machine.procs) {
    Value coord = GridCoordOp::create(b, loc, b.getIndexType(), arrays[Operand::C].handle,
                                      b.getI64IntegerAttr(0));
    Value member = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, coord, index(0));
    inGrid = scf::IfOp::create(b, loc, member, /*withElseRegion=*/false);
    b.setInsertionPointToStart(inGrid.thenBlock());
  }
  auto zeros = [&](Operand x) { return SmallVector<Value>(arrays[x].labels.size(), index(0)); };
  // Each process reads C's initial value in its own sub-block only (zeros
  // elsewhere), so the reduce-scatter adds it exactly once. Out of core a C
  // that starts at zero is not read (D51).
  if (!inCore && !readsC)
    emitZeroFill(partial);
  else if (!inPlace[Operand::C])
    ReadTileOp::create(b, loc, arrays[Operand::C].handle, zeros(Operand::C), partial, false);
  // Offsets of round r's panel in x's block: the rounds are row-major over the
  // round labels.
  auto roundOffsets = [&](Operand x, Value r) {
    SmallVector<Value> out;
    for (const std::string &l : arrays[x].labels) {
      Value offset = index(0);
      int64_t stride = totalRounds;
      for (const TileLoop &round : roundLoops) {
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
  auto start = [&](Operand x, Value r, Value buffer) -> Value {
    return GatherTileStartOp::create(b, loc, TransferType::get(b.getContext()),
                                     arrays[x].handle, roundOffsets(x, r), buffer);
  };
  SmallVector<NamedAttribute> extents;
  for (auto &[l, t] : tile)
    extents.push_back(b.getNamedAttr(l, b.getI64IntegerAttr(t)));
  auto labelsAttr = [&](Operand x) {
    SmallVector<StringRef> ls(arrays[x].labels.begin(), arrays[x].labels.end());
    return b.getStrArrayAttr(ls);
  };
  // Round r's product: a gathered operand is its panel, an operand in place
  // the round's sub-tile of its storage.
  auto multiply = [&](Value r, const PerOperand<Value> &panel) {
    PerOperand<Value> operand;
    PerOperand<SmallVector<Value>> offsets;
    for (Operand x : {Operand::A, Operand::B}) {
      operand[x] = inPlace[x] ? arrays[x].buffer : panel[x];
      offsets[x] = inPlace[x] ? roundOffsets(x, r) : zeros(x);
    }
    TileContractOp::create(b, loc, partial, zeros(Operand::C), labelsAttr(Operand::C),
                           operand[Operand::A], offsets[Operand::A], labelsAttr(Operand::A),
                           operand[Operand::B], offsets[Operand::B], labelsAttr(Operand::B),
                           b.getDictionaryAttr(extents), alpha());
  };
  SmallVector<Value> inFlight;
  for (Operand x : gathered)
    inFlight.push_back(start(x, index(0), panels[x][0]));
  // Rounds 0..T-2: wait for round r, start round r+1 into the other buffers,
  // multiply round r. The last round is peeled: nothing follows it.
  if (totalRounds > 1) {
    auto loop = scf::ForOp::create(b, loc, index(0), index(totalRounds - 1), index(1),
                                   inFlight);
    inFlight.assign(loop.getResults().begin(), loop.getResults().end());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    for (Value t : loop.getRegionIterArgs())
      WaitOp::create(b, loc, t);
    Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       arith::RemUIOp::create(b, loc, r, index(2)), index(0));
    Value next = arith::AddIOp::create(b, loc, r, index(1));
    PerOperand<Value> current;
    SmallVector<Value> started;
    for (Operand x : gathered) {
      current[x] = arith::SelectOp::create(b, loc, even, panels[x][0], panels[x][1]);
      Value other = arith::SelectOp::create(b, loc, even, panels[x][1], panels[x][0]);
      started.push_back(start(x, next, other));
    }
    multiply(r, current);
    scf::YieldOp::create(b, loc, started);
  }
  for (Value t : inFlight)
    WaitOp::create(b, loc, t);
  const int last = static_cast<int>((totalRounds - 1) % 2);
  PerOperand<Value> lastPanels = {{panels[Operand::A][last], panels[Operand::B][last], Value()}};
  multiply(index(totalRounds - 1), lastPanels);
  if (!inPlace[Operand::C]) {
    ReduceScatterTileOp::create(b, loc, partial, arrays[Operand::C].handle, zeros(Operand::C));
    WriteTileOp::create(b, loc, partial, arrays[Operand::C].handle, zeros(Operand::C));
  }
  if (inGrid)
    b.setInsertionPointAfter(inGrid);
  StoreOp::create(b, loc, arrays[Operand::C].handle);
  // After the store: a buffer in place is its array's storage.
  for (Operand x : gathered)
    for (int parity : {0, 1})
      memref::DeallocOp::create(b, loc, panels[x][parity]);
  for (Operand x : {Operand::A, Operand::B})
    if (inPlace[x])
      memref::DeallocOp::create(b, loc, arrays[x].buffer);
  memref::DeallocOp::create(b, loc, partial);
  func::ReturnOp::create(b, loc);
}

} // namespace mlir::tc::lowering
