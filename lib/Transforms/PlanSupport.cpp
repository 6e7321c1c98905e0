//===- PlanSupport.cpp - IR <-> planner problem for the planning passes ---===//
#include "PlanSupport.h"
#include "DecisionConversion.h"

#include "TC/Dialect/TCDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tc;

MachineModel mlir::tc::toMachineModel(MachineAttr attr) {
  MachineModel m;
  m.procs = attr.getProcs();
  m.memBytes = static_cast<double>(attr.getMemBytes());
  m.netBandwidth = attr.getNetBandwidth().convertToDouble();
  m.diskBandwidth = attr.getDiskBandwidth().convertToDouble();
  m.elemBytes = attr.getElemBytes();
  m.bcastFactor = attr.getBcastFactor().convertToDouble();
  m.reduceFactor = attr.getReduceFactor().convertToDouble();
  m.runtimeVolumes = toRuntimeVolumes(attr.getVolumes());
  return m;
}

FailureOr<MachineModel> mlir::tc::getMachineModel(ModuleOp module) {
  auto attr = module->getAttrOfType<MachineAttr>(TCDialect::getMachineAttrName());
  if (!attr)
    return module.emitError()
           << "planning needs a machine model: give the module a '"
           << TCDialect::getMachineAttrName()
           << "' attribute or run tc-plan/tc-set-machine with procs=, mem=, net-bw= "
              "and disk-bw= (or machine-file=)";
  return toMachineModel(attr);
}

static std::vector<std::string> strings(ArrayAttr labels) {
  std::vector<std::string> out;
  for (Attribute l : labels)
    out.push_back(cast<StringAttr>(l).getValue().str());
  return out;
}

/// A distribution written over a redistribute's labels, renamed to the
/// contraction's labels of the same dimensions.
static Layout toLayout(GridAttr grid, DistAttr dist, ArrayAttr ownLabels,
                       const std::vector<std::string> &contractLabels) {
  Layout layout;
  layout.grid.assign(grid.getShape().begin(), grid.getShape().end());
  std::vector<std::string> own = strings(ownLabels);
  for (StringAttr entry : dist.getDims()) {
    std::string name = entry.getValue().str();
    auto it = std::find(own.begin(), own.end(), name);
    if (it != own.end())
      name = contractLabels[it - own.begin()];
    layout.dims.push_back(name);
  }
  return layout;
}

FailureOr<ContractionProblem> mlir::tc::buildProblem(ContractOp op) {
  ContractionProblem p;
  p.labelsA = strings(op.getLabelsOfInput(0));
  p.labelsB = strings(op.getLabelsOfInput(1));
  p.labelsC = strings(op.getResultLabels());
  auto addExtents = [&](Value v, const std::vector<std::string> &labels) {
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    for (size_t d = 0; d < labels.size(); ++d)
      p.extents[labels[d]] = shape[d];
  };
  addExtents(op.getLhs(), p.labelsA);
  addExtents(op.getRhs(), p.labelsB);
  addExtents(op.getResult(), p.labelsC);
  if (auto r = op.getLhs().getDefiningOp<RedistributeOp>())
    p.givenA = toLayout(r.getGrid(), r.getTo(), r.getLabels(), p.labelsA);
  if (auto r = op.getRhs().getDefiningOp<RedistributeOp>())
    p.givenB = toLayout(r.getGrid(), r.getTo(), r.getLabels(), p.labelsB);
  for (Operation *user : op.getResult().getUsers())
    if (auto r = dyn_cast<RedistributeOp>(user)) {
      Layout wanted = toLayout(r.getGrid(), r.getFrom(), r.getLabels(), p.labelsC);
      if (p.requiredC && !p.requiredC->samePartition(wanted))
        return op.emitError() << "the result is redistributed from two different "
                                 "layouts: "
                              << p.requiredC->str() << " and " << wanted.str();
      p.requiredC = wanted;
    }
  return p;
}

