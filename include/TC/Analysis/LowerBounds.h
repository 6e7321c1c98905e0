//===- LowerBounds.h - what no plan of a contraction can beat ---*- C++ -*-===//
//
// Per-process lower bounds on the data a contraction's plans move
// (docs/Derivations.md D37), as a matrix product C(I,J) += A(I,K) B(K,J) over
// L batches (the macro-indices, D30). Each bound holds for every plan whose
// assumptions it names, so a planner's candidate is never below it. Plain C++:
// the report pass and the unit tests both call it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_LOWERBOUNDS_H
#define TC_ANALYSIS_LOWERBOUNDS_H

#include "TC/Analysis/ContractionPlanner.h"

namespace mlir::tc {

struct ContractionBounds {
  /// Bytes a process with at least the average share of the multiply-adds
  /// brings into its memory, from disk or over the network, in any plan
  /// (Hong and Kung's segments with Loomis and Whitney's inequality).
  double trafficBytes = 0;
  /// Bytes such a process receives when every rank starts with only its
  /// share of A, B and C in memory and nothing comes from disk (COSMA
  /// Theorem 2 less that share; valid when the shares fit in memory).
  double inCoreCommBytes = 0;
};

/// The bounds of `p` on machine `m` (its memory is a process's fast memory).
ContractionBounds contractionBounds(const ContractionProblem &p, const MachineModel &m);

/// What a candidate that moves `diskBytes` and `commBytes` per process cannot
/// beat: its disk bytes at least the traffic its network does not bring, its
/// network bytes at least the traffic its disk does not, and in core (no disk
/// at all) at least Theorem 2's.
struct CandidateBounds {
  double diskBytes = 0, commBytes = 0;
};
CandidateBounds candidateBounds(const ContractionBounds &b, const ContractionPlan &c);

} // namespace mlir::tc

#endif // TC_ANALYSIS_LOWERBOUNDS_H
