//===- TCEProgram.cpp - a parsed tensor-expression program ----------------===//
#include "TC/Frontend/TCEProgram.h"

#include <algorithm>
#include <set>

namespace mlir::tc::tce {

const Index *Program::findIndex(std::string_view indexName) const {
  for (const Index &index : indices)
    if (index.name == indexName)
      return &index;
  return nullptr;
}

const Tensor *Program::findTensor(std::string_view tensorName) const {
  for (const Tensor &tensor : tensors)
    if (tensor.name == tensorName)
      return &tensor;
  return nullptr;
}

const IndexRange *Program::findRange(std::string_view rangeName) const {
  for (const IndexRange &range : ranges)
    if (range.name == rangeName)
      return &range;
  return nullptr;
}

std::vector<std::vector<int64_t>> Program::segments(const Tensor &t) const {
  std::vector<std::vector<int64_t>> result;
  for (const std::string &indexName : t.indices) {
    const Index *index = findIndex(indexName);
    const IndexRange *range = index ? findRange(index->range) : nullptr;
    result.push_back(range ? range->segments : std::vector<int64_t>{});
  }
  return result;
}

std::vector<std::vector<int64_t>> Program::symmetricBlocks(const Tensor &t,
                                                           std::optional<int64_t> symmetry,
                                                           const ChargeRule *charge) const {
  std::vector<const IndexRange *> ranges;
  for (const std::string &indexName : t.indices)
    ranges.push_back(findRange(findIndex(indexName)->range));
  // Every block, row-major (a scalar has one, empty, block), kept when its
  // segments' labels XOR to the symmetry and their signed charges sum to the
  // rule's total.
  std::vector<std::vector<int64_t>> blocks;
  for (std::vector<int64_t> &ids : BlockSparseShape{segments(t), BlockPresence{}}.presentBlocks()) {
    int64_t x = 0, sum = 0;
    for (size_t d = 0; d < ids.size(); ++d) {
      x ^= ranges[d]->label(ids[d]);
      if (charge)
        sum += charge->signs[d] * ranges[d]->charge(ids[d]);
    }
    if ((!symmetry || x == *symmetry) && (!charge || sum == charge->total))
      blocks.push_back(std::move(ids));
  }
  return blocks;
}

std::vector<int64_t> Program::extents(const Tensor &t) const {
  std::vector<int64_t> result;
  result.reserve(t.indices.size());
  for (const std::string &indexName : t.indices) {
    const Index *index = findIndex(indexName);
    result.push_back(index ? index->extent : 0);
  }
  return result;
}

std::vector<std::string> Program::carried(const Loop &loop) const {
  const auto first = statements.begin() + loop.first, last = first + loop.count;
  std::set<std::string> assignedInLoop, assignedSoFar;
  for (auto s = first; s != last; ++s)
    assignedInLoop.insert(s->target.tensor);
  std::vector<std::string> out;
  auto read = [&](const std::string &t) {
    if (assignedInLoop.count(t) && !assignedSoFar.count(t) &&
        std::find(out.begin(), out.end(), t) == out.end())
      out.push_back(t);
  };
  for (auto s = first; s != last; ++s) {
    for (const Term &term : s->terms)
      for (const Factor &f : term.factors)
        read(f.tensor);
    if (s->accumulate)
      read(s->target.tensor);
    assignedSoFar.insert(s->target.tensor);
  }
  return out;
}

} // namespace mlir::tc::tce
