//===- TCOps.cpp - tc operations ------------------------------------------===//
#include "TC/Dialect/TCOps.h"

#include "TC/Analysis/IndexSpace.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tc;

//===----------------------------------------------------------------------===//
// Label lists: `[a, b, c]`
//===----------------------------------------------------------------------===//

static ParseResult parseLabels(OpAsmParser &parser, ArrayAttr &labels) {
  SmallVector<Attribute> names;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        StringRef name;
        if (parser.parseKeyword(&name))
          return failure();
        names.push_back(parser.getBuilder().getStringAttr(name));
        return success();
      }))
    return failure();
  labels = parser.getBuilder().getArrayAttr(names);
  return success();
}

static void printLabels(OpAsmPrinter &printer, Operation *, ArrayAttr labels) {
  printer << "[";
  llvm::interleaveComma(labels, printer, [&](Attribute a) {
    printer << cast<StringAttr>(a).getValue();
  });
  printer << "]";
}

static SmallVector<StringRef> labelStrings(ArrayAttr labels) {
  return llvm::map_to_vector(labels, [](Attribute a) {
    return cast<StringAttr>(a).getValue();
  });
}

static LabeledShape labeledShape(ArrayAttr labels, Type type) {
  LabeledShape shape;
  for (StringRef l : labelStrings(labels))
    shape.labels.push_back(l.str());
  for (int64_t d : cast<RankedTensorType>(type).getShape())
    shape.extents.push_back(ShapedType::isDynamic(d) ? kDynamicExtent : d);
  return shape;
}

IndexSpaceOrError tc::computeIndexSpace(TypeRange inputTypes,
                                            ArrayAttr inputLabels,
                                            ArrayAttr resultLabels,
                                            Type resultType) {
  std::vector<LabeledShape> inputs;
  for (auto [labels, type] : llvm::zip_equal(inputLabels, inputTypes))
    inputs.push_back(labeledShape(cast<ArrayAttr>(labels), type));
  return buildIndexSpace(inputs, labeledShape(resultLabels, resultType));
}

static bool isSupportedElementType(Type t) { return t.isF32() || t.isF64(); }

//===----------------------------------------------------------------------===//
// Labeled ops (contract, sum, multi_contract): shared syntax and verifier
//===----------------------------------------------------------------------===//

/// [%init] [labels] (`+=` | `=`) %in[labels] (`*` %in[labels])* attr-dict
///   `:` type (`,` type)* `->` type
template <typename OpTy>
static ParseResult parseLabeledOp(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  OpAsmParser::UnresolvedOperand init;
  OptionalParseResult hasInitResult = parser.parseOptionalOperand(init);
  bool hasInit = hasInitResult.has_value();
  if (hasInit && failed(*hasInitResult))
    return failure();
  ArrayAttr resultLabels;
  if (parseLabels(parser, resultLabels))
    return failure();
  SMLoc assignLoc = parser.getCurrentLocation();
  bool accumulate = succeeded(parser.parseOptionalPlus());
  if (parser.parseEqual())
    return failure();
  if (accumulate != hasInit)
    return parser.emitError(assignLoc)
           << (hasInit ? "an accumulator %C[...] must be followed by '+='"
                       : "'+=' needs an accumulator: write %C[...] += ...");

  // An optional coefficient: `0.5 * %A[...] * ...`.
  double scale = 1.0;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  SmallVector<Attribute> inputLabels;
  OptionalParseResult first = parser.parseOptionalOperand(inputs.emplace_back());
  if (first.has_value() && failed(*first))
    return failure();
  if (!first.has_value() &&
      (parser.parseFloat(scale) || parser.parseStar() || parser.parseOperand(inputs.back())))
    return failure();
  do {
    if (inputLabels.size() == inputs.size() && parser.parseOperand(inputs.emplace_back()))
      return failure();
    ArrayAttr labels;
    if (parseLabels(parser, labels))
      return failure();
    inputLabels.push_back(labels);
  } while (succeeded(parser.parseOptionalStar()));

  SmallVector<Type> inputTypes;
  Type resultType;
  SMLoc typesLoc;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typesLoc) || parser.parseTypeList(inputTypes) ||
      parser.parseArrow() || parser.parseType(resultType))
    return failure();
  if (inputTypes.size() != inputs.size())
    return parser.emitError(typesLoc)
           << inputs.size() << " input" << (inputs.size() == 1 ? "" : "s")
           << " but " << inputTypes.size() << " input type"
           << (inputTypes.size() == 1 ? "" : "s");
  if (parser.resolveOperands(inputs, inputTypes, typesLoc, result.operands) ||
      (hasInit && parser.resolveOperand(init, resultType, result.operands)))
    return failure();
  result.addTypes(resultType);

  auto &props = result.getOrAddProperties<typename OpTy::Properties>();
  props.input_labels = b.getArrayAttr(inputLabels);
  props.result_labels = resultLabels;
  if (scale != 1.0)
    props.scale = b.getF64FloatAttr(scale);
  props.operandSegmentSizes = {static_cast<int32_t>(inputs.size()),
                               static_cast<int32_t>(hasInit)};
  return success();
}

