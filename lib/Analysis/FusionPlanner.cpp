//===- FusionPlanner.cpp - memory-constrained fusion and distribution -----===//
#include "TC/Analysis/FusionPlanner.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <unordered_map>

namespace mlir::tc {

namespace {

bool nests(IndexSet a, IndexSet b) { return isSubset(a, b) || isSubset(b, a); }

bool fitsExtents(const OperatorTree &tree, const Grid &grid, const Distribution &d) {
  for (size_t g = 0; g < grid.size(); ++g)
    if (d.entry[g] >= 0 && d.parts(grid, d.entry[g]) > tree.extent(d.entry[g]))
      return false;
  return true;
}

/// Loops that must come first among a node's loops fused with its parent,
/// because a descendant is fused on them alone (docs/Derivations.md D18: fusion chains' scopes
/// are disjoint or nested; a node's fused loops have one order). A chain of
/// proper, non-empty subsets of the fused set, smallest first.
struct Nesting {
  static constexpr int kMax = 6;
  std::array<IndexSet, kMax> sets{};
  bool operator<(const Nesting &o) const { return sets < o.sets; }
  bool operator==(const Nesting &o) const { return sets == o.sets; }
};

/// The members of `chain` that constrain the order within `fused`; false when
/// there are more than Nesting::kMax.
bool nestingWithin(const std::vector<IndexSet> &chain, IndexSet fused, Nesting &out) {
  int n = 0;
  out = Nesting();
  for (IndexSet set : chain)
    if (set != 0 && set != fused && isSubset(set, fused)) {
      if (n == Nesting::kMax)
        return false;
      out.sets[n++] = set;
    }
  return true;
}

/// What one node adds to a plan ([C] 3.3: memory, MoveCost, CalcCost).
struct NodeCost {
  double memBytes = 0, commSeconds = 0, calcSeconds = 0;
  double seconds() const { return commSeconds + calcSeconds; }
};

/// The costs of node `id` fixed by its edge to the parent: its array's memory,
/// MoveCost, slice I/O of an input or the result and, for a formula computing
/// in `gamma`, CalcCost and the combining of partial sums (CalcCost_j,
/// MoveCost_j) once per fused iteration.
NodeCost edgeCost(const OperatorTree &tree, const Grid &grid, int id, const FusionEdge &edge,
                  const Distribution &gamma, SumVariant variant, const FusionMachine &machine,
                  const CommCostModel &comm) {
  const OperatorTree::Node &v = tree.node(id);
  NodeCost cost;
  cost.memBytes = arrayElems(tree, grid, id, edge, machine.bothBuffers) *
                  static_cast<double>(machine.elemBytes);
  cost.commSeconds = moveCost(tree, grid, id, edge, comm);
  if (v.isInput() || v.parent < 0)
    cost.calcSeconds += sliceIOSeconds(tree, grid, id, edge, machine);
  if (v.isInput())
    return cost;
  cost.calcSeconds += 2 * calcCost(tree, grid, id, gamma) / machine.flopRate;
  int64_t group = partialSumGroup(tree, grid, id, gamma);
  if (group > 1) {
    double local = distSize(tree, grid, id, edge.produced, edge);
    double factor = msgFactor(tree, grid, id, edge);
    cost.commSeconds += factor * comm.reduceCost(local, group, variant == SumVariant::ToAll);
    cost.calcSeconds += factor * local * static_cast<double>(group - 1) /
                        static_cast<double>(group) / machine.flopRate;
  }
  return cost;
}

/// The costs of formula `id` fixed by the fused loops around its local product
/// (its own and its children's): the calls, and the working copies when memory
/// is counted as the runtime holds it.
NodeCost loopCost(const OperatorTree &tree, const Grid &grid, int id, const Distribution &gamma,
                  IndexSet loops, const FusionMachine &machine) {
  NodeCost cost;
  cost.calcSeconds = callSeconds(tree, grid, id, gamma, loops, machine);
  if (machine.bothBuffers)
    cost.memBytes = workingElems(tree, grid, id, gamma, loops) *
                    static_cast<double>(machine.elemBytes);
  return cost;
}

/// Every subset of `mask`.
std::vector<IndexSet> subsetsOf(IndexSet mask) {
  std::vector<IndexSet> out;
  for (IndexSet s = mask;; s = (s - 1) & mask) {
    out.push_back(s);
    if (s == 0)
      break;
  }
  return out;
}

/// One solution at a node ([C] 3.3): its final distribution, its fusion with the
/// parent, the subtree's cost and memory, and how it was reached.
struct Solution {
  Distribution consumed, compute, produced;
  SumVariant variant = SumVariant::None;
  IndexSet fused = 0;
  Nesting nesting;
  double seconds = 0, memBytes = 0;
  int child[2] = {-1, -1};
};

bool dominates(const Solution &a, const Solution &b) {
  return a.seconds <= b.seconds && a.memBytes <= b.memBytes;
}

/// A Pareto front in (seconds, memory), sorted by seconds ascending (so memory
/// strictly descending): insertion is a binary search plus the erasure of the
/// contiguous run it dominates ([C] 3.3 pruning of inferior solutions).
template <typename T>
bool insertPareto(std::vector<T> &front, const T &s, size_t &pruned) {
  auto pos = std::upper_bound(front.begin(), front.end(), s.seconds,
                              [](double sec, const T &e) { return sec < e.seconds; });
  // The cheapest-memory element no slower than s is the one just before pos.
  if (pos != front.begin() && std::prev(pos)->memBytes <= s.memBytes) {
    ++pruned;
    return false;
  }
  // Elements at or after pos are no faster; those not smaller are dominated.
  auto first = pos;
  while (first != front.begin() && std::prev(first)->seconds == s.seconds)
    --first; // equal seconds before pos have more memory (else s was pruned)
  auto last = first;
  while (last != front.end() && last->memBytes >= s.memBytes)
    ++last;
  pruned += static_cast<size_t>(last - first);
  front.insert(front.erase(first, last), s);
  return true;
}

/// Solutions by final distribution, fusion and nesting.
using BucketKey = std::tuple<uint32_t, IndexSet, Nesting>;
using Buckets = std::map<BucketKey, std::vector<Solution>>;

struct NodeSolutions {
  std::vector<Solution> all;
  std::unordered_map<uint32_t, std::vector<int>> byConsumed;
};

class GridSearch {
public:
  GridSearch(const OperatorTree &tree, const Grid &grid, const FusionMachine &machine,
             const CommCostModel &comm, const FusionSearchOptions &options)
      : tree(tree), grid(grid), machine(machine), comm(comm), options(options),
        solutions(tree.nodes().size()) {}

