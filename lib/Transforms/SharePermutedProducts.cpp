//===- SharePermutedProducts.cpp - the tc-share-permuted-products pass ----===//
//
// An antisymmetrizer expands one term into copies whose indices are exchanged
// (P(ij) t = t - t', docs/TCELanguage.md): t' reads the same tensors as t with
// two result labels swapped, so it is t's product read in another order of its
// dimensions. Computed as written, coupled-cluster's P(ij) P(ab) T2 * W term
// does its contraction four times. Here the product is computed once, into a
// fresh value, and each copy adds it in its order (docs/Derivations.md D48).
//
//===----------------------------------------------------------------------===//
#include "PlanProblems.h"
#include "ProgramCopies.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir::tc {
#define GEN_PASS_DEF_SHAREPERMUTEDPRODUCTS
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

SmallVector<StringRef> labelsOf(ArrayAttr labels) {
  return llvm::to_vector(labels.getAsValueRange<StringAttr>());
}

/// True if `v` is a tensor the program names (an input, or a statement's
/// result): not an inner product of tc-minimize-operations' trees, which
/// sharing the tree's last product would fold into one fused statement.
bool named(Value v) {
  Operation *def = v.getDefiningOp();
  return !def || def->hasAttr(TCDialect::getNameAttrName());
}

/// A contraction worth sharing: two named inputs that are not a scalar (a
/// product with one is a copy, as cheap as the copy that would replace it),
/// summing at least `minSummed` terms per element; dense, or block-sparse
/// (a copy's task pool then reads each block of the product permuted). Fewer cost
/// about what adding the result in another order does (a permuted copy, a
/// hand-over and a statement of its own): at 2 flops per term and tens of
/// GFLOP/s, the default 32 take a few ns per element, a strided copy one or two.
bool shareable(ContractOp op, int64_t minSummed) {
  if (op.getInputs().size() != 2 || op->hasAttr(TCDialect::getReciprocalAttrName()) ||
      !llvm::all_of(op.getInputs(), named))
    return false;
  auto result = cast<RankedTensorType>(op.getResult().getType());
  const bool blocks = isa_and_nonnull<BlocksAttr>(result.getEncoding());
  if (result.getEncoding() && !blocks)
    return false;
  SmallVector<StringRef> resultLabels = labelsOf(op.getResultLabels());
  int64_t summed = 1;
  llvm::StringMap<bool> seen;
  for (unsigned i = 0; i < 2; ++i) {
    auto type = cast<RankedTensorType>(op.getInputs()[i].getType());
    if (type.getRank() == 0 || isa_and_nonnull<BlocksAttr>(type.getEncoding()) != blocks ||
        (type.getEncoding() && !blocks))
      return false;
    for (auto [d, l] : llvm::enumerate(labelsOf(op.getLabelsOfInput(i))))
      if (!llvm::is_contained(resultLabels, l) && seen.try_emplace(l, true).second)
        summed *= type.getDimSize(d);
  }
  return summed >= minSummed;
}

/// The renaming sigma of `from`'s labels into `to`'s that turns from's inputs'
/// labels into to's position by position, when the two read the same values
/// into the same element type and sigma maps result labels onto result labels
/// (so to's product is from's with its dimensions reordered): from's result
/// labels renamed by sigma, in from's order.
std::optional<SmallVector<StringRef>> permutedResult(ContractOp from, ContractOp to) {
  if (from.getInputs() != to.getInputs() || getElementTypeOrSelf(from.getResult().getType()) !=
                                                getElementTypeOrSelf(to.getResult().getType()))
    return std::nullopt;
  llvm::StringMap<StringRef> sigma, inverse;
  for (unsigned i = 0; i < 2; ++i) {
    SmallVector<StringRef> x = labelsOf(from.getLabelsOfInput(i)),
                           y = labelsOf(to.getLabelsOfInput(i));
    for (auto [l, m] : llvm::zip_equal(x, y)) {
      auto [it, added] = sigma.try_emplace(l, m);
      auto [back, addedBack] = inverse.try_emplace(m, l);
      if (it->second != m || back->second != l) // not a function, or not one-to-one
        return std::nullopt;
    }
  }
  SmallVector<StringRef> fromResult = labelsOf(from.getResultLabels()),
                         toResult = labelsOf(to.getResultLabels());
  SmallVector<StringRef> renamed;
  for (StringRef l : fromResult) {
    auto it = sigma.find(l);
    if (it == sigma.end() || !llvm::is_contained(toResult, it->second))
      return std::nullopt;
    renamed.push_back(it->second);
  }
  // Summed labels stay summed: every result label of `to` is an image.
  for (StringRef l : toResult)
    if (!llvm::is_contained(renamed, l))
      return std::nullopt;
  return renamed;
}