template <typename OpTy>
static void printLabeledOp(OpTy op, OpAsmPrinter &p) {
  p << ' ';
  if (Value init = op.getInit())
    p << init;
  printLabels(p, op, op.getResultLabels());
  p << (op.getInit() ? " += " : " = ");
  if (op.getScale().convertToDouble() != 1.0) {
    p.printFloat(op.getScale());
    p << " * ";
  }
  llvm::interleave(
      llvm::seq<unsigned>(0, op.getInputs().size()), p,
      [&](unsigned i) {
        p << op.getInputs()[i];
        printLabels(p, op, op.getLabelsOfInput(i));
      },
      " * ");
  p.printOptionalAttrDict(op->getAttrs(),
                          {"input_labels", "result_labels", "operandSegmentSizes", "scale"});
  p << " : ";
  llvm::interleaveComma(op.getInputs().getTypes(), p);
  p << " -> " << op.getResult().getType();
}

/// Block-sparse operands (#tc.blocks): all or none, a label cut into the same
/// segments wherever it appears (and flipped alike where spin-restricted),
/// and a restricted result computed from restricted operands only (a scalar
/// has nothing to flip): only then is it unchanged by flipping every spin.
template <typename OpTy>
static LogicalResult verifyBlocks(OpTy op) {
  SmallVector<std::pair<Type, ArrayAttr>> operands;
  for (auto [i, type] : llvm::enumerate(op.getInputs().getTypes()))
    operands.push_back({type, op.getLabelsOfInput(i)});
  operands.push_back({op.getResult().getType(), op.getResultLabels()});
  auto name = [&](size_t i) {
    return i + 1 == operands.size() ? std::string("the result")
                                    : "input #" + std::to_string(i);
  };
  auto blocksOf = [](Type t) {
    return dyn_cast_or_null<BlocksAttr>(cast<RankedTensorType>(t).getEncoding());
  };
  const bool sparse = static_cast<bool>(blocksOf(operands.front().first));
  llvm::StringMap<std::pair<SmallVector<int64_t>, size_t>> segmentsOf;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    BlocksAttr blocks = blocksOf(operand.first);
    if (static_cast<bool>(blocks) != sparse)
      return op.emitOpError() << "either every operand is block-sparse (#tc.blocks) or none is: "
                              << name(sparse ? i : 0) << " is not";
    if (!blocks)
      continue;
    for (auto [d, label] : llvm::enumerate(operand.second)) {
      StringRef l = cast<StringAttr>(label).getValue();
      SmallVector<int64_t> segments = blocks.getSegments(d);
      auto [it, added] = segmentsOf.try_emplace(l, segments, i);
      if (!added && it->second.first != segments) {
        InFlightDiagnostic diag = op.emitOpError() << "label '" << l << "' has segments [";
        llvm::interleaveComma(it->second.first, diag);
        diag << "] in " << name(it->second.second) << " but [";
        llvm::interleaveComma(segments, diag);
        return diag << "] in " << name(i);
      }
    }
  }
  if (!sparse)
    return success();
  const BlockSparseShape resultShape = blocksOf(operands.back().first).toShape();
  llvm::StringMap<std::pair<std::vector<int64_t>, size_t>> flipOf;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    const BlockSparseShape shape = blocksOf(operand.first).toShape();
    if (resultShape.presence.restricted() && shape.rank() > 0 && !shape.presence.restricted())
      return op.emitOpError() << "the result is spin-restricted (#tc.blocks flip) but " << name(i)
                              << " is not: its flipped blocks need not equal it";
    if (!shape.presence.restricted())
      continue;
    for (auto [d, label] : llvm::enumerate(operand.second)) {
      StringRef l = cast<StringAttr>(label).getValue();
      auto [it, added] = flipOf.try_emplace(l, shape.presence.flip[d], i);
      if (!added && it->second.first != shape.presence.flip[d])
        return op.emitOpError() << "label '" << l << "' flips its segments one way in "
                                << name(it->second.second) << " and another in " << name(i);
    }
  }
  return success();
}