  /// Runs the DP; the root's solutions.
  const std::vector<Solution> &run() {
    for (int id : tree.postOrder())
      solve(id);
    return solutions[tree.root()].all;
  }

  /// The decisions behind one root solution.
  std::vector<NodeDecision> decisions(int rootSolution) const {
    std::vector<NodeDecision> out(tree.nodes().size());
    collect(tree.root(), rootSolution, out);
    return out;
  }

  size_t kept = 0, pruned = 0;

private:
  void collect(int node, int index, std::vector<NodeDecision> &out) const {
    const Solution &s = solutions[node].all[index];
    out[node] = NodeDecision{s.compute, s.variant, s.fused};
    const auto &children = tree.node(node).children;
    for (size_t c = 0; c < children.size(); ++c)
      collect(children[c], s.child[c], out);
  }

  const NodeDecision *fixedAt(int node) const {
    return options.fixedDistributions ? &(*options.fixedDistributions)[node] : nullptr;
  }

  /// Distributions over `indices` that split no index into more blocks than
  /// it has elements (an empty block idles a process and no slice fits it).
  std::vector<Distribution> candidates(IndexSet indices, bool replicated, bool firstSlice) const {
    std::vector<Distribution> out = enumerateDistributions(grid, indices, replicated, firstSlice);
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const Distribution &d) { return !fitsExtents(tree, grid, d); }),
              out.end());
    return out;
  }

  std::vector<IndexSet> fusionCandidates(int node) const {
    if (!options.allowFusion)
      return {0};
    return subsetsOf(tree.node(node).dimens);
  }

  bool overLimit(double memBytes) const {
    return options.limitMemory && memBytes > machine.memBytes;
  }

  void add(Buckets &buckets,
           const Solution &s) {
    if (overLimit(s.memBytes)) {
      ++pruned;
      return;
    }
    insertPareto(buckets[{s.consumed.key(), s.fused, s.nesting}], s, pruned);
  }

  void solveInput(int id,
                  Buckets &buckets) {
    const OperatorTree::Node &v = tree.node(id);
    std::vector<Distribution> initials =
        fixedAt(id) ? std::vector<Distribution>{fixedAt(id)->compute}
                    : candidates(v.dimens, false, options.firstSlice);
    for (const Distribution &alpha : candidates(v.dimens, true, false))
      for (IndexSet fused : fusionCandidates(id)) {
        // [C] 3.3: Cost(v, alpha) = 0 if NoRep(alpha), else min over beta of
        // MoveCost(v, beta, alpha); every beta is kept for its memory.
        bool free = !fixedAt(id) && alpha.noReplication(grid);
        for (const Distribution &beta : free ? std::vector<Distribution>{alpha} : initials) {
          FusionEdge edge{beta, alpha, fused};
          if (!searched(edge))
            continue;
          Solution s;
          s.consumed = alpha;
          s.compute = beta;
          s.produced = beta;
          s.fused = fused;
          NodeCost cost = edgeCost(tree, grid, id, edge, beta, SumVariant::None, machine, comm);
          s.seconds = cost.seconds();
          s.memBytes = cost.memBytes;
          add(buckets, s);
        }
      }
  }

  struct Combo {
    double seconds, memBytes;
    int child[2];
  };
  using Combos = std::map<Nesting, std::vector<Combo>>;

  void solveCompute(int id,
                    Buckets &buckets) {
    const OperatorTree::Node &u = tree.node(id);
    bool isRoot = u.parent < 0;
    std::vector<Distribution> gammas =
        fixedAt(id) ? std::vector<Distribution>{fixedAt(id)->compute}
                    : candidates(u.indices, true, false);
    std::vector<Distribution> alphas;
    if (!isRoot)
      alphas = candidates(u.dimens, true, false);
    std::vector<IndexSet> fusions = fusionCandidates(id);
    size_t numChildren = u.children.size();
    Combos combos;
    for (const Distribution &gamma : gammas) {
      const std::vector<int> *groups[2] = {nullptr, nullptr};
      bool missing = false;
      for (size_t c = 0; c < numChildren; ++c) {
        const NodeSolutions &child = solutions[u.children[c]];
        auto it = child.byConsumed.find(gamma.project(grid, tree.node(u.children[c]).dimens).key());
        if (it == child.byConsumed.end())
          missing = true;
        else
          groups[c] = &it->second;
      }
      if (missing)
        continue;
      int64_t group = partialSumGroup(tree, grid, id, gamma);
      std::vector<SumVariant> variants =
          fixedAt(id) ? std::vector<SumVariant>{fixedAt(id)->variant}
          : group > 1 && options.firstSlice
              ? std::vector<SumVariant>{SumVariant::ToOne, SumVariant::ToAll}
          : group > 1 ? std::vector<SumVariant>{SumVariant::ToAll}
                      : std::vector<SumVariant>{SumVariant::None};
      for (IndexSet fused : fusions) {
        combos.clear();
        childCombos(id, fused, groups, combos);
        if (combos.empty())
          continue;
        for (SumVariant variant : variants) {
          Distribution produced = producedDistribution(tree, grid, id, gamma, variant);
          auto consider = [&](const Distribution &alpha) {
            FusionEdge edge{produced, alpha, fused};
            if (!searched(edge))
              return;
            NodeCost own = edgeCost(tree, grid, id, edge, gamma, variant, machine, comm);
            Solution s;
            s.consumed = alpha;
            s.compute = gamma;
            s.produced = produced;
            s.variant = variant;
            s.fused = fused;
            for (const auto &[nesting, list] : combos) {
              std::vector<Solution> &bucket = buckets[{alpha.key(), fused, nesting}];
              s.nesting = nesting;
              for (const Combo &combo : list) {
                if (!childLoopsAgree(id, edge, combo))
                  continue;
                NodeCost around = loopCost(tree, grid, id, gamma, loopsOf(id, fused, combo), machine);
                s.seconds = own.seconds() + around.seconds() + combo.seconds;
                s.memBytes = own.memBytes + around.memBytes + combo.memBytes;
                if (overLimit(s.memBytes)) {
                  ++pruned;
                  continue;
                }
                s.child[0] = combo.child[0];
                s.child[1] = combo.child[1];
                insertPareto(bucket, s, pruned);
              }
            }
          };
          if (isRoot)
            consider(produced);
          else
            for (const Distribution &alpha : alphas)
              consider(alpha);
        }
      }
    }
  }

  static FusionEdge edgeOf(const Solution &s) {
    return FusionEdge{s.produced, s.consumed, s.fused};
  }

  /// The fused loops around u's local contraction: its own and its children's.
  IndexSet loopsOf(int id, IndexSet fused, const Combo &combo) const {
    const auto &children = tree.node(id).children;
    for (size_t c = 0; c < children.size(); ++c)
      fused |= solutions[children[c]].all[combo.child[c]].fused;
    return fused;
  }

  /// An edge the search weighs: virtual partitioning only when allowed, and
  /// fused loops over equal blocks when the lowering needs them.
  bool searched(const FusionEdge &edge) const {
    return (options.virtualPartitioning || fusedWithoutVirtualPartitioning(grid, edge)) &&
           (!options.equalFusedBlocks || fusedBlocksEqual(tree, grid, edge));
  }

  /// The loops u shares with its parent and with each child are one loop each.
  bool childLoopsAgree(int id, const FusionEdge &edge, const Combo &combo) const {
    const auto &children = tree.node(id).children;
    for (size_t c = 0; c < children.size(); ++c) {
      const Solution &child = solutions[children[c]].all[combo.child[c]];
      if ((child.fused & edge.fused) && !fusedLoopsAgree(grid, edgeOf(child), edge))
        return false;
    }
    return true;
  }

  /// The non-inferior pairs of children solutions whose fusions and nestings
  /// form one chain with `fused` (docs/Derivations.md D18), by the nesting they leave on u.
  void childCombos(int id, IndexSet fused, const std::vector<int> *const groups[2],
                   Combos &out) {
    const OperatorTree::Node &u = tree.node(id);
    const std::vector<Solution> &first = solutions[u.children[0]].all;
    std::vector<IndexSet> chain;
    auto consider = [&](const Solution &s0, const Solution *s1, Combo combo) {
      chain.assign({fused, s0.fused});
      for (IndexSet set : s0.nesting.sets)
        if (set)
          chain.push_back(set);
      if (s1) {
        chain.push_back(s1->fused);
        for (IndexSet set : s1->nesting.sets)
          if (set)
            chain.push_back(set);
      }
      Nesting nesting;
      if (!orderAsChain(chain) || !nestingWithin(chain, fused, nesting))
        return;
      insertPareto(out[nesting], combo, pruned);
    };
    for (int i0 : *groups[0]) {
      const Solution &s0 = first[i0];
      if (!nests(fused, s0.fused))
        continue;
      if (u.children.size() == 1) {
        consider(s0, nullptr, Combo{s0.seconds, s0.memBytes, {i0, -1}});
        continue;
      }
      const std::vector<Solution> &second = solutions[u.children[1]].all;
      for (int i1 : *groups[1]) {
        const Solution &s1 = second[i1];
        if (!nests(fused, s1.fused) || !nests(s0.fused, s1.fused) ||
            !fusedLoopsAgree(grid, edgeOf(s0), edgeOf(s1)))
          continue;
        Combo combo{s0.seconds + s1.seconds, s0.memBytes + s1.memBytes, {i0, i1}};
        if (overLimit(combo.memBytes)) {
          ++pruned;
          continue;
        }
        consider(s0, &s1, combo);
      }
    }
  }

  void solve(int id) {
    Buckets buckets;
    if (tree.node(id).isInput())
      solveInput(id, buckets);
    else
      solveCompute(id, buckets);
    // [C] 3.3: a solution is inferior to one with the same final distribution, at
    // least its potential fusions with the parent (an unfused solution nests with
    // anything), no higher cost and no more memory.
    NodeSolutions &out = solutions[id];
    for (auto &[key, bucket] : buckets) {
      auto unfused = buckets.find({std::get<0>(key), 0, Nesting()});
      for (const Solution &s : bucket) {
        if (std::get<1>(key) != 0 && unfused != buckets.end() &&
            std::any_of(unfused->second.begin(), unfused->second.end(),
                        [&](const Solution &e) { return dominates(e, s); })) {
          ++pruned;
          continue;
        }
        out.byConsumed[std::get<0>(key)].push_back(static_cast<int>(out.all.size()));
        out.all.push_back(s);
      }
    }
    kept += out.all.size();
  }

  const OperatorTree &tree;
  const Grid &grid;
  const FusionMachine &machine;
  const CommCostModel &comm;
  const FusionSearchOptions &options;
  std::vector<NodeSolutions> solutions;
};

} // namespace

