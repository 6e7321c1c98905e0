//===- PlanBlockSparse.cpp - the tc-plan-block-sparse pass ----------------===//
//
// Krishnamoorthy et al. ([K]) sections 5-6: a contraction over block-sparse
// tensors runs as a pool of block tasks; in memory the tasks go to processes
// by connectivity-1, out of core in stages whose bricks fit in the aggregate
// memory (docs/Derivations.md D33). The decisions are lib/Analysis's; this pass
// builds their inputs from the IR and records the plan.
//
//===----------------------------------------------------------------------===//
#include "ContractionLowering.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "TC/Analysis/BrickAssignment.h"
#include "TC/Analysis/BrickCache.h"
#include "TC/Analysis/DiskSchedule.h"
#include "TC/Analysis/Partitioners.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Transforms/Passes.h"

#include <algorithm>
#include <map>
#include <set>

namespace mlir::tc {
#define GEN_PASS_DEF_PLANBLOCKSPARSE
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// Bytes each process holds in memory under `a`: the bricks it owns and the
/// remote bricks its tasks touch.
std::vector<double> residentBytes(const BlockTaskPool &pool, const BrickAssignment &a,
                                  int procs) {
  std::vector<std::set<int>> held(procs);
  for (size_t j = 0; j < pool.bricks.size(); ++j)
    held[a.brickOwner[j]].insert(static_cast<int>(j));
  for (size_t t = 0; t < pool.tasks.size(); ++t)
    for (int brick : {pool.tasks[t].a, pool.tasks[t].b, pool.tasks[t].c})
      held[a.taskRank[t]].insert(brick);
  std::vector<double> bytes(procs, 0);
  for (int p = 0; p < procs; ++p)
    for (int j : held[p])
      bytes[p] += pool.bricks[j].bytes;
  return bytes;
}

/// Where the runtime holds the bricks of `op`'s operands that an earlier
/// statement left in memory at their homes (docs/Derivations.md D49): per
/// brick of `pool`, the home of that block in its producer's in-memory plan,
/// or for an input the runtime keeps (D44) in the plan of the statement whose
/// load it keeps; -1 where none. Fixing those bricks there keeps a tensor that
/// a chain of statements builds and reads (CCSD's `Wabef`, `R2`), and the
/// integrals the statements of a loop read, where they are, instead of each
/// statement's partition moving about half their bricks.
std::vector<int> heldHomes(ContractOp op, const BlockTaskPool &pool, int64_t procs) {
  std::vector<int> homes(pool.bricks.size(), -1);
  const PerOperand<Value> operands = {{op.getLhs(), op.getRhs(), op.getInit()}};
  for (Operand x : kOperands) {
    ContractOp source = keptProducerOf(op, operands[x]);
    Operand at = Operand::C;
    if (!source)
      if (std::optional<std::pair<ContractOp, Operand>> loader = keptInputLoaderOf(op, operands[x]))
        std::tie(source, at) = *loader;
    if (!source)
      continue;
    auto plan = source->getAttrOfType<BlockPlanAttr>(TCDialect::getBlockPlanAttrName());
    const PerOperand<Value> held = {{source.getLhs(), source.getRhs(), source.getResult()}};
    if (!plan || plan.getSchedule() != BlockSchedule::InMemory ||
        held[at].getType() != operands[x].getType())
      continue;
    // The holder's bricks are numbered as its task pool enumerates them
    // (their bytes play no part here).
    BlockTaskPool made = buildTaskPool(buildBlockContraction(source), 8);
    ArrayRef<int64_t> owner = plan.getBrickOwner().asArrayRef();
    if (owner.size() != made.bricks.size())
      continue;
    const std::vector<std::vector<int64_t>> stored =
        cast<BlocksAttr>(cast<RankedTensorType>(operands[x].getType()).getEncoding())
            .toShape()
            .storedBlocks();
    const std::vector<int64_t> where =
        blockHomes(made, at, stored, std::vector<int64_t>(owner.begin(), owner.end()), procs);
    std::map<std::vector<int64_t>, int> home;
    for (size_t i = 0; i < stored.size(); ++i)
      home[stored[i]] = static_cast<int>(where[i]);
    for (size_t j = 0; j < pool.bricks.size(); ++j)
      if (pool.bricks[j].tensor == x)
        if (auto it = home.find(pool.bricks[j].block); it != home.end())
          homes[j] = it->second;
  }
  return homes;
}

struct PlanBlockSparsePass : public tc::impl::PlanBlockSparseBase<PlanBlockSparsePass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult walked = getOperation().walk([&](ContractOp op) {
      // A plan already made (or written by hand) is kept: [K]'s point is a
      // schedule computed once and reused.
      if (!isBlockSparse(op) || op->hasAttr(TCDialect::getBlockPlanAttrName()))
        return WalkResult::advance();
      return succeeded(plan(op)) ? WalkResult::advance() : WalkResult::interrupt();
    });
    if (walked.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult plan(ContractOp op) {
    FailureOr<MachineModel> machine = getMachineModel(op);
    if (failed(machine))
      return failure();
    *machine = forElementType(*machine, op.getResult().getType().getElementType());
    const int procs = static_cast<int>(machine->procs);
    BlockTaskPool pool = buildTaskPool(buildBlockContraction(op), machine->elemBytes);
    if (assignment != "hypergraph" && assignment != "next-task")
      return op.emitOpError() << "tc-plan-block-sparse: assignment '" << assignment
                              << "' is neither 'hypergraph' nor 'next-task'";
    const bool baseline = assignment == "next-task";
    std::unique_ptr<HypergraphPartitioner> owned =
        createHypergraphPartitioner(partitioner);
    if (!owned) {
      std::string known;
      for (const std::string &name : hypergraphPartitionerNames())
        known += (known.empty() ? "'" : ", '") + name + "'";
      return op.emitOpError() << "tc-plan-block-sparse: no hypergraph partitioner '"
                              << partitioner << "' (this tool has " << known << ")";
    }
    HypergraphPartitioner &chosenPartitioner = *owned;
    auto assign = [&](const BlockTaskPool &tasks, const std::vector<int> &owners) {
      return baseline ? nextTaskAssignment(tasks, procs, owners)
                      : assignBricks(tasks, procs, owners, chosenPartitioner, imbalance);
    };
    // [K] 5: tasks and bricks together; the bricks' places are their homes,
    // those an earlier statement left in memory kept where they are.
    std::vector<int> held = baseline ? std::vector<int>() : heldHomes(op, pool, procs);
    if (llvm::none_of(held, [](int h) { return h >= 0; }))
      held.clear();
    BrickAssignment whole = assign(pool, held);
    if (!whole.error.empty())
      return op.emitOpError() << whole.error;
    std::vector<double> resident = residentBytes(pool, whole, procs);
    Builder b(op.getContext());
    auto array = [&](const std::vector<int> &v) {
      return b.getDenseI64ArrayAttr(SmallVector<int64_t>(v.begin(), v.end()));
    };
    auto busiest = [](const std::vector<double> &v) {
      return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    auto perRank = [&](const std::vector<double> &v) { return b.getDenseF64ArrayAttr(v); };
    if (busiest(resident) <= machine->memBytes) {
      op->setAttr(TCDialect::getBlockPlanAttrName(),
                  BlockPlanAttr::get(op.getContext(), BlockSchedule::InMemory,
                                     array(whole.taskRank), array(whole.brickOwner), {}, {},
                                     b.getF64FloatAttr(0),
                                     b.getF64FloatAttr(busiest(whole.received)),
                                     perRank(std::vector<double>(procs, 0)),
                                     perRank(whole.received), perRank(whole.sent), {}));
      return success();
    }
    // [K] 6: stages within the aggregate memory, then each stage's tasks to
    // processes with the bricks' homes fixed. The aggregate bounds a stage,
    // not a process's share of it (the bricks it is home of plus the remote
    // ones its tasks read): while some process's share exceeds its memory,
    // the stages are cut again within a smaller aggregate.
    Hypergraph h = taskBrickHypergraph(pool);
    // A task's three bricks are in one process's memory at once.
    double largestTask = 0;
    for (int t = 0; t < h.numVertices(); ++t) {
      const double bytes = memoryOf(h, {t});
      if (bytes > machine->memBytes)
        return op.emitOpError() << "no out-of-core schedule in " << procs << " x "
                                << static_cast<long long>(machine->memBytes) << " bytes: task "
                                << t << " touches " << static_cast<long long>(bytes)
                                << " bytes of bricks, more than a process's memory";
      largestTask = std::max(largestTask, bytes);
    }
    // A stage's bricks held at once (its shared ones and one step's) fit the
    // aggregate ([K] 6.3), so once it is at most a process's memory every
    // process's share does: the loop ends.
    double limit = machine->memBytes * procs;
    DiskSchedule best;
    std::vector<int> taskRank(pool.tasks.size()), taskStage(pool.tasks.size()),
        taskStep(pool.tasks.size());
    std::vector<double> footprint;
    for (;;) {
      best = baseline ? inOrderSchedule(h, limit) : diskSchedules(h, limit, chosenPartitioner).front();
      if (!best.error.empty())
        return op.emitOpError() << "no out-of-core schedule in " << procs << " x "
                                << static_cast<long long>(machine->memBytes)
                                << " bytes: " << best.error;
      for (size_t s = 0; s < best.stages.size(); ++s) {
        std::vector<int> tasks;
        for (size_t step = 0; step < best.stages[s].steps.size(); ++step)
          for (int t : best.stages[s].steps[step]) {
            tasks.push_back(t);
            taskStage[t] = static_cast<int>(s);
            taskStep[t] = static_cast<int>(step);
          }
        std::vector<int> brickOf;
        BlockTaskPool stage = subPool(pool, tasks, brickOf);
        std::vector<int> homes;
        for (int j : brickOf)
          homes.push_back(whole.brickOwner[j]);
        BrickAssignment a = assign(stage, homes);
        if (!a.error.empty())
          return op.emitOpError() << a.error;
        for (size_t i = 0; i < tasks.size(); ++i)
          taskRank[tasks[i]] = a.taskRank[i];
      }
      footprint = stageFootprint(pool, {taskRank, taskStage, whole.brickOwner, procs, taskStep});
      const double worst = busiest(footprint);
      if (worst <= machine->memBytes)
        break;
      if (limit <= largestTask)
        return op.emitOpError() << "no out-of-core schedule in " << procs << " x "
                                << static_cast<long long>(machine->memBytes)
                                << " bytes: a process holds " << static_cast<long long>(worst)
                                << " bytes of one stage's bricks";
      limit = std::max(largestTask, limit * std::min(0.9, machine->memBytes / worst));
    }
    std::vector<double> io(procs, 0);
    std::vector<char> cWritten(pool.bricks.size(), 0);
    const bool accumulates = static_cast<bool>(op.getInit());
    // The ones of a one-tensor term are made, not read: never on disk.
    auto func = op->getParentOfType<func::FuncOp>();
    const PerOperand<bool> made = {
        {lowering::isOnes(func, op.getLhs()), lowering::isOnes(func, op.getRhs()), false}};
    for (size_t s = 0; s < best.stages.size(); ++s) {
      std::vector<int> tasks;
      for (const std::vector<int> &step : best.stages[s].steps)
        tasks.insert(tasks.end(), step.begin(), step.end());
      std::vector<int> brickOf;
      BlockTaskPool stage = subPool(pool, tasks, brickOf);
      // Each brick of the stage moves once between its home's disk and
      // memory ([K] 6.1): A and B bricks are read; C bricks are written, and
      // read first when an earlier stage wrote them or they accumulate into
      // an input (what the runtime reads and writes, docs/BlockSparse.md).
      for (size_t j = 0; j < stage.bricks.size(); ++j) {
        const int home = whole.brickOwner[brickOf[j]];
        const bool isC = stage.bricks[j].tensor == Operand::C;
        if (!isC && made[stage.bricks[j].tensor])
          continue;
        const bool readBack = isC && (cWritten[brickOf[j]] || accumulates);
        io[home] += stage.bricks[j].bytes * (isC ? (readBack ? 2 : 1) : 1);
        if (isC)
          cWritten[brickOf[j]] = 1;
      }
    }
    // [K] 6: the memory each process's busiest stage leaves caches remote
    // bricks for later stages (LRU); the traffic is net of its hits.
    StagedSchedule staged{taskRank, taskStage, whole.brickOwner, procs};
    std::vector<double> cache = footprint;
    for (double &c : cache)
      c = cacheBytes >= 0 ? cacheBytes : std::max(0.0, machine->memBytes - c);
    CachedTraffic traffic = cachedTraffic(pool, staged, cache);
    op->setAttr(
        TCDialect::getBlockPlanAttrName(),
        BlockPlanAttr::get(op.getContext(), best.kind, array(taskRank), array(whole.brickOwner),
                           array(taskStage), array(taskStep), b.getF64FloatAttr(best.io(h)),
                           b.getF64FloatAttr(busiest(traffic.received)), perRank(io),
                           perRank(traffic.received), perRank(traffic.sent), perRank(cache)));
    return success();
  }
};

} // namespace
