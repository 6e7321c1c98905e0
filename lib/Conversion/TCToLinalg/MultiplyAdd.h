//===- MultiplyAdd.h - the body of tc's linalg ops --------------*- C++ -*-===//
//
// Every linalg op tc emits (the serial meaning of a labeled op, and a local
// tile contraction) has one body: accumulator + scale * product of the inputs.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_CONVERSION_TCTOLINALG_MULTIPLYADD_H
#define TC_LIB_CONVERSION_TCTOLINALG_MULTIPLYADD_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tc {

/// Yields args.back() + scale * args[0] * ... * args[n-2] (the block arguments
/// of a linalg op: its inputs, then its accumulator).
inline void buildMultiplyAdd(OpBuilder &body, Location loc, ValueRange args, double scale) {
  Value product = args.front();
  for (Value factor : args.drop_front().drop_back())
    product = arith::MulFOp::create(body, loc, product, factor);
  if (scale != 1.0) {
    Value coefficient =
        arith::ConstantOp::create(body, loc, body.getFloatAttr(product.getType(), scale));
    product = arith::MulFOp::create(body, loc, coefficient, product);
  }
  linalg::YieldOp::create(body, loc, arith::AddFOp::create(body, loc, args.back(), product).getResult());
}

} // namespace mlir::tc

#endif // TC_LIB_CONVERSION_TCTOLINALG_MULTIPLYADD_H
