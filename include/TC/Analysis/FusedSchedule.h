//===- FusedSchedule.h - the loop nest of a fused operator tree -*- C++ -*-===//
//
// Turns a FusionPlan into the statements of its fused loop nest, in the shape of
// Cociorva et al.'s Fig. 2(c): each array is produced inside the loops it is
// fused on with its consumer; an array fused on fewer loops than its consumer is
// produced before those extra loops open (hoisted to the nearest enclosing
// producer whose loops it is fused on); inputs are read slice by slice, partial
// sums combined and arrays redistributed once per iteration of their fused
// loops, and the result written slice by slice. Plain C++: the lowering emits IR
// from it, tests read it as text.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_FUSEDSCHEDULE_H
#define TC_ANALYSIS_FUSEDSCHEDULE_H

#include "TC/Analysis/FusionPlanner.h"
#include "TC/Layout/ArrayLayout.h"

#include <string>
#include <vector>

namespace mlir::tc {

struct ScheduleItem {
  enum class Kind {
    Loop,         ///< for each block-local value of `index`: `body`
    Zero,         ///< clear the node's accumulator
    Load,         ///< read the input's slice in its initial distribution
    Contract,     ///< accumulate the node's local product / sum
    Combine,      ///< combine partial sums over the grid dimensions of summed indices
    Redistribute, ///< move the array from its initial to its final distribution
    Store,        ///< write the result's slice
  };
  Kind kind;
  int node = -1;           ///< the array (-1 for loops)
  int index = -1;          ///< Loop: the index it runs over
  int64_t trips = 0;       ///< Loop: ceil(N / parts) values
  /// Loop: the (virtual) blocks of its index, lcm(p_v, p_u) of the fusions it
  /// serves ([C] 3.2(iii)); each iteration takes one element of each.
  int64_t parts = 1;
  std::vector<ScheduleItem> body;
};

struct FusedSchedule {
  std::vector<ScheduleItem> program;
  std::string error; ///< a plan the loop nest cannot express
};

/// The loop nest of `plan`, which must be legal. A fused loop split into p_v
/// blocks at one end and p_u at the other runs over lcm(p_v, p_u) virtual
/// blocks: each iteration handles one element of every virtual block.
FusedSchedule buildFusedSchedule(const OperatorTree &tree, const FusionPlan &plan);

/// Bytes each rank sends and receives running `schedule` (row-major rank
/// order), exactly, uneven blocks included (docs/Derivations.md D31-D32): every
/// redistribution, as often as its enclosing loops run, moves what
/// redistributionTraffic says of its array's current slice (ceil-sized blocks,
/// `1` entries held on the first slice), and every combining of partial sums
/// over a sub-grid of g processes is the runtime's all-reduce of the padded
/// block (allReduce: recursive doubling for g a power of two, else a ring over
/// g segments that differ by one element, so the ranks' bytes differ). [C]'s
/// per-process averages (exchangeVolumes, 2 (g-1)/g blocks) choose the plan;
/// these are what each rank's counters show.
ExchangeVolumes predictedCommBytes(const OperatorTree &tree, const FusionPlan &plan,
                                   const FusedSchedule &schedule, int64_t elemBytes);

/// Node's slice array in `dist` as tc-lower-fused creates it and the runtime
/// holds it: one element per (virtual) block along a fused index ([C] 3.2(iii),
/// D32), ceil-sized blocks along the grid dimensions `dist` gives its indices,
/// on the first slice of its `1` entries.
tc_layout::ArrayLayout sliceLayout(const OperatorTree &tree, const FusionPlan &plan, int node,
                                   const Distribution &dist);

/// The nest as indented text ("for d (x70):", "  load D", ...).
std::string scheduleString(const OperatorTree &tree, const FusedSchedule &schedule);

} // namespace mlir::tc

#endif // TC_ANALYSIS_FUSEDSCHEDULE_H
