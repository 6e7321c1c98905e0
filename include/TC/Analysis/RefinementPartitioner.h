//===- RefinementPartitioner.h - a hypergraph partitioner without MPI -*- C++ -*-===//
//
// The partitioner the compiler has everywhere, MPI or not: greedy placement
// by affinity, then Fiduccia-Mattheyses-style passes of single-vertex moves
// with positive gain under the balance constraint. Zoltan's multilevel PHG
// (include/TC/Partition/ZoltanPartitioner.h) finds better cuts on large
// hypergraphs, but runs on MPI; a tool that links it registers it
// (lib/Analysis/Partitioners.cpp). Deterministic: no randomness at all.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_REFINEMENTPARTITIONER_H
#define TC_ANALYSIS_REFINEMENTPARTITIONER_H

#include "TC/Analysis/TaskHypergraph.h"

namespace mlir::tc {

class RefinementPartitioner : public HypergraphPartitioner {
public:
  /// Vertex weights (or, with `balanceNetCost`, each vertex's share c_j / |n_j|
  /// of its nets' bytes) within (1 + imbalance) of the average part, give or
  /// take the heaviest vertex; fixed vertices keep their parts.
  std::vector<int> partition(const Hypergraph &h, const PartitionRequest &request) override;
};

} // namespace mlir::tc

#endif // TC_ANALYSIS_REFINEMENTPARTITIONER_H
