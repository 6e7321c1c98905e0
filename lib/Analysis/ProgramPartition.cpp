//===- ProgramPartition.cpp - a program's statements ----------------------===//
#include "TC/Analysis/ProgramPartition.h"

#include <algorithm>
#include <functional>

namespace mlir::tc {

ProgramPartition partitionProgram(const ProgramGraph &g) {
  ProgramPartition out;
  const int n = static_cast<int>(g.formulas.size());
  const int values = g.numLeaves + n;
  for (int v : g.returned)
    if (v < g.numLeaves) {
      out.error = "the program returns its input #" + std::to_string(v) +
                  " unchanged; return computed values only";
      return out;
    }
  // Uses of each value: as a formula input, as an accumulator, returned.
  std::vector<int> inputUses(values, 0);
  std::vector<bool> special(values, false); // returned or accumulated into
  for (const ProgramFormula &f : g.formulas) {
    for (int v : f.inputs)
      ++inputUses[v];
    if (f.init >= 0)
      special[f.init] = true;
  }
  for (int v : g.returned)
    special[v] = true;
  auto readsConstant = [&](const ProgramFormula &f) {
    return std::any_of(f.inputs.begin(), f.inputs.end(), [&](int v) {
      return v < g.numLeaves && v < static_cast<int>(g.constantLeaf.size()) && g.constantLeaf[v];
    });
  };
  // A formula that accumulates or reads a constant runs alone (Gao et al.'s
  // C += A * B; the fusion planner's trees hold neither).
  std::vector<bool> alone(n, false);
  for (int f = 0; f < n; ++f)
    alone[f] = g.formulas[f].init >= 0 || g.formulas[f].single || readsConstant(g.formulas[f]);
  std::vector<bool> cut(values, false);
  for (int f = 0; f < n; ++f) {
    const int v = g.valueOf(f);
    cut[v] = inputUses[v] != 1 || special[v] || alone[f];
    if (alone[f])
      for (int in : g.formulas[f].inputs)
        if (in >= g.numLeaves)
          cut[in] = true;
  }
  // Groups grow from each cut value's formula through uncut inputs; a group
  // reading one value twice (an operator tree uses each array once) is cut
  // into single formulas.
  for (;;) {
    out.statements.clear();
    bool recut = false;
    for (int f = 0; f < n; ++f) {
      if (!cut[g.valueOf(f)])
        continue;
      ProgramStatement s;
      std::function<void(int)> grow = [&](int formula) {
        for (int in : g.formulas[formula].inputs) {
          int producer = g.formulaOf(in);
          if (producer >= 0 && !cut[in])
            grow(producer);
          else
            s.leaves.push_back(in);
        }
        if (g.formulas[formula].init >= 0)
          s.leaves.push_back(g.formulas[formula].init);
        s.formulas.push_back(formula);
      };
      grow(f);
      std::sort(s.formulas.begin(), s.formulas.end());
      std::vector<int> sorted = s.leaves;
      std::sort(sorted.begin(), sorted.end());
      if (s.formulas.size() > 1 &&
          std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        for (int x : s.formulas)
          cut[g.valueOf(x)] = true;
        recut = true;
        break;
      }
      // Leaves in order of first use, each once (an accumulator may also be a
      // product's input in a single formula: C += C * B reads C twice).
      std::vector<int> unique;
      for (int v : s.leaves)
        if (std::find(unique.begin(), unique.end(), v) == unique.end())
          unique.push_back(v);
      s.leaves = unique;
      out.statements.push_back(std::move(s));
    }
    if (!recut)
      break;
  }
  // Every formula is in exactly one statement (a value nothing uses is cut too).
  return out;
}

} // namespace mlir::tc
