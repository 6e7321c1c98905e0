//===- LowerPummaProgram.cpp - PUMMA's program ----------------------------===//
//
// Choi, Dongarra and Walker's PUMMA as tc runs it (docs/Derivations.md D28):
// block-cyclic arrays, one input rolled along a grid dimension, panels
// gathered or partial results reduced at every stage.
//
//===----------------------------------------------------------------------===//
#include "AlgorithmLowerings.h"
#include "ContractionLowering.h"
#include "TC/Analysis/PummaSchedule.h"
#include "DecisionAttrs.h"
#include "PlanProblems.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;

namespace mlir::tc::lowering {

namespace {

class PummaLowering : public ContractionLowering {
public:
  using ContractionLowering::ContractionLowering;

private:
  LogicalResult readAlgorithm() override;
  LogicalResult readLayouts() override;
  int64_t cyclicBlock(const std::string &label) const override {
    return pumma->blockOf(label);
  }
  bool splitsLabelsAlike() const override { return false; }
  Layout computeLayout(Operand x) const override { return pumma->layout(x); }
  void emitProgram(func::FuncOp newFunc) override;

  /// The rolled input, the variant and the blocks.
  std::optional<PummaChoice> pumma;
};

} // namespace

LogicalResult lowerPummaContraction(ContractOp op, func::FuncOp func,
                                    const MachineModel &machine) {
  return PummaLowering(op, func, machine).run();
}

LogicalResult PummaLowering::readAlgorithm() {
  if (!inCore || grid.size() != 2)
    return op.emitOpError() << "algorithm = pumma runs in core on a 2-d grid (out-of-core "
                               "PUMMA is not implemented); the plan has in_core = "
                            << inCore << " and grid " << plan.getGrid();
  if (!cast<PummaAttr>(plan.getAlgorithm()).getRoll())
    return missingPlanField(op, "roll");
  return success();
}

/// PUMMA's plan (docs/Derivations.md D28): the variant the three layouts and
/// the rolled input describe.
LogicalResult PummaLowering::readLayouts() {
  MacroIndicesOrError macroOrError = macroIndicesOf(problem);
  if (!macroOrError)
    return op.emitOpError() << macroOrError.error;
  PummaChoiceOrError choice = pummaChoiceOf(
      problem, macroOrError.value, std::vector<int64_t>(grid.begin(), grid.end()),
      *cast<PummaAttr>(plan.getAlgorithm()).getRoll(), layoutOf(plan.getGrid(), plan.getDistA()),
      layoutOf(plan.getGrid(), plan.getDistB()), layoutOf(plan.getGrid(), plan.getDistC()));
  if (!choice.value)
    return op.emitOpError() << "algorithm = pumma: " << choice.error;
  pumma = choice.value;
  return success();
}


/// PUMMA (Choi, Dongarra, Walker sections 3.1-3.2; docs/Derivations.md D28):
/// every array lives in its padded block; grid[R] stages, at stage t the
/// rolled input X holds the blocks of residue class (coordinate along R + t)
/// mod grid[R] of its label along R. Gather: Y's matching K panel is gathered
/// along G and C += X * panel. Reduce: panel = X * Y (X's current free
/// blocks of C), summed into C's owners along G. X then moves one step along
/// R (not after the last stage).
void PummaLowering::emitProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  RankVolumes volumes = pummaVolumes(problem, *pumma, machine.elemBytes);
  // Stages 1 and 3 move given inputs in and the result out, rank by rank.
  const PerOperand<const std::optional<Layout> *> layouts = {
      {&problem.givenA, &problem.givenB, &problem.requiredC}};
  const PerOperand<const std::vector<std::string> *> labelsOf = {
      {&problem.labelsA, &problem.labelsB, &problem.labelsC}};
  for (Operand x : kOperands)
    if (given[x]) {
      Layout compute = pumma->layout(x);
      std::vector<double> sent, received;
      redistributionVolumes(x == Operand::C ? compute : **layouts[x],
                            x == Operand::C ? **layouts[x] : compute, *labelsOf[x], problem.extents,
                            machine.elemBytes, sent, received);
      for (size_t r = 0; r < sent.size(); ++r) {
        volumes.sent[r] += sent[r];
        volumes.received[r] += received[r];
      }
    }
  emitPredictions(&volumes);
  const int64_t R = pumma->rollDim, Q = pumma->stages();
  const Operand X = pumma->roll, Y = otherInput(X);
  const bool gather = pumma->mode == PummaMode::Gather;
  // Local extent of every label: its padded block (the panel's residue class
  // has X's padded length along R, both being whole blocks of one class).
  std::map<std::string, int64_t> extent;
  auto shapeOf = [&](Operand x) {
    Layout layout = pumma->layout(Operand(x));
    SmallVector<int64_t> shape;
    for (const std::string &l : arrays[x].labels) {
      shape.push_back(layout.paddedLocal(l, problem.extents.at(l)));
      extent[l] = std::max(extent[l], shape.back());
    }
    return shape;
  };
  for (Operand x : {Operand::A, Operand::B, Operand::C}) {
    arrays[x].buffer = memref::AllocOp::create(b, loc, MemRefType::get(shapeOf(x), elementType(op)));
    arrays[x].handle = createArray(arrays[x], arrays[x].buffer);
  }
  emitGivenInputs();
  const Operand holder = gather ? Y : Operand::C;
  const std::string &label = gather ? pumma->k : pumma->freeX();
  const int64_t dim = llvm::find(arrays[holder].labels, label) - arrays[holder].labels.begin();
  SmallVector<int64_t> panelShape = shapeOf(holder);
  panelShape[dim] = pummaPanelRows(problem.extents.at(label), pumma->blockOf(label), Q);
  extent[label] = panelShape[dim];
  Value panel = memref::AllocOp::create(b, loc, MemRefType::get(panelShape, elementType(op)));
  SmallVector<NamedAttribute> extents;
  for (auto &[l, e] : extent)
    extents.push_back(b.getNamedAttr(l, b.getI64IntegerAttr(e)));
  auto labelsAttr = [&](Operand x) {
    SmallVector<StringRef> ls(arrays[x].labels.begin(), arrays[x].labels.end());
    return b.getStrArrayAttr(ls);
  };
  auto zeros = [&](Operand x) { return SmallVector<Value>(arrays[x].labels.size(), index(0)); };
  Value coord = GridCoordOp::create(b, loc, b.getIndexType(), arrays[Operand::C].handle,
                                    b.getI64IntegerAttr(R));
  auto stages = scf::ForOp::create(b, loc, index(0), index(Q), index(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(stages.getBody());
    Value t = stages.getInductionVar();
    Value residue = arith::RemUIOp::create(b, loc, arith::AddIOp::create(b, loc, coord, t),
                                           index(Q));
    PerOperand<Value> ops = {
        {arrays[Operand::A].buffer, arrays[Operand::B].buffer, arrays[Operand::C].buffer}};
    if (gather) {
      GatherCyclicOp::create(b, loc, arrays[Y].handle, b.getI64IntegerAttr(dim), residue,
                             b.getI64IntegerAttr(Q), panel);
      ops[Y] = panel;
    } else {
      emitZeroFill(panel);
      ops[Operand::C] = panel;
    }
    TileContractOp::create(b, loc, ops[Operand::C], zeros(Operand::C), labelsAttr(Operand::C),
                           ops[Operand::A], zeros(Operand::A), labelsAttr(Operand::A),
                           ops[Operand::B], zeros(Operand::B), labelsAttr(Operand::B),
                           b.getDictionaryAttr(extents), alpha());
    if (!gather)
      ReduceCyclicOp::create(b, loc, panel, arrays[Operand::C].handle, b.getI64IntegerAttr(dim),
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


} // namespace mlir::tc::lowering