std::string checkFusionLegality(const OperatorTree &tree,
                                const std::vector<IndexSet> &fusedWithParent) {
  auto names = [&](IndexSet set) {
    std::string s = "{";
    for (int i = 0; i < tree.numIndices(); ++i)
      if (contains(set, i))
        s += (s.size() > 1 ? "," : "") + tree.indexName(i);
    return s + "}";
  };
  // Bottom up, the prefixes each node's fused loops must start with (docs/Derivations.md D18).
  std::vector<std::vector<IndexSet>> up(tree.nodes().size());
  for (int id : tree.postOrder()) {
    const OperatorTree::Node &v = tree.node(id);
    if (!isSubset(fusedWithParent[id], v.dimens))
      return "array '" + v.name + "' is fused on " + names(fusedWithParent[id] & ~v.dimens) +
             ", which are not its dimensions";
    std::vector<IndexSet> chain = {fusedWithParent[id]};
    for (int c : v.children) {
      chain.push_back(fusedWithParent[c]);
      chain.insert(chain.end(), up[c].begin(), up[c].end());
    }
    std::pair<IndexSet, IndexSet> clash;
    if (!orderAsChain(chain, &clash))
      return "at '" + v.name + "', the fused loops " + names(clash.first) + " and " +
             names(clash.second) + " do not nest (a node's fused loops have one order)";
    for (IndexSet set : chain)
      if (set != 0 && set != fusedWithParent[id] && isSubset(set, fusedWithParent[id]))
        up[id].push_back(set);
  }
  return "";
}

