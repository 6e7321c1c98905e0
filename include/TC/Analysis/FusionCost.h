//===- FusionCost.h - Cociorva et al.'s size and cost formulas --*- C++ -*-===//
//
// The formulas of Cociorva et al. section 3.2-3.3 (docs/Derivations.md D13-D16) for one node of
// an operator tree and the edge to its parent: DistSize/DistRange (memory),
// MsgFactor/LoopRange and MoveCost (communication, with Mcost supplied by a
// CommCostModel), CalcCost (computation), and virtual partitioning by
// lcm(p_u, p_v) (section 3.2(iii)).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_FUSIONCOST_H
#define TC_ANALYSIS_FUSIONCOST_H

#include "TC/Analysis/CommCostModel.h"
#include "TC/Analysis/Decisions.h"
#include "TC/Analysis/OperatorTree.h"
#include "TC/Analysis/ProcessorGrid.h"

namespace mlir::tc {

/// The edge from node v to its parent: v's array as produced (the input's initial
/// distribution, or the distribution v computes it in) and as its parent consumes
/// it, both as seen from the array, and the loops fused between v and the parent
/// ([C] Set(f)). For the root, `consumed` equals `produced` and `fused` are the
/// loops along which the result is written out slice by slice.
struct FusionEdge {
  Distribution produced, consumed;
  IndexSet fused = 0;
};

/// [C] 3.2(iii): a fused index t split over p_v processes at v and p_u at its
/// parent runs over lcm(p_v, p_u) virtual processes at both.
int64_t virtualParts(const Grid &grid, const FusionEdge &edge, int t);

/// True when every fused index is split into the same number of blocks at both
/// ends of the edge: the fused loop needs no virtual partitioning.
bool fusedWithoutVirtualPartitioning(const Grid &grid, const FusionEdge &edge);

/// True when every fused index's (virtual) blocks divide its extent: the fused
/// loop runs over equal blocks.
bool fusedBlocksEqual(const OperatorTree &tree, const Grid &grid, const FusionEdge &edge);

/// A fused loop is one loop at the node it passes through: every edge fusing
/// index t at that node must partition it alike, lcm included ([SYNTHESIS]; [C]
/// states the lcm rule per edge). True when edges `a` and `b` agree on their
/// common fused indices.
bool fusedLoopsAgree(const Grid &grid, const FusionEdge &a, const FusionEdge &b);

/// [C] 3.2(i) DistRange(i, v, alpha, Set(f)): the local extent of dimension i of
/// v's array in distribution `alpha` (the edge's produced or consumed side): 1 if
/// fused (p_virtual / p_alpha(i) when virtually partitioned), N_i / p_d if
/// distributed along d, N_i otherwise. Unrounded, as [C]'s tables use it.
double distRange(const OperatorTree &tree, const Grid &grid, int i,
                 const Distribution &alpha, const FusionEdge &edge);

/// [C] 3.2(i) DistSize: elements of v's array per holding process in `alpha`.
double distSize(const OperatorTree &tree, const Grid &grid, int node,
                const Distribution &alpha, const FusionEdge &edge);

/// [C] 3.2(ii) LoopRange(i, v, alpha, Set(f)): trips of fused loop i, N_i divided
/// by its (virtual) process count; 1 for an unfused i.
double loopRange(const OperatorTree &tree, const Grid &grid, int i, const FusionEdge &edge);

/// [C] 3.2(ii) MsgFactor: how many times the redistribution runs, the product of
/// LoopRange over v's dimensions.
double msgFactor(const OperatorTree &tree, const Grid &grid, int node, const FusionEdge &edge);

/// [C] 3.2(ii) MoveCost(v, produced, consumed, f) = MsgFactor * Mcost(DistSize);
/// 0 when both sides partition the array alike. Within one fused iteration a
/// fused index's p_virtual / p slices keep their tuple entries: slices split over
/// the same grid dimension at both ends stay put, others move like any block.
double moveCost(const OperatorTree &tree, const Grid &grid, int node, const FusionEdge &edge,
                const CommCostModel &comm);

/// Memory of v's array per process in elements: the larger of its sizes before
/// and after the redistribution ([C] 3.2(i)), or, with `bothBuffers`, their sum
/// when it is redistributed (tc's runtime holds the old and the new block).
double arrayElems(const OperatorTree &tree, const Grid &grid, int node, const FusionEdge &edge,
                  bool bothBuffers = false);

/// Elements of the working copies tc's runtime may make for one local
/// contraction of compute node `node` in `gamma` inside its fused loops `loops`
/// (a permuted copy of each operand's current slice and of the result's): the
/// sum of the three slices ([SYNTHESIS]; [C] counts arrays only).
double workingElems(const OperatorTree &tree, const Grid &grid, int node,
                    const Distribution &gamma, IndexSet loops);

/// [C] 3.3 CalcCost(v, gamma): v's multiply-adds per process, the product of its
/// loop extents over the processes working on distinct parts. When gamma
/// distributes a summed index each process computes partial sums over its part
/// (the product then also divides by that index's processes; [C]'s CalcCost_1/2
/// add the combining, see partialSumGroup).
double calcCost(const OperatorTree &tree, const Grid &grid, int node, const Distribution &gamma);

/// Processes whose partial sums a compute node in `gamma` must combine: the
/// product of the grid extents carrying its summed indices (1: no combining).
int64_t partialSumGroup(const OperatorTree &tree, const Grid &grid, int node,
                        const Distribution &gamma);

/// The distribution a compute node in `gamma` produces its array in: gamma seen
/// from the array, the summed indices' grid dimensions `1` or `*` by `variant`.
Distribution producedDistribution(const OperatorTree &tree, const Grid &grid, int node,
                                  const Distribution &gamma, SumVariant variant);

} // namespace mlir::tc

#endif // TC_ANALYSIS_FUSIONCOST_H
