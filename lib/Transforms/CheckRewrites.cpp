//===- CheckRewrites.cpp - the tc-check-rewrites pass ---------------------===//
//
// A debug mode that fails loudly where a rewrite changed a value
// (docs/Derivations.md D36): each program function is evaluated on small
// random arrays (lib/Analysis/ProgramEvaluation) before and after each of
// tc-minimize-operations, tc-share-products and tc-split-program, which run on
// a copy; this pass only translates between the IR and that evaluation.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/ProgramEvaluation.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::tc {
#define GEN_PASS_DEF_CHECKREWRITES
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// Extents capped at 3: a rewrite of labels is the same at any extent.
std::vector<int64_t> smallShape(Type type) {
  std::vector<int64_t> shape;
  for (int64_t e : cast<RankedTensorType>(type).getShape())
    shape.push_back(std::min<int64_t>(e, 3));
  return shape;
}

std::vector<std::string> strings(ArrayAttr labels) {
  std::vector<std::string> out;
  for (Attribute l : labels)
    out.push_back(cast<StringAttr>(l).getValue().str());
  return out;
}

/// A function as ProgramEvaluation sees it: its arguments, then its splat
/// constants (`constants`, their values at the small shape) as further
/// arguments.
struct EvalFunctionOf {
  EvalFunction f;
  std::vector<DenseArray> constants;
};

FailureOr<EvalFunctionOf> toEval(func::FuncOp func) {
  EvalFunctionOf out;
  llvm::DenseMap<Value, int> number;
  for (BlockArgument a : func.getArguments())
    number[a] = static_cast<int>(a.getArgNumber());
  Block &body = func.getBody().front();
  int slots = static_cast<int>(func.getNumArguments());
  for (auto c : body.getOps<arith::ConstantOp>()) {
    DenseElementsAttr data;
    if (!matchPattern(c.getResult(), m_Constant(&data)) || !data.isSplat() ||
        !isa<FloatAttr>(data.getSplatValue<Attribute>()))
      return c.emitOpError() << "is not a splat float constant tc-check-rewrites evaluates";
    number[c.getResult()] = slots++;
    out.constants.push_back(
        DenseArray::filled(smallShape(c.getType()),
                           cast<FloatAttr>(data.getSplatValue<Attribute>()).getValueAsDouble()));
  }
  out.f.numArgs = slots;
  for (Operation &op : body.without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    EvalFormula x;
    auto labeled = [&](auto typed) -> LogicalResult {
      for (Value in : typed.getInputs()) {
        auto it = number.find(in);
        if (it == number.end())
          return typed.emitOpError() << "reads a value tc-check-rewrites cannot trace";
        x.inputs.push_back(it->second);
      }
      for (Attribute l : typed.getInputLabels())
        x.labels.push_back(strings(cast<ArrayAttr>(l)));
      x.result = strings(typed.getResultLabels());
      x.shape = smallShape(typed.getResult().getType());
      x.scale = typed.getScale().convertToDouble();
      x.reciprocal = typed->hasAttr(TCDialect::getReciprocalAttrName());
      if (Value init = typed.getInit())
        x.init = number.lookup(init);
      return success();
    };
    LogicalResult done = TypeSwitch<Operation *, LogicalResult>(&op)
                             .Case<ContractOp, MultiContractOp, SumOp>(labeled)
                             .Default([](Operation *o) {
                               return o->emitOpError() << "is not an op tc-check-rewrites "
                                                          "evaluates";
                             });
    if (failed(done))
      return failure();
    number[op.getResult(0)] = slots + static_cast<int>(out.f.formulas.size());
    out.f.formulas.push_back(std::move(x));
  }
  for (Value v : body.getTerminator()->getOperands())
    out.f.returned.push_back(number.lookup(v));
  return out;
}

