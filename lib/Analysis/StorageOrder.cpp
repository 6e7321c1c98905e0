//===- StorageOrder.cpp - which labels a contraction's local arrays keep contiguous ===//
#include "TC/Analysis/StorageOrder.h"

#include <algorithm>

namespace mlir::tc {

bool prefersIContiguous(const ContractionProblem &problem) {
  auto in = [](const std::vector<std::string> &ls, const std::string &l) {
    return std::find(ls.begin(), ls.end(), l) != ls.end();
  };
  // The volume of the labels of both `x` and `y`.
  auto volume = [&](const std::vector<std::string> &x, const std::vector<std::string> &y) {
    double v = 1;
    for (const auto &[l, e] : problem.extents)
      if (in(x, l) && in(y, l))
        v *= static_cast<double>(e);
    return v;
  };
  double volI = volume(problem.labelsA, problem.labelsC);
  double volJ = volume(problem.labelsB, problem.labelsC);
  double volK = volume(problem.labelsA, problem.labelsB);
  return volI >= kLongIRatio * volJ && volI >= kLongIRatio * volK;
}

} // namespace mlir::tc
