//===- PlanProblems.h - IR -> the planners' problems ------------*- C++ -*-===//
//
// What the planners are asked: a tc.contract as Gao et al.'s ContractionProblem
// (labels, extents and the layouts given by neighbouring tc.redistribute ops, [G]
// section 2.3), and a function's tc.contract/tc.sum ops as Cociorva et al.'s
// OperatorTree ([C] section 2).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_PLANPROBLEMS_H
#define TC_LIB_TRANSFORMS_PLANPROBLEMS_H

#include "TC/Analysis/BlockSparse.h"
#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Analysis/OperatorTree.h"
#include "TC/Dialect/TCOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace mlir::tc {

/// Labels, extents and constrained layouts (from a producing or consuming
/// tc.redistribute) of a binary contraction; emits an error on failure.
FailureOr<ContractionProblem> buildProblem(ContractOp op);

/// The block structure of a contraction over block-sparse operands
/// (#tc.blocks on every operand, which the verifier ensures agree): labels
/// numbered in order of appearance (C's, then A's, then B's).
BlockContraction buildBlockContraction(ContractOp op);

/// Whether `op` has block-sparse operands.
bool isBlockSparse(ContractOp op);

/// The contraction by which an earlier statement function computed `operand`
/// of `op` (an argument of `op`'s statement function) and kept it in memory:
/// that of the latest statement function before it (in the module's order,
/// for the same process count) whose result is the argument's name, when it
/// has `tc.in_memory`; null otherwise. Where the runtime holds the operand
/// follows from its plan (docs/Derivations.md D45, D49).
ContractOp keptProducerOf(ContractOp op, Value operand);

/// The contraction whose load of `operand` of `op`, an input of the program
/// (a name no statement stores), the runtime keeps for later statements
/// (D44): that of the first statement function before `op`'s (the module's
/// order, the same process count) marked tc.keep_inputs that reads the name,
/// and which of its operands does. None when no such statement comes first.
std::optional<std::pair<ContractOp, Operand>> keptInputLoaderOf(ContractOp op, Value operand);

/// A function's operator tree and, per node, the IR it came from.
struct FunctionTree {
  OperatorTree tree;
  std::vector<Value> values;       ///< the array of each node
  std::vector<Operation *> ops;    ///< the producing tc op (null for inputs)
  /// The element type of every array (the ops' verifiers make a tree's one).
  Type elementType() const {
    return cast<RankedTensorType>(values[tree.root()].getType()).getElementType();
  }
};

/// True when `func` holds two or more tc.contract/tc.sum ops (an operator tree
/// for tc-fuse-distribute rather than one contraction for Gao's planner).
bool hasOperatorTree(func::FuncOp func);

/// The operator tree of `func`: inputs are its arguments (and other values not
/// produced by tc ops), every tc.contract/tc.sum a node; emits an error naming the
/// op when the ops do not form one tree (a result used twice, or not by the
/// return). Arrays are named as their HDF5 datasets: an input by its `tc.name`
/// argument attribute, else A, B, C, ... by position; the result by the `tc.name`
/// result attribute, else R; intermediates T1, T2, ... in program order.
/// Every intermediate is read with the labels its formula writes, and two
/// loops never share a label (docs/Derivations.md D36); emits an error naming
/// the reading op otherwise (renameTreeLabels makes a tree so).
FailureOr<FunctionTree> buildFunctionTree(func::FuncOp func);

/// Renames the labels of a function's tc.contract/tc.sum ops to the tree's
/// names (lib/Analysis/TreeLabels): a function written formula by formula,
/// each with its own labels, then reads as one operator tree. Changes no value.
void renameTreeLabels(func::FuncOp func);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_PLANPROBLEMS_H