struct SharePermutedProductsPass
    : public tc::impl::SharePermutedProductsBase<SharePermutedProductsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      while (shareOneGroup(func)) {
      }
    });
  }

  /// The first contraction whose product a later one reads in another order:
  /// the product computed once before it, and each of them (it included)
  /// adding that value in its own order. False when there is none.
  bool shareOneGroup(func::FuncOp func) {
    SmallVector<ContractOp> candidates;
    for (auto op : func.getOps<ContractOp>())
      if (shareable(op, minSummedVolume))
        candidates.push_back(op);
    for (size_t f = 0; f < candidates.size(); ++f) {
      ContractOp first = candidates[f];
      SmallVector<std::pair<ContractOp, SmallVector<StringRef>>> group;
      for (size_t m = f; m < candidates.size(); ++m)
        if (auto order = permutedResult(first, candidates[m]))
          group.emplace_back(candidates[m], *order);
      if (group.size() < 2)
        continue;
      share(first, group);
      return true;
    }
    return false;
  }

  void share(ContractOp first, ArrayRef<std::pair<ContractOp, SmallVector<StringRef>>> group) {
    OpBuilder b(first);
    // The product has the result's blocks and spin restriction, not its pair
    // symmetries (those hold of the copies' sum, not of one product): the
    // pairs one of its factors gives it, where its blocks allow them.
    auto type = cast<RankedTensorType>(first.getResult().getType());
    if (auto blocks = dyn_cast_or_null<BlocksAttr>(type.getEncoding())) {
      BlockSparseShape shape = blocks.toShape();
      const BlockContraction problem = buildBlockContraction(first);
      shape.presence.pairs =
          productPairs({{problem.aLabels, problem.aPresence}, {problem.bLabels, problem.bPresence}},
                       problem.cLabels, shape);
      type = RankedTensorType::get(type.getShape(), type.getElementType(),
                                   BlocksAttr::fromShape(type.getContext(), shape));
    }
    auto product = ContractOp::create(b, first.getLoc(), type, first.getInputs(), Value(),
                                      first.getInputLabels(), first.getResultLabels(), FloatAttr());
    // The product's flops before and after tc-minimize-operations, reported once.
    if (Attribute flops = first->getAttr(TCDialect::getFlopsAttrName()))
      product->setAttr(TCDialect::getFlopsAttrName(), flops);
    for (auto [member, order] : group) {
      ContractOp op = member;
      b.setInsertionPoint(op);
      Type elem = type.getElementType();
      RankedTensorType scalar = onesTypeFor(type); // block-sparse with a block-sparse product
      Value one = arith::ConstantOp::create(
          b, op.getLoc(), DenseElementsAttr::get(scalar, b.getFloatAttr(elem, 1.0).getValue()));
      auto copy = ContractOp::create(b, op.getLoc(), op.getResult().getType(),
                                     ValueRange{product.getResult(), one}, op.getInit(),
                                     b.getArrayAttr({b.getStrArrayAttr(order), b.getArrayAttr({})}),
                                     op.getResultLabels(), op.getScaleAttr());
      if (Attribute name = op->getAttr(TCDialect::getNameAttrName()))
        copy->setAttr(TCDialect::getNameAttrName(), name);
      op.getResult().replaceAllUsesWith(copy.getResult());
      op.erase();
    }
  }
};

} // namespace
