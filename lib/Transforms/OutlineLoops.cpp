//===- OutlineLoops.cpp - the tc-outline-loops pass -----------------------===//
//
// An iterative method (coupled cluster, any fixed-point iteration) is a
// program whose middle repeats. The planners and tc-split-program take
// straight-line programs, so a function with loops (tc.iterate) becomes its
// parts: the statements before a loop, the loop's body, those after it. The
// program's entry (ProgramEntry.cpp) runs the parts in order and repeats a
// body until tc.end_iteration says stop. Each part is planned once, however
// often it runs. Values cross parts by name through the runtime's
// intermediates store, as they cross statements: a loop carries a tensor by
// storing its next value under the name its body loads it by.
//
//===----------------------------------------------------------------------===//
#include "ProgramCopies.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tc {
#define GEN_PASS_DEF_OUTLINELOOPS
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// One part of the program: straight-line ops, or one loop.
struct Part {
  IterateOp loop;               ///< null: straight-line ops
  SmallVector<Operation *> ops; ///< straight-line: in order (no constants)
};

/// What one part stores: a value of the original function under a name.
struct Stored {
  Value value; ///< in the original function (a loop's yield operand for a body)
  std::string name;
  bool keep = true;  ///< an intermediate (false: an output of the program)
  bool copy = false; ///< stored as a copy (the value has another name, or is stored twice)
};

struct Outliner {
  func::FuncOp func;
  SmallVector<Part> parts;
  /// The part each value of the function is made in: an op's result, or a
  /// loop's result (its part). Arguments and constants are in none.
  llvm::DenseMap<Value, int> partOf;
  llvm::DenseMap<Operation *, int> opPart; ///< per straight-line op or loop
  SmallVector<std::string> inputName;      ///< per function argument
  /// Per loop part, per result: the name its body stores it under.
  llvm::DenseMap<int, SmallVector<std::string>> slotName;
  /// Per value made in a straight-line part and read by another part: its name.
  llvm::DenseMap<Value, std::string> crossName;
  /// Per part, what it stores, in order.
  SmallVector<SmallVector<Stored>> stores;
  /// Per part, what it reads from other parts (and inputs), in order, by name.
  SmallVector<llvm::MapVector<Value, std::string>> reads;

  explicit Outliner(func::FuncOp func) : func(func) {}

  static std::string nameOf(Value v) {
    if (Operation *def = v.getDefiningOp())
      if (auto name = def->getAttrOfType<StringAttr>(TCDialect::getNameAttrName()))
        return name.str();
    return "";
  }

  /// The part whose ops use `use` (a loop's body ops belong to the loop).
  int partOfUse(OpOperand &use) {
    Operation *owner = use.getOwner();
    while (owner->getParentOp() != func.getOperation())
      owner = owner->getParentOp();
    return opPart.lookup(owner);
  }

  LogicalResult run() {
    if (failed(cutIntoParts()) || failed(nameSlots()) || failed(nameCrossings()) ||
        failed(planStores()) || failed(checkNoValueOverwritten()))
      return failure();
    buildParts();
    func.erase();
    return success();
  }

