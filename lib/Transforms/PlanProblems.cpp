//===- PlanProblems.cpp - IR -> the planners' problems --------------------===//
#include "PlanProblems.h"
#include "TC/Analysis/TreeLabels.h"

using namespace mlir;
using namespace mlir::tc;

/// Block-sparse operands (#tc.blocks) have their own planner (task pools,
/// tc-plan-block-sparse, docs/Derivations.md D33): the dense planners refuse
/// them rather than plan them as dense.
static LogicalResult refuseBlockSparse(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(t);
        tensor && isa_and_nonnull<BlocksAttr>(tensor.getEncoding()))
      return op->emitOpError()
             << "has block-sparse operands (#tc.blocks): tc-plan-block-sparse plans "
                "them, but tc does not lower or run them yet";
  return success();
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
  if (llvm::any_of(dist.getCyclicBlocks(), [](int64_t b) { return b > 0; }))
    layout.cyclic.assign(dist.getCyclicBlocks().begin(), dist.getCyclicBlocks().end());
  return layout;
}

/// The statement functions before `reader` in the module's order, for the
/// same process count, first to last.
static SmallVector<func::FuncOp> statementsBefore(func::FuncOp reader) {
  auto machine = reader->getAttr(TCDialect::getMachineAttrName());
  SmallVector<func::FuncOp> out;
  for (Operation &op : *reader->getBlock()) {
    if (&op == reader.getOperation())
      break;
    auto f = dyn_cast<func::FuncOp>(op);
    if (f && f->hasAttr(TCDialect::getStatementAttrName()) &&
        f->getAttr(TCDialect::getMachineAttrName()) == machine)
      out.push_back(f);
  }
  return out;
}

/// The statement function before `reader` (statementsBefore) whose result is
/// the intermediate `name`, the latest, or null.
static func::FuncOp producerOf(func::FuncOp reader, StringRef name) {
  func::FuncOp producer;
  for (func::FuncOp f : statementsBefore(reader))
    if (auto n = f.getNumResults() == 1
                     ? f.getResultAttrOfType<StringAttr>(0, TCDialect::getNameAttrName())
                     : StringAttr();
        n && n.getValue() == name)
      producer = f;
  return producer;
}

/// The name (tc.name) of `operand` of `op` when it is an argument of `op`'s
/// statement function, with that function; null otherwise.
static std::pair<StringAttr, func::FuncOp> statementArgumentName(ContractOp op, Value operand) {
  auto arg = dyn_cast_or_null<BlockArgument>(operand);
  auto reader = op->getParentOfType<func::FuncOp>();
  if (!arg || !reader || arg.getOwner() != &reader.getBody().front() ||
      !reader->hasAttr(TCDialect::getStatementAttrName()))
    return {};
  return {reader.getArgAttrOfType<StringAttr>(arg.getArgNumber(), TCDialect::getNameAttrName()),
          reader};
}

/// Where the runtime holds `operand` of `op` when a statement before it left
/// it in memory: its producer's in-core layout of the result, renamed to
/// `labels` (docs/Derivations.md D45). None when the operand is not such an
/// intermediate, or its producer has no such plan yet (planned later, fused,
/// block-sparse or out of core: then nothing is kept where it was computed).
ContractOp mlir::tc::keptProducerOf(ContractOp op, Value operand) {
  auto [name, reader] = statementArgumentName(op, operand);
  func::FuncOp producer = name ? producerOf(reader, name.getValue()) : func::FuncOp();
  if (!producer || !producer->hasAttr(TCDialect::getInMemoryAttrName()))
    return {};
  auto ret = dyn_cast<func::ReturnOp>(producer.getBody().front().getTerminator());
  return ret ? ret.getOperand(0).getDefiningOp<ContractOp>() : ContractOp();
}

