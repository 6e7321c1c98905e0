//===- ContractionLowering.h - lowering one planned contraction -----------===//
//
// tc-lower-plan's state for one planned tc.contract (docs/Derivations.md D3,
// D27, D28): its arrays in the plan's distributions and the helpers the
// programs of the parallel algorithms share, with the hooks through which each
// algorithm, in its own file, emits its program (AlgorithmLowerings.h).
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_CONTRACTIONLOWERING_H
#define TC_TRANSFORMS_CONTRACTIONLOWERING_H

#include "MachineSetup.h"
#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Dialect/TCOps.h"
#include "TC/Layout/RedistributionTraffic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc::lowering {

/// The names of A, B and C when their arguments have none.
inline const PerOperand<const char *> kDefaultNames = {{"A", "B", "C"}};

/// The HDF5 dataset (or group) and --input key of a contraction's operand:
/// the `tc.name` of the function argument it comes from (through a
/// tc.redistribute), for the result that of the function's result, else A, B
/// or C.
std::string arrayName(func::FuncOp func, Value operand, Operand role);
/// True if `operand` is an argument marked tc.ones (every element 1: the
/// constant factor of a one-tensor term, tc-split-program), whose array the
/// runtime fills with ones instead of loading it.
bool isOnes(func::FuncOp func, Value operand);
/// True if two operands of a contraction in `func`, named x and y (their
/// arrays' names), would be two tensors under one name. One name is one
/// tensor when both operands are one value (an input read twice, or the
/// accumulator read as an input too), and when y is the result and `func`
/// stores it to the output file: inputs never load from there (an
/// intermediate copied into the output reads and writes one name).
bool namesClash(func::FuncOp func, StringRef x, Value xOperand, StringRef y, Value yOperand,
                bool yIsResult);

struct ArrayInfo {
  std::string name;
  std::vector<std::string> labels; ///< in stored order
  /// How it is held on the plan's grid (its tc.array's #tc.layout): per
  /// stored dimension its extent, grid dimension, skew, COSMA's split, PUMMA's
  /// block-cyclic block size and tensor dimension; the labels of this input
  /// only summed out as it is loaded (docs/Derivations.md D30).
  tc_layout::ArrayLayout layout;
  bool distributed() const { return layout.distributed(); }
  ArrayInitKind init = ArrayInitKind::Input;
  int64_t shiftDim = -1; ///< rotation: the grid dimension this array moves along
  Value handle, buffer;
};

/// One tiling loop of the nest, with its step in elements.
struct Loop {
  std::string label;
  unsigned group;
  int64_t count, step = 0;
  Value iv;
};

/// The opError "has no complete plan (missing 'field')".
LogicalResult missingPlanField(ContractOp op, StringRef field);

/// The lowering of one planned dense tc.contract: reading the plan's common
/// fields, the arrays in the algorithm's distributions, predictions, stages 1
/// and 3 of [G] 2.3. Each parallel algorithm derives from it in its own file
/// and fills in the hooks (docs/Architecture.md): Gao et al.'s methods and
/// batch (LowerGaoProgram.cpp), COSMA (LowerCosmaProgram.cpp), PUMMA
/// (LowerPummaProgram.cpp).
class ContractionLowering {
public:
  ContractionLowering(ContractOp op, func::FuncOp func, const MachineModel &machine)
      : op(op), func(func), machine(forElementType(machine, elementType(op))),
        b(op.getContext()) {}
  virtual ~ContractionLowering() = default;

  LogicalResult run();

protected:
  //===--- What each algorithm decides -----------------------------------===//
  /// Checks the plan against the algorithm and reads its own parameters,
  /// after the common fields.
  virtual LogicalResult readAlgorithm() { return success(); }
  /// With the problem built, before the arrays: the algorithm's view of the
  /// layouts (COSMA's roles, PUMMA's variant).
  virtual LogicalResult readLayouts() { return success(); }
  /// The operand the algorithm holds whole on every process, if any (Table 1).
  virtual std::optional<Operand> wholeOperand() const { return std::nullopt; }
  /// Whether that operand, the result, is kept instead as a slab of its first
  /// dimension per process, each tile's partial sums reduced into the slabs.
  virtual bool slabResult() const { return false; }
  /// The block-cyclic block size of a distributed label in the algorithm's
  /// layouts (0: contiguous blocks).
  virtual int64_t cyclicBlock(const std::string &label) const { return 0; }
  /// Whether every distributed array splits a label into the same blocks
  /// (all but PUMMA, whose labels lie on different grid dimensions).
  virtual bool splitsLabelsAlike() const { return true; }
  /// Whether the algorithm runs out of core in Gao et al.'s tiling loops
  /// (method, order, loops), all but COSMA's rounds (docs/Derivations.md D56).
  virtual bool tilesOutOfCore() const { return true; }
  /// The layout operand x is computed in.
  virtual Layout computeLayout(Operand x) const;
  /// With the arrays built: where the algorithm starts them (Cannon's skew).
  virtual LogicalResult placeArrays() { return success(); }
  /// What the program needs beyond the arrays (tiling loops, split blocks).
  virtual LogicalResult prepare() { return success(); }
  /// The algorithm's program, into the new function.
  virtual void emitProgram(func::FuncOp newFunc) = 0;

  //===--- What every algorithm's program shares -------------------------===//
  LogicalResult checkShape();
  LogicalResult readPlan();
  LogicalResult buildArrays();
  /// Stage 1 ([G] 2.3): inputs given in another layout, redistributed.
  void emitGivenInputs();
  /// Stage 3 and the output: the result in its required layout, stored.
  void emitStore();
  /// A loop nest writing zeros into `buffer`.
  void emitZeroFill(Value buffer);
  Value createArray(ArrayInfo &a, Value storage);
  /// The plan's predictions; COSMA's and PUMMA's come per rank (`volumes`).
  void emitPredictions(const RankVolumes *volumes);
  /// The plan's distribution of operand x.
  DistAttr distOf(Operand x) const {
    return x == Operand::A ? plan.getDistA() : x == Operand::B ? plan.getDistB() : plan.getDistC();
  }
  bool hasLabel(Operand x, const std::string &l) const {
    return llvm::is_contained(arrays[x].labels, l);
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  ContractOp op;
  func::FuncOp func;
  /// The tensors' element type (f32 or f64): of every array and tile buffer.
  static Type elementType(ContractOp op) { return op.getResult().getType().getElementType(); }
  /// The coefficient of the product (every tile contraction's alpha).
  double alpha() { return op.getScale().convertToDouble(); }
  const MachineModel machine; ///< the module's, in bytes of the element type
  OpBuilder b;
  Location loc = op.getLoc();
  PlanAttr plan;
  ContractionProblem problem;
  bool inCore = false, inside = false;
  std::optional<bool> iContiguous; ///< the plan's storage order, when recorded
  ParallelAlgorithm algorithm = ParallelAlgorithm::Accumulation;
  TileNest nest;
  SmallVector<int64_t> grid;
  PerOperand<ArrayInfo> arrays;
  /// Blocks per label across processes (when the algorithm splits labels alike).
  std::map<std::string, int64_t> parts;
  RedistributeOp resultRedistribution; ///< moves the result to its required layout
  /// Arrays in the given (inputs) or required (result) layouts, when they differ
  /// from the algorithm's ([G] 2.3 stages 1 and 3).
  PerOperand<std::optional<ArrayInfo>> given;
};

} // namespace mlir::tc::lowering

#endif // TC_TRANSFORMS_CONTRACTIONLOWERING_H
