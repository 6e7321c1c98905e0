//===- TiledPlans.h - plans made of tiling loops ----------------*- C++ -*-===//
//
// What Gao et al.'s algorithms and batch share (lib/Analysis/Algorithms): a
// candidate of the out-of-core cost model on an algorithm's layouts, turned
// into a real tiling-loop nest over the labels and evaluated again at the
// integer tiles it realizes ([G] 2.3, docs/Derivations.md D4, D9).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_ANALYSIS_TILEDPLANS_H
#define TC_LIB_ANALYSIS_TILEDPLANS_H

#include "TC/Analysis/AlgorithmPlanner.h"

#include <functional>
#include <optional>
#include <vector>

namespace mlir::tc {

/// What the cost model evaluates for a layout: the problem's sizes on the
/// machine under the algorithm, or, for the batch algorithm, a process's
/// one-process share.
struct ModelView {
  MacroSizes sizes;
  MachineModel machine;
  ParallelAlgorithm algorithm;
};

struct AlgorithmLayouts {
  Layout a, b, c;
  RedistCost redist;
  /// A, B, C with the blocks each label is split into under a, b, c (the
  /// in-memory tiles of the nest).
  NestArray arrays[3];
  ModelView model;
};

/// Stage 1/3 redistribution of `out`'s layouts against the given ones ([G]
/// 2.3). Replication broadcasts its operand from whatever distribution it has
/// (the broadcast is stage 2's V0), so Table 1 leaves that operand
/// unconstrained.
void addRedistribution(const PlanningContext &ctx, ParallelAlgorithm alg,
                       AlgorithmLayouts &out);

/// The blocks each array's labels are split into under its layouts.
void fillNestArrays(const PlanningContext &ctx, AlgorithmLayouts &out);

/// True when the contraction has no label of I, J, K or L: nothing any
/// algorithm could split (a product of two full sums, D30).
bool nothingToSplit(const MacroIndices &m);

/// The one candidate a given nest (with method, algorithm and order) is:
/// evaluated exactly, the model's tiles unused.
std::optional<Candidate> givenNestModel(const PlanDecisions &decisions);

/// The model's candidates that satisfy ctx's decisions, realized on the
/// layouts `layoutsOf` gives their algorithm (nullopt: none), appended to
/// `out` when they fit and run on the given grid.
void addTiledCandidates(
    const PlanningContext &ctx, const std::vector<Candidate> &models,
    const std::function<std::optional<AlgorithmLayouts>(ParallelAlgorithm)> &layoutsOf,
    std::vector<ContractionPlan> &out);

} // namespace mlir::tc

#endif // TC_LIB_ANALYSIS_TILEDPLANS_H
