//===- LowerGaoProgram.cpp - the programs of Gao et al.'s methods ---------===//
//
// A planned tc.contract becomes the program of Gao et al. Figures 1-2
// (docs/Derivations.md D3): the tiling loops of the plan's groups D1..D4
// (section 3, Figure 3b) with each array read at the top of its group's body,
// and the method's communication (sections 4-5).
//
// Tile geometry. Label l is split into p_l blocks across processes (its
// distribution), so a process's block has b_l = ceil(N_l / p_l) elements; the
// plan's loops over l have counts c_1..c_m (outer to inner), T_l = prod c, and
// the innermost tile has t_l = ceil(b_l / T_l) elements. Loop j steps by
// E_j = t_l * prod_{i>j} c_i, so tiles nest exactly and every tile has the same
// (padded) shape; the runtime clips reads and writes at the block's edge.
//
//===----------------------------------------------------------------------===//
#include "ContractionLowering.h"
#include "DecisionAttrs.h"
#include "PlanProblems.h"
#include "TC/Analysis/CollectiveVolumes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;

namespace mlir::tc::lowering {

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


std::optional<RankVolumes> ContractionLowering::inCoreRankVolumes() const {
  if (!inCore || llvm::any_of(given, [](const std::optional<ArrayInfo> &g) { return g; }))
    return std::nullopt;
  const int64_t P = machine.procs, e = machine.elemBytes;
  auto volume = [](ArrayRef<int64_t> v) {
    int64_t n = 1;
    for (int64_t x : v)
      n *= x;
    return n;
  };
  // A distributed array's padded block (what a shift moves).
  auto paddedBlock = [&](const ArrayInfo &a) {
    int64_t n = 1;
    for (auto [extent, dim] : llvm::zip_equal(a.extents, a.dims))
      n *= dim >= 0 ? (extent + grid[dim] - 1) / grid[dim] : extent;
    return n;
  };
  RankVolumes v;
  for (int64_t r = 0; r < P; ++r) {
    RankTraffic t;
    if (replicated >= 0) { // the all-gather of dim-0 slabs (a scalar: one row)
      const ArrayInfo &a = arrays[replicated];
      t = a.extents.empty() ? ringAllGather(1, 1, P, r)
                            : ringAllGather(a.extents[0], volume(a.extents) / a.extents[0], P, r);
    } else if (algorithm == ParallelAlgorithm::Accumulation) { // C's all-reduce
      const int64_t chunk = std::max<int64_t>(1, std::min<int64_t>(4 << 20, machine.tileBudget()) / 8);
      t = allReduce(volume(arrays[RC].extents), chunk, P, r);
    } else if (algorithm == ParallelAlgorithm::Rotation) { // grid[0] shifts of A and B
      for (Role x : {RA, RB})
        if (grid[arrays[x].shiftDim] > 1)
          t.sent += grid[0] * paddedBlock(arrays[x]);
      t.received = t.sent;
    }
    v.sent.push_back(static_cast<double>(t.sent * e));
    v.received.push_back(static_cast<double>(t.received * e));
  }
  return v;
}

void ContractionLowering::emitProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  std::optional<RankVolumes> exact = inCoreRankVolumes();
  emitPredictions(exact ? &*exact : nullptr);
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


} // namespace mlir::tc::lowering
