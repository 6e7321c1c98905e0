//===- ZoltanPartitioner.h - Zoltan's PHG behind tc's partitioner -*- C++ -*-===//
//
// Krishnamoorthy et al. partition task-brick hypergraphs with a multilevel
// hypergraph partitioner ([K] 3: PaToH); tc uses Zoltan's PHG, the field's
// open one (Debian's libtrilinos-zoltan-dev). Zoltan runs on MPI: on a
// communicator of one process here, initializing MPI (as a singleton) when the
// caller has not, so the compiler's passes and unit tests can use it too.
// Deterministic: a fixed seed and no input randomization.
//
//===----------------------------------------------------------------------===//
#ifndef TC_PARTITION_ZOLTANPARTITIONER_H
#define TC_PARTITION_ZOLTANPARTITIONER_H

#include "TC/Analysis/TaskHypergraph.h"

#include <string>

namespace mlir::tc {

class ZoltanPartitioner : public HypergraphPartitioner {
public:
  /// Vertex weights and connectivity-1 or cut-net as `request` says; with
  /// `balanceNetCost`, a vertex weighs its share of the bytes of its nets
  /// (c_j / |n_j| from each), which balances the bricks each part holds.
  /// Fixed vertices keep their parts.
  std::vector<int> partition(const Hypergraph &h, const PartitionRequest &request) override;
  std::string error() const override { return lastError; }

private:
  std::string lastError;
};

/// Registers Zoltan's PHG as hypergraph partitioner "zoltan", the default from
/// then on (include/TC/Analysis/Partitioners.h); for tools that link MPI.
void registerZoltanPartitioner();

} // namespace mlir::tc

#endif // TC_PARTITION_ZOLTANPARTITIONER_H
