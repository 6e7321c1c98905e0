//===- ProgramEvaluation.h - programs evaluated on small arrays -*- C++ -*-===//
//
// A reference evaluation of tc programs, element by element, to check that a
// rewrite (operation minimization, shared products, the split into statements
// with their tensors' names) keeps every value (docs/Derivations.md D36). Two
// readings of a program: as a function of values (SSA: every value is
// itself) and as the runtime runs its statements (every tensor lives under
// its name, a statement loads its arguments by name and stores its result,
// and an accumulation updates the tensor named as its result in place).
// Plain C++: the pass tc-check-rewrites and the unit tests both call it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_PROGRAMEVALUATION_H
#define TC_ANALYSIS_PROGRAMEVALUATION_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tc {

/// A dense array in row-major order.
struct DenseArray {
  std::vector<int64_t> shape;
  std::vector<double> data;

  /// Every element `value` (a scalar when `shape` is empty).
  static DenseArray filled(std::vector<int64_t> shape, double value);
};

/// Values numbered: the function's arguments 0..numArgs-1, then formula f's
/// result numArgs + f.
struct EvalFormula {
  std::vector<int> inputs;
  std::vector<std::vector<std::string>> labels; ///< per input, one per dimension
  std::vector<std::string> result;              ///< the result's labels
  std::vector<int64_t> shape;                   ///< the result's extents
  double scale = 1.0;
  int init = -1; ///< the value it accumulates into, or -1
  /// The result inverted element-wise (tc.reciprocal); a zero stays zero,
  /// as the absent blocks of a block-sparse tensor, which are not stored.
  bool reciprocal = false;
};

struct EvalFunction {
  int numArgs = 0;
  std::vector<EvalFormula> formulas;
  std::vector<int> returned;
};

/// result = init + scale * sum over the labels not in `result` of the product
/// of the inputs (each read with its labels).
DenseArray contract(const std::vector<const DenseArray *> &inputs,
                    const std::vector<std::vector<std::string>> &labels,
                    const std::vector<std::string> &result, const std::vector<int64_t> &shape,
                    double scale, const DenseArray *init);

/// The returned values of `f` on `args`.
std::vector<DenseArray> evaluate(const EvalFunction &f, const std::vector<DenseArray> &args);

/// One statement as the runtime runs it: argument k is loaded from the tensor
/// `args[k]` (empty: ones, a scalar or of shape `onesShapes[k]` when given:
/// a one-tensor or broadcast term's), the body's one returned value is stored as
/// `result`; when that value accumulates into an argument, the argument is the
/// tensor `result` as stored (the lowering reads C from the result's tensor).
struct EvalStatement {
  std::vector<std::string> args;
  EvalFunction body;
  std::string result;
  std::string what; ///< how a message names it
  std::vector<std::vector<int64_t>> onesShapes; ///< per argument; none: scalars
};

/// Runs `statements` in order on the tensors of `store`; empty, or why a
/// statement could not run (a tensor it loads was never stored).
std::string runStatements(const std::vector<EvalStatement> &statements,
                          std::map<std::string, DenseArray> &store);

/// max |a - b| over the elements, infinity when the shapes differ.
double maxDifference(const DenseArray &a, const DenseArray &b);

/// An array of `shape` with values in [-1, 1) drawn from `seed`.
DenseArray randomArray(const std::vector<int64_t> &shape, uint64_t seed);

} // namespace mlir::tc

#endif // TC_ANALYSIS_PROGRAMEVALUATION_H
