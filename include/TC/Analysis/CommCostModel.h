//===- CommCostModel.h - Mcost: the cost of one redistribution --*- C++ -*-===//
//
// Cociorva et al. section 3.2(ii): Mcost(localsize, alpha, beta) is the time to
// move an array holding `localsize` elements per process from distribution alpha
// to beta. [C] measures it for every non-matching pair and several sizes and
// interpolates; tc offers that (MeasuredCommCost, from tc-calibrate's machine
// file) and an analytic default with the same signature (docs/Derivations.md D20 [SYNTHESIS]):
// messages * latency + bytes received by the busiest process / bandwidth.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_COMMCOSTMODEL_H
#define TC_ANALYSIS_COMMCOSTMODEL_H

#include "TC/Analysis/ProcessorGrid.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mlir::tc {

class CommCostModel {
public:
  virtual ~CommCostModel() = default;
  /// [C] Mcost: seconds to move an array of `localElems` elements per holding
  /// process from `from` to `to` over `grid`. Both tuples are as seen from the
  /// array (entries for its fused indices already `*`).
  virtual double mcost(double localElems, const Grid &grid, const Distribution &from,
                       const Distribution &to) const = 0;
  /// Seconds to combine partial sums of `localElems` elements over a group of
  /// `group` processes into one of them (`1`, [C]'s variant 1) or into all (`*`,
  /// variant 2) (section 3.3).
  virtual double reduceCost(double localElems, int64_t group, bool toAll) const = 0;
};

/// What one redistribution costs the busiest process under block distributions:
/// elements received (as a fraction of its new block) and messages received.
struct ExchangeShape {
  double receivedFraction = 0;
  double messages = 0;
};
ExchangeShape exchangeShape(const Grid &grid, const Distribution &from,
                            const Distribution &to);

/// What each process (row-major rank order) sends and receives in one
/// redistribution by tc_rt_redistribute, as fractions of the whole array: a
/// needed block comes from the process holding it whose coordinates along the
/// grid dimensions `from` does not split are the receiver's, or from the
/// receiver's own copy.
struct ExchangeVolumes {
  std::vector<double> sent, received;
};
ExchangeVolumes exchangeVolumes(const Grid &grid, const Distribution &from,
                                const Distribution &to);

/// Elements per holding process after the move, given `localElems` before it.
double localElemsAfter(double localElems, const Grid &grid, const Distribution &from,
                       const Distribution &to);

class AnalyticCommCost : public CommCostModel {
public:
  AnalyticCommCost(double latencySeconds, double bytesPerSecond, int64_t elemBytes)
      : latency(latencySeconds), bandwidth(bytesPerSecond), elemBytes(elemBytes) {}
  double mcost(double localElems, const Grid &grid, const Distribution &from,
               const Distribution &to) const override;
  /// To one: a binomial tree, the root receiving log2(p) blocks; to all:
  /// reduce-scatter + all-gather, 2 (p-1)/p blocks in 2 log2(p) messages.
  double reduceCost(double localElems, int64_t group, bool toAll) const override;

private:
  double latency, bandwidth;
  int64_t elemBytes;
  mutable Grid cachedGrid;
  mutable std::unordered_map<uint64_t, ExchangeShape> cache;
};

/// Measured times keyed by the grid and the pair's pattern, with the array's
/// indices renamed x0, x1, ... in order of first appearance ("4x8:<x0,*>-><*,x0>"),
/// or "reduce:p" / "allreduce:p"; each a list of (bytes per process, seconds)
/// points. Sizes between points interpolate linearly and sizes beyond them
/// extrapolate from the nearest two ([C] 4); pairs never measured fall back to the
/// analytic model.
class MeasuredCommCost : public CommCostModel {
public:
  using Points = std::vector<std::pair<double, double>>;
  MeasuredCommCost(std::map<std::string, Points> table,
                   std::shared_ptr<const CommCostModel> fallback, int64_t elemBytes);
  double mcost(double localElems, const Grid &grid, const Distribution &from,
               const Distribution &to) const override;
  double reduceCost(double localElems, int64_t group, bool toAll) const override;
  /// Pairs looked up but not in the table (answered by the fallback).
  size_t misses() const { return missCount; }

private:
  std::map<std::string, Points> table;
  std::shared_ptr<const CommCostModel> fallback;
  int64_t elemBytes;
  mutable size_t missCount = 0;
};

/// The table key of a pair: the grid and both tuples with indices renamed.
std::string commPatternKey(const Grid &grid, const Distribution &from,
                           const Distribution &to);
/// Linear interpolation / extrapolation through sorted points, never below 0.
double interpolate(const MeasuredCommCost::Points &points, double x);

} // namespace mlir::tc

#endif // TC_ANALYSIS_COMMCOSTMODEL_H
