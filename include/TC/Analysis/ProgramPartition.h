//===- ProgramPartition.h - a program's statements --------------*- C++ -*-===//
//
// A program of many contractions (a coupled-cluster iteration: intermediates
// used more than once, several results, sums of terms into one result) is a
// DAG of formulas. tc's planners take one contraction (Gao et al.) or one
// operator tree (Cociorva et al.: every intermediate feeds exactly one
// formula, each input used once), so the DAG is cut at its shared values into
// statements of that shape (docs/Derivations.md D35). Plain C++: the pass
// tc-split-program and the unit tests both call it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_PROGRAMPARTITION_H
#define TC_ANALYSIS_PROGRAMPARTITION_H

#include <string>
#include <vector>

namespace mlir::tc {

/// Values are numbered: 0..numLeaves-1 are the program's leaves (its inputs
/// and constants), numLeaves + f the result of formula f.
struct ProgramFormula {
  std::vector<int> inputs; ///< the values it multiplies (or sums)
  int init = -1;           ///< the value it accumulates into (`+=`), or -1
  /// Runs as a single contraction whatever its shape: a block-sparse one
  /// ([K]'s task pools plan one contraction, not an operator tree).
  bool single = false;
};

struct ProgramGraph {
  int numLeaves = 0;
  std::vector<bool> constantLeaf; ///< per leaf: a constant (the ones of R += c * X)
  std::vector<ProgramFormula> formulas; ///< in program order (each after its inputs)
  std::vector<int> returned;            ///< values the program returns, in order

  int valueOf(int formula) const { return numLeaves + formula; }
  int formulaOf(int value) const { return value < numLeaves ? -1 : value - numLeaves; }
};

/// One statement: an operator tree (or a single formula) whose root's value
/// is an output or an intermediate later statements read.
struct ProgramStatement {
  std::vector<int> formulas; ///< in program order; the last is the root
  std::vector<int> leaves;   ///< values it reads (leaves or earlier roots), each once
  int root() const { return formulas.back(); }
};

struct ProgramPartition {
  std::vector<ProgramStatement> statements; ///< in program order of their roots
  std::string error; ///< why the program cannot be partitioned (empty: it can)
};

/// Cuts the program at every value that cannot stay inside one operator tree:
/// one used other than exactly once by a formula's inputs (several uses, none,
/// returned, accumulated into), and the results and tc-defined inputs of a
/// formula that accumulates (`+=`), multiplies a constant or is marked
/// `single` (those run as single contractions). A tree reading one value twice is cut into single
/// formulas. Fails when a returned value is a leaf.
ProgramPartition partitionProgram(const ProgramGraph &graph);

} // namespace mlir::tc

#endif // TC_ANALYSIS_PROGRAMPARTITION_H
