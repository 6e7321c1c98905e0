//===- TreeLabels.cpp - one name per loop of an operator tree -------------===//
#include "TC/Analysis/TreeLabels.h"

#include <functional>
#include <numeric>
#include <set>
#include <utility>

namespace mlir::tc {

std::vector<std::map<std::string, std::string>>
unifyTreeLabels(const std::vector<WrittenFormula> &formulas) {
  // Every (formula, label) is a loop of that formula; a loop read through an
  // intermediate is the producer's loop of that dimension (union-find).
  std::map<std::pair<int, std::string>, int> id;
  std::vector<std::pair<int, std::string>> loops;
  auto loopOf = [&](int f, const std::string &label) {
    auto [it, fresh] = id.try_emplace({f, label}, static_cast<int>(loops.size()));
    if (fresh)
      loops.push_back({f, label});
    return it->second;
  };
  std::set<std::string> written;
  for (int f = 0; f < static_cast<int>(formulas.size()); ++f) {
    for (const std::string &l : formulas[f].result) {
      loopOf(f, l);
      written.insert(l);
    }
    for (const std::vector<std::string> &in : formulas[f].inputs)
      for (const std::string &l : in) {
        loopOf(f, l);
        written.insert(l);
      }
  }
  std::vector<int> parent(loops.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::function<int(int)> find = [&](int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); };
  for (int f = 0; f < static_cast<int>(formulas.size()); ++f)
    for (size_t k = 0; k < formulas[f].inputs.size(); ++k) {
      int p = k < formulas[f].producers.size() ? formulas[f].producers[k] : -1;
      if (p < 0)
        continue;
      const std::vector<std::string> &read = formulas[f].inputs[k];
      for (size_t d = 0; d < read.size() && d < formulas[p].result.size(); ++d)
        parent[find(loopOf(f, read[d]))] = find(loopOf(p, formulas[p].result[d]));
    }
  // Names root first (the last formula), each loop its written name while no
  // other loop has taken it.
  std::map<int, std::string> nameOf;
  std::set<std::string> taken;
  std::vector<std::map<std::string, std::string>> out(formulas.size());
  for (int f = static_cast<int>(formulas.size()) - 1; f >= 0; --f) {
    std::vector<std::string> labels = formulas[f].result;
    for (const std::vector<std::string> &in : formulas[f].inputs)
      labels.insert(labels.end(), in.begin(), in.end());
    for (const std::string &l : labels) {
      int root = find(id.at({f, l}));
      auto it = nameOf.find(root);
      if (it == nameOf.end()) {
        std::string name = l;
        for (int n = 2; taken.count(name) || (name != l && written.count(name)); ++n)
          name = l + std::to_string(n);
        taken.insert(name);
        it = nameOf.emplace(root, name).first;
      }
      out[f][l] = it->second;
    }
  }
  return out;
}

} // namespace mlir::tc