/// The tensor name of argument `i` or result `r` as tc-split-program names it.
std::string argName(func::FuncOp func, unsigned i) {
  auto attr = func.getArgAttrOfType<StringAttr>(i, TCDialect::getNameAttrName());
  return attr ? attr.str() : "in" + std::to_string(i);
}
std::string resultName(func::FuncOp func, unsigned r) {
  auto attr = func.getResultAttrOfType<StringAttr>(r, TCDialect::getNameAttrName());
  if (attr)
    return attr.str();
  return func.getNumResults() == 1 ? "R" : "R" + std::to_string(r);
}

/// `f` evaluated on `inputs` (its arguments' arrays) and its constants.
std::vector<DenseArray> evaluateOn(const EvalFunctionOf &f, std::vector<DenseArray> inputs) {
  inputs.insert(inputs.end(), f.constants.begin(), f.constants.end());
  return evaluate(f.f, inputs);
}

/// Bounds of the magnitudes `f`'s terms reach: `f` with every coefficient
/// and input element taken absolute (a reciprocal's stays as it is). A
/// rewrite may reorder sums whose terms cancel; their rounding is relative
/// to these, not to the (possibly far smaller) results.
std::vector<DenseArray> termMagnitudes(EvalFunctionOf f, std::vector<DenseArray> inputs) {
  for (EvalFormula &x : f.f.formulas)
    x.scale = std::fabs(x.scale);
  for (std::vector<DenseArray> *arrays : {&inputs, &f.constants})
    for (DenseArray &a : *arrays)
      for (double &v : a.data)
        v = std::fabs(v);
  return evaluateOn(f, std::move(inputs));
}

