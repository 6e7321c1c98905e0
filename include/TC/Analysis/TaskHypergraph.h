//===- TaskHypergraph.h - task-brick hypergraphs and their metrics -*- C++ -*-===//
//
// Krishnamoorthy et al. section 6 ([K] 6): the out-of-core task-brick
// hypergraph has one vertex per task (weight: its flops) and one net per brick
// (cost: its bytes) joining the tasks that touch it; partitions are measured by
// the memory a set of tasks needs (every brick a task of the set touches), the
// cut-net size and the connectivity-1 metric ([K] 3, eqs. 1-2). The
// partitioner itself sits behind an interface (tc's is Zoltan's PHG,
// include/TC/Partition/ZoltanPartitioner.h), so the schedules that use it stay
// plain C++ with deterministic unit tests. docs/Derivations.md D33.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_TASKHYPERGRAPH_H
#define TC_ANALYSIS_TASKHYPERGRAPH_H

#include "TC/Analysis/BlockSparse.h"

#include <vector>

namespace mlir::tc {

struct Hypergraph {
  std::vector<double> vertexWeight;
  std::vector<double> netCost;
  std::vector<std::vector<int>> netPins; ///< vertices of each net, increasing

  int numVertices() const { return static_cast<int>(vertexWeight.size()); }
  int numNets() const { return static_cast<int>(netCost.size()); }
  /// The nets of each vertex.
  std::vector<std::vector<int>> vertexNets() const;
};

/// [K] 6: one vertex per task (weight: flops), one net per brick (cost: bytes);
/// net j is brick j of the pool.
Hypergraph taskBrickHypergraph(const BlockTaskPool &pool);

/// The sub-hypergraph of `vertices` (increasing): its vertices renumbered in
/// that order, every net with a pin among them kept with those pins only (a
/// cut net counts in each part it touches, [K] 6.1), and `netOf` giving each
/// kept net's index in `h`.
Hypergraph subHypergraph(const Hypergraph &h, const std::vector<int> &vertices,
                         std::vector<int> *netOf = nullptr);

/// [K] 6.1 Mem: the cost of every net with a pin in `vertices`.
double memoryOf(const Hypergraph &h, const std::vector<int> &vertices);

/// Measures of a partition (`part[v]` in [0, parts)).
struct PartitionMetrics {
  std::vector<int> connectivity; ///< lambda_j: the parts net j touches
  double cutNet = 0;             ///< sum of c_j over nets with lambda_j > 1 ([K] eq. 1)
  double connectivityMinusOne = 0; ///< sum of c_j (lambda_j - 1) ([K] eq. 2)
  std::vector<double> internalCost; ///< C_p: nets entirely inside part p
  std::vector<double> weight;       ///< W_p
};
PartitionMetrics measurePartition(const Hypergraph &h, const std::vector<int> &part, int parts);

/// What a partitioner minimizes.
enum class CutMetric { CutNet, Connectivity };

/// A request to split a hypergraph's vertices into `parts` parts.
struct PartitionRequest {
  int parts = 2;
  CutMetric metric = CutMetric::Connectivity;
  double imbalance = 0.1; ///< eps: every W_p <= W_avg (1 + eps)
  /// Balance the brick bytes each part holds rather than the vertex weights
  /// ([K] 6.3: the outer bisection "balance[s] the net-weights").
  bool balanceNetCost = false;
  /// Part of each vertex fixed in advance, -1 where free ([K] 5: data vertices
  /// fixed to the processes that own them).
  std::vector<int> fixed;
};

class HypergraphPartitioner {
public:
  virtual ~HypergraphPartitioner() = default;
  /// A part in [0, request.parts) for every vertex, or an empty vector when the
  /// partitioner fails (with `error()` saying why).
  virtual std::vector<int> partition(const Hypergraph &h, const PartitionRequest &request) = 0;
  virtual std::string error() const { return ""; }
};

} // namespace mlir::tc

#endif // TC_ANALYSIS_TASKHYPERGRAPH_H