EvaluatedPlan evaluateFusionPlan(const OperatorTree &tree, const Grid &grid,
                                 const std::vector<NodeDecision> &decisions,
                                 const FusionMachine &machine, const CommCostModel &comm) {
  EvaluatedPlan out;
  FusionPlan &plan = out.plan;
  plan.grid = grid;
  plan.nodes.resize(tree.nodes().size());
  std::vector<IndexSet> fused;
  for (const NodeDecision &d : decisions)
    fused.push_back(d.fused);
  out.error = checkFusionLegality(tree, fused);
  for (size_t id = 0; id < tree.nodes().size() && out.error.empty(); ++id) {
    int node = static_cast<int>(id);
    const OperatorTree::Node &v = tree.node(node);
    const NodeDecision &d = decisions[id];
    FusionPlan::Node &n = plan.nodes[id];
    n.decision = d;
    IndexSet allowed = v.isInput() ? v.dimens : v.indices;
    if (!isSubset(d.compute.distributed(grid), allowed)) {
      out.error = "the distribution " + d.compute.str(grid, tree) + " of '" + v.name +
                  "' names an index it does not have";
      break;
    }
    int64_t group = v.isInput() ? 1 : partialSumGroup(tree, grid, node, d.compute);
    if (v.isInput() && !d.compute.noReplication(grid)) {
      out.error = "input '" + v.name + "' cannot start replicated (" +
                  d.compute.str(grid, tree) + ")";
      break;
    }
    if ((group > 1) != (d.variant != SumVariant::None)) {
      out.error = "'" + v.name + "' " +
                  (group > 1 ? "distributes a summed index but has no partial-sum variant"
                             : "has a partial-sum variant but distributes no summed index");
      break;
    }
    n.edge.produced = v.isInput() ? d.compute
                                  : producedDistribution(tree, grid, node, d.compute, d.variant);
    n.edge.consumed = v.parent < 0 ? n.edge.produced
                                   : decisions[v.parent].compute.project(grid, v.dimens);
    n.edge.fused = d.fused;
    NodeCost cost = edgeCost(tree, grid, node, n.edge, d.compute, d.variant, machine, comm);
    if (!v.isInput()) {
      IndexSet loops = d.fused;
      for (int c : v.children)
        loops |= decisions[c].fused;
      NodeCost around = loopCost(tree, grid, node, d.compute, loops, machine);
      cost.memBytes += around.memBytes;
      cost.calcSeconds += around.calcSeconds;
    }
    n.memBytes = cost.memBytes;
    n.commSeconds = cost.commSeconds;
    n.calcSeconds = cost.calcSeconds;
    plan.memBytes += n.memBytes;
    plan.commSeconds += n.commSeconds;
    plan.calcSeconds += n.calcSeconds;
  }
  for (size_t id = 0; id < tree.nodes().size() && out.error.empty(); ++id) {
    const OperatorTree::Node &v = tree.node(static_cast<int>(id));
    std::vector<int> around = v.children;
    if (v.parent >= 0 || !v.isInput())
      around.push_back(static_cast<int>(id)); // the edge to the parent (root: output)
    for (size_t a = 0; a < around.size(); ++a)
      for (size_t b = a + 1; b < around.size(); ++b)
        if (!fusedLoopsAgree(grid, plan.nodes[around[a]].edge, plan.nodes[around[b]].edge))
          out.error = "at '" + v.name + "', the fused loops of '" + tree.node(around[a]).name +
                      "' and '" + tree.node(around[b]).name + "' are partitioned differently";
  }
  return out;
}