struct CheckRewritesPass : public tc::impl::CheckRewritesBase<CheckRewritesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> programs;
    // Programs of tc ops not yet planned or split (what the rewrites take).
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal() || f->hasAttr(TCDialect::getStatementAttrName()))
        continue;
      bool tcOps = false, others = false;
      for (Operation &op : f.getBody().front().without_terminator()) {
        tcOps |= isa<ContractOp, MultiContractOp, SumOp>(op);
        others |= !isa<ContractOp, MultiContractOp, SumOp, arith::ConstantOp>(op) ||
                  op.hasAttr(TCDialect::getPlanAttrName()) ||
                  llvm::any_of(op.getResultTypes(), [](Type t) {
                    auto tensor = dyn_cast<RankedTensorType>(t);
                    return tensor && tensor.getEncoding() &&
                           !isa<BlocksAttr>(tensor.getEncoding());
                  });
      }
      if (tcOps && !others)
        programs.push_back(f);
    }
    for (func::FuncOp f : programs)
      if (failed(check(module, f)))
        return signalPassFailure();
  }

  LogicalResult check(ModuleOp module, func::FuncOp func) {
    FailureOr<EvalFunctionOf> before = toEval(func);
    if (failed(before))
      return failure();
    std::vector<DenseArray> inputs;
    std::map<std::string, DenseArray> store;
    for (BlockArgument a : func.getArguments()) {
      inputs.push_back(randomArray(smallShape(a.getType()), a.getArgNumber() + 1));
      store[argName(func, a.getArgNumber())] = inputs.back();
    }
    const std::vector<DenseArray> expected = evaluateOn(*before, inputs);
    const std::vector<DenseArray> magnitudes = termMagnitudes(*before, inputs);

    // The copy: this function alone in a module with the module's attributes,
    // nested in this one while the passes run on it (a dynamic pipeline runs
    // on nested ops only), then erased.
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto copy = ModuleOp::create(b, module.getLoc());
    auto erase = llvm::make_scope_exit([&] { copy.erase(); });
    copy->setAttrs(module->getAttrDictionary());
    b.setInsertionPointToEnd(copy.getBody());
    b.clone(*func.getOperation());
    std::string name = func.getSymName().str();

    MinimizeOperationsOptions minimize;
    minimize.tolerance = tolerance;
    SharePermutedProductsOptions share;
    share.minSummedVolume = minSummedVolume;
    std::pair<const char *, std::unique_ptr<Pass>> stages[] = {
        {"tc-minimize-operations", createMinimizeOperations(minimize)},
        {"tc-share-products", createShareProducts()},
        {"tc-share-permuted-products", createSharePermutedProducts(share)},
        {"tc-split-program", createSplitProgram()},
    };
    for (auto &[pass, created] : stages) {
      OpPassManager pm(ModuleOp::getOperationName());
      pm.addPass(std::move(created));
      if (failed(runPipeline(pm, copy)))
        return failure(); // the pass said why
      std::vector<DenseArray> got;
      if (failed(evaluateRewritten(copy, func, name, store, inputs, got)))
        return failure();
      for (unsigned r = 0; r < expected.size(); ++r) {
        double largest = 0, terms = 0;
        for (double v : expected[r].data)
          largest = std::max(largest, std::fabs(v));
        for (double v : magnitudes[r].data)
          terms = std::max(terms, std::isfinite(v) ? std::fabs(v) : 0.0);
        double diff = maxDifference(expected[r], got[r]);
        if (!(diff <= 1e-9 * std::max({1.0, largest, terms})))
          return func.emitError() << "tc-check-rewrites: " << pass << " changed result '"
                                  << resultName(func, r) << "' of @" << name
                                  << " (largest difference " << diff << ", largest magnitude "
                                  << largest << ", of its terms " << terms
                                  << ", on random arrays of extents at most 3)";
      }
    }
    return success();
  }

  /// The results of `func` as `copy` now computes them: the function itself
  /// while it is one, else its statements run in order by tensor name.
  LogicalResult evaluateRewritten(ModuleOp copy, func::FuncOp func, StringRef name,
                                  const std::map<std::string, DenseArray> &inputsByName,
                                  const std::vector<DenseArray> &inputs,
                                  std::vector<DenseArray> &got) {
    if (auto same = copy.lookupSymbol<func::FuncOp>(name)) {
      FailureOr<EvalFunctionOf> f = toEval(same);
      if (failed(f))
        return failure();
      got = evaluateOn(*f, inputs);
      return success();
    }
    std::vector<EvalStatement> statements;
    for (auto s : copy.getOps<func::FuncOp>()) {
      if (!s->hasAttr(TCDialect::getStatementAttrName()))
        continue;
      FailureOr<EvalFunctionOf> body = toEval(s);
      if (failed(body))
        return failure();
      EvalStatement st;
      for (unsigned i = 0; i < s.getNumArguments(); ++i) {
        const bool ones = static_cast<bool>(s.getArgAttr(i, TCDialect::getOnesAttrName()));
        st.args.push_back(ones ? "" : argName(s, i));
        st.onesShapes.push_back(ones ? smallShape(s.getArgument(i).getType())
                                     : std::vector<int64_t>{});
      }
      // A statement's constants are the ones of its one-tensor and broadcast
      // terms, loaded as "" like its tc.ones arguments; any other would be
      // evaluated as 1.
      for (const DenseArray &c : body->constants) {
        if (llvm::any_of(c.data, [](double x) { return x != 1.0; }))
          return s.emitOpError() << "holds a constant other than ones, which "
                                    "tc-check-rewrites does not run as a statement";
        st.args.push_back("");
        st.onesShapes.push_back(c.shape);
      }
      st.body = body->f;
      st.result = resultName(s, 0);
      st.what = "@" + s.getSymName().str();
      statements.push_back(std::move(st));
    }
    std::map<std::string, DenseArray> store = inputsByName;
    std::string error = runStatements(statements, store);
    if (!error.empty())
      return func.emitError() << "tc-check-rewrites: after tc-split-program " << error;
    got.clear();
    for (unsigned r = 0; r < func.getNumResults(); ++r) {
      auto it = store.find(resultName(func, r));
      if (it == store.end())
        return func.emitError() << "tc-check-rewrites: after tc-split-program no statement "
                                   "stores result '"
                                << resultName(func, r) << "'";
      got.push_back(it->second);
    }
    return success();
  }
};

} // namespace
