//===- OperationMinimization.cpp - the cheapest binary tree of a product -===//
#include "TC/Analysis/OperationMinimization.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

using namespace mlir::tc;

namespace {

/// The labels of a subset of operands that remain after contracting it: those
/// also in an operand outside the subset or in the result.
std::vector<int> keptLabels(const ProductProblem &p, unsigned subset) {
  std::set<int> inside, outside(p.result.begin(), p.result.end());
  for (size_t i = 0; i < p.operands.size(); ++i)
    for (int l : p.operands[i])
      ((subset >> i) & 1 ? inside : outside).insert(l);
  std::vector<int> kept;
  for (int l : inside)
    if (outside.count(l))
      kept.push_back(l);
  return kept;
}

double volume(const ProductProblem &p, const std::vector<int> &labels) {
  double v = 1;
  for (int l : labels)
    v *= p.extents[l];
  return v;
}

struct Best {
  double flops = std::numeric_limits<double>::infinity();
  double largest = 0; ///< largest intermediate inside the subtree (its own result included)
  unsigned left = 0;  ///< the split (0: a leaf)
};

} // namespace

double mlir::tc::directFlops(const ProductProblem &p) {
  std::set<int> all(p.result.begin(), p.result.end());
  for (const std::vector<int> &o : p.operands)
    all.insert(o.begin(), o.end());
  return static_cast<double>(p.operands.size()) *
         volume(p, std::vector<int>(all.begin(), all.end()));
}

ProductTree mlir::tc::minimizeOperations(const ProductProblem &p, double tolerance) {
  ProductTree tree;
  const size_t n = p.operands.size();
  if (n < 2 || n > 16) {
    tree.error = "a product of " + std::to_string(n) + " operands (2 to 16 are searched)";
    return tree;
  }
  const unsigned full = (1u << n) - 1;
  std::vector<std::vector<int>> kept(full + 1);
  for (unsigned s = 1; s <= full; ++s)
    kept[s] = keptLabels(p, s);
  std::vector<Best> best(full + 1);
  for (size_t i = 0; i < n; ++i)
    best[1u << i] = {0, 0, 0};
  // Subsets in increasing order: every proper subset comes first.
  for (unsigned s = 1; s <= full; ++s) {
    if ((s & (s - 1)) == 0)
      continue;
    for (unsigned left = (s - 1) & s; left > 0; left = (left - 1) & s) {
      const unsigned right = s & ~left;
      if (left < right)
        continue; // each split once
      // The step loops over the labels either side keeps.
      std::set<int> loops(kept[left].begin(), kept[left].end());
      loops.insert(kept[right].begin(), kept[right].end());
      const double flops = best[left].flops + best[right].flops +
                           2 * volume(p, std::vector<int>(loops.begin(), loops.end()));
      const double own = s == full ? 0 : volume(p, kept[s]);
      const double largest = std::max({best[left].largest, best[right].largest, own});
      Best &b = best[s];
      const bool fewer = flops < b.flops * (1 - tolerance);
      const bool close = !fewer && flops <= b.flops * (1 + tolerance);
      if (fewer || (close && (largest < b.largest || (largest == b.largest && flops < b.flops))))
        b = {flops, largest, left};
    }
  }
  // Emit the steps bottom-up.
  std::vector<int> idOf(full + 1, -1);
  for (size_t i = 0; i < n; ++i)
    idOf[1u << i] = static_cast<int>(i);
  std::vector<unsigned> stack = {full}, order;
  while (!stack.empty()) {
    unsigned s = stack.back();
    stack.pop_back();
    if ((s & (s - 1)) == 0)
      continue;
    order.push_back(s);
    stack.push_back(best[s].left);
    stack.push_back(s & ~best[s].left);
  }
  std::reverse(order.begin(), order.end());
  for (unsigned s : order) {
    const unsigned left = best[s].left, right = s & ~left;
    std::set<int> loops(kept[left].begin(), kept[left].end());
    loops.insert(kept[right].begin(), kept[right].end());
    ProductStep step{idOf[left], idOf[right], s == full ? p.result : kept[s],
                     2 * volume(p, std::vector<int>(loops.begin(), loops.end()))};
    idOf[s] = static_cast<int>(n + tree.steps.size());
    tree.flops += step.flops;
    if (s != full)
      tree.largestIntermediate = std::max(tree.largestIntermediate, volume(p, step.labels));
    tree.steps.push_back(step);
  }
  return tree;
}
