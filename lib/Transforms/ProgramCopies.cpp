//===- ProgramCopies.cpp - a tensor copied as a contraction ---------------===//
#include "ProgramCopies.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

bool mlir::tc::isOnes(Value v) {
  DenseElementsAttr data;
  if (!matchPattern(v, m_Constant(&data)) || !data.isSplat())
    return false;
  auto f = dyn_cast<FloatAttr>(data.getSplatValue<Attribute>());
  return f && f.getValueAsDouble() == 1.0;
}

RankedTensorType mlir::tc::onesTypeFor(RankedTensorType type) {
  Attribute blocks;
  if (isa_and_nonnull<BlocksAttr>(type.getEncoding()))
    blocks = BlocksAttr::fromShape(type.getContext(), BlockSparseShape{});
  return RankedTensorType::get({}, type.getElementType(), blocks);
}

tc::ContractOp mlir::tc::createCopy(OpBuilder &b, Location loc, Value value, Value ones) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<std::string> storage;
  for (int64_t d = 0; d < type.getRank(); ++d)
    storage.push_back("d" + std::to_string(d));
  SmallVector<StringRef> labels(storage.begin(), storage.end());
  return ContractOp::create(b, loc, type, ValueRange{value, ones}, Value(),
                            b.getArrayAttr({b.getStrArrayAttr(labels), b.getStrArrayAttr({})}),
                            b.getStrArrayAttr(labels), FloatAttr());
}

tc::ContractOp mlir::tc::createNamedCopy(OpBuilder &b, Location loc, Value value, StringRef name) {
  auto type = cast<RankedTensorType>(value.getType());
  RankedTensorType scalar = onesTypeFor(type);
  Value ones = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(scalar, b.getFloatAttr(type.getElementType(), 1.0)));
  ContractOp copy = createCopy(b, loc, value, ones);
  copy->setAttr(TCDialect::getNameAttrName(), b.getStringAttr(name));
  return copy;
}
