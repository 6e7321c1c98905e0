//===- TCDialect.cpp - the tc dialect -------------------------------------===//
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Dialect/TCTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tc;

#include "TC/Dialect/TCDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "TC/Dialect/TCTypes.cpp.inc"

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                                ArrayLayoutAttr) {
  if (!elementType.isF32() && !elementType.isF64())
    return emitError() << "!tc.array holds f32 or f64 elements, got " << elementType;
  return success();
}

LogicalResult BlockArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                     RankedTensorType tensorType) {
  if (!isa_and_nonnull<BlocksAttr>(tensorType.getEncoding()))
    return emitError() << "!tc.block_array holds a block-sparse tensor (a #tc.blocks "
                          "encoding), got "
                       << tensorType;
  if (!tensorType.getElementType().isF32() && !tensorType.getElementType().isF64())
    return emitError() << "!tc.block_array holds f32 or f64 elements, got "
                       << tensorType.getElementType();
  return success();
}

void TCDialect::initialize() {
  registerAttributes();
  addTypes<
#define GET_TYPEDEF_LIST
#include "TC/Dialect/TCTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TC/Dialect/TCOps.cpp.inc"
      >();
}

/// `tc.plan` belongs on a binary `tc.contract`, and names only its labels.
static LogicalResult verifyPlanAttribute(Operation *op, Attribute value) {
  auto contract = dyn_cast<ContractOp>(op);
  if (!contract)
    return op->emitOpError() << "'" << TCDialect::getPlanAttrName()
                             << "' belongs on a tc.contract, not on '" << op->getName() << "'";
  auto plan = dyn_cast<PlanAttr>(value);
  if (!plan)
    return op->emitOpError() << "'" << TCDialect::getPlanAttrName()
                             << "' must be a #tc.plan attribute, got " << value;
  auto labelsOf = [](ArrayAttr labels) {
    SmallVector<StringRef> out;
    for (Attribute l : labels)
      out.push_back(cast<StringAttr>(l).getValue());
    return out;
  };
  SmallVector<StringRef> operandLabels[3] = {labelsOf(contract.getLabelsOfInput(0)),
                                             labelsOf(contract.getLabelsOfInput(1)),
                                             labelsOf(contract.getResultLabels())};
  auto emit = [&]() { return op->emitOpError(); };
  if (GridAttr grid = plan.getGrid()) {
    DistAttr dists[3] = {plan.getDistA(), plan.getDistB(), plan.getDistC()};
    const char *names[3] = {"plan dist_a", "plan dist_b", "plan dist_c"};
    for (int i = 0; i < 3; ++i)
      if (dists[i] && failed(verifyDistribution(emit, dists[i], grid, operandLabels[i], names[i])))
        return failure();
  }
  if (ArrayAttr loops = plan.getLoops())
    for (Attribute group : loops)
      for (NamedAttribute loop : cast<DictionaryAttr>(group)) {
        StringRef label = loop.getName().getValue();
        if (!llvm::any_of(operandLabels,
                          [&](ArrayRef<StringRef> ls) { return llvm::is_contained(ls, label); }))
          return op->emitOpError() << "plan tiles label '" << label
                                   << "', which the contraction does not have";
      }
  return success();
}

ArrayRef<StringRef> TCDialect::getStatementMarkNames() {
  static const StringRef names[] = {getMachineAttrName(),      getLoopAttrName(),
                                    getReciprocalAttrName(),   getStatementAttrName(),
                                    getIntermediateAttrName(), getInMemoryAttrName(),
                                    getKeepInputsAttrName()};
  return names;
}

