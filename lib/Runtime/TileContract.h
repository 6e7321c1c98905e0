//===- TileContract.h - the products of a block-sparse step -----*- C++ -*-===//
//
// A block-sparse step runs many small products ([K] 2): in a coupled-cluster
// ladder each large integral block meets several small amplitude blocks, one
// product each. Called one at a time, BLAS packs the large block again for
// every product and runs it with a few dozen columns. contractBlocks runs the
// products over the same summed segments together: the smaller input's
// blocks side by side as one wide operand, one product per block of the
// larger into a scratch result, each task's part added into its C block; a
// block is packed once per step, not once per product (docs/Derivations.md
// D46).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_TILECONTRACT_H
#define TC_LIB_RUNTIME_TILECONTRACT_H

#include "TC/Runtime/Descriptors.h"

#include <cstdint>
#include <vector>

namespace tc_rt {

/// One task: C's block += alpha * A's block * B's block, whole blocks (the
/// descriptor's shapes, labels, label extents and alpha; steps all 1).
template <typename T> struct BlockProduct {
  TileContractDesc desc;
  T *a, *b, *c;
  /// The A and B blocks' ids in their tensors: equal ids, equal blocks.
  int64_t blockA, blockB;
  /// The segment of each summed label (in A and B, not in C), in A's order:
  /// the products of one step with the same summed segments form a grid
  /// of A blocks by B blocks.
  std::vector<int64_t> summedSegments;
};

/// Runs `products` (one rank's tasks of one step, in any order; every C
/// block is written only by them while they run), those sharing their larger
/// input block together, packing within the runtime's chunk (chunk_bytes).
template <typename T> void contractBlocks(const std::vector<BlockProduct<T>> &products);

extern template void contractBlocks<double>(const std::vector<BlockProduct<double>> &);
extern template void contractBlocks<float>(const std::vector<BlockProduct<float>> &);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_TILECONTRACT_H
