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
#include "AlgorithmLowerings.h"
#include "ContractionLowering.h"
#include "DecisionAttrs.h"
#include "PlanProblems.h"
#include "TC/Analysis/CollectiveVolumes.h"
#include "TC/Layout/Ownership.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tc;

namespace mlir::tc::lowering {

namespace {

/// Gao et al.'s Table 1 algorithms and batch (D30, a one-process tiling of
/// each process's batch values): tiling loops over the plan's groups.
class TiledLowering : public ContractionLowering {
public:
  using ContractionLowering::ContractionLowering;

private:
  LogicalResult readAlgorithm() override;
  std::optional<Operand> wholeOperand() const override;
  bool slabResult() const override;
  LogicalResult placeArrays() override;
  LogicalResult prepare() override { return buildLoops(); }
  void emitProgram(func::FuncOp newFunc) override;

  LogicalResult buildLoops();
  void emitGroup(unsigned n);
  void emitReadC(unsigned n, SmallVector<Value> offs);
  void emitContraction();
  SmallVector<Value> offsets(Operand x, bool inside);
  SmallVector<int64_t> tileShape(Operand x, unsigned group);
  /// With no stage 1 or 3: the bytes each rank moves and reads and writes,
  /// exactly, uneven blocks and tiles included (docs/Derivations.md D31).
  std::optional<RankVolumes> exactRankVolumes();