std::optional<std::pair<ContractOp, Operand>> mlir::tc::keptInputLoaderOf(ContractOp op,
                                                                          Value operand) {
  auto [name, reader] = statementArgumentName(op, operand);
  if (!name || producerOf(reader, name.getValue()))
    return std::nullopt; // an intermediate's value, not the program's input
  for (func::FuncOp f : statementsBefore(reader)) {
    if (!f->hasAttr(TCDialect::getKeepInputsAttrName()) || f.isExternal())
      continue;
    std::optional<std::pair<ContractOp, Operand>> found;
    f.walk([&](ContractOp loader) {
      const PerOperand<Value> read = {{loader.getLhs(), loader.getRhs(), loader.getInit()}};
      for (Operand x : kOperands) {
        auto a = dyn_cast_or_null<BlockArgument>(read[x]);
        if (!found && a && a.getOwner() == &f.getBody().front() &&
            f.getArgAttrOfType<StringAttr>(a.getArgNumber(), TCDialect::getNameAttrName()) == name)
          found = std::make_pair(loader, x);
      }
    });
    if (found)
      return found;
  }
  return std::nullopt;
}

static std::optional<Layout> heldLayout(ContractOp op, Value operand,
                                        const std::vector<std::string> &labels,
                                        const std::map<std::string, int64_t> &extents) {
  ContractOp computed = keptProducerOf(op, operand);
  auto plan =
      computed ? computed->getAttrOfType<PlanAttr>(TCDialect::getPlanAttrName()) : PlanAttr();
  if (!plan || !plan.getGrid() || !plan.getDistC() || !plan.getInCore() ||
      !plan.getInCore().getValue())
    return std::nullopt;
  return canonicalBlocks(
      toLayout(plan.getGrid(), plan.getDistC(), computed.getResultLabels(), labels), extents);
}

/// The later statements that read `op`'s result where `op`'s statement keeps
/// it in memory (keptProducerOf), each as its plan so far hands it over:
/// the layout that fills, renamed to `labelsC` (D59). Readers not planned
/// yet, or planned without layouts (fused, block-sparse), are left out.
static std::vector<ContractionProblem::Reader>
keptReadersOf(ContractOp op, const std::vector<std::string> &labelsC,
              const std::map<std::string, int64_t> &extents) {
  std::vector<ContractionProblem::Reader> readers;
  auto producer = op->getParentOfType<func::FuncOp>();
  if (!producer || !producer->hasAttr(TCDialect::getStatementAttrName()) ||
      !producer->hasAttr(TCDialect::getInMemoryAttrName()))
    return readers;
  auto ret = dyn_cast<func::ReturnOp>(producer.getBody().front().getTerminator());
  if (!ret || ret.getNumOperands() != 1 || ret.getOperand(0).getDefiningOp() != op)
    return readers;
  auto machine = producer->getAttr(TCDialect::getMachineAttrName());
  bool after = false;
  for (Operation &o : *producer->getBlock()) {
    after |= &o == producer.getOperation();
    auto f = dyn_cast<func::FuncOp>(o);
    if (!after || !f || f == producer || !f->hasAttr(TCDialect::getStatementAttrName()) ||
        f->getAttr(TCDialect::getMachineAttrName()) != machine)
      continue;
    f.walk([&](ContractOp reader) {
      // An operator tree's or block-sparse contraction hands over nothing
      // the dense planner prices.
      auto plan = reader->getAttrOfType<PlanAttr>(TCDialect::getPlanAttrName());
      if (!plan || !plan.getGrid() || !plan.getAlgorithmKind() ||
          reader->hasAttr(TCDialect::getFusionAttrName()) ||
          reader->hasAttr(TCDialect::getBlockPlanAttrName()))
        return;
      const PerOperand<Value> read = {{reader.getLhs(), reader.getRhs(), reader.getInit()}};
      const PerOperand<DistAttr> dist = {{plan.getDistA(), plan.getDistB(), plan.getDistC()}};
      const PerOperand<ArrayAttr> labels = {
          {reader.getLabelsOfInput(0), reader.getLabelsOfInput(1), reader.getResultLabels()}};
      for (Operand x : kOperands) {
        if (!read[x] || !dist[x] || keptProducerOf(reader, read[x]) != op)
          continue;
        Layout used =
            canonicalBlocks(toLayout(plan.getGrid(), dist[x], labels[x], labelsC), extents);
        ContractionProblem::Reader r;
        r.into = handOverTarget(*plan.getAlgorithmKind(), x, used,
                                labelsC.empty() ? "" : labelsC.front(), used.procs());
        r.whole =
            plan.getDistA() && runsWhole(*plan.getAlgorithmKind(),
                                         toLayout(plan.getGrid(), plan.getDistA(),
                                                  labels[Operand::A], strings(labels[Operand::A])));
        readers.push_back(std::move(r));
      }
    });
  }
  return readers;
}

