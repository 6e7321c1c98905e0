//===- ReuseKeptStorage.cpp - the tc-reuse-kept-storage pass --------------===//
//
// A statement that adds a term to a tensor loads the tensor's value into its
// result array and stores the result; where that value is kept in memory in
// the same layout, the array can live in the kept buffer itself
// (tc.alloc_storage, docs/Derivations.md D47); and so can an operand nothing
// writes. This pass decides which arrays may.
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tc {
#define GEN_PASS_DEF_REUSEKEPTSTORAGE
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// True if `op` may write `value` (it declares a write effect on it, or
/// declares no effects).
bool mayWrite(Operation *op, Value value) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> onValue;
  effects.getEffectsOnValue(value, onValue);
  return llvm::any_of(onValue, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect());
  });
}

/// True if nothing writes `array` or its storage after its load: every use
/// of the storage reads it (a tile contraction's input, a read of the array
/// into its own storage, which moves nothing) or frees it, none makes a view
/// of it, and no use of the array writes it (a shift, a gather, a store).
bool readOnly(ArrayOp array) {
  Value storage = array.getStorage();
  for (Operation *user : storage.getUsers()) {
    if (user == array.getOperation() || hasSingleEffect<MemoryEffects::Free>(user, storage))
      continue;
    if (auto read = dyn_cast<ReadTileOp>(user); read && read.getArray() == array.getResult())
      continue;
    // A view of the storage (a subview) could be written through.
    if (user->getNumResults() > 0 || mayWrite(user, storage))
      return false;
  }
  return llvm::none_of(array->getUsers(),
                       [&](Operation *user) { return mayWrite(user, array.getResult()); });
}

/// How an array may share its kept value's buffer: as the statement's result
/// (loaded from its value and stored, the only array of its name in the
/// function: nothing else reads the value it overwrites), or as an array
/// nothing writes.
enum class Sharing { None, Result, ReadOnly };

/// How `array` may share, if its storage is a buffer allocated in its block.
Sharing sharing(ArrayOp array, const llvm::StringMap<int> &arraysNamed) {
  if (array.getInit() != ArrayInitKind::Input || array.getOnDisk() || !array.getStorage())
    return Sharing::None;
  auto alloc = array.getStorage().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != array->getBlock())
    return Sharing::None;
  bool stored = llvm::any_of(array->getUsers(), [](Operation *user) { return isa<StoreOp>(user); });
  if (stored)
    return arraysNamed.lookup(array.getName()) == 1 ? Sharing::Result : Sharing::None;
  return readOnly(array) ? Sharing::ReadOnly : Sharing::None;
}

struct ReuseKeptStoragePass : public tc::impl::ReuseKeptStorageBase<ReuseKeptStoragePass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      // Every array of a name in the function (block-sparse arrays too): the
      // value a result overwrites must have no other reader.
      llvm::StringMap<int> arraysNamed;
      func.walk([&](Operation *op) {
        if (auto array = dyn_cast<ArrayOp>(op))
          ++arraysNamed[array.getName()];
        else if (auto blocks = dyn_cast<BlockArrayOp>(op))
          ++arraysNamed[blocks.getName()];
      });
      func.walk([&](ArrayOp array) {
        Sharing how = sharing(array, arraysNamed);
        if (how == Sharing::None)
          return;
        auto alloc = array.getStorage().getDefiningOp<memref::AllocOp>();
        OpBuilder b(alloc);
        Value storage =
            AllocStorageOp::create(b, alloc.getLoc(), alloc.getType(), array.getName(),
                                   array.getType(), /*read_only=*/how == Sharing::ReadOnly);
        alloc.replaceAllUsesWith(storage);
        alloc.erase();
      });
    });
  }
};

} // namespace
