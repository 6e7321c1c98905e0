//===- LowerBlockSparseProgram.cpp - a block-sparse schedule's program ----===//
//
// Krishnamoorthy et al. ([K]) sections 5-6: the schedule tc-plan-block-sparse
// recorded (tasks to processes and stages, bricks to homes) becomes the
// program the runtime runs: block arrays with their homes, one tc.block_stage
// per stage in a loop, the result stored (docs/BlockSparse.md).
//
//===----------------------------------------------------------------------===//
#include "BlockSparseLowering.h"
#include "ContractionLowering.h"
#include "PlanProblems.h"
#include "ProgramEntry.h"
#include "TC/Analysis/BlockSparse.h"
#include "TC/Analysis/BrickCache.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::tc;

LogicalResult mlir::tc::lowerBlockSparseContraction(ContractOp op, func::FuncOp func,
                                                    const MachineModel &machine) {
  auto plan = op->getAttrOfType<BlockPlanAttr>(TCDialect::getBlockPlanAttrName());
  // The pool as tc-plan-block-sparse built it (same element size).
  const BlockContraction problem = buildBlockContraction(op);
  BlockTaskPool pool = buildTaskPool(
      problem, forElementType(machine, op.getResult().getType().getElementType()).elemBytes);
  ArrayRef<int64_t> taskRank = plan.getTaskRank(), owner = plan.getBrickOwner();
  ArrayRef<int64_t> taskStage =
      plan.getTaskStage() ? plan.getTaskStage().asArrayRef() : ArrayRef<int64_t>();
  ArrayRef<int64_t> taskStep =
      plan.getTaskStep() ? plan.getTaskStep().asArrayRef() : ArrayRef<int64_t>();
  if (taskRank.size() != pool.tasks.size() || owner.size() != pool.bricks.size() ||
      (!taskStage.empty() && taskStage.size() != pool.tasks.size()) ||
      taskStep.size() != taskStage.size())
    return op.emitOpError() << "#tc.block_plan has " << taskRank.size() << " tasks and "
                            << owner.size() << " bricks but the contraction has "
                            << pool.tasks.size() << " and " << pool.bricks.size()
                            << ": plan it again (tc-plan-block-sparse)";
  const int64_t procs = machine.procs;
  for (int64_t r : llvm::concat<const int64_t>(taskRank, owner))
    if (r < 0 || r >= procs)
      return op.emitOpError() << "#tc.block_plan names process " << r << " but the machine has "
                              << procs;

  // Each tensor's stored blocks, in the encoding's order, at their homes.
  const PerOperand<Value> operands = {{op.getLhs(), op.getRhs(), op.getResult()}};
  const PerOperand<Value> named = {{op.getLhs(), op.getRhs(), op.getInit()}};
  PerOperand<std::map<std::vector<int64_t>, int64_t>> indexOf;
  PerOperand<SmallVector<int64_t>> homes;
  const std::vector<int64_t> owners(owner.begin(), owner.end());
  for (Operand x : kOperands) {
    auto type = cast<RankedTensorType>(operands[x].getType());
    std::vector<std::vector<int64_t>> blocks =
        cast<BlocksAttr>(type.getEncoding()).toShape().storedBlocks();
    for (size_t i = 0; i < blocks.size(); ++i)
      indexOf[x][blocks[i]] = static_cast<int64_t>(i);
    std::vector<int64_t> h = blockHomes(pool, x, blocks, owners, procs);
    homes[x].assign(h.begin(), h.end());
  }
  SmallVector<int64_t> tasks, reads;
  int64_t stages = 1;
  auto dimsOr = [](const std::vector<int64_t> &dims, size_t rank) {
    SmallVector<int64_t> out(dims.begin(), dims.end());
    if (dims.empty()) // as stored
      for (size_t d = 0; d < rank; ++d)
        out.push_back(static_cast<int64_t>(d));
    return out;
  };
  for (size_t t = 0; t < pool.tasks.size(); ++t) {
    const BlockTask &task = pool.tasks[t];
    // A block of a tensor with pair symmetries read from its stored block.
    if (!task.aDims.empty() || !task.bDims.empty() || task.factor != 1) {
      reads.push_back(static_cast<int64_t>(t));
      reads.append(dimsOr(task.aDims, problem.aLabels.size()));
      reads.append(dimsOr(task.bDims, problem.bLabels.size()));
      reads.push_back(static_cast<int64_t>(task.factor));
    }
    for (int brick : {task.a, task.b, task.c})
      tasks.push_back(indexOf[pool.bricks[brick].tensor].at(pool.bricks[brick].block));
    tasks.push_back(taskRank[t]);
    const int64_t stage = taskStage.empty() ? 0 : taskStage[t];
    tasks.push_back(stage);
    tasks.push_back(taskStep.empty() ? 0 : taskStep[t]);
    stages = std::max(stages, stage + 1);
  }
  // [K] 6: the reads each process's cache of remote bricks serves, as the
  // planner counted them.
  SmallVector<int64_t> cached;
  if (DenseF64ArrayAttr cache = plan.getCachePerRank()) {
    StagedSchedule staged{std::vector<int>(taskRank.begin(), taskRank.end()),
                          std::vector<int>(taskStage.begin(), taskStage.end()),
                          std::vector<int>(owner.begin(), owner.end()), static_cast<int>(procs)};
    CachedTraffic traffic = cachedTraffic(
        pool, staged, std::vector<double>(cache.asArrayRef().begin(), cache.asArrayRef().end()));
    for (const CacheHit &hit : traffic.hits) {
      const Brick &brick = pool.bricks[hit.brick];
      cached.append({hit.stage, static_cast<int64_t>(brick.tensor),
                     indexOf[brick.tensor].at(brick.block), hit.rank});
    }
  }
  auto labels = [](const std::vector<int> &l) { return SmallVector<int64_t>(l.begin(), l.end()); };

  PerOperand<std::string> names;
  for (Operand x : kOperands)
    names[x] = lowering::arrayName(func, named[x], x);
  auto clash = [&](Operand x, Operand y) {
    return lowering::namesClash(func, names[x], named[x], names[y], named[y], y == Operand::C);
  };
  if (clash(Operand::A, Operand::B) || clash(Operand::A, Operand::C) ||
      clash(Operand::B, Operand::C))
    return op.emitOpError() << "arrays need distinct names (tc.name), got '" << names[Operand::A]
                            << "', '" << names[Operand::B] << "', '" << names[Operand::C] << "'";

  func::FuncOp lowered = createLoweredFunction(func);
  OpBuilder b(op.getContext());
  b.setInsertionPointToStart(lowered.addEntryBlock());
  Location loc = op.getLoc();
  const bool onDisk = plan.getSchedule() != BlockSchedule::InMemory;
  // Every rank's bytes differ: the plan's figures per rank ([K] 5-6).
  PredictedVolumesOp::create(
      b, loc, b.getF64FloatAttr(0), b.getF64FloatAttr(0),
      b.getF64FloatAttr(pool.totalFlops() / static_cast<double>(procs)),
      b.getI64IntegerAttr(static_cast<int64_t>(machine.stagingBytes())),
      plan.getSentPerRank(), plan.getReceivedPerRank(), plan.getIoPerRank());
  PerOperand<Value> arrays;
  for (Operand x : kOperands) {
    auto type = BlockArrayType::get(op.getContext(),
                                    cast<RankedTensorType>(operands[x].getType()));
    const bool input = x != Operand::C || op.getInit();
    ArrayInitKind init = !input ? ArrayInitKind::Zero
                         : x != Operand::C && lowering::isOnes(func, named[x])
                             ? ArrayInitKind::Ones
                             : ArrayInitKind::Input;
    // Ones are made in memory, never read from a file (tc-plan-block-sparse
    // counts no disk bytes for them).
    arrays[x] = BlockArrayOp::create(b, loc, type, names[x], homes[x], init,
                                     onDisk && init != ArrayInitKind::Ones);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value count = arith::ConstantIndexOp::create(b, loc, stages);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, count, one);
  b.setInsertionPointToStart(loop.getBody());
  BlockStageOp::create(
      b, loc, loop.getInductionVar(), arrays[Operand::A], arrays[Operand::B], arrays[Operand::C],
      labels(problem.aLabels), labels(problem.bLabels), labels(problem.cLabels), tasks, stages,
      cached.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(cached), scaleAttr(op),
      reads.empty() ? DenseI64ArrayAttr() : b.getDenseI64ArrayAttr(reads));
  b.setInsertionPointAfter(loop);
  BlockStoreOp::create(b, loc, arrays[Operand::C]);
  func::ReturnOp::create(b, loc);
  func.erase();
  return success();
}