FusionSearchResult planFusion(const OperatorTree &tree, const FusionMachine &machine,
                              const CommCostModel &comm, const FusionSearchOptions &options) {
  FusionSearchResult result;
  result.error = tree.verify();
  if (!result.error.empty())
    return result;
  if (tree.node(tree.root()).isInput()) {
    result.error = "the tree computes nothing: its result is the input '" +
                   tree.node(tree.root()).name + "'";
    return result;
  }
  std::vector<Grid> grids = options.onlyGrid ? std::vector<Grid>{*options.onlyGrid}
                                             : logicalGrids(machine.procs, options.maxGridDims);
  result.smallestMemBytes = std::numeric_limits<double>::infinity();
  for (const Grid &grid : grids) {
    GridSearch search(tree, grid, machine, comm, options);
    const std::vector<Solution> &roots = search.run();
    result.solutionsKept += search.kept;
    result.solutionsPruned += search.pruned;
    int best = -1;
    for (size_t i = 0; i < roots.size(); ++i) {
      result.smallestMemBytes = std::min(result.smallestMemBytes, roots[i].memBytes);
      if (roots[i].memBytes > machine.memBytes)
        continue;
      if (best < 0 || roots[i].seconds < roots[best].seconds ||
          (roots[i].seconds == roots[best].seconds && roots[i].memBytes < roots[best].memBytes))
        best = static_cast<int>(i);
    }
    if (best < 0)
      continue;
    EvaluatedPlan plan =
        evaluateFusionPlan(tree, grid, search.decisions(best), machine, comm);
    result.bestPerGrid.push_back(plan.plan);
    if (!result.best || plan.plan.seconds() < result.best->seconds())
      result.best = plan.plan;
  }
  if (!result.best && options.limitMemory) {
    // Nothing fits: search again without the limit for the smallest memory.
    FusionSearchOptions unlimited = options;
    unlimited.limitMemory = false;
    FusionMachine anyMemory = machine;
    anyMemory.memBytes = std::numeric_limits<double>::infinity();
    FusionSearchResult relaxed = planFusion(tree, anyMemory, comm, unlimited);
    result.smallestMemBytes = relaxed.smallestMemBytes;
    result.solutionsKept += relaxed.solutionsKept;
    result.solutionsPruned += relaxed.solutionsPruned;
  }
  return result;
}

