//===- TCEPairs.cpp - the pair symmetries of a program's tensors -----------===//
//
// Permutational symmetry (NWChem TCE's; docs/TCELanguage.md, "Pair
// symmetries"): a block-sparse tensor that changes sign (antisymmetric) or
// not (symmetric) when two of its indices are exchanged stores one block of
// each set the exchanges relate. Inputs and outputs declare it; an
// intermediate has it when every statement assigning it does: the statement's
// terms, with the two indices exchanged and each factor put in its canonical
// order by its own pairs, are the same terms times -1 (or +1). A term alone
// can be (V[a,b,e,f] T[e,f,i,j] in a, b), or terms pair up (the copies of
// an antisymmetrizer P(ab)). A declared output is checked the same way.
//
//===----------------------------------------------------------------------===//
#include "TC/Frontend/TCEProgram.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace mlir::tc::tce {

namespace {

using Pairs = std::vector<PairSymmetry>;

/// A product of factors, each in the canonical order of its pairs and sorted,
/// with the sign that ordering took: a key equal for equal products.
struct CanonicalTerm {
  std::vector<std::pair<std::string, std::vector<std::string>>> factors;
  double sign = 1;
};

/// `factors` with the index names `x` and `y` exchanged (none when empty),
/// each factor's indices ordered by its pairs (the smaller name first,
/// changing the sign for an antisymmetric pair), the factors sorted.
CanonicalTerm canonical(const std::vector<Factor> &factors, const std::string &x,
                        const std::string &y, const std::map<std::string, Pairs> &pairsOf) {
  CanonicalTerm out;
  for (const Factor &f : factors) {
    std::vector<std::string> indices = f.indices;
    for (std::string &index : indices)
      if (!x.empty() && index == x)
        index = y;
      else if (!x.empty() && index == y)
        index = x;
    if (auto it = pairsOf.find(f.tensor); it != pairsOf.end())
      for (const PairSymmetry &p : it->second)
        if (indices[p.second] < indices[p.first]) {
          std::swap(indices[p.first], indices[p.second]);
          out.sign *= p.antisymmetric ? -1 : 1;
        }
    out.factors.push_back({f.tensor, std::move(indices)});
  }
  std::sort(out.factors.begin(), out.factors.end());
  return out;
}

using TermSum = std::map<std::vector<std::pair<std::string, std::vector<std::string>>>, double>;

/// The statement's terms as canonical products with their summed
/// coefficients, its indices `x` and `y` exchanged first (none: empty).
TermSum termSum(const Statement &s, const std::string &x, const std::string &y,
                const std::map<std::string, Pairs> &pairsOf) {
  TermSum sum;
  for (const Term &term : s.terms) {
    CanonicalTerm c = canonical(term.factors, x, y, pairsOf);
    sum[c.factors] += term.coefficient * c.sign;
  }
  return sum;
}

/// Whether the terms of `s` change by the pair's sign when the target's
/// indices of its two dimensions are exchanged.
bool statementKeeps(const Statement &s, const PairSymmetry &pair,
                    const std::map<std::string, Pairs> &pairsOf) {
  const TermSum same = termSum(s, "", "", pairsOf);
  const TermSum exchanged =
      termSum(s, s.target.indices[pair.first], s.target.indices[pair.second], pairsOf);
  const double sign = pair.antisymmetric ? -1 : 1;
  auto coefficient = [](const TermSum &sum, const auto &key) {
    auto it = sum.find(key);
    return it == sum.end() ? 0.0 : it->second;
  };
  // Every product either sum has: exchanged, sign times what it was.
  for (const TermSum *sum : {&same, &exchanged})
    for (const auto &entry : *sum) {
      const double want = sign * coefficient(same, entry.first);
      if (std::abs(coefficient(exchanged, entry.first) - want) > 1e-12 * (1 + std::abs(want)))
        return false;
    }
  return true;
}

/// Of `candidates` (ordered by preference), disjoint pairs in that order.
Pairs disjoint(const Pairs &candidates) {
  Pairs chosen;
  std::set<int64_t> used;
  for (const PairSymmetry &p : candidates)
    if (!used.count(p.first) && !used.count(p.second)) {
      used.insert(p.first);
      used.insert(p.second);
      chosen.push_back(p);
    }
  std::sort(chosen.begin(), chosen.end(),
            [](const PairSymmetry &a, const PairSymmetry &b) { return a.first < b.first; });
  return chosen;
}

bool samePair(const PairSymmetry &a, const PairSymmetry &b) {
  return a.first == b.first && a.second == b.second && a.antisymmetric == b.antisymmetric;
}

std::string pairText(const Tensor &t, const PairSymmetry &p) {
  return std::string(p.antisymmetric ? "antisymmetric" : "symmetric") + " [" + t.indices[p.first] +
         ", " + t.indices[p.second] + "]";
}

} // namespace

