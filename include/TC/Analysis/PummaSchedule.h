//===- PummaSchedule.h - PUMMA for one contraction over labels --*- C++ -*-===//
//
// Choi, Dongarra and Walker's PUMMA (block-cyclic matrix multiplication on any
// P x Q template, MDB2 and the transposed variants) applied to
// C(I,J) += A(I,K) * B(K,J) over labels (docs/Derivations.md D28). One label
// of each of I, J and K is distributed, possibly block-cyclically, over a 2-d
// grid; the input X ("roll") moves along grid dimension R, one step per stage,
// grid[R] stages in all, so every process sees every residue class of X's
// distributed label along R once. The other input Y and C stay in place.
//
// - gather (MDB2, section 3.1): X holds K along R. At each stage the processes
//   along the other grid dimension G gather the K blocks of Y matching X's
//   current ones (the "columncast" of B), and C += X * panel(Y) locally.
// - reduce (A^T B and A B^T, section 3.2): X holds its free label along R and
//   K along G, like Y. At each stage a process multiplies its K share into a
//   partial panel of C (X's current free blocks), and the partial panels are
//   summed into their owners along G.
// A^T B^T is gather with C computed in the transposed placement and then
// redistributed (the paper's (B A)^T), which the planner's stage-3 cost covers.
//
// The block arithmetic is the runtime's (block-cyclic ownership and local
// indices, whole padded buffers rolled, only real elements gathered or
// reduced), so the bytes predicted here for every rank are the bytes it moves.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_PUMMASCHEDULE_H
#define TC_ANALYSIS_PUMMASCHEDULE_H

#include "TC/Analysis/ContractionPlanner.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tc {

enum class PummaMode { Gather, Reduce };

/// PUMMA's decisions for one contraction: the grid, the rolled input, the
/// mode, the roll dimension, the distributed labels and their block sizes.
struct PummaChoice {
  std::vector<int64_t> grid; ///< [g0, g1]
  Operand roll = Operand::A; ///< X: A or B
  PummaMode mode = PummaMode::Gather;
  int64_t rollDim = 1;       ///< R: the grid dimension X moves along
  std::string i, j, k;       ///< the distributed label of I, J and K
  /// Block-cyclic block size of i, j and k (0: contiguous blocks).
  int64_t blockI = 0, blockJ = 0, blockK = 0;

  int64_t stages() const { return grid[rollDim]; }
  Operand other() const { return roll == Operand::A ? Operand::B : Operand::A; }
  /// X's free label (i for A, j for B) and Y's.
  const std::string &freeX() const { return roll == Operand::A ? i : j; }
  const std::string &freeY() const { return roll == Operand::A ? j : i; }
  int64_t blockOf(const std::string &label) const;
  /// The compute layout of x: gather puts X's K on R and its free label on G,
  /// reduce the reverse; Y holds K on G and its free label on R; C holds
  /// X's free label on G and Y's on R.
  Layout layout(Operand x) const;
};

/// The choice the three compute layouts and a rolled input describe, or an
/// error naming the rule they break: a 2-d grid; each array distributes one
/// label of each of its two macro-indices, the same label wherever it occurs,
/// with the same block size; X and Y hold K on different grid dimensions
/// (gather) or on the same one (reduce); C holds X's free label on the grid
/// dimension X does not move along; gather needs K block-cyclic (a block size
/// > 0) and reduce X's free label.
struct PummaChoiceOrError {
  std::optional<PummaChoice> value;
  std::string error;
};
PummaChoiceOrError pummaChoiceOf(const ContractionProblem &problem, const MacroIndices &macro,
                                 const std::vector<int64_t> &grid, Operand roll,
                                 const Layout &a, const Layout &b, const Layout &c);

/// Bytes each rank sends and receives: grid[R] - 1 rolls of X's whole padded
/// block, and per stage the gather of Y's panel or the reduction of C's.
RankVolumes pummaVolumes(const ContractionProblem &problem, const PummaChoice &choice,
                         int64_t elemBytes);

/// The padded per-process sizes the lowering allocates, in elements: X's,
/// Y's and C's blocks, and the panel (of Y when gathering, of C's partial
/// sums when reducing).
struct PummaBuffers {
  double x = 0, y = 0, c = 0, panel = 0;
  double total() const { return x + y + c + panel; }
};
PummaBuffers pummaBuffers(const ContractionProblem &problem, const PummaChoice &choice);

/// Rows of a panel of `extent` in blocks of `block`: the residue class's
/// blocks (ceil(blocks / modulus)), padded to whole blocks.
int64_t pummaPanelRows(int64_t extent, int64_t block, int64_t modulus);

/// PUMMA's plan for `problem` on `machine`, in core: every grid of P with two
/// dimensions, both rolled inputs, both modes, both roll dimensions, and block
/// sizes from the given layouts (used in place when they fit PUMMA) or lcm
/// blocking of K (Choi et al. section 3.1's LCM blocks); the cheapest in
/// seconds including the redistribution of given inputs and of the result
/// into its required layout. `roll`: only that rolled input. nullopt with a
/// remark when none applies or fits.
std::optional<ContractionPlan> planPumma(const ContractionProblem &problem,
                                         const MacroIndices &macro, const MachineModel &machine,
                                         std::vector<std::string> &remarks,
                                         std::optional<Operand> roll = std::nullopt);

/// The plan of one choice (volumes, buffers, redistribution costs), or nullopt
/// when its buffers do not fit in memory.
std::optional<ContractionPlan> pummaPlanOf(const ContractionProblem &problem,
                                           const PummaChoice &choice,
                                           const MachineModel &machine);

} // namespace mlir::tc

#endif // TC_ANALYSIS_PUMMASCHEDULE_H