/// Checks what every labeled op must satisfy; `minInputs`/`maxInputs` bound the
/// number of inputs (maxInputs = 0: unbounded).
template <typename OpTy>
static LogicalResult verifyLabeledOp(OpTy op, unsigned minInputs,
                                     unsigned maxInputs) {
  unsigned n = op.getInputs().size();
  if (n < minInputs || (maxInputs && n > maxInputs)) {
    InFlightDiagnostic d = op.emitOpError() << "takes ";
    if (minInputs == maxInputs)
      d << minInputs;
    else
      d << "at least " << minInputs;
    return d << " input" << (minInputs == 1 ? "" : "s") << ", got " << n;
  }
  if (op.getInputLabels().size() != n)
    return op.emitOpError() << "has " << n << " inputs but "
                            << op.getInputLabels().size() << " label lists";

  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Type elementType = resultType.getElementType();
  if (!isSupportedElementType(elementType))
    return op.emitOpError() << "result has element type " << elementType
                            << "; tc supports f32 and f64";
  for (auto [i, type] : llvm::enumerate(op.getInputs().getTypes())) {
    Type et = cast<RankedTensorType>(type).getElementType();
    if (et != elementType)
      return op.emitOpError() << "input #" << i << " has element type " << et
                              << " but the result has " << elementType;
  }
  if (Value init = op.getInit(); init && init.getType() != resultType)
    return op.emitOpError() << "accumulator type " << init.getType()
                            << " differs from result type " << resultType;

  IndexSpaceOrError space =
      computeIndexSpace(op.getInputs().getTypes(), op.getInputLabels(),
                        op.getResultLabels(), resultType);
  if (!space)
    return op.emitOpError() << space.error;
  return verifyBlocks(op);
}

#define TC_LABELED_OP_SYNTAX(OpTy)                                             \
  ParseResult OpTy::parse(OpAsmParser &parser, OperationState &result) {      \
    return parseLabeledOp<OpTy>(parser, result);                               \
  }                                                                            \
  void OpTy::print(OpAsmPrinter &p) { printLabeledOp(*this, p); }

TC_LABELED_OP_SYNTAX(ContractOp)
TC_LABELED_OP_SYNTAX(SumOp)
TC_LABELED_OP_SYNTAX(MultiContractOp)
#undef TC_LABELED_OP_SYNTAX

LogicalResult ContractOp::verify() { return verifyLabeledOp(*this, 2, 2); }
LogicalResult SumOp::verify() { return verifyLabeledOp(*this, 1, 1); }
LogicalResult MultiContractOp::verify() { return verifyLabeledOp(*this, 2, 0); }

//===----------------------------------------------------------------------===//
// RedistributeOp
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// tc.iterate
//===----------------------------------------------------------------------===//

// tc.iterate [max] N [until result K converges to TOL]
//            [with (%arg = %init, ...)] -> (types) { body } [attr-dict]
ParseResult IterateOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  const bool bounded = succeeded(parser.parseOptionalKeyword("max"));
  int64_t max = 0;
  if (parser.parseInteger(max))
    return failure();
  result.addAttribute(getMaxAttrName(result.name), b.getI64IntegerAttr(max));
  if (bounded) {
    int64_t converge = 0;
    double tolerance = 0;
    if (parser.parseKeyword("until") || parser.parseKeyword("result") ||
        parser.parseInteger(converge) || parser.parseKeyword("converges") ||
        parser.parseKeyword("to") || parser.parseFloat(tolerance))
      return failure();
    result.addAttribute(getConvergeAttrName(result.name), b.getI64IntegerAttr(converge));
    result.addAttribute(getToleranceAttrName(result.name), b.getF64FloatAttr(tolerance));
  }
  if (succeeded(parser.parseOptionalKeyword("diis"))) {
    int64_t diis = 0;
    if (parser.parseInteger(diis))
      return failure();
    result.addAttribute(getDiisAttrName(result.name), b.getI64IntegerAttr(diis));
  }
  SmallVector<OpAsmParser::Argument> carried;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  if (succeeded(parser.parseOptionalKeyword("with")) && parser.parseAssignmentList(carried, inits))
    return failure();
  SmallVector<Type> types;
  if (parser.parseArrowTypeList(types))
    return failure();
  if (carried.size() > types.size())
    return parser.emitError(parser.getCurrentLocation())
           << "tc.iterate carries " << carried.size() << " tensors but has " << types.size()
           << " results";
  for (auto [arg, type] : llvm::zip(carried, types))
    arg.type = type;
  if (parser.resolveOperands(inits, ArrayRef(types).take_front(carried.size()), parser.getNameLoc(),
                             result.operands))
    return failure();
  result.addTypes(types);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, carried) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return success();
}

