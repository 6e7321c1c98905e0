//===- RuntimeCallsTest.cpp - calls checked against RuntimeFunctions.def --===//
//
// The compiler's calls into the runtime are typed by the one declaration:
// a call with the wrong number or kinds of arguments does not compile (the
// static_asserts model `b.call<F>({...})`), and values of the wrong MLIR type
// are reported when the call is built.
//
//===----------------------------------------------------------------------===//
#include "RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tc::runtime;

namespace {

//===-- At tc's build time --------------------------------------------------===//

template <typename T>
void accept(T);
/// Whether `call<F>({A...})` compiles: its braced list initializes F's arguments.
template <typename Args, typename List, typename = void>
struct ListInitializable : std::false_type {};
template <typename Args, typename... A>
struct ListInitializable<Args, std::tuple<A...>,
                         std::void_t<decltype(accept<Args>({std::declval<A>()...}))>>
    : std::true_type {};
template <Function F, typename... A>
constexpr bool callable = ListInitializable<ArgsOf<F>, std::tuple<A...>>::value;

static_assert(callable<Function::tc_rt_wait, Handle>);
static_assert(!callable<Function::tc_rt_wait, Descriptor>, "a parameter of another kind");
static_assert(!callable<Function::tc_rt_wait, Value>, "a value of no kind");
static_assert(!callable<Function::tc_rt_wait, Handle, Handle>, "one argument too many");
static_assert(!callable<Function::tc_rt_redistribute, Handle>, "one argument too few");
static_assert(callable<Function::tc_rt_select_procs>);
static_assert(callable<Function::tc_rt_read_tile, Handle, Buffer, Descriptor, Offsets>);
static_assert(!callable<Function::tc_rt_read_tile, Handle, Descriptor, Buffer, Offsets>,
              "two arguments swapped");
static_assert(std::is_same_v<LeadingArgsOf<Function::tc_rt_load_slice>,
                             std::tuple<Handle, Descriptor>>);
static_assert(std::is_same_v<ResultOf<Function::tc_rt_array>, Handle>);
static_assert(std::is_same_v<ResultOf<Function::tc_rt_grid_coord>, I64>);
static_assert(std::is_void_v<ResultOf<Function::tc_rt_store>>);
// Runtime.h's prototypes come from the same entries.
static_assert(std::is_same_v<decltype(::tc_rt_array), void *(const int64_t *, const char *, void *)>);
static_assert(std::is_same_v<decltype(::tc_rt_select_procs), int64_t()>);

//===-- At conversion time ----------------------------------------------------===//

class RuntimeCallsTest : public ::testing::Test {
protected:
  RuntimeCallsTest() : b(&ctx) {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, LLVM::LLVMDialect,
                    memref::MemRefDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    auto f = func::FuncOp::create(b, UnknownLoc::get(&ctx), "f", b.getFunctionType({}, {}));
    module.push_back(f);
    b.setInsertionPointToStart(f.addEntryBlock());
  }
  ~RuntimeCallsTest() override { module->erase(); }

  /// The errors reported while `build` runs.
  template <typename Fn>
  std::vector<std::string> errors(Fn build) {
    std::vector<std::string> out;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      out.push_back(d.str());
      return success();
    });
    build();
    return out;
  }

  MLIRContext ctx;
  OpBuilder b;
  ModuleOp module;
};

TEST_F(RuntimeCallsTest, EveryFunctionHasItsDeclaredType) {
  const std::vector<tc_rt::FunctionDecl> &decls = tc_rt::functionDecls();
  for (unsigned i = 0; i < decls.size(); ++i) {
    FunctionType type = functionType(&ctx, static_cast<Function>(i));
    EXPECT_EQ(type.getNumInputs(), decls[i].params.size()) << decls[i].name;
    EXPECT_EQ(type.getNumResults(), decls[i].result == Kind::Void ? 0u : 1u) << decls[i].name;
  }
  Type ptr = LLVM::LLVMPointerType::get(&ctx);
  EXPECT_EQ(functionType(&ctx, Function::tc_rt_array),
            b.getFunctionType({ptr, ptr, ptr}, {ptr}));
  EXPECT_EQ(functionType(&ctx, Function::tc_rt_plan),
            b.getFunctionType({b.getF64Type(), b.getF64Type(), b.getF64Type(), b.getI64Type()},
                              {}));
  EXPECT_EQ(tc_rt::prototype(tc_rt::declaration(Function::tc_rt_array)),
            "void *tc_rt_array(const int64_t *desc, const char *name, void *storage)");
  EXPECT_EQ(tc_rt::prototype(tc_rt::declaration(Function::tc_rt_select_procs)),
            "int64_t tc_rt_select_procs(void)");
}

TEST_F(RuntimeCallsTest, TypedCallDeclaresTheFunctionOnce) {
  RuntimeCallBuilder rt(b, UnknownLoc::get(&ctx), module);
  EXPECT_TRUE(errors([&] {
                for (int i = 0; i < 2; ++i)
                  rt.call<Function::tc_rt_check_procs>({rt.i64(4)});
              }).empty());
  auto decl = module.lookupSymbol<func::FuncOp>("tc_rt_check_procs");
  ASSERT_TRUE(decl);
  EXPECT_TRUE(decl.isPrivate() && decl.isExternal());
  EXPECT_EQ(decl.getFunctionType(), functionType(&ctx, Function::tc_rt_check_procs));
  EXPECT_EQ(llvm::count_if(module.getOps<func::FuncOp>(),
                           [](func::FuncOp f) { return f.getName() == "tc_rt_check_procs"; }),
            1);
}

TEST_F(RuntimeCallsTest, ArgumentOfAnotherTypeIsReported) {
  RuntimeCallBuilder rt(b, UnknownLoc::get(&ctx), module);
  std::vector<std::string> reported =
      errors([&] { rt.emit(Function::tc_rt_wait, {rt.i64(1).value}); });
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].find("call of tc_rt_wait: argument 0 (request) is 'i64', not "
                             "'!llvm.ptr'"),
            std::string::npos)
      << reported[0];
  EXPECT_NE(reported[0].find("void tc_rt_wait(void *request)"), std::string::npos);
}

TEST_F(RuntimeCallsTest, WrongArgumentCountIsReported) {
  RuntimeCallBuilder rt(b, UnknownLoc::get(&ctx), module);
  std::vector<std::string> reported =
      errors([&] { rt.emit(Function::tc_rt_redistribute, {rt.null().value}); });
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].find("call of tc_rt_redistribute with 1 arguments"), std::string::npos)
      << reported[0];
}

} // namespace