PlanAttr mlir::tc::getPlan(ContractOp op) {
  if (auto plan = op->getAttrOfType<PlanAttr>(TCDialect::getPlanAttrName()))
    return plan;
  return PlanAttr::get(op.getContext(), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
}

PlanDecisions mlir::tc::readDecisions(PlanAttr plan) {
  PlanDecisions d;
  if (plan.getInCore())
    d.inCore = plan.getInCore().getValue();
  if (plan.getMethod())
    d.method = toAnalysis(*plan.getMethod());
  if (plan.getAlgorithm())
    d.algorithm = toAnalysis(*plan.getAlgorithm());
  if (plan.getOrder())
    d.order = toAnalysis(*plan.getOrder());
  if (plan.getLoops() && d.order) {
    TileNest nest;
    nest.order = *d.order;
    for (auto [g, group] : llvm::enumerate(plan.getLoops()))
      for (NamedAttribute loop : cast<DictionaryAttr>(group))
        nest.groups[g].push_back({loop.getName().getValue().str(),
                                  cast<IntegerAttr>(loop.getValue()).getInt()});
    d.nest = nest;
  }
  return d;
}

static DistAttr toDist(MLIRContext *ctx, const Layout &layout) {
  SmallVector<StringAttr> dims;
  for (const std::string &d : layout.dims)
    dims.push_back(StringAttr::get(ctx, d));
  return DistAttr::get(ctx, dims);
}

PlanAttr mlir::tc::mergePlan(MLIRContext *ctx, PlanAttr old, const ContractionPlan &plan,
                             PlanFields fields) {
  Builder b(ctx);
  auto keep = [](auto present, auto computed, bool decide) {
    return present ? present : (decide ? computed : decltype(present)());
  };
  BoolAttr inCore = keep(old.getInCore(), b.getBoolAttr(plan.inCore), fields.algorithm);
  std::optional<CommMethodKind> method = old.getMethod();
  if (!method && fields.algorithm && !plan.inCore)
    method = toIR(plan.method);
  std::optional<AlgorithmKind> algorithm =
      keep(old.getAlgorithm(), std::optional(toIR(plan.algorithm)), fields.algorithm);
  GridAttr grid = keep(old.getGrid(), GridAttr::get(ctx, plan.layoutA.grid), fields.algorithm);
  DistAttr distA = keep(old.getDistA(), toDist(ctx, plan.layoutA), fields.algorithm);
  DistAttr distB = keep(old.getDistB(), toDist(ctx, plan.layoutB), fields.algorithm);
  DistAttr distC = keep(old.getDistC(), toDist(ctx, plan.layoutC), fields.algorithm);
  std::optional<ReadOrderKind> order = old.getOrder();
  if (!order && fields.order && !plan.inCore)
    order = toIR(plan.nest.order);
  ArrayAttr loops = old.getLoops();
  FloatAttr disk = old.getDiskBytes(), comm = old.getCommBytes(), secs = old.getSeconds();
  if (fields.tiles) {
    if (!loops && !plan.inCore) {
      SmallVector<Attribute> groups;
      for (const auto &group : plan.nest.groups) {
        SmallVector<NamedAttribute> entries;
        for (const TileLoop &loop : group)
          entries.push_back(b.getNamedAttr(loop.label, b.getI64IntegerAttr(loop.count)));
        groups.push_back(b.getDictionaryAttr(entries));
      }
      loops = b.getArrayAttr(groups);
    }
    disk = b.getF64FloatAttr(plan.totalDiskBytes());
    comm = b.getF64FloatAttr(plan.totalCommBytes());
    secs = b.getF64FloatAttr(plan.totalSeconds());
  }
  return PlanAttr::get(ctx, inCore, method, algorithm, grid, distA, distB, distC, order,
                       loops, disk, comm, secs);
}

LogicalResult mlir::tc::planEachContraction(
    ModuleOp module, bool emitRemarks,
    llvm::function_ref<void(ContractOp, const ContractionProblem &, const PlanResult &)>
        onPlanned) {
  FailureOr<MachineModel> machine = getMachineModel(module);
  if (failed(machine))
    return failure();
  bool failedAny = false;
  module.walk([&](ContractOp op) {
    // Formulas of an operator tree are planned together by tc-fuse-distribute.
    if (op->hasAttr(TCDialect::getFusionAttrName()))
      return;
    FailureOr<ContractionProblem> problem = buildProblem(op);
    if (failed(problem)) {
      failedAny = true;
      return;
    }
    PlanResult result = planContraction(*problem, *machine, readDecisions(getPlan(op)));
    if (emitRemarks)
      for (const std::string &remark : result.remarks)
        op.emitRemark() << remark;
    if (!result.chosen) {
      op.emitError() << result.error;
      failedAny = true;
      return;
    }
    onPlanned(op, *problem, result);
  });
  return failure(failedAny);
}

LogicalResult mlir::tc::recordPlanFields(ModuleOp module, PlanFields fields,
                                         bool emitRemarks) {
  return planEachContraction(module, emitRemarks, [&](ContractOp op,
                                                      const ContractionProblem &,
                                                      const PlanResult &r) {
    op->setAttr(TCDialect::getPlanAttrName(),
                mergePlan(op.getContext(), getPlan(op), r.candidates[*r.chosen], fields));
  });
}

FailureOr<llvm::json::Object> mlir::tc::readMachineJson(ModuleOp module, StringRef path) {
  auto fail = [&](const Twine &why) {
    return module.emitError() << "machine file '" << path << "': " << why;
  };
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(buffer.getError().message());
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return fail(llvm::toString(json.takeError()));
  llvm::json::Object *object = json->getAsObject();
  if (!object)
    return fail("expected a JSON object with the keys of #tc.machine");
  return std::move(*object);
}
