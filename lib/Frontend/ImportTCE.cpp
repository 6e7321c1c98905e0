//===- ImportTCE.cpp - the tensor-expression language -> tc IR ------------===//
#include "TC/Frontend/ImportTCE.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::tc;

namespace {

struct ModuleBuilder {
  const tce::Program &program;
  StringRef file;
  OpBuilder b;
  /// Each tensor's current value: an input's argument, else the result of
  /// the last term assigned to it.
  llvm::StringMap<Value> current;

  ModuleBuilder(const tce::Program &program, StringRef file, MLIRContext *context)
      : program(program), file(file), b(context) {}

  Location loc(tce::SourceLoc at) { return FileLineColLoc::get(b.getContext(), file, at.line, at.column); }

  Type elementType(const tce::Tensor &t) {
    return t.element == tce::ElementType::F32 ? Type(b.getF32Type()) : Type(b.getF64Type());
  }
  RankedTensorType typeOf(const tce::Tensor &t) {
    Attribute blocks;
    if (t.blockSparse)
      blocks = BlocksAttr::fromShape(b.getContext(),
                                     BlockSparseShape{program.segments(t), t.presence});
    return RankedTensorType::get(program.extents(t), elementType(t), blocks);
  }
  ArrayAttr labels(const std::vector<std::string> &indices) {
    SmallVector<StringRef> refs(indices.begin(), indices.end());
    return b.getStrArrayAttr(refs);
  }

  /// One term into `target`: a fresh value, or added to `init`.
  Value emitTerm(const tce::Term &term, const tce::Factor &target, Value init) {
    const tce::Tensor &t = *program.findTensor(target.tensor);
    RankedTensorType type = typeOf(t);
    SmallVector<Value> inputs;
    SmallVector<Attribute> inputLabels;
    for (const tce::Factor &f : term.factors) {
      inputs.push_back(current.lookup(f.tensor));
      inputLabels.push_back(labels(f.indices));
    }
    Location at = loc(term.loc);
    // Target indices no factor has: the term is broadcast along them, as its
    // product with ones over them (the runtime's ones array). One tensor with
    // none: the product with a scalar one, so that it too runs as a
    // contraction like any other term.
    std::vector<std::string> broadcast;
    for (const std::string &index : target.indices) {
      bool had = false;
      for (const tce::Factor &f : term.factors)
        had |= llvm::is_contained(f.indices, index);
      if (!had)
        broadcast.push_back(index);
    }
    if (inputs.size() == 1 || !broadcast.empty()) {
      std::vector<int64_t> extents;
      BlockSparseShape ones; // every block: a ones tensor cut like the target
      for (const std::string &index : broadcast) {
        const tce::IndexRange *range = program.findRange(program.findIndex(index)->range);
        extents.push_back(range->extent);
        ones.segments.push_back(range->segments);
        // Ones equal their spin flip: restricted with a restricted target.
        if (t.presence.restricted())
          range->partners(ones.presence.flip.emplace_back());
      }
      Attribute blocks;
      if (t.blockSparse)
        blocks = BlocksAttr::fromShape(b.getContext(), ones);
      auto onesType = RankedTensorType::get(extents, type.getElementType(), blocks);
      Attribute one = b.getFloatAttr(type.getElementType(), 1.0);
      inputs.push_back(arith::ConstantOp::create(b, at, DenseElementsAttr::get(onesType, one)));
      inputLabels.push_back(labels(broadcast));
    }
    FloatAttr scale = term.coefficient == 1.0 ? FloatAttr() : b.getF64FloatAttr(term.coefficient);
    ArrayAttr resultLabels = labels(target.indices);
    Operation *op;
    if (inputs.size() == 2)
      op = ContractOp::create(b, at, type, inputs, init, b.getArrayAttr(inputLabels),
                              resultLabels, scale);
    else
      op = MultiContractOp::create(b, at, type, inputs, init, b.getArrayAttr(inputLabels),
                                   resultLabels, scale);
    op->setAttr(TCDialect::getNameAttrName(), b.getStringAttr(target.tensor));
    return op->getResult(0);
  }

  /// `=` replaces the target; `+=` adds to it (an output not yet assigned
  /// starts at zero, so its first `+=` is an `=`).
  void emitStatement(const tce::Statement &s) {
    Value value = s.accumulate ? current.lookup(s.target.tensor) : Value();
    for (const tce::Term &term : s.terms)
      value = emitTerm(term, s.target, value);
    if (s.reciprocal) {
      // 1 / (terms): the terms' sum copied (a one-tensor term), inverted
      // element-wise.
      current[s.target.tensor] = value;
      tce::Term copy{1.0, {s.target}, s.loc};
      value = emitTerm(copy, s.target, Value());
      value.getDefiningOp()->setAttr(TCDialect::getReciprocalAttrName(), b.getUnitAttr());
    }
    current[s.target.tensor] = value;
  }

  /// The tensors a statement reads: its factors, and its target when it adds to it.
  static void forEachRead(const tce::Statement &s, llvm::function_ref<void(StringRef)> fn) {
    for (const tce::Term &term : s.terms)
      for (const tce::Factor &f : term.factors)
        fn(f.tensor);
    if (s.accumulate)
      fn(s.target.tensor);
  }