void IterateOp::print(OpAsmPrinter &p) {
  if (getConverge()) {
    p << " max " << getMax() << " until result " << *getConverge() << " converges to ";
    p.printFloat(*getTolerance());
  } else
    p << " " << getMax();
  if (getDiis())
    p << " diis " << *getDiis();
  if (!getInits().empty()) {
    p << " with (";
    llvm::interleaveComma(llvm::zip(getBodyBlock().getArguments(), getInits()), p,
                          [&](auto pair) { p << std::get<0>(pair) << " = " << std::get<1>(pair); });
    p << ")";
  }
  p << " -> (" << getResultTypes() << ") ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getMaxAttrName(), getConvergeAttrName(), getToleranceAttrName(), getDiisAttrName()});
}

YieldOp IterateOp::getYield() { return cast<YieldOp>(getBodyBlock().getTerminator()); }

LogicalResult IterateOp::verify() {
  Block &body = getBodyBlock();
  const size_t carried = getInits().size();
  if (body.getNumArguments() != carried)
    return emitOpError() << "has " << body.getNumArguments() << " block arguments for its "
                         << carried << " carried tensors";
  if (carried > getNumResults())
    return emitOpError() << "carries " << carried << " tensors but has " << getNumResults()
                         << " results (each carried tensor is a result)";
  for (size_t i = 0; i < carried; ++i)
    if (getInits()[i].getType() != getResult(i).getType() ||
        body.getArgument(i).getType() != getResult(i).getType())
      return emitOpError() << "carried tensor " << i << " has types " << getInits()[i].getType()
                           << " (before the loop), " << body.getArgument(i).getType()
                           << " (in it) and " << getResult(i).getType()
                           << " (after it); they must match";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "body must end with tc.yield";
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError() << "yields " << yield.getValues().getTypes()
                               << " but the tc.iterate has results " << getResultTypes();
  if (getConverge().has_value() != getTolerance().has_value())
    return emitOpError() << "takes 'converge' and 'tolerance' together";
  if (std::optional<uint64_t> k = getConverge()) {
    if (*k >= getNumResults())
      return emitOpError() << "converges on result " << *k << " but has " << getNumResults()
                           << " results";
    if (cast<RankedTensorType>(getResult(*k).getType()).getRank() != 0)
      return emitOpError() << "converges on result " << *k << ", of type "
                           << getResult(*k).getType() << "; a loop converges on a scalar "
                           << "(a tensor of rank 0)";
    if (!(getTolerance()->convertToDouble() > 0))
      return emitOpError() << "tolerance must be positive";
  }
  if (std::optional<uint64_t> n = getDiis()) {
    if (static_cast<int64_t>(*n) < 2)
      return emitOpError() << "diis " << static_cast<int64_t>(*n)
                           << ": extrapolation needs at least 2 iterations' values";
    if (carried == 0)
      return emitOpError() << "diis extrapolates the tensors a loop carries; this one carries none";
  }
  return success();
}

LogicalResult RedistributeOp::verify() {
  auto type = cast<RankedTensorType>(getSource().getType());
  if (!isSupportedElementType(type.getElementType()))
    return emitOpError() << "source has element type " << type.getElementType()
                         << "; tc supports f32 and f64";
  LabeledShape shape = labeledShape(getLabels(), type);
  std::string error = checkLabeledShape(shape, "source");
  if (!error.empty())
    return emitOpError() << error;
  SmallVector<StringRef> labels = labelStrings(getLabels());
  auto emit = [&]() { return emitOpError(); };
  if (failed(verifyDistribution(emit, getFrom(), getGrid(), labels, "'from' distribution")) ||
      failed(verifyDistribution(emit, getTo(), getGrid(), labels, "'to' distribution")))
    return failure();
  return success();
}

OpFoldResult RedistributeOp::fold(FoldAdaptor) {
  // Redist(X, d, d) = 0 (Gao et al. section 2.3): nothing moves.
  if (getFrom() == getTo())
    return getSource();
  return {};
}

#define GET_OP_CLASSES
#include "TC/Dialect/TCOps.cpp.inc"
