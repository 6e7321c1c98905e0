//===- RuntimeCalls.cpp - typed calls into tc's runtime -------------------===//
//
// Function types from RuntimeFunctions.def, the checked emission of calls, and
// the operands they take: pointers, constants, strings and offsets.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tc::runtime;

Type mlir::tc::runtime::kindType(MLIRContext *ctx, Kind kind) {
  switch (kind) {
  case Kind::Void:
    return Type();
  case Kind::I64:
    return IntegerType::get(ctx, 64);
  case Kind::F64:
    return Float64Type::get(ctx);
  case Kind::Handle:
  case Kind::Buffer:
  case Kind::Descriptor:
  case Kind::Offsets:
  case Kind::String:
  case Kind::Doubles:
    return LLVM::LLVMPointerType::get(ctx);
  }
  llvm_unreachable("a parameter kind of RuntimeFunctions.def");
}

FunctionType mlir::tc::runtime::functionType(MLIRContext *ctx, Function f) {
  const tc_rt::FunctionDecl &decl = tc_rt::declaration(f);
  SmallVector<Type> inputs;
  for (const tc_rt::Param &p : decl.params)
    inputs.push_back(kindType(ctx, p.kind));
  SmallVector<Type> results;
  if (Type r = kindType(ctx, decl.result))
    results.push_back(r);
  return FunctionType::get(ctx, inputs, results);
}

void mlir::tc::runtime::declare(OpBuilder &b, ModuleOp module, Location loc, Function f) {
  StringRef name = tc_rt::declaration(f).name;
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  func::FuncOp::create(b, loc, name, functionType(b.getContext(), f)).setPrivate();
}

Value RuntimeCallBuilder::emit(Function f, ValueRange args) {
  const tc_rt::FunctionDecl &decl = tc_rt::declaration(f);
  FunctionType type = functionType(b.getContext(), f);
  if (args.size() != type.getNumInputs()) {
    emitError(loc) << "call of " << decl.name << " with " << args.size()
                   << " arguments; RuntimeFunctions.def declares " << tc_rt::prototype(decl);
  } else {
    for (auto [i, arg, expected] : llvm::enumerate(args, type.getInputs()))
      if (arg.getType() != expected)
        emitError(loc) << "call of " << decl.name << ": argument " << i << " ("
                       << decl.params[i].name << ") is " << arg.getType() << ", not " << expected
                       << " as RuntimeFunctions.def declares: " << tc_rt::prototype(decl);
  }
  declare(b, module, loc, f);
  auto call = func::CallOp::create(b, loc, decl.name, type.getResults(), args);
  return type.getNumResults() ? call.getResult(0) : Value();
}

Value RuntimeCallBuilder::emitWithOffsets(Function f, SmallVector<Value> args,
                                          ValueRange offsets) {
  FunctionType type = functionType(b.getContext(), f);
  auto scope = memref::AllocaScopeOp::create(b, loc, type.getResults());
  Block *body = b.createBlock(&scope.getBodyRegion());
  b.setInsertionPointToStart(body);
  auto bufferType = MemRefType::get({std::max<int64_t>(1, offsets.size())}, b.getI64Type());
  Value buffer = memref::AllocaOp::create(b, loc, bufferType);
  for (auto [i, v] : llvm::enumerate(offsets)) {
    Value value = arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    memref::StoreOp::create(b, loc, value, buffer,
                            ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
  }
  args.push_back(pointer(buffer).value);
  Value result = emit(f, args);
  memref::AllocaScopeReturnOp::create(b, loc, result ? ValueRange{result} : ValueRange{});
  b.setInsertionPointAfter(scope);
  return result ? scope.getResult(0) : Value();
}

Buffer RuntimeCallBuilder::pointer(Value memref) {
  Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), idx);
  return Buffer(LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), i64));
}

Buffer RuntimeCallBuilder::null() {
  return Buffer(LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext())));
}

I64 RuntimeCallBuilder::i64(int64_t v) {
  return I64(arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v)));
}

I64 RuntimeCallBuilder::index(Value v) {
  return I64(arith::IndexCastOp::create(b, loc, b.getI64Type(), v));
}

F64 RuntimeCallBuilder::f64(FloatAttr v) { return F64(arith::ConstantOp::create(b, loc, v)); }

Descriptor RuntimeCallBuilder::descriptor(ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())}, b.getI64Type());
  return Descriptor(constant("__tc_desc_", DenseElementsAttr::get(type, values)));
}

Doubles RuntimeCallBuilder::doubles(ArrayRef<double> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())}, b.getF64Type());
  return Doubles(constant("__tc_pred_", DenseElementsAttr::get(type, values)));
}

String RuntimeCallBuilder::string(StringRef s) {
  SmallVector<int8_t> bytes(s.begin(), s.end());
  bytes.push_back(0);
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
  return String(constant("__tc_name_", DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes))));
}

Value RuntimeCallBuilder::constant(StringRef prefix, DenseElementsAttr data) {
  auto type = MemRefType::get(data.getType().getShape(), data.getElementType());
  // Named by a hash of the contents (FNV-1a), so names are stable run to run.
  uint32_t hash = 2166136261u;
  for (char c : data.getRawData())
    hash = (hash ^ static_cast<uint8_t>(c)) * 16777619u;
  std::string name;
  for (unsigned attempt = 0;; ++attempt) {
    name = (prefix + Twine(hash) + (attempt ? "_" + Twine(attempt) : Twine())).str();
    auto existing = module.lookupSymbol<memref::GlobalOp>(name);
    if (!existing)
      break;
    if (existing.getType() == type && existing.getInitialValueAttr() == data)
      return pointer(memref::GetGlobalOp::create(b, loc, type, name)).value;
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type, data,
                             /*constant=*/true, /*alignment=*/nullptr);
  }
  return pointer(memref::GetGlobalOp::create(b, loc, type, name)).value;
}
