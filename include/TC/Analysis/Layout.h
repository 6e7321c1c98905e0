//===- Layout.h - block distributions and redistribution cost ---*- C++ -*-===//
//
// An array's distribution over a logical processor grid (Cociorva et al. section
// 3.1; Gao et al. Table 1) and the cost of changing it (Gao et al. section 2.3,
// stage 1 and stage 3 of Overhead(PA)). Plain C++ over labels and extents.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_LAYOUT_H
#define TC_ANALYSIS_LAYOUT_H

#include "TC/Analysis/OutOfCoreCostModel.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tc {

/// One entry per grid dimension: an index label (block-distributed along that grid
/// dimension), "*" (replicated) or "1" (held by the first slice only).
struct Layout {
  std::vector<int64_t> grid;
  std::vector<std::string> dims;
  /// Per grid dimension, the block size of a block-cyclic distribution
  /// (ScaLAPACK's MB/NB; Choi, Dongarra, Walker section 2): blocks of that many
  /// elements dealt round-robin over the grid dimension. 0 (or no entry): one
  /// contiguous ceil-sized block per coordinate.
  std::vector<int64_t> cyclic;

  static constexpr const char *kReplicated = "*";
  static constexpr const char *kFirstSlice = "1";

  int64_t procs() const;
  /// The grid dimension distributing `label`, or -1.
  int64_t gridDimOf(const std::string &label) const;
  /// Number of blocks `label` is split into (1 when it is not distributed).
  int64_t parts(const std::string &label) const;
  /// The block-cyclic block size of grid dimension `d`, 0 when contiguous.
  int64_t cyclicBlock(size_t d) const { return d < cyclic.size() ? cyclic[d] : 0; }
  /// True when some grid dimension is block-cyclic.
  bool isCyclic() const;
  /// Elements of `label` (of `extent`) a process holds, padded: ceil-sized
  /// blocks, or whole cyclic blocks, the most any coordinate holds.
  int64_t paddedLocal(const std::string &label, int64_t extent) const;
  /// True when no grid dimension distributes a label.
  bool isReplicated() const;
  /// The same partition of the data: equal after dropping grid dimensions of
  /// extent 1 (a 1-D grid [4] and a 2-D grid [4, 1] partition alike).
  bool samePartition(const Layout &other) const;
  /// "[4] (i)" style text for diagnostics and reports.
  std::string str() const;
};

/// A block-cyclic block size that gives every coordinate one ceil-sized block
/// is the contiguous distribution: 0, so that equal partitions compare equal.
int64_t canonicalCyclicBlock(int64_t block, int64_t extent, int64_t parts);
/// `layout` with every such block size written 0 (and no cyclic list when
/// none is left).
Layout canonicalBlocks(const Layout &layout, const std::map<std::string, int64_t> &extents);

/// Bytes each rank (row-major over the grid) sends and receives when the
/// runtime moves an array from `from` to `to` on the same grid: rank r gets
/// the elements of its new block it does not hold from the process holding
/// them that shares r's coordinates along every grid dimension `from` does
/// not distribute (replicas share the sending); only real elements move.
void redistributionVolumes(const Layout &from, const Layout &to,
                           const std::vector<std::string> &labels,
                           const std::map<std::string, int64_t> &extents, int64_t elemBytes,
                           std::vector<double> &sent, std::vector<double> &received);

/// Largest per-process block of an array with `labels` under `layout`, in bytes:
/// the product over labels of ceil(extent / parts).
double localBytes(const Layout &layout, const std::vector<std::string> &labels,
                  const std::map<std::string, int64_t> &extents, int64_t elemBytes);

/// Volumes and time of one redistribution, per process.
struct RedistCost {
  double diskBytes = 0;
  double commBytes = 0;
  double seconds = 0;
  RedistCost &operator+=(const RedistCost &o);
};

/// Cost of moving an array from `from` to `to` ([G] 2.3 leaves the scheme open;
/// docs/Derivations.md D9 step 7 [SYNTHESIS]): zero for the same partition; otherwise every
/// process receives its new block except the 1/P it already holds (nothing when
/// `from` is replicated: each process selects its block locally), and an array
/// whose block exceeds the tile budget is out of core, so its old block is read
/// from and its new block written to disk.
RedistCost redistributionCost(const Layout &from, const Layout &to,
                              const std::vector<std::string> &labels,
                              const std::map<std::string, int64_t> &extents,
                              const MachineModel &machine);

} // namespace mlir::tc

#endif // TC_ANALYSIS_LAYOUT_H
