//===- TileContract.h - the products of a block-sparse step -----*- C++ -*-===//
//
// A block-sparse step runs many small products ([K] 2): in a coupled-cluster
// ladder each large integral block meets several small amplitude blocks, one
// product each. Called one at a time, BLAS packs the large block again for
// every product and runs it with a few dozen columns. contractBlocks runs
// products that share blocks together (docs/Derivations.md D46): a set of
// tasks over every pairing of its row, summed and column segments as one
// product of matrices assembled from the blocks, and otherwise the tasks
// over the same summed segments as a grid (the smaller input's blocks side
// by side as one wide operand, one product per block of the larger); each
// task's part of the result is added into its C block.
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
  /// The A, B and C blocks' ids in their tensors: equal ids, equal blocks.
  int64_t blockA, blockB, blockC;
  /// What the task reads of A and of B: its block and how it permutes the
  /// block's dimensions (a block of a tensor with pair symmetries read for
  /// an exchanged one). Equal keys, equal operands; products share packing
  /// by these, not by the blocks.
  int64_t readA, readB;
  /// The segment of each summed label (in A and B, not in C), in A's order,
  /// as A's block has it and then as B's has it (a spin-restricted tensor's
  /// stored block may be the flip of the one the task reads); of each of A's
  /// labels in C (its rows), in A's order; of each of B's labels in C (its
  /// columns), in B's order.
  std::vector<int64_t> summedSegments, rowSegments, columnSegments;
};

/// Runs `products` (one rank's tasks of one step, in any order; every C
/// block is written only by them while they run), those sharing their larger
/// input block together, packing within the runtime's chunk (chunk_bytes).
template <typename T> void contractBlocks(const std::vector<BlockProduct<T>> &products);

extern template void contractBlocks<double>(const std::vector<BlockProduct<double>> &);
extern template void contractBlocks<float>(const std::vector<BlockProduct<float>> &);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_TILECONTRACT_H
