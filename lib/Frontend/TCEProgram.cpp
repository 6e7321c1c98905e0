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

std::string IndexRange::partners(std::vector<int64_t> &out) const {
  out.clear();
  if (!flip.empty()) {
    const int64_t n = static_cast<int64_t>(segments.size());
    if (static_cast<int64_t>(flip.size()) != n)
      return "range '" + name + "' has " + std::to_string(n) + " segments but a flip of " +
             std::to_string(flip.size());
    for (int64_t s = 0; s < n; ++s)
      if (flip[s] >= n)
        return "range '" + name + "' flips segment " + std::to_string(s) + " to segment " +
               std::to_string(flip[s]) + ", which it does not have";
    for (int64_t s = 0; s < n; ++s) {
      const int64_t t = flip[s];
      if (flip[t] != s)
        return "range '" + name + "' flips segment " + std::to_string(s) + " to " +
               std::to_string(t) + " but " + std::to_string(t) + " to " + std::to_string(flip[t]) +
               " (flipping twice must give it back)";
      if (segments[t] != segments[s] || charge(t) != -charge(s))
        return "range '" + name + "' flips segment " + std::to_string(s) + " (length " +
               std::to_string(segments[s]) + ", charge " + std::to_string(charge(s)) +
               ") to one of length " + std::to_string(segments[t]) + ", charge " +
               std::to_string(charge(t)) + " (a partner has its length and the opposite charge)";
    }
    out = flip;
    return "";
  }
  for (size_t s = 0; s < segments.size(); ++s) {
    std::vector<int64_t> found;
    for (size_t t = 0; t < segments.size(); ++t)
      if (segments[t] == segments[s] && charge(t) == -charge(s) &&
          (labels.empty() || labels[t] == labels[s]))
        found.push_back(static_cast<int64_t>(t));
    if (charge(s) == 0)
      found = {static_cast<int64_t>(s)};
    if (found.size() != 1)
      return "segment " + std::to_string(s) + " of range '" + name + "' (length " +
             std::to_string(segments[s]) +
             (labels.empty() ? "" : ", label " + std::to_string(labels[s])) + ", charge " +
             std::to_string(charge(s)) + ") has " + std::to_string(found.size()) +
             " segments of equal length" + (labels.empty() ? "" : " and label") +
             " with the opposite charge; a spin flip pairs it with exactly one";
    out.push_back(found.front());
  }
  return "";
}

std::string Program::flip(const Tensor &t, std::vector<std::vector<int64_t>> &out) const {
  out.clear();
  for (const std::string &indexName : t.indices) {
    std::vector<int64_t> partners;
    if (std::string why = findRange(findIndex(indexName)->range)->partners(partners); !why.empty())
      return why;
    out.push_back(std::move(partners));
  }
  return "";
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
