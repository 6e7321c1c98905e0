//===- FusionSupport.cpp - IR <-> operator tree for the fusion passes -----===//
#include "FusionSupport.h"

#include "DecisionConversion.h"
#include "PlanSupport.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tc;

static std::vector<std::string> labelStrings(ArrayAttr labels) {
  std::vector<std::string> out;
  for (Attribute l : labels)
    out.push_back(cast<StringAttr>(l).getValue().str());
  return out;
}

bool mlir::tc::hasOperatorTree(func::FuncOp func) {
  int count = 0;
  func.walk([&](Operation *op) { count += isa<ContractOp, SumOp>(op); });
  return count >= 2;
}

FailureOr<FunctionTree> mlir::tc::buildFunctionTree(func::FuncOp func) {
  FunctionTree out;
  llvm::DenseMap<Value, int> nodeOf;
  int temporaries = 0;
  auto inputNode = [&](Value v, ArrayAttr labels) -> int {
    auto it = nodeOf.find(v);
    if (it != nodeOf.end())
      return it->second;
    std::string name;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto attr = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tc.name");
      name = attr ? attr.str() : std::string(1, static_cast<char>('A' + arg.getArgNumber()));
    } else {
      name = "in" + std::to_string(out.values.size());
    }
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    int id = out.tree.addInput(name, labelStrings(labels),
                               std::vector<int64_t>(shape.begin(), shape.end()));
    nodeOf[v] = id;
    out.values.push_back(v);
    out.ops.push_back(nullptr);
    return id;
  };
  LogicalResult status = success();
  func.walk([&](Operation *op) {
    if (!isa<ContractOp, SumOp>(op) || failed(status))
      return;
    auto labeled = [&](auto typed) -> LogicalResult {
      if (typed.getInit()) {
        status = op->emitError() << "a contraction in an operator tree cannot accumulate "
                                    "into an existing tensor (+=); write T = ... and add "
                                    "separately";
        return failure();
      }
      std::vector<int> children;
      for (unsigned i = 0; i < typed.getInputs().size(); ++i) {
        Value in = typed.getInputs()[i];
        auto found = nodeOf.find(in);
        bool seen = found != nodeOf.end();
        int child = seen ? found->second : inputNode(in, typed.getLabelsOfInput(i));
        if (seen && !out.ops[child]) {
          status = op->emitError() << "input " << out.tree.node(child).name
                                   << " is used by two formulas; an operator tree "
                                      "uses each array once";
          return failure();
        }
        children.push_back(child);
      }
      // The returned formula is the result (named like its HDF5 dataset).
      bool returned = llvm::any_of(typed.getResult().getUsers(),
                                   [](Operation *u) { return isa<func::ReturnOp>(u); });
      auto resultName = func.getResultAttrOfType<StringAttr>(0, "tc.name");
      std::string name = returned ? (resultName ? resultName.str() : std::string("R"))
                                  : "T" + std::to_string(++temporaries);
      std::vector<std::string> labels = labelStrings(typed.getResultLabels());
      int id = children.size() == 2
                   ? out.tree.addContraction(name, labels, children[0], children[1])
                   : out.tree.addSummation(name, labels, children[0]);
      nodeOf[typed.getResult()] = id;
      out.values.push_back(typed.getResult());
      out.ops.push_back(op);
      return success();
    };
    if (auto c = dyn_cast<ContractOp>(op))
      (void)labeled(c);
    else
      (void)labeled(cast<SumOp>(op));
  });
  if (failed(status))
    return failure();
  // Every intermediate feeds exactly one formula; the root is returned.
  for (size_t id = 0; id < out.values.size(); ++id) {
    if (!out.ops[id])
      continue;
    Value v = out.values[id];
    int uses = 0;
    bool returned = false;
    for (Operation *user : v.getUsers()) {
      ++uses;
      returned |= isa<func::ReturnOp>(user);
    }
    const auto &node = out.tree.node(static_cast<int>(id));
    if (node.parent >= 0 ? uses != 1 : !(uses == 1 && returned))
      return out.ops[id]->emitError()
             << "the result of this formula is "
             << (node.parent >= 0 ? "used " + std::to_string(uses) + " times"
                                  : std::string("not returned (or used elsewhere)"))
             << "; tc-fuse-distribute needs the function's tc ops to form one operator "
                "tree whose root is returned";
  }
  std::string problem = out.tree.verify();
  if (!problem.empty())
    return func.emitError() << "the contractions of @" << func.getSymName()
                            << " do not form an operator tree: " << problem;
  out.tree.node(out.tree.root()); // root exists after verify
  return out;
}