bool inferPairs(Program &program, Diagnostic &error) {
  // Every intermediate starts with every pair its dimensions' segments (and
  // blocks) allow, antisymmetric preferred; pairs no statement keeps go, to
  // the greatest fixed point (a loop's carried value by induction).
  std::map<std::string, Pairs> candidates, pairsOf;
  for (const Tensor &t : program.tensors) {
    if (!t.blockSparse)
      continue;
    if (t.role != TensorRole::Intermediate) {
      if (!t.presence.pairs.empty())
        pairsOf[t.name] = t.presence.pairs;
      continue;
    }
    const std::vector<std::vector<int64_t>> segments = program.segments(t);
    Pairs &c = candidates[t.name];
    for (bool anti : {true, false})
      for (int64_t d1 = 0; d1 < static_cast<int64_t>(t.indices.size()); ++d1)
        for (int64_t d2 = d1 + 1; d2 < static_cast<int64_t>(t.indices.size()); ++d2)
          if (segments[d1] == segments[d2])
            c.push_back({d1, d2, anti});
  }
  auto assigning = [&](const std::string &name) {
    std::vector<const Statement *> out;
    for (const Statement &s : program.statements)
      if (s.target.tensor == name)
        out.push_back(&s);
    return out;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[name, c] : candidates)
      pairsOf[name] = disjoint(c);
    for (auto &[name, c] : candidates) {
      const Tensor &t = *program.findTensor(name);
      for (const PairSymmetry &p : Pairs(pairsOf[name])) {
        BlockSparseShape shape{program.segments(t), t.presence};
        shape.presence.pairs = {p};
        bool keeps = shape.verify(program.extents(t)).empty();
        for (const Statement *s : assigning(name))
          keeps = keeps && statementKeeps(*s, p, pairsOf);
        if (!keeps) {
          c.erase(std::remove_if(c.begin(), c.end(),
                                 [&](const PairSymmetry &q) { return samePair(p, q); }),
                  c.end());
          changed = true;
        }
      }
    }
  }
  for (Tensor &t : program.tensors)
    if (t.role == TensorRole::Intermediate && t.blockSparse)
      t.presence.pairs = pairsOf[t.name];
  // A declared output's pairs hold of every statement assigning it.
  for (const Statement &s : program.statements) {
    const Tensor &target = *program.findTensor(s.target.tensor);
    if (target.role == TensorRole::Intermediate)
      continue;
    for (const PairSymmetry &p : target.presence.pairs)
      if (!statementKeeps(s, p, pairsOf)) {
        error = {s.loc, "'" + target.name + "' is declared " + pairText(target, p) +
                            " but the terms assigning it here are not: exchanging " +
                            s.target.indices[p.first] + " and " + s.target.indices[p.second] +
                            (p.antisymmetric ? " does not change their sign" : " changes them")};
        return false;
      }
  }
  return true;
}

} // namespace mlir::tc::tce
