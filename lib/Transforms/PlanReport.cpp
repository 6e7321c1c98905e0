//===- PlanReport.cpp - the tc-plan-report pass ---------------------------===//
//
// Writes, for every planned contraction, all candidates of Gao et al.'s search and
// the one its plan chose: as JSON for tools, as a table like [G] Table 9 for people;
// and for every fused operator tree its arrays like [C] Tables 1-2.
//
//===----------------------------------------------------------------------===//
#include "ContractionSearch.h"
#include "DecisionAttrs.h"
#include "MachineSetup.h"
#include "PlanProblems.h"
#include "TC/Analysis/BlockSparse.h"
#include "TC/Analysis/LowerBounds.h"
#include "TC/Analysis/Units.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tc {
#define GEN_PASS_DEF_PLANREPORT
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// What the report says about one contraction.
struct Entry {
  std::string op;
  std::vector<ContractionPlan> candidates;
  size_t chosen;
  bool iContiguous = false; ///< the plan's storage order (StorageOrder.h)
  Type elementType;         ///< of the tensors: the bytes of every volume
  MachineModel machine;     ///< its function's (tc-specialize-procs) or the module's
  ContractionBounds bounds; ///< what none of its plans can beat (D37)
};

/// A location as a user finds it: "name" or "file:line:col".
std::string describeLocation(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// One array of a fused operator tree, as [C] Tables 1-2 list it.
struct TreeRow {
  std::string full, reduced, initial, final;
  std::vector<std::string> fused;
  double memBytes, commSeconds;
};

/// A product of several tensors tc-minimize-operations factored.
struct Product {
  std::string op;
  double before, after; ///< flops as one loop nest and as the tree
};

struct TreeEntry {
  std::string function;
  int64_t procs = 0; ///< of its function's machine
  FusionPlanAttr plan;
  std::vector<TreeRow> rows;
};

std::string distText(DistAttr dist) {
  std::string s = "<";
  for (size_t d = 0; d < dist.getDims().size(); ++d)
    s += (d ? "," : "") + dist.getDims()[d].getValue().str();
  return s + ">";
}

/// The rows of a function tc-fuse-distribute planned: inputs in argument order,
/// then the formulas in program order.
FailureOr<TreeEntry> describeTree(func::FuncOp func) {
  FailureOr<FunctionTree> tree = buildFunctionTree(func);
  if (failed(tree))
    return failure();
  TreeEntry entry{func.getSymName().str(), getEnclosingMachine(func).getProcs(),
                  func->getAttrOfType<FusionPlanAttr>(TCDialect::getFusionPlanAttrName()),
                  {}};
  std::vector<int> order;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t id = 0; id < tree->values.size(); ++id)
      if ((tree->ops[id] == nullptr) == (pass == 0))
        order.push_back(static_cast<int>(id));
  for (int id : order) {
    FusionAttr attr = getFusionAttr(func, *tree, id);
    if (!attr)
      return func.emitError() << "array " << tree->tree.node(id).name
                              << " of the fused tree has no #tc.fusion";
    IndexSet fused = 0;
    TreeRow row;
    if (ArrayAttr names = attr.getFused())
      for (Attribute n : names) {
        row.fused.push_back(cast<StringAttr>(n).getValue().str());
        fused |= indexBit(tree->tree.findIndex(row.fused.back()));
      }
    row.full = tree->tree.arrayString(id);
    row.reduced = tree->tree.arrayString(id, ~fused);
    row.initial = distText(attr.getInitial());
    row.final = distText(attr.getFinal());
    row.memBytes = attr.getMemory().getValueAsDouble();
    row.commSeconds = attr.getComm().getValueAsDouble();
    entry.rows.push_back(row);
  }
  return entry;
}

/// A block-sparse tensor of the program, by name: what it stores against the
/// same tensor without its symmetries (issue 36's per-tensor report).
struct TensorStorage {
  std::string name;
  BlockStorage storage;
  int64_t elemBytes = 8;
};

