//===- SplitProgram.cpp - the tc-split-program pass -----------------------===//
//
// A function whose contractions form a DAG becomes one function per statement
// (docs/Derivations.md D35): lib/Analysis/ProgramPartition decides where the
// DAG is cut; this pass names the values that cross a cut and outlines each
// statement, which the planners and lowerings then take as they take any
// single contraction or operator tree. The runtime hands an intermediate from
// the statement that stores it to those that load it by name
// (tc.begin_statement).
//
//===----------------------------------------------------------------------===//
#include "MachineSetup.h"
#include "ProgramCopies.h"
#include "TC/Analysis/ProgramPartition.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tc {
#define GEN_PASS_DEF_SPLITPROGRAM
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// The function as ProgramPartition sees it, and the IR behind its numbers.
struct FunctionGraph {
  ProgramGraph graph;
  SmallVector<Value> values;        ///< by value number
  SmallVector<Operation *> formulas; ///< by formula number
};

FailureOr<FunctionGraph> buildGraph(func::FuncOp func) {
  FunctionGraph out;
  llvm::DenseMap<Value, int> number;
  auto leaf = [&](Value v, bool constant) {
    number[v] = out.graph.numLeaves++;
    out.values.push_back(v);
    out.graph.constantLeaf.push_back(constant);
  };
  for (BlockArgument arg : func.getArguments())
    leaf(arg, false);
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator())
    if (isa<arith::ConstantOp>(op) && isOnes(op.getResult(0)))
      leaf(op.getResult(0), true);
  for (Operation &op : body.without_terminator()) {
    if (isa<arith::ConstantOp>(op) && isOnes(op.getResult(0)))
      continue;
    if (!isa<ContractOp, SumOp>(op))
      return op.emitOpError() << "cannot be part of a program tc-split-program splits (it "
                                 "takes tc.contract and tc.sum ops, constants of ones and "
                                 "a return; run tc-minimize-operations first)";
    ProgramFormula f;
    auto numberOf = [&](Value v) -> FailureOr<int> {
      auto it = number.find(v);
      if (it == number.end())
        return op.emitOpError() << "reads a value tc-split-program cannot trace to the "
                                   "function's arguments";
      return it->second;
    };
    ValueRange inputs = isa<ContractOp>(op) ? cast<ContractOp>(op).getInputs()
                                            : cast<SumOp>(op).getInputs();
    Value init = isa<ContractOp>(op) ? cast<ContractOp>(op).getInit() : cast<SumOp>(op).getInit();
    for (Value in : inputs) {
      FailureOr<int> n = numberOf(in);
      if (failed(n))
        return failure();
      f.inputs.push_back(*n);
    }
    if (init) {
      FailureOr<int> n = numberOf(init);
      if (failed(n))
        return failure();
      f.init = *n;
    }
    // Block-sparse contractions are planned one by one ([K] 2).
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    f.single = isa_and_nonnull<BlocksAttr>(resultType.getEncoding());
    // Leaves come first, so a formula's result is numbered as it is read.
    number[op.getResult(0)] = out.graph.valueOf(static_cast<int>(out.formulas.size()));
    out.values.push_back(op.getResult(0));
    out.graph.formulas.push_back(f);
    out.formulas.push_back(&op);
  }
  for (Value v : body.getTerminator()->getOperands()) {
    auto it = number.find(v);
    if (it == number.end())
      return func.emitOpError() << "returns a value tc-split-program cannot trace";
    out.graph.returned.push_back(it->second);
  }
  return out;
}

struct SplitProgramPass : public tc::impl::SplitProgramBase<SplitProgramPass> {
  using Base::Base;