  /// A loop as one tc.iterate: it carries the tensors it assigns and reads
  /// before assigning them in an iteration, and leaves the others the
  /// program reads after it (or outputs, or the scalar it converges on).
  void emitLoop(const tce::Loop &loop) {
    ArrayRef<tce::Statement> body(program.statements.data() + loop.first, loop.count);
    const std::vector<std::string> carriedNames = program.carried(loop);
    llvm::SetVector<StringRef> assigned, carried(carriedNames.begin(), carriedNames.end()), left;
    for (const tce::Statement &s : body)
      assigned.insert(s.target.tensor);
    llvm::StringSet<> readAfter;
    for (size_t s = loop.first + loop.count; s < program.statements.size(); ++s)
      forEachRead(program.statements[s], [&](StringRef t) { readAfter.insert(t); });
    for (StringRef t : assigned)
      if (!carried.contains(t) && (readAfter.contains(t) || t == loop.converge ||
                                   program.findTensor(t)->role == tce::TensorRole::Output))
        left.insert(t);
    SmallVector<StringRef> results(carried.begin(), carried.end());
    llvm::append_range(results, left);
    SmallVector<Type> types;
    SmallVector<Value> inits;
    for (StringRef t : results)
      types.push_back(typeOf(*program.findTensor(t)));
    for (StringRef t : carried)
      inits.push_back(current.lookup(t));
    Location at = loc(loop.loc);
    IntegerAttr converge;
    FloatAttr tolerance;
    if (!loop.converge.empty()) {
      converge = b.getI64IntegerAttr(llvm::find(results, loop.converge) - results.begin());
      tolerance = b.getF64FloatAttr(loop.tolerance);
    }
    auto iterate =
        IterateOp::create(b, at, types, inits, b.getI64IntegerAttr(loop.maxIterations), converge,
                          tolerance, loop.diis ? b.getI64IntegerAttr(loop.diis) : IntegerAttr());
    Block *block = &iterate.getBody().emplaceBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(block);
    for (auto [t, init] : llvm::zip(carried, inits))
      current[t] = block->addArgument(init.getType(), at);
    for (const tce::Statement &s : body)
      emitStatement(s);
    SmallVector<Value> yielded;
    for (StringRef t : results)
      yielded.push_back(current.lookup(t));
    YieldOp::create(b, at, yielded);
    // After the loop a tensor it assigned is what the last iteration left.
    for (StringRef t : assigned)
      current.erase(t);
    for (auto [t, value] : llvm::zip(results, iterate.getResults()))
      current[t] = value;
  }

  OwningOpRef<ModuleOp> build() {
    Location fileLoc = FileLineColLoc::get(b.getContext(), file, 1, 1);
    OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
    SmallVector<const tce::Tensor *> inputs, outputs;
    for (const tce::Tensor &t : program.tensors) {
      if (t.role == tce::TensorRole::Input)
        inputs.push_back(&t);
      else if (t.role == tce::TensorRole::Output)
        outputs.push_back(&t);
    }
    SmallVector<Type> argTypes, resultTypes;
    for (const tce::Tensor *t : inputs)
      argTypes.push_back(typeOf(*t));
    for (const tce::Tensor *t : outputs)
      resultTypes.push_back(typeOf(*t));
    b.setInsertionPointToEnd(module->getBody());
    // The C symbols of the program and its runtime are not the program's names.
    std::string symbol = program.name;
    if (symbol == "main" || symbol == "tc_main" || StringRef(symbol).starts_with("tc_rt_"))
      symbol += "_program";
    auto func = func::FuncOp::create(b, fileLoc, symbol, b.getFunctionType(argTypes, resultTypes));
    StringRef name = TCDialect::getNameAttrName();
    for (auto [i, t] : llvm::enumerate(inputs))
      func.setArgAttr(i, name, b.getStringAttr(t->name));
    for (auto [i, t] : llvm::enumerate(outputs))
      func.setResultAttr(i, name, b.getStringAttr(t->name));
    b.setInsertionPointToStart(func.addEntryBlock());
    for (auto [i, t] : llvm::enumerate(inputs)) {
      func.getArgument(i).setLoc(loc(t->loc)); // diagnostics name the declaration
      current[t->name] = func.getArgument(i);
    }
    for (size_t s = 0; s < program.statements.size(); ++s) {
      const tce::Statement &statement = program.statements[s];
      if (statement.loop < 0) {
        emitStatement(statement);
        continue;
      }
      const tce::Loop &loop = program.loops[statement.loop];
      emitLoop(loop);
      s = loop.first + loop.count - 1;
    }
    SmallVector<Value> results;
    for (const tce::Tensor *t : outputs)
      results.push_back(current.lookup(t->name));
    func::ReturnOp::create(b, fileLoc, results);
    return module;
  }
};

} // namespace

OwningOpRef<ModuleOp> mlir::tc::buildTCEModule(const tce::Program &program, StringRef file,
                                               MLIRContext *context) {
  context->loadDialect<TCDialect, func::FuncDialect, arith::ArithDialect>();
  return ModuleBuilder(program, file, context).build();
}

OwningOpRef<ModuleOp> mlir::tc::importTCE(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef file = buffer->getBufferIdentifier();
  tce::Program program;
  tce::Diagnostic error;
  if (!tce::parseTCE(std::string_view(buffer->getBufferStart(), buffer->getBufferSize()),
                     program, error)) {
    emitError(FileLineColLoc::get(context, file, error.loc.line, error.loc.column))
        << error.message;
    return nullptr;
  }
  return buildTCEModule(program, file, context);
}

void mlir::tc::registerImportTCETranslation() {
  TranslateToMLIRRegistration registration(
      "import-tce", "read a program in tc's tensor-expression language (docs/TCELanguage.md)",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) -> OwningOpRef<Operation *> {
        OwningOpRef<ModuleOp> module = mlir::tc::importTCE(sourceMgr, context);
        return module ? OwningOpRef<Operation *>(module.release()) : nullptr;
      },
      [](DialectRegistry &registry) {
        registry.insert<TCDialect, func::FuncDialect, arith::ArithDialect>();
      });
}