FailureOr<ContractionProblem> mlir::tc::buildProblem(ContractOp op) {
  if (failed(refuseBlockSparse(op)))
    return failure();
  ContractionProblem p;
  p.labelsA = strings(op.getLabelsOfInput(0));
  p.labelsB = strings(op.getLabelsOfInput(1));
  p.labelsC = strings(op.getResultLabels());
  p.freshC = !op.getInit();
  auto addExtents = [&](Value v, const std::vector<std::string> &labels) {
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    for (size_t d = 0; d < labels.size(); ++d)
      p.extents[labels[d]] = shape[d];
  };
  addExtents(op.getLhs(), p.labelsA);
  addExtents(op.getRhs(), p.labelsB);
  addExtents(op.getResult(), p.labelsC);
  // Block-cyclic layouts equal to contiguous ones compare as such.
  auto toLayout = [&](GridAttr grid, DistAttr dist, ArrayAttr own,
                      const std::vector<std::string> &labels) {
    return canonicalBlocks(::toLayout(grid, dist, own, labels), p.extents);
  };
  if (auto r = op.getLhs().getDefiningOp<RedistributeOp>())
    p.givenA = toLayout(r.getGrid(), r.getTo(), r.getLabels(), p.labelsA);
  if (auto r = op.getRhs().getDefiningOp<RedistributeOp>())
    p.givenB = toLayout(r.getGrid(), r.getTo(), r.getLabels(), p.labelsB);
  p.heldA = heldLayout(op, op.getLhs(), p.labelsA, p.extents);
  p.heldB = heldLayout(op, op.getRhs(), p.labelsB, p.extents);
  p.heldC = heldLayout(op, op.getInit(), p.labelsC, p.extents);
  p.readers = keptReadersOf(op, p.labelsC, p.extents);
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

bool mlir::tc::hasOperatorTree(func::FuncOp func) {
  int count = 0;
  func.walk([&](Operation *op) { count += isa<ContractOp, SumOp>(op); });
  return count >= 2;
}

/// The tc.contract/tc.sum ops of `func` in program order, as TreeLabels sees
/// them.
static std::vector<WrittenFormula> writtenFormulas(func::FuncOp func,
                                                   SmallVectorImpl<Operation *> &ops) {
  llvm::DenseMap<Value, int> producer;
  std::vector<WrittenFormula> formulas;
  func.walk([&](Operation *op) {
    ValueRange inputs;
    ArrayAttr labels, result;
    if (auto c = dyn_cast<ContractOp>(op)) {
      inputs = c.getInputs();
      labels = c.getInputLabels();
      result = c.getResultLabels();
    } else if (auto s = dyn_cast<SumOp>(op)) {
      inputs = s.getInputs();
      labels = s.getInputLabels();
      result = s.getResultLabels();
    } else {
      return;
    }
    WrittenFormula f;
    f.result = strings(result);
    for (auto [in, l] : llvm::zip(inputs, labels)) {
      f.inputs.push_back(strings(cast<ArrayAttr>(l)));
      f.producers.push_back(producer.lookup(in) - 1);
    }
    producer[op->getResult(0)] = static_cast<int>(formulas.size()) + 1;
    formulas.push_back(std::move(f));
    ops.push_back(op);
  });
  return formulas;
}

static ArrayAttr renamed(Builder &b, ArrayAttr labels, const std::map<std::string, std::string> &to) {
  SmallVector<StringRef> out;
  for (Attribute l : labels)
    out.push_back(to.at(cast<StringAttr>(l).getValue().str()));
  return b.getStrArrayAttr(out);
}

void mlir::tc::renameTreeLabels(func::FuncOp func) {
  SmallVector<Operation *> ops;
  std::vector<WrittenFormula> formulas = writtenFormulas(func, ops);
  std::vector<std::map<std::string, std::string>> names = unifyTreeLabels(formulas);
  Builder b(func.getContext());
  for (auto [op, to] : llvm::zip(ops, names)) {
    auto rename = [&](auto typed) {
      SmallVector<Attribute> inputs;
      for (Attribute l : typed.getInputLabels())
        inputs.push_back(renamed(b, cast<ArrayAttr>(l), to));
      typed.setInputLabelsAttr(b.getArrayAttr(inputs));
      typed.setResultLabelsAttr(renamed(b, typed.getResultLabels(), to));
    };
    if (auto c = dyn_cast<ContractOp>(op))
      rename(c);
    else
      rename(cast<SumOp>(op));
  }
}

FailureOr<FunctionTree> mlir::tc::buildFunctionTree(func::FuncOp func) {
  {
    // One name per loop ([C] 2), or the tree would join unrelated loops.
    SmallVector<Operation *> ops;
    std::vector<WrittenFormula> formulas = writtenFormulas(func, ops);
    std::vector<std::map<std::string, std::string>> names = unifyTreeLabels(formulas);
    for (auto [op, to] : llvm::zip(ops, names))
      for (auto [from, name] : to)
        if (from != name)
          return op->emitOpError()
                 << "names two loops of its operator tree '" << from
                 << "' (an intermediate read with other labels than its formula writes, or "
                    "an index of another formula); tc-fuse-distribute renames them";
  }
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
    int id = out.tree.addInput(name, strings(labels),
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
    if (failed(refuseBlockSparse(op))) {
      status = failure();
      return;
    }
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
      std::vector<std::string> labels = strings(typed.getResultLabels());
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

bool mlir::tc::isBlockSparse(ContractOp op) {
  return isa_and_nonnull<BlocksAttr>(
      cast<RankedTensorType>(op.getResult().getType()).getEncoding());
}

BlockContraction mlir::tc::buildBlockContraction(ContractOp op) {
  BlockContraction problem;
  std::vector<std::string> names;
  auto labelsOf = [&](ArrayAttr labels, Type type, std::vector<int> &out, BlockPresence &presence) {
    auto blocks = cast<BlocksAttr>(cast<RankedTensorType>(type).getEncoding());
    presence = blocks.toShape().presence;
    for (auto [d, label] : llvm::enumerate(labels)) {
      std::string name = cast<StringAttr>(label).getValue().str();
      auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        names.push_back(name);
        SmallVector<int64_t> segments = blocks.getSegments(d);
        problem.labelSegments.emplace_back(segments.begin(), segments.end());
        it = names.end() - 1;
      }
      out.push_back(static_cast<int>(it - names.begin()));
    }
  };
  labelsOf(op.getResultLabels(), op.getResult().getType(), problem.cLabels, problem.cPresence);
  labelsOf(op.getLabelsOfInput(0), op.getLhs().getType(), problem.aLabels, problem.aPresence);
  labelsOf(op.getLabelsOfInput(1), op.getRhs().getType(), problem.bLabels, problem.bPresence);
  return problem;
}