  /// A function cut into statements and its tensors named, before outlining.
  struct Prepared {
    func::FuncOp func;
    FunctionGraph fg;
    ProgramPartition partition;
    SmallVector<std::string> names; ///< by value number
    llvm::SetVector<int> readLater; ///< outputs later statements read
    llvm::DenseSet<int> kept;       ///< results stored for later parts (tc.keep)
    llvm::DenseSet<int> inMemory;   ///< statement roots kept in memory
    llvm::DenseSet<int> keepInputs; ///< statement roots whose statements keep their inputs
    MachineAttr planned;            ///< the statements' machine, if changed

    bool isResult(int v) const { return llvm::is_contained(fg.graph.returned, v); }
    /// Written to the output file by its statement.
    bool isOutput(int v) const {
      return isResult(v) && !readLater.contains(v) && !kept.contains(v);
    }
  };

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && f.getSymName() != "tc_main")
        funcs.push_back(f);
    // The parts of one program (tc-outline-loops) planned for one machine
    // share their tensors' names and the memory that keeps intermediates.
    llvm::MapVector<std::pair<Attribute, Attribute>, SmallVector<func::FuncOp>> programs;
    for (func::FuncOp f : funcs) {
      Attribute part = f->getAttr(TCDialect::getProgramPartAttrName());
      programs[{part ? part : f.getSymNameAttr(), f->getAttr(TCDialect::getMachineAttrName())}]
          .push_back(f);
    }
    for (auto &[key, members] : programs) {
      llvm::StringSet<> boundary; // every name a part loads or stores
      for (func::FuncOp f : members) {
        for (unsigned a = 0; a < f.getNumArguments(); ++a)
          if (auto n = f.getArgAttrOfType<StringAttr>(a, TCDialect::getNameAttrName()))
            boundary.insert(n.getValue());
        for (unsigned r = 0; r < f.getNumResults(); ++r)
          if (auto n = f.getResultAttrOfType<StringAttr>(r, TCDialect::getNameAttrName()))
            boundary.insert(n.getValue());
      }
      std::vector<Prepared> prepared;
      for (func::FuncOp f : members) {
        FailureOr<std::optional<Prepared>> p = prepare(f, boundary);
        if (failed(p))
          return signalPassFailure();
        if (*p)
          prepared.push_back(std::move(**p));
      }
      keepInMemory(prepared);
      for (Prepared &p : prepared)
        if (failed(outline(module, p)))
          return signalPassFailure();
    }
  }

  /// The function's statements and names, or nothing when it needs no
  /// splitting (one contraction or tree, or planned already).
  FailureOr<std::optional<Prepared>> prepare(func::FuncOp func, const llvm::StringSet<> &reserved) {
    bool planned = false, contractions = false;
    func.walk([&](Operation *op) {
      contractions |= isa<ContractOp, SumOp, MultiContractOp>(op);
      // Redistributions belong to single contractions, which need no
      // splitting; a function already planned (a layout on its tensors) stays
      // as it is. Block-sparse tensors (#tc.blocks) are not plans.
      planned |= isa<RedistributeOp>(op) || op->hasAttr(TCDialect::getPlanAttrName()) ||
                 op->hasAttr(TCDialect::getFusionAttrName()) ||
                 op->hasAttr(TCDialect::getBlockPlanAttrName());
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t);
            tensor && tensor.getEncoding() && !isa<BlocksAttr>(tensor.getEncoding()))
          planned = true;
    });
    if (!contractions || planned || func->hasAttr(TCDialect::getStatementAttrName()))
      return std::optional<Prepared>();
    // A part of a program is always outlined: its statements say where their
    // results go (tc.begin_statement).
    const bool part = func->hasAttr(TCDialect::getProgramPartAttrName());
    // A value is stored under one name, and an accumulation updates its
    // tensor in place: where a statement needs a value its tensor no longer
    // holds, a copy of the value is made first and read instead (D35).
    for (int copies = 0;; ++copies) {
      FailureOr<FunctionGraph> built = buildGraph(func);
      if (failed(built))
        return failure();
      FunctionGraph &fg = *built;
      ProgramPartition partition = partitionProgram(fg.graph);
      if (!partition.error.empty())
        return func.emitOpError() << partition.error;
      const bool constants = llvm::any_of(fg.graph.constantLeaf, [](bool c) { return c; });
      if (partition.statements.size() <= 1 && !constants && !part)
        return std::optional<Prepared>(); // one contraction or operator tree already

      FailureOr<Naming> named = nameValues(func, fg, partition, reserved);
      if (failed(named))
        return failure();
      Naming &naming = *named;
      if (!naming.conflict) {
        Prepared p{func, std::move(fg), std::move(partition), std::move(naming.names)};
        const ProgramGraph &g = p.fg.graph;
        for (auto [r, v] : llvm::enumerate(g.returned))
          if (func.getResultAttr(r, TCDialect::getKeepAttrName()))
            p.kept.insert(v);
        // An output a later statement reads is an intermediate until the
        // program ends, then copied into the output file (an output is
        // written once).
        for (const ProgramStatement &st : p.partition.statements)
          for (int v : st.leaves)
            if (p.isResult(v) && !p.kept.contains(v))
              p.readLater.insert(v);
        return std::optional<Prepared>(std::move(p));
      }
      // Each copy ends one conflict and adds none (a copy is never updated).
      if (copies > static_cast<int>(fg.formulas.size()) * 4)
        return naming.conflict.readers.front()->emitOpError()
               << "reads '" << naming.conflict.name << "' after a later statement stored a "
               << "new value of it, and copies did not resolve it";
      copyFor(naming.conflict);
    }
  }

  /// Intermediates every rank keeps whole in memory while they take at most
  /// a quarter of each process's memory, the first ones first (over every
  /// part of a program, which all hold theirs until the run ends); the
  /// others go through the intermediates file. Every statement is then
  /// planned with the memory they leave (docs/Derivations.md D35).
  void keepInMemory(MutableArrayRef<Prepared> program) {
    if (program.empty())
      return;
    MachineAttr machine = getEnclosingMachine(program.front().func);
    const int64_t budget = machine ? machine.getMemBytes() / 4 : 0;
    llvm::StringMap<int64_t> kept;
    int64_t keptBytes = 0;
    bool everyIntermediate = true;
    for (Prepared &p : program) {
      const ProgramGraph &g = p.fg.graph;
      for (const ProgramStatement &st : p.partition.statements) {
        const int root = g.valueOf(st.root());
        if (p.isOutput(root))
          continue;
        const int64_t bytes = storedBytes(cast<RankedTensorType>(p.fg.values[root].getType()));
        const int64_t before = kept.lookup(p.names[root]);
        const int64_t after = keptBytes - before + std::max(before, bytes);
        if (after > budget) {
          everyIntermediate = false;
          continue;
        }
        kept[p.names[root]] = std::max(before, bytes);
        keptBytes = after;
      }
    }
    keptBytes = keepInputs(program, budget, keptBytes, /*outsideLoops=*/everyIntermediate);
    // Any statement storing into a tensor kept in memory keeps it there (a
    // chain of accumulations is one tensor).
    for (Prepared &p : program) {
      const ProgramGraph &g = p.fg.graph;
      for (const ProgramStatement &st : p.partition.statements) {
        const int root = g.valueOf(st.root());
        if (kept.count(p.names[root]) && !p.isOutput(root))
          p.inMemory.insert(root);
      }
      p.planned = machine && keptBytes > 0 ? withProcsAndMemory(machine, machine.getProcs(),
                                                                machine.getMemBytes() - keptBytes)
                                           : MachineAttr();
    }
  }

  /// Statements keep the inputs they load (the user's tensors: names no
  /// statement stores) in memory, so that the run reads each once, while they
  /// fit in what the intermediates leave of the budget, statement by
  /// statement in program order (docs/Derivations.md D44): a loop's
  /// statements every input, since each iteration loads it again; with
  /// `outsideLoops` (every intermediate stays in memory: a run whose memory
  /// is not all taken), the others an input a later statement loads too.
  /// Returns the bytes kept, intermediates and inputs, counted whole.
  static int64_t keepInputs(MutableArrayRef<Prepared> program, int64_t budget, int64_t keptBytes,
                            bool outsideLoops) {
    // The names a statement loads: its arguments, not formulas or constants.
    auto loaded = [](const Prepared &p, const ProgramStatement &st) {
      llvm::StringSet<> names;
      for (int v : st.leaves)
        if (v < p.fg.graph.numLeaves && !p.fg.graph.constantLeaf[v])
          names.insert(p.names[v]);
      return names;
    };
    llvm::StringSet<> stored, keptInputs;
    llvm::StringMap<int> readers; // statements loading each name, from this one on
    for (Prepared &p : program)
      for (const ProgramStatement &st : p.partition.statements) {
        stored.insert(p.names[p.fg.graph.valueOf(st.root())]);
        for (const auto &name : loaded(p, st))
          ++readers[name.getKey()];
      }
    for (Prepared &p : program) {
      const bool loop = p.func->hasAttr(TCDialect::getLoopAttrName());
      const ProgramGraph &g = p.fg.graph;
      for (const ProgramStatement &st : p.partition.statements) {
        const llvm::StringSet<> names = loaded(p, st);
        auto passed = llvm::make_scope_exit([&] {
          for (const auto &name : names)
            --readers[name.getKey()];
        });
        int64_t more = 0;
        llvm::StringSet<> fresh;
        for (int v : st.leaves) {
          if (v >= g.numLeaves || g.constantLeaf[v])
            continue; // a formula's value or a constant, not an argument
          auto type = cast<RankedTensorType>(p.fg.values[v].getType());
          const std::string &name = p.names[v];
          if (stored.contains(name) || keptInputs.contains(name) ||
              (!loop && (!outsideLoops || readers.lookup(name) < 2)) || !fresh.insert(name).second)
            continue;
          more += storedBytes(type);
        }
        if (fresh.empty() || keptBytes + more > budget)
          continue;
        keptBytes += more;
        for (const auto &name : fresh)
          keptInputs.insert(name.getKey());
        p.keepInputs.insert(g.valueOf(st.root()));
      }
    }
    return keptBytes;
  }

  /// A statement that reads `value` when its tensor `name` holds another
  /// value: `readers`, the formulas of that statement that read it.
  struct Conflict {
    Value value;
    std::string name;
    SmallVector<Operation *> readers;
    explicit operator bool() const { return static_cast<bool>(value); }
  };

  struct Naming {
    SmallVector<std::string> names; ///< by value number
    Conflict conflict;              ///< set instead of names when one is found
  };

  /// Copies `c.value` right after it is made (its product with a scalar of
  /// ones, an intermediate of its own) and has the readers read the copy.
  void copyFor(const Conflict &c) {
    Value v = c.value;
    OpBuilder b(v.getContext());
    b.setInsertionPointAfterValue(v);
    ContractOp copy = createNamedCopy(b, v.getLoc(), v, c.name);
    // An argument (a tensor a loop carries, stored over by the iteration)
    // is copied once, before any statement, for every reader.
    if (isa<BlockArgument>(v)) {
      v.replaceAllUsesExcept(copy.getResult(), copy);
      return;
    }
    for (Operation *reader : c.readers)
      reader->replaceUsesOfWith(v, copy.getResult());
  }

  /// The tensor name of every value that crosses a cut: the argument's or
  /// result's tc.name, the formula's tc.name (a program's intermediates), or
  /// that of the value it accumulates into (one tensor updated in place);
  /// distinct tensors get distinct names.
  FailureOr<Naming> nameValues(func::FuncOp func, FunctionGraph &fg,
                               const ProgramPartition &partition,
                               const llvm::StringSet<> &reserved) {
    const ProgramGraph &g = fg.graph;
    Naming out;
    SmallVector<std::string> &name = out.names;
    name.resize(fg.values.size());
    // The other parts' names too: a statement's intermediate must not store
    // over a tensor another part hands on.
    llvm::StringSet<> taken = reserved;
    for (int a = 0; a < static_cast<int>(func.getNumArguments()); ++a) {
      auto attr = func.getArgAttrOfType<StringAttr>(a, TCDialect::getNameAttrName());
      name[a] = attr ? attr.str() : "in" + std::to_string(a);
      taken.insert(name[a]);
    }
    for (int c = func.getNumArguments(); c < g.numLeaves; ++c)
      name[c] = "ones";
    // Outputs keep their result names. A result may be named like an
    // argument: a tensor a loop carries is loaded and stored under one name
    // (the statement order below copies the argument where it would be
    // stored over before it is read).
    llvm::DenseSet<int> outputs;
    llvm::StringSet<> resultNames;
    for (auto [r, v] : llvm::enumerate(g.returned)) {
      auto attr = func.getResultAttrOfType<StringAttr>(r, TCDialect::getNameAttrName());
      std::string n = attr ? attr.str() : g.returned.size() == 1 ? "R" : "R" + std::to_string(r);
      if (!outputs.insert(v).second)
        return func.emitOpError() << "returns one value as two results; return it once";
      if (!resultNames.insert(n).second)
        return func.emitOpError() << "result '" << n << "' is named like another result";
      taken.insert(n);
      name[v] = n;
    }
    // An accumulation's chain is one tensor: name it from its last value (an
    // output's name) or, failing that, from its first formula's tc.name.
    auto chainBase = [&](int v) {
      while (g.formulaOf(v) >= 0 && g.formulas[g.formulaOf(v)].init >= 0)
        v = g.formulas[g.formulaOf(v)].init;
      return v;
    };
    SmallVector<int> chainOutput(fg.values.size(), -1);
    for (int v : g.returned)
      chainOutput[chainBase(v)] = v;
    llvm::StringMap<int> suffix;
    for (int f = 0; f < static_cast<int>(g.formulas.size()); ++f) {
      int v = g.valueOf(f), base = chainBase(v);
      if (!name[v].empty())
        continue;
      if (base != v && !name[base].empty()) {
        name[v] = name[base];
        continue;
      }
      if (chainOutput[base] >= 0) {
        name[v] = name[chainOutput[base]];
        continue;
      }
      auto attr = fg.formulas[f]->getAttrOfType<StringAttr>(TCDialect::getNameAttrName());
      std::string n = attr ? attr.str() : "t";
      std::string unique = n;
      while (!taken.insert(unique).second)
        unique = n + "~" + std::to_string(++suffix[n] + 1);
      name[v] = unique;
    }
    // A returned value that accumulates into another tensor's value would be
    // loaded under one name and stored under another: it accumulates into a
    // copy, which takes its name.
    for (int v : g.returned) {
      int f = g.formulaOf(v);
      if (g.formulas[f].init >= 0 && name[g.formulas[f].init] != name[v]) {
        int init = g.formulas[f].init;
        out.conflict = Conflict{fg.values[init], name[init], {fg.formulas[f]}};
        return out;
      }
    }
    // Statement order: a value must be read before the next value of its
    // tensor is stored; a statement reading it later reads a copy.
    SmallVector<int> statementOf(g.formulas.size());
    for (auto [s, st] : llvm::enumerate(partition.statements))
      for (int f : st.formulas)
        statementOf[f] = static_cast<int>(s);
    for (auto [s, st] : llvm::enumerate(partition.statements))
      for (int leafValue : st.leaves) {
        if (leafValue < g.numLeaves && g.constantLeaf[leafValue])
          continue;
        // An argument is loaded before any statement stores.
        const bool argument = g.formulaOf(leafValue) < 0;
        int producer = argument ? -1 : statementOf[g.formulaOf(leafValue)];
        // A statement that multiplies an argument and stores under its name
        // (G = 0.5 * G in a loop) would load and store one array: it reads
        // a copy. (Accumulating into it, G += ..., is one array updated.)
        const bool storesOverItsFactor =
            argument && llvm::any_of(st.formulas, [&](int f) {
              return llvm::is_contained(g.formulas[f].inputs, leafValue);
            });
        const int last = static_cast<int>(s) + (storesOverItsFactor ? 1 : 0);
        for (int later = producer + 1; later < last; ++later) {
          int root = g.valueOf(partition.statements[later].root());
          if (name[root] != name[leafValue])
            continue;
          out.conflict.value = fg.values[leafValue];
          out.conflict.name = name[leafValue];
          for (int f : st.formulas)
            if (llvm::is_contained(fg.formulas[f]->getOperands(), fg.values[leafValue]))
              out.conflict.readers.push_back(fg.formulas[f]);
          return out;
        }
      }
    return out;
  }

  LogicalResult outline(ModuleOp module, Prepared &p) {
    func::FuncOp func = p.func;
    FunctionGraph &fg = p.fg;
    const ProgramPartition &partition = p.partition;
    ArrayRef<std::string> name = p.names;
    const ProgramGraph &g = fg.graph;
    MachineAttr planned = p.planned;
    OpBuilder b(func);
    SymbolTable symbols(module);
    StringRef ones = TCDialect::getOnesAttrName(), tcName = TCDialect::getNameAttrName();
    for (auto [k, st] : llvm::enumerate(partition.statements)) {
      SmallVector<Type> argTypes;
      SmallVector<DictionaryAttr> argAttrs;
      for (int v : st.leaves) {
        argTypes.push_back(fg.values[v].getType());
        SmallVector<NamedAttribute> attrs;
        if (v < static_cast<int>(func.getNumArguments()))
          llvm::append_range(attrs, func.getArgAttrDict(v) ? func.getArgAttrDict(v).getValue()
                                                           : ArrayRef<NamedAttribute>());
        if (!llvm::any_of(attrs, [&](NamedAttribute a) { return a.getName() == tcName; }))
          attrs.push_back(b.getNamedAttr(tcName, b.getStringAttr(name[v])));
        if (v < g.numLeaves && g.constantLeaf[v])
          attrs.push_back(b.getNamedAttr(ones, b.getUnitAttr()));
        argAttrs.push_back(b.getDictionaryAttr(attrs));
      }
      Operation *rootOp = fg.formulas[st.root()];
      const int rootValue = g.valueOf(st.root());
      std::string symbol = (func.getSymName() + "_s" + Twine(k + 1)).str();
      for (int n = 2; symbols.lookup(symbol); ++n)
        symbol = (func.getSymName() + "_s" + Twine(k + 1) + "_" + Twine(n)).str();
      auto statement = func::FuncOp::create(
          b, rootOp->getLoc(), symbol,
          b.getFunctionType(argTypes, {rootOp->getResult(0).getType()}));
      statement.setAllArgAttrs(argAttrs);
      statement.setResultAttr(0, tcName, b.getStringAttr(name[rootValue]));
      std::string label = name[rootValue];
      if (auto loc = dyn_cast<FileLineColLoc>(rootOp->getLoc()))
        label += " (" + loc.getFilename().str() + ":" + std::to_string(loc.getLine()) + ")";
      statement->setAttr(TCDialect::getStatementAttrName(), b.getStringAttr(label));
      if (!p.isOutput(rootValue))
        statement->setAttr(TCDialect::getIntermediateAttrName(), b.getUnitAttr());
      if (p.inMemory.contains(rootValue))
        statement->setAttr(TCDialect::getInMemoryAttrName(), b.getUnitAttr());
      if (p.keepInputs.contains(rootValue))
        statement->setAttr(TCDialect::getKeepInputsAttrName(), b.getUnitAttr());
      // Its result is stored inverted (an inverted copy runs alone: it
      // multiplies a constant).
      if (rootOp->hasAttr(TCDialect::getReciprocalAttrName()))
        statement->setAttr(TCDialect::getReciprocalAttrName(), b.getUnitAttr());
      setMachine(statement, func, planned);
      OpBuilder body(statement.getContext());
      body.setInsertionPointToStart(statement.addEntryBlock());
      IRMapping map;
      for (auto [i, v] : llvm::enumerate(st.leaves))
        map.map(fg.values[v], statement.getArgument(i));
      for (int f : st.formulas)
        body.clone(*fg.formulas[f], map);
      func::ReturnOp::create(body, rootOp->getLoc(), map.lookup(rootOp->getResult(0)));
    }
    for (int v : p.readLater)
      outlineCopy(b, symbols, func, fg.values[v], name[v], planned);
    func.erase();
    return success();
  }

  /// What a kept intermediate takes on each rank: the whole tensor, or for a
  /// block-sparse one its stored blocks.
  static int64_t storedBytes(RankedTensorType type) {
    int64_t elements = type.getNumElements();
    if (auto blocks = dyn_cast_or_null<BlocksAttr>(type.getEncoding())) {
      BlockSparseShape shape = blocks.toShape();
      elements = 0;
      for (const std::vector<int64_t> &b : shape.storedBlocks())
        elements += shape.blockElements(b);
    }
    return elements * type.getElementTypeBitWidth() / 8;
  }

  /// A statement's machine: the one planned with the memory in-memory
  /// intermediates leave, else the program function's own (a process count's).
  /// (With the program part and loop it belongs to, tc-outline-loops.)
  static void setMachine(func::FuncOp statement, func::FuncOp func, MachineAttr planned) {
    Attribute machine = planned ? Attribute(planned) : func->getAttr(TCDialect::getMachineAttrName());
    if (machine)
      statement->setAttr(TCDialect::getMachineAttrName(), machine);
    for (StringRef inherited : {TCDialect::getProgramPartAttrName(), TCDialect::getLoopAttrName()})
      if (Attribute attr = func->getAttr(inherited))
        statement->setAttr(inherited, attr);
  }

  /// The statement writing intermediate `value` (named `name`) to the output
  /// file: its product with a scalar of ones.
  void outlineCopy(OpBuilder &b, SymbolTable &symbols, func::FuncOp func, Value value,
                   StringRef name, MachineAttr planned) {
    auto type = cast<RankedTensorType>(value.getType());
    RankedTensorType ones = onesTypeFor(type);
    Location loc = value.getLoc();
    std::string symbol = (func.getSymName() + "_" + name + "_out").str();
    for (int n = 2; symbols.lookup(symbol); ++n)
      symbol = (func.getSymName() + "_" + name + "_out" + Twine(n)).str();
    auto copy = func::FuncOp::create(b, loc, symbol, b.getFunctionType({type, ones}, {type}));
    StringRef tcName = TCDialect::getNameAttrName();
    copy.setArgAttr(0, tcName, b.getStringAttr(name));
    copy.setArgAttr(1, tcName, b.getStringAttr("ones"));
    copy.setArgAttr(1, TCDialect::getOnesAttrName(), b.getUnitAttr());
    copy.setResultAttr(0, tcName, b.getStringAttr(name));
    copy->setAttr(TCDialect::getStatementAttrName(), b.getStringAttr(name + " (output)"));
    setMachine(copy, func, planned);
    OpBuilder body(copy.getContext());
    body.setInsertionPointToStart(copy.addEntryBlock());
    Value result = createCopy(body, loc, copy.getArgument(0), copy.getArgument(1));
    func::ReturnOp::create(body, loc, result);
  }
};

} // namespace