/// Discardable `tc.*` attributes on other ops: `tc.machine` belongs on a module
/// (or on a function planned for its own process count, tc-specialize-procs)
/// and must hold a #tc.machine.
LogicalResult TCDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == getMachineAttrName()) {
    if (!isa<ModuleOp, func::FuncOp>(op))
      return op->emitOpError() << "'" << getMachineAttrName()
                               << "' belongs on a builtin.module or a func.func, not on '"
                               << op->getName() << "'";
    if (!isa<MachineAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getMachineAttrName()
                               << "' must be a #tc.machine attribute, got "
                               << attr.getValue();
    return success();
  }
  if (attr.getName() == getPlanAttrName())
    return verifyPlanAttribute(op, attr.getValue());
  if (attr.getName() == getLoopAttrName()) {
    if (!isa<func::FuncOp>(op))
      return op->emitOpError() << "'" << getLoopAttrName() << "' belongs on a func.func, not on '"
                               << op->getName() << "'";
    if (!isa<LoopAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getLoopAttrName() << "' must be a #tc.loop attribute, got "
                               << attr.getValue();
    return success();
  }
  if (attr.getName() == getFusionAttrName()) {
    if (!isa<ContractOp, SumOp>(op))
      return op->emitOpError() << "'" << getFusionAttrName()
                               << "' belongs on a tc.contract or tc.sum, not on '"
                               << op->getName() << "'";
    if (!isa<FusionAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getFusionAttrName()
                               << "' must be a #tc.fusion attribute, got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getBlockPlanAttrName()) {
    if (!isa<ContractOp>(op))
      return op->emitOpError() << "'" << getBlockPlanAttrName()
                               << "' belongs on a tc.contract, not on '" << op->getName() << "'";
    if (!isa<BlockPlanAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getBlockPlanAttrName()
                               << "' must be a #tc.block_plan attribute, got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getFusionPlanAttrName()) {
    if (!isa<FusionPlanAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getFusionPlanAttrName()
                               << "' must be a #tc.fusion_plan attribute, got "
                               << attr.getValue();
    return success();
  }
  if (attr.getName() == getFlopsAttrName()) {
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    auto isCount = [&](StringRef key) {
      auto f = dict ? dict.getAs<FloatAttr>(key) : FloatAttr();
      return f && f.getValueAsDouble() >= 0;
    };
    if (!isa<ContractOp>(op) || !dict || dict.size() != 2 || !isCount("before") ||
        !isCount("after"))
      return op->emitOpError() << "'" << getFlopsAttrName()
                               << "' is {before = F, after = F} (non-negative flop counts) "
                                  "on a tc.contract";
    return success();
  }
  if (attr.getName() == getNameAttrName()) {
    if (!isa<ContractOp, SumOp, MultiContractOp>(op) || !isa<StringAttr>(attr.getValue()) ||
        cast<StringAttr>(attr.getValue()).empty())
      return op->emitOpError() << "'" << getNameAttrName()
                               << "' is a non-empty string on a tc.contract, tc.sum or "
                                  "tc.multi_contract (on arguments and results it names "
                                  "datasets)";
    return success();
  }
  if (attr.getName() == getProgramPartAttrName()) {
    if (!isa<func::FuncOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getProgramPartAttrName()
                               << "' is a string on a func.func (the program it is a part of)";
    return success();
  }
  if (attr.getName() == getStatementAttrName()) {
    if (!isa<func::FuncOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getStatementAttrName()
                               << "' is a string on a func.func";
    return success();
  }
  if (attr.getName() == getInMemoryAttrName()) {
    if (!isa<func::FuncOp>(op) || !isa<UnitAttr>(attr.getValue()) ||
        !op->hasAttr(getIntermediateAttrName()))
      return op->emitOpError() << "'" << getInMemoryAttrName()
                               << "' is a unit attribute on a func.func with '"
                               << getIntermediateAttrName() << "'";
    return success();
  }
  if (attr.getName() == getKeepInputsAttrName()) {
    if (!isa<func::FuncOp>(op) || !isa<UnitAttr>(attr.getValue()) ||
        !op->hasAttr(getStatementAttrName()))
      return op->emitOpError() << "'" << getKeepInputsAttrName()
                               << "' is a unit attribute on a func.func with '"
                               << getStatementAttrName() << "'";
    return success();
  }
  if (attr.getName() == getReciprocalAttrName()) {
    // A copy (X times a scalar of ones, coefficient 1, nothing accumulated),
    // or the statement function made of one.
    auto copy = dyn_cast<ContractOp>(op);
    bool isCopy = copy && copy.getInputs().size() == 2 && !copy.getInit() &&
                  copy.getScale().convertToDouble() == 1.0 &&
                  cast<RankedTensorType>(copy.getInputs()[1].getType()).getRank() == 0;
    if ((!isCopy && !isa<func::FuncOp>(op)) || !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getReciprocalAttrName()
                               << "' is a unit attribute on a tc.contract that copies a tensor "
                                  "(its product with a scalar, coefficient 1, no accumulator) "
                                  "or on a func.func";
    return success();
  }
  if (attr.getName() == getIntermediateAttrName()) {
    if (!isa<func::FuncOp>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << getIntermediateAttrName()
                               << "' is a unit attribute on a func.func";
    return success();
  }
  return op->emitOpError() << "unknown tc attribute '" << attr.getName().getValue()
                           << "'; tc defines only '" << getMachineAttrName() << "', '"
                           << getPlanAttrName() << "', '" << getFusionAttrName() << "', '"
                           << getFusionPlanAttrName() << "', '" << getBlockPlanAttrName() << "', '"
                           << getFlopsAttrName() << "', '" << getNameAttrName() << "', '"
                           << getStatementAttrName() << "', '" << getIntermediateAttrName()
                           << "', '" << getLoopAttrName() << "', '" << getProgramPartAttrName()
                           << "', '" << getReciprocalAttrName() << "', '" << getInMemoryAttrName()
                           << "' and '" << getKeepInputsAttrName() << "' as discardable attributes";
}
