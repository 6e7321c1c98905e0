//===- TCEBlocks.cpp - the blocks of a program's intermediates -------------===//
//
// A block-sparse intermediate is not declared: its blocks are those its terms
// can make non-zero (Krishnamoorthy et al. section 2: a block of C with no
// task is zero), so that a later statement reading it plans only those
// (docs/TCELanguage.md, "Block-sparse tensors").
//
//===----------------------------------------------------------------------===//
#include "TC/Frontend/TCEProgram.h"

#include <algorithm>
#include <map>
#include <set>

namespace mlir::tc::tce {

namespace {

using Blocks = std::set<std::vector<int64_t>>;

/// The blocks one term can make non-zero in its target, the intermediates'
/// blocks as found so far.
std::vector<std::vector<int64_t>> termBlocks(const Program &program, const Term &term,
                                             const Factor &target,
                                             const std::map<std::string, Blocks> &found) {
  std::map<std::string, int> labelOf;
  std::vector<std::vector<int64_t>> labelSegments;
  auto label = [&](const std::string &indexName) {
    auto [it, added] = labelOf.try_emplace(indexName, static_cast<int>(labelSegments.size()));
    if (added)
      labelSegments.push_back(program.findRange(program.findIndex(indexName)->range)->segments);
    return it->second;
  };
  std::vector<BlockFactor> factors;
  for (const Factor &f : term.factors) {
    BlockFactor factor;
    for (const std::string &index : f.indices)
      factor.labels.push_back(label(index));
    if (auto it = found.find(f.tensor); it != found.end())
      factor.presence = {BlockPresence::Kind::List, 0, {it->second.begin(), it->second.end()}};
    else
      factor.presence = program.findTensor(f.tensor)->presence;
    factors.push_back(std::move(factor));
  }
  std::vector<int> result;
  for (const std::string &index : target.indices)
    result.push_back(label(index));
  return productBlocks(labelSegments, factors, result);
}

} // namespace

bool inferIntermediateBlocks(Program &program, Diagnostic &error) {
  std::map<std::string, Blocks> found;
  for (const Tensor &t : program.tensors)
    if (t.role == TensorRole::Intermediate && t.blockSparse)
      found[t.name];
  if (found.empty())
    return inferRestriction(program, error);
  // Blocks only grow and are finitely many: iterate to the fixed point.
  for (bool grew = true; grew;) {
    grew = false;
    for (const Statement &s : program.statements) {
      auto target = found.find(s.target.tensor);
      if (target == found.end())
        continue;
      for (const Term &term : s.terms)
        for (std::vector<int64_t> &b : termBlocks(program, term, s.target, found))
          grew |= target->second.insert(std::move(b)).second;
    }
  }
  for (Tensor &t : program.tensors) {
    auto it = found.find(t.name);
    if (it == found.end())
      continue;
    if (it->second.empty()) {
      error = {t.loc, "no block of the block-sparse intermediate '" + t.name +
                          "' can be non-zero: the blocks of its terms' factors never meet"};
      return false;
    }
    t.presence = simplestPresence(program.segments(t), {it->second.begin(), it->second.end()});
  }
  return inferRestriction(program, error);
}

bool inferRestriction(Program &program, Diagnostic &error) {
  // The greatest fixed point: an intermediate is restricted unless a term
  // assigning it has a factor that is not (a product of tensors equal to
  // their spin flips equals its own; a loop's carried value by induction).
  std::set<std::string> restricted;
  for (const Tensor &t : program.tensors) {
    std::vector<std::vector<int64_t>> flip;
    if (t.role == TensorRole::Intermediate && t.blockSparse && program.flip(t, flip).empty())
      restricted.insert(t.name);
  }
  auto isRestricted = [&](const Factor &f) {
    const Tensor &t = *program.findTensor(f.tensor);
    return f.indices.empty() || restricted.count(t.name) ||
           (t.role != TensorRole::Intermediate && t.presence.restricted());
  };
  for (bool shrank = true; shrank;) {
    shrank = false;
    for (const Statement &s : program.statements)
      if (restricted.count(s.target.tensor))
        for (const Term &term : s.terms)
          if (!std::all_of(term.factors.begin(), term.factors.end(), isRestricted) &&
              restricted.erase(s.target.tensor))
            shrank = true;
  }
  for (Tensor &t : program.tensors)
    if (restricted.count(t.name))
      program.flip(t, t.presence.flip);
  // A declared tensor said to be restricted must be assigned restricted terms.
  for (const Statement &s : program.statements) {
    const Tensor &target = *program.findTensor(s.target.tensor);
    if (target.role == TensorRole::Intermediate || !target.presence.restricted())
      continue;
    for (const Term &term : s.terms)
      for (const Factor &f : term.factors)
        if (!isRestricted(f)) {
          error = {f.loc, "'" + target.name + "' is restricted but its term's factor '" + f.tensor +
                              "' is not: the term need not equal its spin flip"};
          return false;
        }
  }
  return true;
}

} // namespace mlir::tc::tce