  std::optional<Operand> replicated; ///< the replicated input of a replication algorithm
  std::vector<Loop> loops;
  std::map<std::string, int64_t> innerTile;
  Value passIv; ///< outside rotation's pass ([G] 4.1), around the whole nest
};

} // namespace

LogicalResult lowerTiledContraction(ContractOp op, func::FuncOp func,
                                    const MachineModel &machine) {
  return TiledLowering(op, func, machine).run();
}

LogicalResult TiledLowering::readAlgorithm() {
  if (algorithm == ParallelAlgorithm::Rotation && grid.size() != 2)
    return op.emitOpError() << "rotation needs a 2-d grid, the plan has "
                            << plan.getGrid();
  if (algorithm == ParallelAlgorithm::ReplicationA)
    replicated = Operand::A;
  if (algorithm == ParallelAlgorithm::ReplicationB)
    replicated = Operand::B;
  return success();
}

std::optional<Operand> TiledLowering::wholeOperand() const {
  if (replicated)
    return replicated;
  if (algorithm == ParallelAlgorithm::Accumulation)
    return Operand::C;
  return std::nullopt;
}

/// Inside accumulation out of core: each process keeps a slab of C's first
/// dimension, each tile's partial sums reduce-scattered onto the slabs, so a
/// process reads and writes C / P on its disk instead of all of C (D53). A
/// scalar C has no rows to deal out; in core, C is its tile buffer; a result
/// required in another layout (stage 3) is redistributed from whole copies
/// (the runtime redistributes from no slab array).
bool TiledLowering::slabResult() const {
  return inside && algorithm == ParallelAlgorithm::Accumulation && !inCore && grid.size() == 1 &&
         grid[0] > 1 && problem.resultDealsOut();
}

LogicalResult TiledLowering::placeArrays() {
  if (algorithm != ParallelAlgorithm::Rotation)
    return success();
  // Cannon ([G] 2.2): A's and B's contracted block index starts at the sum of
  // the coordinates (the initial skew) and advances by one per shift.
  for (Operand x : {Operand::A, Operand::B}) {
    ArrayInfo &a = arrays[x];
    for (auto [d, l] : llvm::enumerate(a.labels))
      if (a.layout.gridDim[d] >= 0 && hasLabel(otherInput(x), l)) {
        a.shiftDim = a.layout.gridDim[d];
        a.layout.skewDim[d] = 1 - a.layout.gridDim[d];
      }
    if (a.shiftDim < 0)
      return op.emitOpError() << "rotation plan distributes no contracted label of "
                              << (x == Operand::A ? "A" : "B");
  }
  return success();
}

LogicalResult TiledLowering::buildLoops() {
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
SmallVector<int64_t> TiledLowering::tileShape(Operand x, unsigned group) {
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
SmallVector<Value> TiledLowering::offsets(Operand x, bool insideBuffer) {
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

void TiledLowering::emitContraction() {
  SmallVector<NamedAttribute> extents;
  for (auto &[l, t] : innerTile)
    extents.push_back(b.getNamedAttr(l, b.getI64IntegerAttr(t)));
  auto labelsAttr = [&](Operand x) {
    SmallVector<StringRef> ls(arrays[x].labels.begin(), arrays[x].labels.end());
    return b.getStrArrayAttr(ls);
  };
  PerOperand<SmallVector<Value>> sub = {
      {offsets(Operand::A, true), offsets(Operand::B, true), offsets(Operand::C, true)}};
  auto contract = [&]() {
    TileContractOp::create(b, loc, arrays[Operand::C].buffer, sub[Operand::C],
                           labelsAttr(Operand::C), arrays[Operand::A].buffer, sub[Operand::A],
                           labelsAttr(Operand::A), arrays[Operand::B].buffer, sub[Operand::B],
                           labelsAttr(Operand::B), b.getDictionaryAttr(extents), alpha());
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
  for (Operand x : {Operand::A, Operand::B}) {
    SmallVector<int64_t> sizes;
    for (const std::string &l : arrays[x].labels)
      sizes.push_back(innerTile.at(l));
    ShiftTileOp::create(b, loc, arrays[x].buffer, sub[x], b.getDenseI64ArrayAttr(sizes),
                        b.getI64IntegerAttr(arrays[x].shiftDim), arrays[x].handle);
  }
}

/// Reads C's tile, read in group n (inside accumulation: only the root's
/// carries C's old value). A C that starts at zero (`=`) is zero-filled
/// instead on the tile's first visit: the first pass's first K tile, every
/// enclosing loop over a label C lacks at its first value (D51).
void TiledLowering::emitReadC(unsigned n, SmallVector<Value> offs) {
  ArrayInfo &c = arrays[Operand::C];
  // Slabs: each process reads its own rows, the reduce-scatter adds them once.
  const bool rootOnly = inside && algorithm == ParallelAlgorithm::Accumulation && !slabResult();
  auto read = [&] { ReadTileOp::create(b, loc, c.handle, offs, c.buffer, rootOnly); };
  if (inCore || op.getInit())
    return read();
  Value first;
  auto atStart = [&](Value iv) {
    Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, iv, index(0));
    first = first ? arith::AndIOp::create(b, loc, first, is).getResult() : is;
  };
  if (passIv)
    atStart(passIv);
  for (const Loop &lp : loops)
    if (lp.group <= n && !hasLabel(Operand::C, lp.label))
      atStart(lp.iv);
  if (!first)
    return emitZeroFill(c.buffer);
  auto branch = scf::IfOp::create(b, loc, first, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  emitZeroFill(c.buffer);
  b.setInsertionPointToStart(branch.elseBlock());
  read();
}

void TiledLowering::emitGroup(unsigned n) {
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
  Operand x = nest.readIn(n);
  ArrayInfo &a = arrays[x];
  SmallVector<Value> offs = offsets(x, false);
  if (x == Operand::C)
    emitReadC(n, offs);
  else
    ReadTileOp::create(b, loc, a.handle, offs, a.buffer, /*rootOnly=*/false);
  if (inside && x == replicated)
    BroadcastTileOp::create(b, loc, a.buffer, a.handle, offs);
  emitGroup(n + 1);
  if (x == Operand::C) {
    if (slabResult())
      ReduceScatterTileOp::create(b, loc, a.buffer, a.handle, offs);
    else if (inside && algorithm == ParallelAlgorithm::Accumulation)
      AllReduceTileOp::create(b, loc, a.buffer);
    WriteTileOp::create(b, loc, a.buffer, a.handle, offs);
  }
}


namespace {

int64_t product(ArrayRef<int64_t> v) {
  int64_t n = 1;
  for (int64_t x : v)
    n *= x;
  return n;
}

} // namespace

std::optional<RankVolumes> TiledLowering::exactRankVolumes() {
  const int64_t P = machine.procs, e = machine.elemBytes, passes = grid[0];
  // Stages 1 and 3 ([G] 2.3): given inputs move into the compute arrays, the
  // result into its required layout, rank by rank as the runtime moves them.
  std::vector<tc_layout::RedistributionTraffic> stages;
  for (Operand x : kOperands)
    if (given[x])
      stages.push_back(x == Operand::C
                           ? redistributionTraffic(arrays[x].layout, given[x]->layout)
                           : redistributionTraffic(given[x]->layout, arrays[x].layout));
  const bool outsideRotation = algorithm == ParallelAlgorithm::Rotation && !inside;
  // Elements of each array's padded block (the runtime holds it so).
  auto paddedBlock = [&](Operand x) { return product(arrays[x].layout.paddedBlock()); };
  auto tileElems = [&](Operand x) { return product(tileShape(x, nest.readGroup(Operand(x)))); };
  auto rereads = [&](Operand x) {
    return inCore ? int64_t(1)
                  : rereadCount(nest, Operand(x), NestArray{arrays[x].labels, {}});
  };
  // Tiles of x per pass over it: the loops enclosing its read that index it.
  auto tilesOf = [&](Operand x) {
    int64_t n = 1;
    for (const Loop &lp : loops)
      if (lp.group <= nest.readGroup(Operand(x)) && hasLabel(x, lp.label))
        n *= lp.count;
    return n;
  };
  RankVolumes v;
  for (int64_t r = 0; r < P; ++r) {
    // Real elements of x's block on r after `shifted` shifts along its shift
    // dimension (Cannon's blocks start skewed, [G] 2.2).
    auto blockElems = [&](Operand x, int64_t shifted) {
      std::vector<int64_t> shifts(grid.size(), 0);
      if (arrays[x].shiftDim >= 0)
        shifts[arrays[x].shiftDim] = shifted;
      return arrays[x].layout.heldElements(r, shifts);
    };
    RankTraffic t;
    int64_t disk = 0;
    // The nest: each array read rereads(x) times over, C written as often
    // ([G] section 3); outside rotation runs it once per pass.
    for (int64_t pass = 0; pass < (outsideRotation ? passes : 1); ++pass)
      for (Operand x : {Operand::A, Operand::B, Operand::C})
        if (!inCore)
          disk += (x == Operand::C ? 2 : 1) * rereads(x) * blockElems(x, pass);
    if (!inCore && !op.getInit()) // C's first read is a zero fill (D51)
      disk -= blockElems(Operand::C, 0);
    if (replicated) {
      const ArrayInfo &a = arrays[*replicated];
      const std::vector<int64_t> &extents = a.layout.extents;
      const int64_t rows = extents.empty() ? 1 : extents[0];
      if (!inside) { // one all-gather, disk to disk out of core
        const int64_t cols = extents.empty() ? 1 : product(extents) / rows;
        t = ringAllGather(rows, cols, P, r);
        if (!inCore)
          disk += ringAllGatherDisk(rows, cols, extents.empty(), P, r);
      } else { // a broadcast of every tile: rows of the other slabs, padded columns
        SmallVector<int64_t> shape = tileShape(*replicated, nest.readGroup(*replicated));
        const int64_t cols = shape.empty() ? 1 : product(shape) / shape[0];
        const int64_t colTiles = tilesOf(*replicated) / [&] {
          int64_t n = 1;
          for (const Loop &lp : loops)
            if (lp.group <= nest.readGroup(*replicated) && !a.labels.empty() &&
                lp.label == a.labels[0])
              n *= lp.count;
          return n;
        }();
        RankTraffic g = ringAllGather(rows, cols * colTiles, P, r);
        t.sent = g.sent * rereads(*replicated);
        t.received = g.received * rereads(*replicated);
      }
    } else if (algorithm == ParallelAlgorithm::Accumulation) {
      // The runtime's staging chunk (chunk_bytes) in elements.
      const int64_t chunk =
          std::max<int64_t>(1, std::min<int64_t>(4 << 20, machine.tileBudget()) / e);
      if (!inside) { // one all-reduce of C, half a chunk at a time (read and written;
                     // the other half receives, lib/Runtime/Collectives.cpp)
        const int64_t n = product(arrays[Operand::C].layout.extents);
        t = allReduce(n, std::max<int64_t>(1, chunk / 2), P, r);
        if (!inCore && P > 1) // one process: nothing to reduce, no I/O
          disk += 2 * n;
      } else if (slabResult()) {
        // A ring reduce-scatter of each tile onto the slabs (GroupExchange.h):
        // all but its own part out, all but the previous rank's part in. Each
        // sweep's tiles cover C once, so per sweep that is C less a slab.
        const ArrayInfo &c = arrays[Operand::C];
        const int64_t whole = product(c.layout.extents);
        t.sent = rereads(Operand::C) * (whole - c.layout.heldElements(r));
        t.received = rereads(Operand::C) * (whole - c.layout.heldElements((r + P - 1) % P));
      } else { // an all-reduce of C's tile buffer at each write, a chunk at a time
        RankTraffic one = allReduce(tileElems(Operand::C), chunk, P, r);
        const int64_t writes = tilesOf(Operand::C) * rereads(Operand::C);
        t = {one.sent * writes, one.received * writes};
      }
    } else if (algorithm == ParallelAlgorithm::Rotation) {
      for (Operand x : {Operand::A, Operand::B}) {
        if (grid[arrays[x].shiftDim] == 1)
          continue;
        if (!inside) { // a shift of the whole padded block after each pass
          t.sent += passes * paddedBlock(x);
          if (!inCore)
            disk += 2 * passes * paddedBlock(x);
        } else { // each contraction's sub-tiles, grid[0] steps
          int64_t calls = 1, sub = 1;
          for (const Loop &lp : loops)
            calls *= lp.count;
          for (const std::string &l : arrays[x].labels)
            sub *= innerTile.at(l);
          t.sent += calls * passes * sub;
        }
      }
      t.received = t.sent;
    }
    for (const tc_layout::RedistributionTraffic &s : stages) {
      t.sent += s.sent[r];
      t.received += s.received[r];
      if (!inCore) // the source's scratch file read, the destination's written
        disk += 2 * s.kept[r] + s.sent[r] + s.received[r];
    }
    v.sent.push_back(static_cast<double>(t.sent * e));
    v.received.push_back(static_cast<double>(t.received * e));
    v.disk.push_back(static_cast<double>(disk * e));
  }
  return v;
}

void TiledLowering::emitProgram(func::FuncOp newFunc) {
  b.setInsertionPointToStart(newFunc.addEntryBlock());
  std::optional<RankVolumes> exact = exactRankVolumes();
  emitPredictions(exact ? &*exact : nullptr);
  for (Operand x : kOperands) {
    auto type = MemRefType::get(tileShape(x, nest.readGroup(x)), elementType(op));
    arrays[x].buffer = memref::AllocOp::create(b, loc, type);
  }
  // In core, each array lives in its tile buffer (one tile = the whole block), so
  // reading and writing tiles copies nothing and memory holds each array once.
  for (ArrayInfo &a : arrays)
    a.handle = createArray(a, inCore ? a.buffer : Value());
  emitGivenInputs();
  // On a grid of one process the gathered array's slab is all of it: the
  // all-gather would move nothing, and without it the array is written by
  // nothing and may live in its kept value's buffer (tc-reuse-kept-storage).
  if (replicated && !inside && product(grid) > 1)
    AllGatherArrayOp::create(b, loc, arrays[*replicated].handle);
  if (algorithm == ParallelAlgorithm::Rotation && !inside) {
    // Outside rotation ([G] 4.1): sqrt(P) passes, A and B shifted disk to disk.
    OpBuilder::InsertionGuard guard(b);
    auto passes = scf::ForOp::create(b, loc, index(0), index(grid[0]), index(1));
    b.setInsertionPointToStart(passes.getBody());
    passIv = passes.getInductionVar();
    emitGroup(0);
    // Along a grid dimension of one process a shift moves nothing; without
    // it the array is written by nothing and may live in its kept value's
    // buffer (tc-reuse-kept-storage).
    for (Operand x : {Operand::A, Operand::B})
      if (grid[arrays[x].shiftDim] > 1)
        ShiftArrayOp::create(b, loc, arrays[x].handle, b.getI64IntegerAttr(arrays[x].shiftDim));
  } else {
    emitGroup(0);
  }
  if (algorithm == ParallelAlgorithm::Accumulation && !inside)
    AllReduceArrayOp::create(b, loc, arrays[Operand::C].handle);
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
