//===- OperatorTree.h - formula sequences as operator trees -----*- C++ -*-===//
//
// Cociorva et al. section 2: a sequence of formulas, each a multiplication
// Tr = X * Y or a summation Tr = sum_i X, represented as a tree whose leaves are
// the input arrays and whose root produces the result. tc's binary contraction
// T = sum_K X * Y is a multiplication node followed by the summation of K; [C]'s
// CalcCost treats it as one node whose loops include the summed indices
// (docs/Derivations.md D11), and so does this tree. Plain C++: the fusion
// planner and its tests use it.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_OPERATORTREE_H
#define TC_ANALYSIS_OPERATORTREE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tc {

/// A set of index ids (at most 64 distinct indices per tree).
using IndexSet = uint64_t;

inline IndexSet indexBit(int index) { return IndexSet(1) << index; }
inline bool contains(IndexSet set, int index) { return (set >> index) & 1; }
inline bool isSubset(IndexSet a, IndexSet b) { return (a & ~b) == 0; }

/// Sorts `sets` by size (duplicates dropped) into a chain a1 c a2 c ...; false
/// when two of them do not nest, with the first such pair in `clash`. Fused
/// loop sets of one node must form a chain: each is a prefix of its loop order.
bool orderAsChain(std::vector<IndexSet> &sets, std::pair<IndexSet, IndexSet> *clash = nullptr);

class OperatorTree {
public:
  enum class Kind { Input, Contraction, Summation };

  struct Node {
    Kind kind;
    std::string name;          ///< the array this node holds or produces
    std::vector<int> dims;     ///< its dimensions, in storage order (index ids)
    std::vector<int> children; ///< none, two (contraction) or one (summation)
    int parent = -1;
    /// [C] 3.2: v.dimens, the array's indices, and v.indices, the node's loop
    /// indices (v.dimens plus the summed ones).
    IndexSet dimens = 0, indices = 0;
    IndexSet summed() const { return indices & ~dimens; }
    bool isInput() const { return kind == Kind::Input; }
  };

  /// An input array; returns its node id. `labels` name its dimensions and
  /// `extents` their sizes; an index seen before must keep its extent.
  int addInput(const std::string &name, const std::vector<std::string> &labels,
               const std::vector<int64_t> &extents);
  /// result[labels] = sum over the other indices of lhs * rhs.
  int addContraction(const std::string &name, const std::vector<std::string> &labels,
                     int lhs, int rhs);
  /// result[labels] = sum over the child's other indices of child.
  int addSummation(const std::string &name, const std::vector<std::string> &labels,
                   int child);

  /// Empty when the tree is well formed ([C] 2: a multiplication's operands'
  /// indices all appear in its loops, a summation's result indices are its
  /// operand's, exactly one root); otherwise the first problem, naming the array
  /// and index. Errors found while building are reported here too.
  std::string verify() const;

  const std::vector<Node> &nodes() const { return nodeList; }
  const Node &node(int id) const { return nodeList[id]; }
  int root() const;
  int numIndices() const { return static_cast<int>(indexNames.size()); }
  const std::string &indexName(int index) const { return indexNames[index]; }
  int64_t extent(int index) const { return extents[index]; }
  /// Id of `label`, or -1.
  int findIndex(const std::string &label) const;
  /// Node ids, children before parents (the DP's bottom-up order).
  std::vector<int> postOrder() const;
  /// "T1(b,c,d,f)" with the dims in `keep` only (all by default).
  std::string arrayString(int id, IndexSet keep = ~IndexSet(0)) const;

private:
  int internIndex(const std::string &label, int64_t extent);
  int addNode(Node node, const std::vector<std::string> &labels);

  std::vector<std::string> indexNames;
  std::vector<int64_t> extents;
  std::vector<Node> nodeList;
  std::string firstError;
};

} // namespace mlir::tc

#endif // TC_ANALYSIS_OPERATORTREE_H
