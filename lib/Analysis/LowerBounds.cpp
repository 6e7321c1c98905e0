//===- LowerBounds.cpp - what no plan of a contraction can beat -----------===//
#include "TC/Analysis/LowerBounds.h"

#include "TC/Analysis/CommOptimalMatmul.h"

#include <algorithm>
#include <cmath>

namespace mlir::tc {

ContractionBounds contractionBounds(const ContractionProblem &p, const MachineModel &m) {
  const MacroSizes sizes = macroIndicesOf(p).value.sizes;
  const double I = sizes.I, J = sizes.J, K = sizes.K, L = sizes.L;
  const double e = static_cast<double>(m.elemBytes), S = m.memBytes / e;
  const double P = static_cast<double>(m.procs);
  ContractionBounds b;
  // D37: split a process's run into segments of S loads; a segment sees at
  // most 2S words (S resident, S loaded), and by Loomis-Whitney computes at
  // most (2S/3)^(3/2) multiply-adds. W = L I J K / P of them need
  // W / (2S/3)^(3/2) segments, all but the last with S loads.
  const double W = L * I * J * K / P;
  b.trafficBytes = e * std::max(0.0, W * S / std::pow(2 * S / 3, 1.5) - S);
  // COSMA Theorem 2's per-rank volume (D24), less what a rank holds anyway.
  if (S * P >= I * J + I * K + J * K)
    b.inCoreCommBytes = std::max(
        0.0, e * (parallelLowerBound(I, J, K, m.procs, S) - (I * J + I * K + J * K) / P));
  return b;
}

CandidateBounds candidateBounds(const ContractionBounds &b, const ContractionPlan &c) {
  CandidateBounds out;
  out.diskBytes = std::max(0.0, b.trafficBytes - c.totalCommBytes());
  out.commBytes = std::max(0.0, b.trafficBytes - c.totalDiskBytes());
  if (c.inCore)
    out.commBytes = std::max(out.commBytes, b.inCoreCommBytes);
  return out;
}

} // namespace mlir::tc