FailureOr<FusionCostSetup> mlir::tc::loadFusionCosts(ModuleOp module, StringRef machineFile,
                                                     double latencyOption,
                                                     double flopRateOption,
                                                     double ioLatencyOption,
                                                     double callOverheadOption) {
  FailureOr<MachineModel> model = getMachineModel(module);
  if (failed(model))
    return failure();
  FusionCostSetup setup;
  setup.machine = FusionMachine{model->procs, model->memBytes, model->elemBytes, 1e9,
                                model->runtimeVolumes};
  setup.machine.diskBandwidth = model->diskBandwidth;
  if (model->runtimeVolumes) {
    setup.stagingBytes = 2.0 * static_cast<double>(fusedStagingChunk(model->memBytes));
    setup.machine.memBytes -= setup.stagingBytes;
  }
  setup.machine.ioLatency = 1e-4;    // an HDF5 hyperslab read or write
  setup.machine.callOverhead = 1e-6; // a runtime call on a small slice
  double latency = 1e-5;
  std::map<std::string, MeasuredCommCost::Points> table;
  if (!machineFile.empty()) {
    auto fail = [&](const Twine &why) {
      return module.emitError() << "machine file '" << machineFile << "': " << why;
    };
    FailureOr<llvm::json::Object> object = readMachineJson(module, machineFile);
    if (failed(object))
      return failure();
    if (std::optional<double> v = object->getNumber("latency"))
      latency = *v;
    if (std::optional<double> v = object->getNumber("flop_rate"))
      setup.machine.flopRate = *v;
    if (std::optional<double> v = object->getNumber("io_latency"))
      setup.machine.ioLatency = *v;
    if (std::optional<double> v = object->getNumber("call_overhead"))
      setup.machine.callOverhead = *v;
    if (const llvm::json::Object *mcost = object->getObject("mcost"))
      for (const auto &[key, value] : *mcost) {
        const llvm::json::Array *points = value.getAsArray();
        if (!points)
          return fail("mcost '" + key.str() + "' must be a list of [bytes, seconds]");
        MeasuredCommCost::Points parsed;
        for (const llvm::json::Value &point : *points) {
          const llvm::json::Array *pair = point.getAsArray();
          std::optional<double> bytes, seconds;
          if (pair && pair->size() == 2) {
            bytes = (*pair)[0].getAsNumber();
            seconds = (*pair)[1].getAsNumber();
          }
          if (!bytes || !seconds || *bytes < 0 || *seconds < 0)
            return fail("mcost '" + key.str() + "' has a point that is not [bytes, seconds]");
          parsed.emplace_back(*bytes, *seconds);
        }
        table[key.str()] = std::move(parsed);
      }
  }
  if (latencyOption > 0)
    latency = latencyOption;
  if (flopRateOption > 0)
    setup.machine.flopRate = flopRateOption;
  if (ioLatencyOption >= 0)
    setup.machine.ioLatency = ioLatencyOption;
  if (callOverheadOption >= 0)
    setup.machine.callOverhead = callOverheadOption;
  setup.latency = latency;
  auto analytic =
      std::make_shared<AnalyticCommCost>(latency, model->netBandwidth, model->elemBytes);
  setup.measuredPairs = table.size();
  if (table.empty())
    setup.comm = analytic;
  else
    setup.comm = std::make_shared<MeasuredCommCost>(std::move(table), analytic,
                                                    model->elemBytes);
  return setup;
}

int64_t mlir::tc::fusedStagingChunk(double memBytes) {
  return std::max<int64_t>(1 << 10,
                           std::min<int64_t>(4 << 20, static_cast<int64_t>(memBytes / 16)));
}

DistAttr mlir::tc::toDistAttr(MLIRContext *ctx, const OperatorTree &tree, const Grid &grid,
                              const Distribution &dist) {
  SmallVector<StringAttr> dims;
  for (size_t d = 0; d < grid.size(); ++d) {
    int8_t e = dist.entry[d];
    dims.push_back(StringAttr::get(ctx, e == Distribution::kReplicated   ? "*"
                                        : e == Distribution::kFirstSlice ? "1"
                                                                         : tree.indexName(e)));
  }
  return DistAttr::get(ctx, dims);
}

FusionAttr mlir::tc::toFusionAttr(MLIRContext *ctx, const OperatorTree &tree,
                                  const FusionPlan &plan, int id) {
  Builder b(ctx);
  const FusionPlan::Node &n = plan.nodes[id];
  const OperatorTree::Node &v = tree.node(id);
  ArrayAttr fused;
  if (n.edge.fused) {
    SmallVector<Attribute> names;
    for (int i : v.dims)
      if (contains(n.edge.fused, i))
        names.push_back(b.getStringAttr(tree.indexName(i)));
    fused = b.getArrayAttr(names);
  }
  return FusionAttr::get(ctx, GridAttr::get(ctx, plan.grid),
                         v.isInput() ? DistAttr() : toDistAttr(ctx, tree, plan.grid, n.decision.compute),
                         toDistAttr(ctx, tree, plan.grid, n.edge.produced),
                         toDistAttr(ctx, tree, plan.grid, n.edge.consumed), fused,
                         toIR(n.decision.variant),
                         b.getF64FloatAttr(n.memBytes), b.getF64FloatAttr(n.commSeconds),
                         v.isInput() ? FloatAttr() : b.getF64FloatAttr(n.calcSeconds));
}

FusionAttr mlir::tc::getFusionAttr(func::FuncOp func, const FunctionTree &tree, int id) {
  if (Operation *op = tree.ops[id])
    return op->getAttrOfType<FusionAttr>(TCDialect::getFusionAttrName());
  if (auto arg = dyn_cast<BlockArgument>(tree.values[id]))
    return func.getArgAttrOfType<FusionAttr>(arg.getArgNumber(), TCDialect::getFusionAttrName());
  return {};
}