double sliceIOSeconds(const OperatorTree &tree, const Grid &grid, int node,
                      const FusionEdge &edge, const FusionMachine &machine) {
  if (machine.ioLatency == 0 && machine.diskBandwidth == 0)
    return 0;
  double slices = msgFactor(tree, grid, node, edge);
  double seconds = slices * machine.ioLatency;
  if (machine.diskBandwidth > 0)
    seconds += slices * distSize(tree, grid, node, edge.produced, edge) *
               static_cast<double>(machine.elemBytes) / machine.diskBandwidth;
  return seconds;
}

double callSeconds(const OperatorTree &tree, const Grid &grid, int node,
                   const Distribution &gamma, IndexSet loops, const FusionMachine &machine) {
  if (machine.callOverhead == 0)
    return 0;
  double calls = 1;
  for (int i = 0; i < tree.numIndices(); ++i)
    if (contains(loops, i)) {
      int64_t parts = gamma.parts(grid, i);
      calls *= static_cast<double>(tc_layout::ceilDiv(tree.extent(i), parts));
    }
  return calls * machine.callOverhead;
}

DecoupledResult planDecoupled(const OperatorTree &tree, const FusionMachine &machine,
                              const CommCostModel &comm, int maxGridDims) {
  DecoupledResult out;
  FusionSearchOptions first;
  first.maxGridDims = maxGridDims;
  first.allowFusion = false;
  first.limitMemory = false;
  FusionMachine anyMemory = machine;
  anyMemory.memBytes = std::numeric_limits<double>::infinity();
  FusionSearchResult optimal = planFusion(tree, anyMemory, comm, first);
  if (!optimal.best) {
    out.fused.error = optimal.error.empty() ? "no plan at all" : optimal.error;
    return out;
  }
  out.unfused = *optimal.best;
  std::vector<NodeDecision> fixed;
  for (const FusionPlan::Node &n : out.unfused.nodes)
    fixed.push_back(n.decision);
  FusionSearchOptions second;
  second.fixedDistributions = &fixed;
  second.onlyGrid = out.unfused.grid;
  out.fused = planFusion(tree, machine, comm, second);
  return out;
}

} // namespace mlir::tc
