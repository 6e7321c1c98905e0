//===- ShareProducts.cpp - the tc-share-products pass ---------------------===//
//
// Common sub-expressions of a program (docs/Derivations.md D35): the same
// product of the same tensors is computed once. Two contractions are the same
// product when they read the same values with the same labels up to renaming
// (result labels by position, summed labels by first appearance) and give the
// same element type: one without an accumulator replaces the other (its value
// then has two readers, so tc-split-program makes it an intermediate); and a
// term accumulated twice into one tensor is accumulated once with the two
// coefficients added (R += 0.125 X; R += 0.125 X is R += 0.25 X).
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tc {
#define GEN_PASS_DEF_SHAREPRODUCTS
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// The labels of a contraction renamed canonically: result label d is "r<d>",
/// every other label "s<n>" in order of first appearance in the inputs.
SmallVector<SmallVector<std::string>> canonicalLabels(ContractOp op) {
  llvm::StringMap<std::string> canonical;
  for (auto [d, l] : llvm::enumerate(op.getResultLabels()))
    canonical[cast<StringAttr>(l).getValue()] = "r" + std::to_string(d);
  SmallVector<SmallVector<std::string>> out;
  for (unsigned i = 0; i < op.getInputs().size(); ++i) {
    SmallVector<std::string> labels;
    for (Attribute l : op.getLabelsOfInput(i)) {
      StringRef name = cast<StringAttr>(l).getValue();
      auto [it, added] = canonical.try_emplace(name, "s" + std::to_string(canonical.size()));
      labels.push_back(it->second);
    }
    out.push_back(labels);
  }
  return out;
}

/// The same product: the same inputs, labels and result type.
bool sameProduct(ContractOp x, ContractOp y) {
  // An inverted copy (tc.reciprocal) is not the product it inverts.
  if (x->hasAttr(TCDialect::getReciprocalAttrName()) ||
      y->hasAttr(TCDialect::getReciprocalAttrName()))
    return false;
  return x.getInputs() == y.getInputs() && x.getResult().getType() == y.getResult().getType() &&
         canonicalLabels(x) == canonicalLabels(y);
}

struct ShareProductsPass : public tc::impl::ShareProductsBase<ShareProductsPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      while (shareFresh(func) || foldTerms(func)) {
      }
    });
  }

  /// A product computed twice without accumulator: the later reads the
  /// earlier's value.
  bool shareFresh(func::FuncOp func) {
    SmallVector<ContractOp> fresh;
    for (auto op : func.getOps<ContractOp>()) {
      // An output stays its own value: later statements read intermediates only.
      if (op.getInit() || returned(op))
        continue;
      for (ContractOp earlier : fresh)
        if (sameProduct(earlier, op) && earlier.getScale() == op.getScale()) {
          op.getResult().replaceAllUsesWith(earlier.getResult());
          op.erase();
          return true;
        }
      fresh.push_back(op);
    }
    return false;
  }

  /// A term accumulated again into the same tensor (its accumulator reached
  /// from the earlier term through values nothing else reads): one term with
  /// the sum of the coefficients.
  bool foldTerms(func::FuncOp func) {
    for (auto later : func.getOps<ContractOp>()) {
      if (!later.getInit())
        continue;
      // Every value between the two terms is read only by the next term: no
      // reader sees the accumulation without the later term.
      Value v = later.getInit();
      while (v.hasOneUse()) {
        auto earlier = v.getDefiningOp<ContractOp>();
        if (!earlier)
          break;
        if (sameProduct(earlier, later)) {
          OpBuilder b(earlier);
          double sum = earlier.getScale().convertToDouble() + later.getScale().convertToDouble();
          earlier.setScaleAttr(b.getF64FloatAttr(sum));
          later.getResult().replaceAllUsesWith(later.getInit());
          later.erase();
          return true;
        }
        if (!earlier.getInit())
          break;
        v = earlier.getInit();
      }
    }
    return false;
  }

  static bool returned(ContractOp op) {
    return llvm::any_of(op.getResult().getUsers(),
                        [](Operation *u) { return isa<func::ReturnOp>(u); });
  }
};

} // namespace
