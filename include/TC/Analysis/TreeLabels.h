//===- TreeLabels.h - one name per loop of an operator tree -----*- C++ -*-===//
//
// Cociorva et al. (section 2) name every loop of an operator tree once: an
// intermediate's dimensions carry the same index names in the formula that
// produces it and in the one that reads it, and two different loops never
// share a name. A program's statements are written formula by formula, each
// with its own labels (`X2[i] = X1[b,i] * A[i]; O[a] = B[a,j,i] * X2[j]`
// reads X2's `i` as `j` and sums an unrelated `i`), so before a tree is
// planned its labels are renamed to the tree's names. Plain C++: the pass
// tc-fuse-distribute and the unit tests both call it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_TREELABELS_H
#define TC_ANALYSIS_TREELABELS_H

#include <map>
#include <string>
#include <vector>

namespace mlir::tc {

/// One formula of a tree as written: its result's labels and, per input, the
/// labels it reads that input with and the formula that produces it (-1 for
/// an input of the tree). Producers come before their reader.
struct WrittenFormula {
  std::vector<std::string> result;
  std::vector<std::vector<std::string>> inputs;
  std::vector<int> producers;
};

/// Per formula, the tree's name of each of its labels. A label read from an
/// intermediate gets the name of the producer's label in that position; every
/// other loop gets a name no other loop has. Names are kept where they clash
/// with nothing (the root's first), so a tree written consistently is renamed
/// to itself; otherwise a label becomes its name and the first free number.
std::vector<std::map<std::string, std::string>>
unifyTreeLabels(const std::vector<WrittenFormula> &formulas);

} // namespace mlir::tc

#endif // TC_ANALYSIS_TREELABELS_H
