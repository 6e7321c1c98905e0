//===- ContractionLowering.h - lowering one planned contraction -----------===//
//
// tc-lower-plan's state for one planned tc.contract (docs/Derivations.md D3,
// D27, D28): its arrays in the plan's distributions and the helpers the
// programs of the parallel algorithms share. Each algorithm family emits its
// program in its own file: Gao et al.'s methods (LowerGaoProgram.cpp), COSMA
// (LowerCosmaProgram.cpp) and PUMMA (LowerPummaProgram.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TC_TRANSFORMS_CONTRACTIONLOWERING_H
#define TC_TRANSFORMS_CONTRACTIONLOWERING_H

#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Analysis/CosmaSchedule.h"
#include "TC/Analysis/PummaSchedule.h"
#include "TC/Analysis/RedistributionTraffic.h"
#include "MachineSetup.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tc::lowering {

enum Role { RA = 0, RB = 1, RC = 2 };
const char *const kDefaultNames[3] = {"A", "B", "C"};

/// The HDF5 dataset (or group) and --input key of a contraction's operand:
/// the `tc.name` of the function argument it comes from (through a
/// tc.redistribute), for the result that of the function's result, else A, B
/// or C.
std::string arrayName(func::FuncOp func, Value operand, Role role);
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
  SmallVector<int64_t> fileDims;   ///< the tensor dimension of each stored one
  SmallVector<int64_t> extents, dims, skew;
  SmallVector<int64_t> split; ///< COSMA: the grid dimension splitting each block again
  SmallVector<int64_t> cyclic; ///< PUMMA: each dimension's block-cyclic block size (0: none)
  /// Tensor dimensions (and their extents) of labels of this input only,
  /// summed out as it is loaded (docs/Derivations.md D30).
  SmallVector<int64_t> summedFileDims, summedExtents;
  ArrayKind kind = ArrayKind::Distributed;
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

class ContractionLowering {
public:
  ContractionLowering(ContractOp op, func::FuncOp func, const MachineModel &machine)
      : op(op), func(func), machine(forElementType(machine, elementType(op))),
        b(op.getContext()) {}

  LogicalResult run();

private:
  LogicalResult checkShape();
  LogicalResult readPlan();
  LogicalResult buildArrays();
  LogicalResult buildLoops();
  void emitProgram(func::FuncOp newFunc);
  LogicalResult readCosmaLayout();
  LogicalResult prepareCosma();
  void emitCosmaProgram(func::FuncOp newFunc);
  LogicalResult readPummaChoice();
  void emitPummaProgram(func::FuncOp newFunc);
  /// Stage 1 ([G] 2.3): inputs given in another layout, redistributed.
  void emitGivenInputs();
  /// Stage 3 and the output: the result in its required layout, stored.
  void emitStore();
  /// A loop nest writing zeros into `buffer`.
  void emitZeroFill(Value buffer);
  Value createArray(ArrayInfo &a, Value storage);
  /// The plan's predictions; COSMA's come per rank (`volumes`).
  void emitPredictions(const RankVolumes *volumes);
  /// With no stage 1 or 3: the bytes each rank moves and reads and writes,
  /// exactly, uneven blocks and tiles included, for Gao et al.'s programs and
  /// batch (docs/Derivations.md D31).
  std::optional<RankVolumes> exactRankVolumes();
  /// How the runtime holds `a` on the plan's grid (for redistribution traffic).
  ArrayHolding holdingOf(const ArrayInfo &a) const;
  void emitGroup(unsigned n);
  void emitContraction();
  Value offsetOf(Role x, bool inside);
  SmallVector<Value> offsets(Role x, bool inside);
  SmallVector<int64_t> tileShape(Role x, unsigned group);
  bool hasLabel(Role x, const std::string &l) const {
    return llvm::is_contained(arrays[x].labels, l);
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The array's file_dims, or none when stored in the tensor's own order.
  DenseI64ArrayAttr fileDimsAttr(const ArrayInfo &a) {
    for (auto [i, d] : llvm::enumerate(a.fileDims))
      if (d != static_cast<int64_t>(i))
        return b.getDenseI64ArrayAttr(a.fileDims);
    return nullptr;
  }

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
  ArrayInfo arrays[3];
  std::map<std::string, int64_t> parts, innerTile;
  std::vector<Loop> loops;
  RedistributeOp resultRedistribution; ///< moves the result to its required layout
  /// Arrays in the given (inputs) or required (result) layouts, when they differ
  /// from the algorithm's ([G] 2.3 stages 1 and 3).
  std::optional<ArrayInfo> given[3];
  int replicated = -1; ///< the replicated operand of a replication algorithm
  /// COSMA (Kwasniewski et al.): its layout and its rounds over K.
  std::optional<CosmaLayout> cosma;
  std::vector<TileLoop> rounds;
  /// PUMMA (Choi, Dongarra, Walker): the rolled input, mode and blocks.
  std::optional<PummaChoice> pumma;
};

} // namespace mlir::tc::lowering

#endif // TC_TRANSFORMS_CONTRACTIONLOWERING_H