  LogicalResult cutIntoParts() {
    Block &body = func.getBody().front();
    for (Operation &op : body.without_terminator()) {
      if (isa<arith::ConstantOp>(op))
        continue; // made again in each part that reads it
      if (auto loop = dyn_cast<IterateOp>(op)) {
        WalkResult nested = loop.getBody().walk([](IterateOp inner) {
          inner.emitOpError() << "is inside another tc.iterate; loops do not nest";
          return WalkResult::interrupt();
        });
        if (nested.wasInterrupted())
          return failure();
        if (loop.getNumResults() == 0)
          return loop.emitOpError() << "has no results: a loop whose values nothing reads "
                                       "does nothing";
        // The part before a loop stores the values it starts with.
        if (!loop.getInits().empty() && (parts.empty() || parts.back().loop))
          parts.emplace_back();
        parts.push_back({loop, {}});
        opPart[loop] = parts.size() - 1;
        for (Value r : loop.getResults())
          partOf[r] = parts.size() - 1;
        continue;
      }
      if (op.getNumRegions())
        return op.emitOpError() << "has a region; a program's ops outside loops are "
                                   "contractions";
      if (parts.empty() || parts.back().loop)
        parts.emplace_back();
      parts.back().ops.push_back(&op);
      opPart[&op] = parts.size() - 1;
      for (Value r : op.getResults())
        partOf[r] = parts.size() - 1;
    }
    // The last part writes the outputs.
    if (parts.empty() || parts.back().loop)
      parts.emplace_back();
    for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
      auto name = func.getArgAttrOfType<StringAttr>(i, TCDialect::getNameAttrName());
      inputName.push_back(name ? name.str() : "in" + std::to_string(i));
    }
    stores.resize(parts.size());
    reads.resize(parts.size());
    return success();
  }

  /// Whether argument `arg` is read anywhere from part `from` on, other than
  /// as `except` (a loop's starting value).
  bool readFrom(BlockArgument arg, int from, OpOperand *except) {
    for (OpOperand &use : arg.getUses()) {
      if (&use == except)
        continue;
      if (isa<func::ReturnOp>(use.getOwner()) || partOfUse(use) >= from)
        return true;
    }
    return false;
  }

  /// Each loop result's name: its body's tc.name for it, else its starting
  /// value's, distinct within the loop; not an input's name unless the loop
  /// starts from that input and nothing reads the input once the loop began.
  LogicalResult nameSlots() {
    llvm::StringSet<> inputs;
    for (const std::string &n : inputName)
      inputs.insert(n);
    for (auto [p, part] : llvm::enumerate(parts)) {
      if (!part.loop)
        continue;
      IterateOp loop = part.loop;
      SmallVector<std::string> &names = slotName[p];
      llvm::StringSet<> taken;
      for (unsigned k = 0; k < loop.getNumResults(); ++k) {
        std::string name = nameOf(loop.getYield().getValues()[k]);
        Value init = k < loop.getInits().size() ? loop.getInits()[k] : Value();
        if (name.empty() && init)
          name = nameOf(init);
        if (name.empty())
          name = (func.getSymName() + ".loop" + Twine(p) + "." + Twine(k)).str();
        auto startsFromInput = [&](StringRef n) {
          auto arg = dyn_cast_or_null<BlockArgument>(init);
          return arg && inputName[arg.getArgNumber()] == n &&
                 !readFrom(arg, p, &loop.getInitsMutable()[k]);
        };
        std::string unique = name;
        for (int n = 2;
             taken.contains(unique) || (inputs.contains(unique) && !startsFromInput(unique)); ++n)
          unique = name + "~" + std::to_string(n);
        taken.insert(unique);
        names.push_back(unique);
      }
    }
    return success();
  }

  /// A loop part's starting value `k` needs no store: it is an earlier loop's
  /// result of that name. (An input is copied into the store, also under its
  /// own name: DIIS, checkpoints and --restart find every carried tensor in
  /// the store from the first iteration on.)
  bool startsWhereStored(int loopPart, unsigned k) {
    Value init = parts[loopPart].loop.getInits()[k];
    const std::string &slot = slotName[loopPart][k];
    if (auto earlier = dyn_cast<OpResult>(init); earlier && isa<IterateOp>(earlier.getOwner()))
      return slotName[partOf.lookup(init)][earlier.getResultNumber()] == slot;
    return false;
  }

  /// Whether `v` (made in straight-line part `p`) is read by a later part
  /// other than as the starting value of the loop right after `p` under
  /// `v`'s own name (then it is stored under that name once).
  bool onlyStartsNextLoop(Value v, int p) {
    if (p + 1 >= static_cast<int>(parts.size()) || !parts[p + 1].loop)
      return false;
    IterateOp loop = parts[p + 1].loop;
    int starts = 0;
    for (OpOperand &use : v.getUses()) {
      if (use.getOwner() == loop.getOperation()) {
        if (slotName[p + 1][use.getOperandNumber()] != nameOf(v))
          return false;
        ++starts;
        continue;
      }
      if (isa<func::ReturnOp>(use.getOwner()) || partOfUse(use) != p)
        return false;
    }
    return starts == 1;
  }

  /// Names of values made in one straight-line part and read in another:
  /// their tc.name, distinct from inputs, loop results and each other.
  LogicalResult nameCrossings() {
    llvm::StringSet<> taken;
    for (const std::string &n : inputName)
      taken.insert(n);
    for (auto &[p, names] : slotName)
      for (const std::string &n : names)
        taken.insert(n);
    for (auto [p, part] : llvm::enumerate(parts))
      for (Operation *op : part.ops)
        for (Value v : op->getResults()) {
          bool crosses = llvm::any_of(v.getUses(), [&](OpOperand &use) {
            return isa<func::ReturnOp>(use.getOwner()) || partOfUse(use) != static_cast<int>(p);
          });
          if (!crosses)
            continue;
          std::string name = nameOf(v);
          if (name.empty())
            name = "t";
          if (onlyStartsNextLoop(v, p)) {
            crossName[v] = name; // the loop's name for it
            continue;
          }
          std::string unique = name;
          for (int n = 2; taken.contains(unique); ++n)
            unique = name + "~" + std::to_string(n);
          taken.insert(unique);
          crossName[v] = unique;
        }
    return success();
  }

  /// The name a part reads `v` by (an input, another part's value, or a
  /// loop's result).
  std::string readName(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return inputName[arg.getArgNumber()];
    if (auto r = dyn_cast<OpResult>(v); r && isa<IterateOp>(r.getOwner()))
      return slotName[partOf.lookup(v)][r.getResultNumber()];
    return crossName.lookup(v);
  }

  void addRead(int p, Value v) {
    if (isa_and_nonnull<arith::ConstantOp>(v.getDefiningOp()))
      return;
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() != &func.getBody().front())
      return; // a loop body's own argument
    if (v.getParentRegion() != &func.getBody() || (partOf.count(v) && partOf.lookup(v) == p))
      return;
    reads[p].insert({v, readName(v)});
  }

  /// What each part reads and stores.
  LogicalResult planStores() {
    auto returned = func.getBody().front().getTerminator()->getOperands();
    const int last = static_cast<int>(parts.size()) - 1;
    for (auto [p, part] : llvm::enumerate(parts)) {
      const int here = static_cast<int>(p);
      if (part.loop) {
        IterateOp loop = part.loop;
        loop.getBody().walk([&](Operation *op) {
          for (Value v : op->getOperands())
            addRead(here, v);
        });
        llvm::DenseSet<Value> once;
        for (auto [k, v] : llvm::enumerate(loop.getYield().getValues())) {
          // A value the body made, stored once; else a copy of it.
          bool made = v.getParentRegion() == &loop.getBody() && !isa<BlockArgument>(v) &&
                      !isa_and_nonnull<arith::ConstantOp>(v.getDefiningOp());
          bool copy = !made || !once.insert(v).second;
          stores[p].push_back({v, slotName[p][k], true, copy});
        }
        continue;
      }
      for (Operation *op : part.ops)
        for (Value v : op->getOperands())
          addRead(here, v);
      for (Operation *op : part.ops)
        for (Value v : op->getResults())
          if (crossName.count(v)) {
            bool laterRead = llvm::any_of(v.getUses(), [&](OpOperand &use) {
              return !isa<func::ReturnOp>(use.getOwner()) && partOfUse(use) != here;
            });
            if (laterRead || here != last)
              stores[p].push_back({v, crossName.lookup(v), true, false});
          }
      // The loop after this part starts from what it stores here.
      if (here + 1 < static_cast<int>(parts.size()) && parts[here + 1].loop) {
        IterateOp loop = parts[here + 1].loop;
        for (auto [k, init] : llvm::enumerate(loop.getInits())) {
          if (startsWhereStored(here + 1, k))
            continue;
          const std::string &slot = slotName[here + 1][k];
          if (partOf.count(init) && partOf.lookup(init) == here && crossName.lookup(init) == slot)
            continue; // stored above under the loop's name
          addRead(here, init);
          stores[p].push_back({init, slot, true, true});
        }
      }
    }
    // The outputs: the last part writes them, copying those made elsewhere;
    // an output no later part reads is written by the part that makes it.
    for (auto [r, v] : llvm::enumerate(returned)) {
      auto name = func.getResultAttrOfType<StringAttr>(r, TCDialect::getNameAttrName());
      std::string out = name ? name.str() : returned.size() == 1 ? "R" : "R" + std::to_string(r);
      const bool made = partOf.count(v);
      const int maker = made ? partOf.lookup(v) : -1;
      const bool straight = made && !parts[maker].loop;
      if (straight && maker != last) {
        bool laterRead = llvm::any_of(v.getUses(), [&](OpOperand &use) {
          return !isa<func::ReturnOp>(use.getOwner()) && partOfUse(use) != maker;
        });
        if (!laterRead) {
          // Written where it is made, not stored for later parts.
          llvm::erase_if(stores[maker], [&](const Stored &s) { return s.value == v; });
          stores[maker].push_back({v, out, false, false});
          continue;
        }
      }
      if (straight && maker == last) {
        stores[last].push_back({v, out, false, false});
        continue;
      }
      addRead(last, v);
      stores[last].push_back({v, out, false, true});
    }
    return success();
  }

  /// Names that are stored over between the part that stores a value and a
  /// part that reads it would hand the reader another value.
  LogicalResult checkNoValueOverwritten() {
    for (auto [p, partReads] : llvm::enumerate(reads))
      for (auto &[v, name] : partReads) {
        if (isa<BlockArgument>(v))
          continue; // an input: loops that store its name start from it
        const int maker = partOf.lookup(v);
        for (int between = maker + 1; between <= static_cast<int>(p); ++between) {
          if (between == static_cast<int>(p) && !parts[p].loop)
            break; // a straight part reads before it stores
          for (const Stored &s : stores[between])
            if (s.keep && s.name == name && s.value != v)
              return func.emitOpError()
                     << "reads '" << name << "' in part " << p << " after part " << between
                     << " stored another value under that name; tc-outline-loops names "
                     << "values crossing loops by their tc.name: rename one of them";
        }
      }
    return success();
  }

  std::string loopLabel(IterateOp loop, int part) {
    if (auto at = dyn_cast<FileLineColLoc>(loop.getLoc()))
      return (at.getFilename().str() + ":" + std::to_string(at.getLine()));
    return (func.getSymName() + ".loop" + Twine(part)).str();
  }

  void buildParts() {
    OpBuilder b(func);
    SymbolTable symbols(func->getParentOfType<ModuleOp>());
    StringRef tcName = TCDialect::getNameAttrName();
    for (auto [p, part] : llvm::enumerate(parts)) {
      if (stores[p].empty())
        continue; // nothing later reads what it makes
      SmallVector<Type> argTypes;
      SmallVector<DictionaryAttr> argAttrs;
      SmallVector<Value> argValues; ///< in the original function
      auto addArg = [&](Value v, StringRef name) {
        argTypes.push_back(v.getType());
        SmallVector<NamedAttribute> attrs;
        if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &func.getBody().front())
          if (DictionaryAttr dict = func.getArgAttrDict(arg.getArgNumber()))
            llvm::append_range(attrs, dict.getValue());
        llvm::erase_if(attrs, [&](NamedAttribute a) { return a.getName() == tcName; });
        attrs.push_back(b.getNamedAttr(tcName, b.getStringAttr(name)));
        argAttrs.push_back(b.getDictionaryAttr(attrs));
        argValues.push_back(v);
      };
      if (part.loop)
        for (auto [k, carried] : llvm::enumerate(part.loop.getBodyBlock().getArguments()))
          addArg(carried, slotName[p][k]);
      for (auto &[v, name] : reads[p])
        addArg(v, name);
      std::string symbol = part.loop ? (func.getSymName() + ".loop" + Twine(p)).str()
                                     : (func.getSymName() + "." + Twine(p)).str();
      for (int n = 2; symbols.lookup(symbol); ++n)
        symbol = (func.getSymName() + "." + Twine(p) + "_" + Twine(n)).str();
      Location at = part.loop          ? part.loop.getLoc()
                    : part.ops.empty() ? func.getLoc()
                                       : part.ops.front()->getLoc();
      auto outlined = func::FuncOp::create(b, at, symbol, b.getFunctionType(argTypes, {}));
      outlined.setAllArgAttrs(argAttrs);
      for (StringRef name : {TCDialect::getMachineAttrName()})
        if (Attribute attr = func->getAttr(name))
          outlined->setAttr(name, attr);
      outlined->setAttr(TCDialect::getProgramPartAttrName(), func.getSymNameAttr());
      OpBuilder body(outlined.getContext());
      body.setInsertionPointToStart(outlined.addEntryBlock());
      IRMapping map;
      for (auto [i, v] : llvm::enumerate(argValues))
        map.map(v, outlined.getArgument(i));
      auto cloneConstants = [&](Operation *op) {
        op->walk([&](Operation *inner) {
          for (Value v : inner->getOperands())
            if (auto c = v.getDefiningOp<arith::ConstantOp>(); c && !map.contains(v))
              map.map(v, body.clone(*c)->getResult(0));
        });
      };
      if (part.loop) {
        IterateOp loop = part.loop;
        SmallVector<Attribute> carried;
        for (unsigned k = 0; k < loop.getInits().size(); ++k)
          carried.push_back(b.getStringAttr(slotName[p][k]));
        outlined->setAttr(TCDialect::getLoopAttrName(),
                          LoopAttr::get(b.getContext(), loopLabel(loop, p), loop.getMax(),
                                        loop.getConverge() ? slotName[p][*loop.getConverge()] : "",
                                        loop.getToleranceAttr(), b.getArrayAttr(carried),
                                        loop.getDiis().value_or(0)));
        for (Operation &op : loop.getBodyBlock().without_terminator()) {
          cloneConstants(&op);
          body.clone(op, map);
        }
      } else {
        for (Operation *op : part.ops) {
          cloneConstants(op);
          body.clone(*op, map);
        }
      }
      SmallVector<Value> results;
      SmallVector<Type> resultTypes;
      for (const Stored &s : stores[p]) {
        Value v = s.value;
        if (isa_and_nonnull<arith::ConstantOp>(v.getDefiningOp()) && !map.contains(v))
          map.map(v, body.clone(*v.getDefiningOp())->getResult(0));
        Value stored = map.lookup(v);
        if (s.copy)
          stored = createNamedCopy(body, v.getLoc(), stored, s.name).getResult();
        results.push_back(stored);
        resultTypes.push_back(stored.getType());
      }
      func::ReturnOp::create(body, at, results);
      outlined.setFunctionType(b.getFunctionType(argTypes, resultTypes));
      for (auto [i, s] : llvm::enumerate(stores[p])) {
        outlined.setResultAttr(i, tcName, b.getStringAttr(s.name));
        if (s.keep)
          outlined.setResultAttr(i, TCDialect::getKeepAttrName(), b.getUnitAttr());
      }
    }
  }
};

struct OutlineLoopsPass : public tc::impl::OutlineLoopsBase<OutlineLoopsPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> work;
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (!f.isExternal() && !f.getBody().front().getOps<IterateOp>().empty())
        work.push_back(f);
    for (func::FuncOp f : work)
      if (failed(Outliner(f).run()))
        return signalPassFailure();
  }
};

} // namespace
