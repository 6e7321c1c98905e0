//===- MinimizeOperations.cpp - the tc-minimize-operations pass -----------===//
//
// Operation minimization (docs/Derivations.md D34): every tc.multi_contract
// becomes the cheapest tree of tc.contract ops that lib/Analysis's exact
// search finds; this pass only translates between the IR and that search.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/BlockSparse.h"
#include "TC/Analysis/OperationMinimization.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tc {
#define GEN_PASS_DEF_MINIMIZEOPERATIONS
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

struct MinimizeOperationsPass
    : public tc::impl::MinimizeOperationsBase<MinimizeOperationsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<MultiContractOp> ops;
    getOperation().walk([&](MultiContractOp op) { ops.push_back(op); });
    for (MultiContractOp op : ops)
      if (failed(minimize(op)))
        return signalPassFailure();
  }

  LogicalResult minimize(MultiContractOp op) {
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    // Block-sparse: every operand is (the verifier's rule); each intermediate
    // holds the blocks its factors can make non-zero.
    const bool blockSparse = static_cast<bool>(resultType.getEncoding());
    std::vector<std::vector<int64_t>> labelSegments;
    // Labels numbered in order of first appearance: inputs, then the result.
    std::vector<std::string> names;
    ProductProblem problem;
    auto idOf = [&](StringRef label, int64_t extent) {
      auto it = std::find(names.begin(), names.end(), label.str());
      if (it != names.end())
        return static_cast<int>(it - names.begin());
      names.push_back(label.str());
      problem.extents.push_back(static_cast<double>(extent));
      return static_cast<int>(names.size() - 1);
    };
    std::vector<BlockPresence> presences;
    for (auto [i, input] : llvm::enumerate(op.getInputs())) {
      auto type = cast<RankedTensorType>(input.getType());
      std::vector<int> labels;
      for (auto [d, label] : llvm::enumerate(op.getLabelsOfInput(i)))
        labels.push_back(idOf(cast<StringAttr>(label).getValue(), type.getShape()[d]));
      problem.operands.push_back(labels);
      if (blockSparse) {
        BlockSparseShape shape = cast<BlocksAttr>(type.getEncoding()).toShape();
        labelSegments.resize(names.size());
        for (auto [d, l] : llvm::enumerate(labels))
          labelSegments[l] = shape.segments[d];
        presences.push_back(shape.presence);
      }
    }
    for (auto [d, label] : llvm::enumerate(op.getResultLabels()))
      problem.result.push_back(idOf(cast<StringAttr>(label).getValue(), resultType.getShape()[d]));
    ProductTree tree = minimizeOperations(problem, tolerance);
    if (!tree.error.empty())
      return op.emitOpError() << tree.error;

    OpBuilder b(op);
    Builder &attrs = b;
    auto labelAttr = [&](const std::vector<int> &labels) {
      SmallVector<StringRef> strs;
      for (int l : labels)
        strs.push_back(names[l]);
      return attrs.getStrArrayAttr(strs);
    };
    // Values and labels of the operands, then of each step's result.
    SmallVector<Value> values(op.getInputs().begin(), op.getInputs().end());
    std::vector<std::vector<int>> labelsOf = problem.operands;
    Value result;
    for (size_t k = 0; k < tree.steps.size(); ++k) {
      const ProductStep &step = tree.steps[k];
      const bool last = k + 1 == tree.steps.size();
      SmallVector<int64_t> shape;
      for (int l : step.labels)
        shape.push_back(static_cast<int64_t>(problem.extents[l]));
      Attribute blocks;
      if (blockSparse && !last) {
        BlockSparseShape stepShape;
        for (int l : step.labels)
          stepShape.segments.push_back(labelSegments[l]);
        const std::vector<BlockFactor> factors = {{labelsOf[step.lhs], presences[step.lhs]},
                                                  {labelsOf[step.rhs], presences[step.rhs]}};
        stepShape.presence = simplestPresence(stepShape.segments,
                                              productBlocks(labelSegments, factors, step.labels));
        // A product of spin-restricted tensors is restricted (and a
        // restricted result's operands must be).
        stepShape.presence.flip = productFlip(factors, step.labels);
        // And the pair symmetries one factor gives it.
        stepShape.presence.pairs = productPairs(factors, step.labels, stepShape);
        presences.push_back(stepShape.presence);
        blocks = BlocksAttr::fromShape(op.getContext(), stepShape);
      }
      Type type = last ? Type(resultType)
                       : Type(RankedTensorType::get(shape, resultType.getElementType(), blocks));
      auto contract = ContractOp::create(
          b, op.getLoc(), type, ValueRange{values[step.lhs], values[step.rhs]},
          last ? op.getInit() : Value(),
          attrs.getArrayAttr({labelAttr(labelsOf[step.lhs]), labelAttr(labelsOf[step.rhs])}),
          labelAttr(step.labels), last ? scaleAttr(op) : FloatAttr());
      if (last) {
        // The product's coefficient and name are the last contraction's.
        if (Attribute name = op->getAttr(TCDialect::getNameAttrName()))
          contract->setAttr(TCDialect::getNameAttrName(), name);
        contract->setAttr(
            TCDialect::getFlopsAttrName(),
            attrs.getDictionaryAttr(
                {attrs.getNamedAttr("before", attrs.getF64FloatAttr(directFlops(problem))),
                 attrs.getNamedAttr("after", attrs.getF64FloatAttr(tree.flops))}));
      }
      values.push_back(contract.getResult());
      labelsOf.push_back(step.labels);
      result = contract.getResult();
    }
    op.getResult().replaceAllUsesWith(result);
    op.erase();
    return success();
  }
};

} // namespace
