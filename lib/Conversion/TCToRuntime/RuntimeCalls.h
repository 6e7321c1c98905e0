//===- RuntimeCalls.h - typed calls into tc's runtime -----------*- C++ -*-===//
//
// The compiler's side of RuntimeFunctions.def: each runtime function's MLIR
// type, and a builder whose calls are typed by the declaration. An argument
// is a value of one parameter kind (Handle, Buffer, Descriptor, ...) that the
// builder's helpers make, and call<F> takes exactly F's parameters, so a call
// with too few, too many or the wrong kind of arguments does not compile. The
// MLIR types of the values are checked again when the call is built.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_CONVERSION_TCTORUNTIME_RUNTIMECALLS_H
#define TC_LIB_CONVERSION_TCTORUNTIME_RUNTIMECALLS_H

#include "TC/Runtime/RuntimeFunctions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <tuple>
#include <utility>

namespace mlir::tc::runtime {

using tc_rt::Function;
using tc_rt::Kind;

/// F's C name, as the generated program calls it.
inline StringRef nameOf(Function f) { return tc_rt::declaration(f).name; }
/// The MLIR type of a parameter kind in a generated program (null for Void).
Type kindType(MLIRContext *ctx, Kind kind);
/// `F`'s type, from RuntimeFunctions.def.
FunctionType functionType(MLIRContext *ctx, Function f);

/// Declares `f` (private, external, of its declared type) unless the module
/// has a symbol of its name.
void declare(OpBuilder &b, ModuleOp module, Location loc, Function f);

/// A value passed as a parameter of kind K.
template <Kind K>
struct Arg {
  explicit Arg(Value value) : value(value) {}
  Value value;
};
using Void = void;
using Handle = Arg<Kind::Handle>;
using Buffer = Arg<Kind::Buffer>;
using Descriptor = Arg<Kind::Descriptor>;
using Offsets = Arg<Kind::Offsets>;
using String = Arg<Kind::String>;
using Doubles = Arg<Kind::Doubles>;
using I64 = Arg<Kind::I64>;
using F64 = Arg<Kind::F64>;

/// Signature<F>::type is F's C++ function type over the kinds, e.g.
/// `void (Handle request)` for tc_rt_wait.
template <Function F>
struct Signature;
#define TC_RT_FUNCTION(name, result, params, doc)                                                  \
  template <>                                                                                      \
  struct Signature<Function::name> {                                                               \
    using type = result params;                                                                    \
  };
#define TC_RT_ARG(kind, name) kind name
#define TC_RT_NO_ARGS
#include "TC/Runtime/RuntimeFunctions.def"

namespace detail {
template <typename Fn>
struct Call;
template <typename R, typename... Params>
struct Call<R(Params...)> {
  using Result = R;
  using Args = std::tuple<Params...>;
};
/// The first N elements of a tuple type.
template <typename Tuple, typename Seq>
struct Prefix;
template <typename Tuple, size_t... I>
struct Prefix<Tuple, std::index_sequence<I...>> {
  using type = std::tuple<std::tuple_element_t<I, Tuple>...>;
};
} // namespace detail

/// F's arguments (a braced list at the call evaluates left to right, so the
/// operations building them come out in argument order) and its result.
template <Function F>
using ArgsOf = typename detail::Call<typename Signature<F>::type>::Args;
template <Function F>
using ResultOf = typename detail::Call<typename Signature<F>::type>::Result;
/// F's arguments but the last, for calls whose last is Offsets.
template <Function F>
using LeadingArgsOf = typename detail::Prefix<
    ArgsOf<F>, std::make_index_sequence<std::tuple_size_v<ArgsOf<F>> - 1>>::type;

/// Builds runtime calls and their arguments in front of one op: pointers to
/// buffers, constant descriptors, strings and offsets.
class RuntimeCallBuilder {
public:
  RuntimeCallBuilder(OpBuilder &b, Location loc, ModuleOp module)
      : b(b), loc(loc), module(module) {}
  RuntimeCallBuilder(OpBuilder &b, Operation *op)
      : RuntimeCallBuilder(b, op->getLoc(), op->getParentOfType<ModuleOp>()) {}

  /// The aligned pointer of a memref: its first element, since every tile op
  /// verifies its buffers have the identity layout (no offset).
  Buffer pointer(Value memref);
  Buffer null();
  /// An array or request handle (a converted !tc.array, !tc.block_array or
  /// !tc.transfer).
  Handle handle(Value value) { return Handle(value); }
  I64 i64(int64_t v);
  /// An index value as int64.
  I64 index(Value v);
  F64 f64(FloatAttr v);
  /// The address of a constant int64 array (a descriptor).
  Descriptor descriptor(ArrayRef<int64_t> values);
  Doubles doubles(ArrayRef<double> values);
  /// A NUL-terminated string constant, for the C ABI.
  String string(StringRef s);

  /// Calls F, declaring it on first use.
  template <Function F>
  ResultOf<F> call(ArgsOf<F> args) {
    return result<F>(emit(F, values(args)));
  }

  /// Calls F(leading..., offsets) where `offsets` is a pointer to the index
  /// values stored as int64. The stack buffer lives in an alloca scope around
  /// the call, so a call inside a loop does not grow the stack.
  template <Function F>
  ResultOf<F> callWithOffsets(LeadingArgsOf<F> leading, ValueRange offsets) {
    static_assert(std::is_same_v<std::tuple_element_t<std::tuple_size_v<ArgsOf<F>> - 1, ArgsOf<F>>,
                                 Offsets>,
                  "the runtime function's last parameter is not Offsets");
    SmallVector<Value> args = values(leading);
    return result<F>(emitWithOffsets(F, args, offsets));
  }

  /// Calls `f` with `args` after checking their number and MLIR types
  /// against its declaration; a mismatch is reported as an error at the
  /// call's location (the call is still built, and fails verification).
  Value emit(Function f, ValueRange args);

private:
  template <typename Tuple>
  static SmallVector<Value> values(const Tuple &args) {
    return std::apply([](const auto &...a) { return SmallVector<Value>{a.value...}; }, args);
  }
  template <Function F>
  static ResultOf<F> result(Value v) {
    if constexpr (!std::is_void_v<ResultOf<F>>)
      return ResultOf<F>(v);
  }
  Value emitWithOffsets(Function f, SmallVector<Value> leading, ValueRange offsets);
  /// A private constant global holding `data`; equal contents share one.
  Value constant(StringRef prefix, DenseElementsAttr data);

  OpBuilder &b;
  Location loc;
  ModuleOp module;
};

} // namespace mlir::tc::runtime

#endif // TC_LIB_CONVERSION_TCTORUNTIME_RUNTIMECALLS_H
