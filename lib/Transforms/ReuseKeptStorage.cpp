//===- ReuseKeptStorage.cpp - the tc-reuse-kept-storage pass --------------===//
//
// A statement that adds a term to a tensor loads the tensor's value into its
// result array and stores the result; where that value is kept in memory in
// the same layout, the array can live in the kept buffer itself
// (tc.alloc_storage, docs/Derivations.md D47). This pass decides which
// arrays may: those whose function reads the old value through them alone.
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCDialect.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tc {
#define GEN_PASS_DEF_REUSEKEPTSTORAGE
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

/// The buffer `array` may share with its kept value: its storage, allocated
/// in the array's block, when the array is loaded from its value and stored,
/// and it is the only array of its name in the function (`arraysNamed`).
memref::AllocOp sharableStorage(ArrayOp array, const llvm::StringMap<int> &arraysNamed) {
  if (array.getInit() != ArrayInitKind::Input || array.getOnDisk() || !array.getStorage() ||
      arraysNamed.lookup(array.getName()) != 1)
    return {};
  auto alloc = array.getStorage().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != array->getBlock())
    return {};
  bool stored = llvm::any_of(array->getUsers(), [](Operation *user) { return isa<StoreOp>(user); });
  return stored ? alloc : memref::AllocOp();
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
        memref::AllocOp alloc = sharableStorage(array, arraysNamed);
        if (!alloc)
          return;
        OpBuilder b(alloc);
        Value storage = AllocStorageOp::create(b, alloc.getLoc(), alloc.getType(), array.getName(),
                                               array.getType());
        alloc.replaceAllUsesWith(storage);
        alloc.erase();
      });
    });
  }
};

} // namespace