/// The named block-sparse tensors: the functions' arguments and results, then
/// the statements' results (intermediates), each name once.
std::vector<TensorStorage> blockTensors(ModuleOp module) {
  std::vector<TensorStorage> out;
  llvm::StringSet<> seen;
  auto add = [&](Attribute name, Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    auto text = dyn_cast_or_null<StringAttr>(name);
    auto blocks = tensor ? dyn_cast_or_null<BlocksAttr>(tensor.getEncoding()) : BlocksAttr();
    if (!blocks || !text || !seen.insert(text.getValue()).second)
      return;
    out.push_back({text.str(), storageOf(blocks.toShape()),
                   static_cast<int64_t>(tensor.getElementTypeBitWidth() / 8)});
  };
  const StringRef nameAttr = TCDialect::getNameAttrName();
  module.walk([&](func::FuncOp func) {
    FunctionType type = func.getFunctionType();
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      add(func.getArgAttr(i, nameAttr), type.getInput(i));
    for (unsigned i = 0; i < type.getNumResults(); ++i)
      add(func.getResultAttr(i, nameAttr), type.getResult(i));
  });
  module.walk([&](ContractOp op) { add(op->getAttr(nameAttr), op.getType()); });
  return out;
}

bool samePlan(const ContractionPlan &a, const ContractionPlan &b) {
  // Candidates of one algorithm differ by their layouts (Gao et al.'s one per
  // distributed label), which their hand-overs price apart (D45, D59).
  if (a.inCore != b.inCore || a.algorithm != b.algorithm || !a.layoutA.samePartition(b.layoutA) ||
      !a.layoutB.samePartition(b.layoutB) || !a.layoutC.samePartition(b.layoutC))
    return false;
  if (a.algorithm == ParallelAlgorithm::Cosma)
    return a.layoutA.grid == b.layoutA.grid;
  return a.inCore || (a.method == b.method && a.nest.order == b.nest.order &&
                      a.nest.groups == b.nest.groups);
}

/// COSMA's rounds over label l (1 without).
int64_t roundsOver(const ContractionPlan &plan, const std::string &l) {
  int64_t n = 1;
  for (const TileLoop &r : plan.rounds)
    if (r.label == l)
      n *= r.count;
  return n;
}

/// Total tile count per label of the problem (COSMA's rounds over it
/// included), in label order of A, B, C.
std::vector<std::pair<std::string, int64_t>> tilesOf(const ContractionPlan &plan,
                                                     const ContractionProblem &p) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto *labels : {&p.labelsA, &p.labelsB, &p.labelsC})
    for (const std::string &l : *labels)
      if (llvm::none_of(out, [&](const auto &e) { return e.first == l; }))
        out.emplace_back(l, plan.nest.tiles(l) * roundsOver(plan, l));
  return out;
}

struct PlanReportPass : public tc::impl::PlanReportBase<PlanReportPass> {
  using Base::Base;

