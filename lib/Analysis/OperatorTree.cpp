//===- OperatorTree.cpp - formula sequences as operator trees -------------===//
#include "TC/Analysis/OperatorTree.h"

#include <algorithm>
#include <functional>

namespace mlir::tc {

bool orderAsChain(std::vector<IndexSet> &sets, std::pair<IndexSet, IndexSet> *clash) {
  std::sort(sets.begin(), sets.end(), [](IndexSet a, IndexSet b) {
    int pa = __builtin_popcountll(a), pb = __builtin_popcountll(b);
    return pa != pb ? pa < pb : a < b;
  });
  sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
  for (size_t i = 1; i < sets.size(); ++i)
    if (!isSubset(sets[i - 1], sets[i])) {
      if (clash)
        *clash = {sets[i - 1], sets[i]};
      return false;
    }
  return true;
}

int OperatorTree::findIndex(const std::string &label) const {
  for (size_t i = 0; i < indexNames.size(); ++i)
    if (indexNames[i] == label)
      return static_cast<int>(i);
  return -1;
}

int OperatorTree::internIndex(const std::string &label, int64_t extent) {
  int id = findIndex(label);
  if (id >= 0) {
    if (extent > 0 && extents[id] != extent && firstError.empty())
      firstError = "index '" + label + "' has extent " + std::to_string(extent) +
                   " here and " + std::to_string(extents[id]) + " elsewhere";
    return id;
  }
  if (indexNames.size() == 64) {
    if (firstError.empty())
      firstError = "more than 64 distinct indices";
    return 63;
  }
  if (extent < 1 && firstError.empty())
    firstError = "index '" + label + "' has extent " + std::to_string(extent);
  indexNames.push_back(label);
  extents.push_back(extent);
  return static_cast<int>(indexNames.size()) - 1;
}

int OperatorTree::addNode(Node node, const std::vector<std::string> &labels) {
  for (const std::string &label : labels) {
    int id = findIndex(label);
    if (id < 0) {
      if (firstError.empty())
        firstError = "array '" + node.name + "': index '" + label +
                     "' appears in none of its operands";
      id = internIndex(label, 1);
    }
    if (contains(node.dimens, id) && firstError.empty())
      firstError = "array '" + node.name + "' repeats index '" + label + "'";
    node.dims.push_back(id);
    node.dimens |= indexBit(id);
  }
  int self = static_cast<int>(nodeList.size());
  for (int child : node.children) {
    if (child < 0 || child >= self) {
      if (firstError.empty())
        firstError = "array '" + node.name + "' refers to an unknown operand";
      continue;
    }
    if (nodeList[child].parent >= 0 && firstError.empty())
      firstError = "array '" + nodeList[child].name +
                   "' is used twice (an operator tree uses each array once)";
    nodeList[child].parent = self;
    node.indices |= nodeList[child].dimens;
  }
  node.indices |= node.dimens;
  nodeList.push_back(std::move(node));
  return self;
}

int OperatorTree::addInput(const std::string &name, const std::vector<std::string> &labels,
                           const std::vector<int64_t> &sizes) {
  if (labels.size() != sizes.size() && firstError.empty())
    firstError = "input '" + name + "' has " + std::to_string(labels.size()) +
                 " labels but " + std::to_string(sizes.size()) + " extents";
  for (size_t i = 0; i < labels.size(); ++i)
    internIndex(labels[i], i < sizes.size() ? sizes[i] : 1);
  return addNode(Node{Kind::Input, name, {}, {}, -1, 0, 0}, labels);
}

int OperatorTree::addContraction(const std::string &name,
                                 const std::vector<std::string> &labels, int lhs, int rhs) {
  return addNode(Node{Kind::Contraction, name, {}, {lhs, rhs}, -1, 0, 0}, labels);
}

int OperatorTree::addSummation(const std::string &name, const std::vector<std::string> &labels,
                               int child) {
  return addNode(Node{Kind::Summation, name, {}, {child}, -1, 0, 0}, labels);
}

int OperatorTree::root() const {
  for (size_t id = 0; id < nodeList.size(); ++id)
    if (nodeList[id].parent < 0)
      return static_cast<int>(id);
  return -1;
}

std::string OperatorTree::verify() const {
  if (!firstError.empty())
    return firstError;
  if (nodeList.empty())
    return "the tree has no arrays";
  int roots = 0;
  for (const Node &node : nodeList) {
    roots += node.parent < 0;
    // Multiplication: IX u IY within the loops, which is true by construction;
    // the result must use only loop indices (checked in addNode). Summation: the
    // result indices must be the operand's (they are, by the same check).
    if (node.kind == Kind::Summation && node.summed() == 0)
      return "summation '" + node.name + "' sums over no index";
  }
  if (roots != 1)
    return "the arrays form " + std::to_string(roots) +
           " trees; an operator tree has exactly one result";
  return "";
}

std::vector<int> OperatorTree::postOrder() const {
  std::vector<int> order;
  std::function<void(int)> visit = [&](int id) {
    for (int child : nodeList[id].children)
      visit(child);
    order.push_back(id);
  };
  if (root() >= 0)
    visit(root());
  return order;
}

std::string OperatorTree::arrayString(int id, IndexSet keep) const {
  const Node &node = nodeList[id];
  std::string s = node.name + "(";
  bool first = true;
  for (int index : node.dims)
    if (contains(keep, index)) {
      s += (first ? "" : ",") + indexNames[index];
      first = false;
    }
  return s + ")";
}

} // namespace mlir::tc