  void runOnOperation() override {
    markAllAnalysesPreserved(); // a report changes no IR
    if (reportPath.empty() && tablePath.empty())
      return;
    ModuleOp module = getOperation();
    FailureOr<MachineModel> machine = getMachineModel(module);
    if (failed(machine))
      return signalPassFailure();
    std::vector<Entry> entries;
    std::vector<ContractionProblem> problems;
    // The plan in the IR fixes every decision, so the planner returns exactly it;
    // the full search gives the candidates it is reported among.
    ContractionSearch &search = getAnalysis<ContractionSearch>();
    LogicalResult planned = planEachContraction(
        module, search, /*emitRemarks=*/false,
        [&](ContractOp op, const ContractionProblem &problem, const ContractionPlan &mine) {
          const Type elementType = op.getResult().getType().getElementType();
          const MachineModel forOp = forElementType(*getMachineModel(op), elementType);
          Entry entry{describeLocation(op.getLoc()),
                      search.search(op, problem, forOp, {}).candidates, 0};
          entry.elementType = elementType;
          entry.machine = forOp;
          entry.bounds = contractionBounds(problem, forOp);
          auto it = llvm::find_if(entry.candidates,
                                  [&](const ContractionPlan &c) { return samePlan(c, mine); });
          entry.chosen = it - entry.candidates.begin();
          if (it == entry.candidates.end())
            entry.candidates.push_back(mine); // a hand-made plan outside the search
          entry.iContiguous = mine.iContiguous;
          entries.push_back(std::move(entry));
          problems.push_back(problem);
        });
    if (failed(planned))
      return signalPassFailure();
    std::vector<TreeEntry> trees;
    WalkResult walked = module.walk([&](func::FuncOp func) {
      if (!func->hasAttr(TCDialect::getFusionPlanAttrName()))
        return WalkResult::advance();
      FailureOr<TreeEntry> entry = describeTree(func);
      if (failed(entry))
        return WalkResult::interrupt();
      trees.push_back(std::move(*entry));
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return signalPassFailure();
    std::vector<std::pair<std::string, BlockPlanAttr>> blockPlans;
    module.walk([&](ContractOp op) {
      if (auto plan = op->getAttrOfType<BlockPlanAttr>(TCDialect::getBlockPlanAttrName()))
        blockPlans.emplace_back(describeLocation(op.getLoc()), plan);
    });
    // Products factored by tc-minimize-operations: their flops before and after.
    std::vector<Product> products;
    module.walk([&](ContractOp op) {
      if (auto flops = op->getAttrOfType<DictionaryAttr>(TCDialect::getFlopsAttrName()))
        products.push_back({describeLocation(op.getLoc()),
                            flops.getAs<FloatAttr>("before").getValueAsDouble(),
                            flops.getAs<FloatAttr>("after").getValueAsDouble()});
    });
    const std::vector<TensorStorage> tensors = blockTensors(module);
    if (!reportPath.empty() && failed(write(reportPath, [&](llvm::raw_ostream &os) {
          writeJson(os, *machine, entries, problems, trees, blockPlans, products, tensors);
        })))
      return signalPassFailure();
    if (!tablePath.empty() && failed(write(tablePath, [&](llvm::raw_ostream &os) {
          writeTable(os, *machine, entries, problems);
          writeTreeTables(os, *machine, trees);
          writeBlockTables(os, blockPlans);
          writeStorageTable(os, tensors);
          for (const Product &p : products)
            os << "product " << p.op << "  (tc-minimize-operations: "
               << llvm::format("%.4g", p.before) << " flops as one loop nest, "
               << llvm::format("%.4g", p.after) << " as a tree of binary contractions)\n";
        })))
      return signalPassFailure();
  }

  /// Writes through a temporary file that replaces `path` only when complete.
  LogicalResult write(StringRef path, llvm::function_ref<void(llvm::raw_ostream &)> body) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
    if (!file)
      return getOperation().emitError() << "cannot write plan report '" << path
                                        << "': " << error;
    body(file->os());
    file->keep();
    return success();
  }

  static void
  writeJson(llvm::raw_ostream &os, const MachineModel &m, const std::vector<Entry> &entries,
            const std::vector<ContractionProblem> &problems, const std::vector<TreeEntry> &trees,
            const std::vector<std::pair<std::string, BlockPlanAttr>> &blockPlans,
            const std::vector<Product> &products, const std::vector<TensorStorage> &tensors) {
    llvm::json::OStream j(os, 2);
    j.object([&] {
      j.attributeObject("machine", [&] {
        j.attribute("procs", m.procs);
        j.attribute("mem", m.memBytes);
        j.attribute("net_bw", m.netBandwidth);
        j.attribute("disk_bw", m.diskBandwidth);
        j.attribute("elem_bytes", m.elemBytes);
        j.attribute("bcast_factor", m.bcastFactor);
        j.attribute("reduce_factor", m.reduceFactor);
        j.attribute("flop_rate", m.flopRate);
        j.attribute("latency", m.latency);
      });
      j.attributeArray("contractions", [&] {
        for (size_t e = 0; e < entries.size(); ++e)
          j.object([&] {
            j.attribute("op", entries[e].op);
            j.attribute("procs", entries[e].machine.procs);
            j.attributeArray("candidates", [&] {
              for (const ContractionPlan &c : entries[e].candidates)
                j.object([&] {
                  // Gao et al.'s tilings only: no method in core or in COSMA's rounds.
                  if (c.tiled())
                    j.attribute("method", toString(c.method));
                  j.attribute("algorithm", toString(c.algorithm));
                  j.attribute("in_core", c.inCore);
                  if (c.tiled()) {
                    j.attribute("order", toString(c.nest.order));
                    j.attribute("memory", toString(c.memory));
                  }
                  j.attributeObject("tiles", [&] {
                    for (const auto &[label, n] : tilesOf(c, problems[e]))
                      j.attribute(label, n);
                  });
                  j.attribute("disk_bytes", c.totalDiskBytes());
                  j.attribute("comm_bytes", c.totalCommBytes());
                  j.attribute("seconds", c.totalSeconds());
                  // Inputs another statement left in memory: what handing
                  // them over into this plan's layouts moves (D45).
                  if (problems[e].heldA || problems[e].heldB || problems[e].heldC)
                    j.attribute("hand_over_bytes", c.handOver.commBytes);
                  // Readers of its result kept in memory: what handing it
                  // over to them moves (D59).
                  if (!problems[e].readers.empty())
                    j.attribute("hand_off_bytes", c.handOff.commBytes);
                  CandidateBounds cb = candidateBounds(entries[e].bounds, c);
                  j.attributeObject("lower_bounds", [&] {
                    j.attribute("disk_bytes", cb.diskBytes);
                    j.attribute("comm_bytes", cb.commBytes);
                  });
                  if (c.algorithm == ParallelAlgorithm::Cosma)
                    j.attributeArray("grid", [&] {
                      for (int64_t n : c.layoutA.grid)
                        j.value(n);
                    });
                });
            });
            j.attributeObject("lower_bounds", [&] {
              j.attribute("traffic_bytes", entries[e].bounds.trafficBytes);
              j.attribute("in_core_comm_bytes", entries[e].bounds.inCoreCommBytes);
            });
            j.attribute("chosen", static_cast<int64_t>(entries[e].chosen));
            j.attribute("i_contiguous", entries[e].iContiguous);
          });
      });
      j.attributeArray("operator_trees", [&] {
        for (const TreeEntry &t : trees)
          j.object([&] {
            j.attribute("function", t.function);
            j.attribute("procs", t.procs);
            j.attributeArray("grid", [&] {
              for (int64_t n : t.plan.getGrid().getShape())
                j.value(n);
            });
            j.attribute("memory_bytes", t.plan.getMemory().getValueAsDouble());
            j.attribute("limit_bytes", t.plan.getLimit().getValueAsDouble());
            j.attribute("comm_seconds", t.plan.getComm().getValueAsDouble());
            j.attribute("calc_seconds", t.plan.getCalc().getValueAsDouble());
            j.attributeArray("arrays", [&] {
              for (const TreeRow &r : t.rows)
                j.object([&] {
                  j.attribute("array", r.full);
                  j.attribute("reduced", r.reduced);
                  j.attribute("initial", r.initial);
                  j.attribute("final", r.final);
                  j.attributeArray("fused", [&] {
                    for (const std::string &f : r.fused)
                      j.value(f);
                  });
                  j.attribute("memory_bytes", r.memBytes);
                  j.attribute("comm_seconds", r.commSeconds);
                });
            });
          });
      });
      // Block-sparse contractions (tc-plan-block-sparse): the schedule and
      // every process's predicted bytes.
      j.attributeArray("block_sparse", [&] {
        for (const auto &[op, plan] : blockPlans)
          j.object([&] {
            j.attribute("op", op);
            j.attribute("schedule", stringifyBlockSchedule(plan.getSchedule()));
            j.attribute("tasks", static_cast<int64_t>(plan.getTaskRank().size()));
            j.attribute("bricks", static_cast<int64_t>(plan.getBrickOwner().size()));
            if (DenseI64ArrayAttr stages = plan.getTaskStage()) {
              int64_t count = 0;
              for (int64_t s : stages.asArrayRef())
                count = std::max(count, s + 1);
              j.attribute("stages", count);
            }
            j.attributeArray("task_rank", [&] {
              for (int64_t r : plan.getTaskRank().asArrayRef())
                j.value(r);
            });
            if (DenseI64ArrayAttr stages = plan.getTaskStage())
              j.attributeArray("task_stage", [&] {
                for (int64_t s : stages.asArrayRef())
                  j.value(s);
              });
            if (DenseI64ArrayAttr steps = plan.getTaskStep())
              j.attributeArray("task_step", [&] {
                for (int64_t s : steps.asArrayRef())
                  j.value(s);
              });
            j.attribute("io_bytes", plan.getIoBytes().getValueAsDouble());
            j.attribute("comm_bytes", plan.getCommBytes().getValueAsDouble());
            for (auto [key, values] :
                 {std::pair{"io_per_rank", plan.getIoPerRank()},
                  std::pair{"received_per_rank", plan.getReceivedPerRank()},
                  std::pair{"sent_per_rank", plan.getSentPerRank()}})
              j.attributeArray(key, [&, values = values] {
                for (double v : values.asArrayRef())
                  j.value(v);
              });
          });
      });
      // Per block-sparse tensor: what it stores against the dense tensor.
      j.attributeArray("tensors", [&] {
        for (const TensorStorage &t : tensors)
          j.object([&] {
            j.attribute("name", t.name);
            j.attribute("blocks", t.storage.blocks);
            j.attribute("all_blocks", t.storage.allBlocks);
            j.attribute("bytes", t.storage.elements * t.elemBytes);
            j.attribute("dense_bytes", t.storage.denseElements * t.elemBytes);
          });
      });
      j.attributeArray("products", [&] {
        for (const Product &p : products)
          j.object([&] {
            j.attribute("op", p.op);
            j.attribute("flops_before", p.before);
            j.attribute("flops_after", p.after);
          });
      });
    });
    os << "\n";
  }

  /// One line per block-sparse contraction and one per process.
  static void writeBlockTables(
      llvm::raw_ostream &os, const std::vector<std::pair<std::string, BlockPlanAttr>> &plans) {
    for (const auto &[op, plan] : plans) {
      os << "block-sparse contraction " << op << "  (" << stringifyBlockSchedule(plan.getSchedule())
         << ", " << plan.getTaskRank().size() << " tasks, " << plan.getBrickOwner().size()
         << " bricks, disk " << llvm::format("%.4g", plan.getIoBytes().getValueAsDouble())
         << " B, busiest receives " << llvm::format("%.4g", plan.getCommBytes().getValueAsDouble())
         << " B)\n";
      os << llvm::format("  %-8s %8s %14s %14s %14s\n", "process", "tasks", "disk bytes",
                         "received", "sent");
      ArrayRef<double> io = plan.getIoPerRank().asArrayRef();
      for (size_t p = 0; p < io.size(); ++p)
        os << llvm::format("  %-8zu %8zu %14.4g %14.4g %14.4g\n", p,
                           static_cast<size_t>(llvm::count(plan.getTaskRank().asArrayRef(),
                                                           static_cast<int64_t>(p))),
                           io[p], plan.getReceivedPerRank()[p], plan.getSentPerRank()[p]);
    }
  }

  /// One line per block-sparse tensor: its stored blocks and bytes against
  /// the same tensor without its symmetries.
  static void writeStorageTable(llvm::raw_ostream &os, const std::vector<TensorStorage> &tensors) {
    for (const TensorStorage &t : tensors) {
      const BlockStorage &s = t.storage;
      os << "block-sparse tensor " << t.name << "  (" << s.blocks << " of " << s.allBlocks
         << " blocks, " << s.elements * t.elemBytes << " of " << s.denseElements * t.elemBytes
         << " bytes dense: "
         << llvm::format("%.1f", 100.0 * s.elements / std::max<int64_t>(1, s.denseElements))
         << "%)\n";
    }
  }

  /// [C] Tables 1-2: full and reduced array, initial and final distribution,
  /// memory per process, communication cost; then the totals.
  static void writeTreeTables(llvm::raw_ostream &os, const MachineModel &m,
                              const std::vector<TreeEntry> &trees) {
    for (const TreeEntry &t : trees) {
      std::string grid;
      for (int64_t n : t.plan.getGrid().getShape())
        grid += (grid.empty() ? "" : "x") + std::to_string(n);
      os << "operator tree @" << t.function << "  (P = " << t.procs << " as " << grid
         << ", memory limit " << formatBytes(t.plan.getLimit().getValueAsDouble())
         << " per process)\n";
      os << llvm::format("  %-18s %-18s %-12s %-12s %12s %12s\n", "full array",
                         "reduced array", "initial", "final", "memory/proc", "comm (s)");
      for (const TreeRow &r : t.rows)
        os << llvm::format("  %-18s %-18s %-12s %-12s %12s %12.4g\n", r.full.c_str(),
                           r.reduced.c_str(), r.initial.c_str(), r.final.c_str(),
                           formatBytes(r.memBytes).c_str(), r.commSeconds);
      os << "  total: " << formatBytes(t.plan.getMemory().getValueAsDouble())
         << " per process, communication "
         << llvm::format("%.4g", t.plan.getComm().getValueAsDouble())
         << " s, computation " << llvm::format("%.4g", t.plan.getCalc().getValueAsDouble())
         << " s\n";
    }
  }

  static void writeTable(llvm::raw_ostream &os, const MachineModel &m,
                         const std::vector<Entry> &entries,
                         const std::vector<ContractionProblem> &problems) {
    for (size_t e = 0; e < entries.size(); ++e) {
      os << "contraction " << entries[e].op << "  (P = " << entries[e].machine.procs
         << ", memory per process = " << llvm::format("%.4g", m.memBytes)
         << " B, tile budget = " << llvm::format("%.4g", m.tileBudget()) << " B)"
         << "  i_contiguous = " << (entries[e].iContiguous ? "true" : "false") << "\n";
      os << llvm::format("  %-8s %-14s %-6s %-9s %-24s %12s %12s %10s\n", "method",
                         "algorithm", "order", "memory", "tiles", "disk bytes", "comm bytes",
                         "seconds");
      for (size_t i = 0; i < entries[e].candidates.size(); ++i) {
        const ContractionPlan &c = entries[e].candidates[i];
        std::string tiles;
        for (const auto &[label, n] : tilesOf(c, problems[e]))
          if (n > 1)
            tiles += (tiles.empty() ? "" : " ") + label + "=" + std::to_string(n);
        os << (i == entries[e].chosen ? "* " : "  ")
           << llvm::format("%-8s %-14s %-6s %-9s %-24s %12.4g %12.4g %10.4g\n",
                           c.inCore    ? "in-core"
                           : c.tiled() ? toString(c.method)
                                       : "on-disk",
                           toString(c.algorithm), c.tiled() ? toString(c.nest.order) : "-",
                           c.tiled() ? toString(c.memory) : "-",
                           tiles.empty() ? "-" : tiles.c_str(), c.totalDiskBytes(),
                           c.totalCommBytes(), c.totalSeconds());
      }
      os << llvm::format("  %-8s %-14s %-6s %-9s %-24s %25.4g\n", "bound", "(any plan)", "-",
                         "-", "disk + network (D37)", entries[e].bounds.trafficBytes);
    }
  }
};

} // namespace
