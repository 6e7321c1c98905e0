//===- ContractionPlanner.cpp - plan one binary contraction ---------------===//
#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Analysis/AlgorithmPlanner.h"

#include "TC/Analysis/ProcessorGrid.h"
#include "TC/Analysis/StorageOrder.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

namespace mlir::tc {

namespace {

/// The loops of a group sorted by label (then count): a #tc.plan group is a
/// dictionary, so its loops come back in this order.
std::vector<TileLoop> sortedLoops(std::vector<TileLoop> loops) {
  std::sort(loops.begin(), loops.end(), [](const TileLoop &a, const TileLoop &b) {
    return a.label != b.label ? a.label < b.label : a.count < b.count;
  });
  return loops;
}

bool sameLoops(const TileNest &a, const TileNest &b) {
  if (a.order != b.order)
    return false;
  for (size_t g = 0; g < a.groups.size(); ++g)
    if (sortedLoops(a.groups[g]) != sortedLoops(b.groups[g]))
      return false;
  return true;
}

std::string describe(const PlanDecisions &d) {
  std::ostringstream os;
  if (d.inCore)
    os << " in_core = " << (*d.inCore ? "true" : "false");
  if (d.method)
    os << " method = " << toString(*d.method);
  if (d.algorithm)
    os << " algorithm = " << toString(*d.algorithm);
  if (d.order)
    os << " order = " << toString(*d.order);
  if (d.grid)
    os << " grid = " << gridList(*d.grid);
  if (d.nest)
    os << " and the given loops";
  return os.str();
}

} // namespace

MacroIndicesOrError macroIndicesOf(const ContractionProblem &problem) {
  auto shape = [&](const std::vector<std::string> &labels) {
    LabeledShape s{labels, {}};
    for (const std::string &l : labels)
      s.extents.push_back(problem.extents.at(l));
    return s;
  };
  IndexSpaceOrError space = buildIndexSpace({shape(problem.labelsA), shape(problem.labelsB)},
                                            shape(problem.labelsC));
  if (!space) {
    MacroIndicesOrError out;
    out.error = space.error;
    return out;
  }
  MacroIndicesOrError macro =
      mapToMacroIndices(*space.space, problem.labelsA, problem.labelsB, problem.labelsC);
  macro.value.sizes.freshC = problem.freshC;
  macro.value.sizes.slabC = problem.resultDealsOut();
  return macro;
}

ContractionProblem withoutOneInputLabels(const ContractionProblem &problem) {
  MacroIndicesOrError macro = macroIndicesOf(problem);
  ContractionProblem core = problem;
  if (!macro)
    return core;
  auto drop = [](std::vector<std::string> &labels, std::optional<Layout> &given,
                 const std::vector<std::string> &summed) {
    for (const std::string &l : summed) {
      labels.erase(std::remove(labels.begin(), labels.end(), l), labels.end());
      if (given)
        std::replace(given->dims.begin(), given->dims.end(), l,
                     std::string(Layout::kReplicated));
    }
  };
  drop(core.labelsA, core.givenA, macro.value.sumA);
  drop(core.labelsB, core.givenB, macro.value.sumB);
  // An input summed as it loads is read whole (D30): nothing is handed over.
  if (!macro.value.sumA.empty())
    core.heldA.reset();
  if (!macro.value.sumB.empty())
    core.heldB.reset();
  return core;
}

bool runsWhole(ParallelAlgorithm algorithm, const Layout &layoutA) {
  return algorithm == ParallelAlgorithm::Batch && layoutA.isReplicated();
}

static bool runsWholePlan(const ContractionPlan &plan) {
  return runsWhole(plan.algorithm, plan.layoutA);
}

Layout handOverTarget(ParallelAlgorithm algorithm, Operand x, const Layout &used,
                      const std::string &first, int64_t procs) {
  const bool gathered = (x == Operand::A && algorithm == ParallelAlgorithm::ReplicationA) ||
                        (x == Operand::B && algorithm == ParallelAlgorithm::ReplicationB);
  if (gathered && used.isReplicated() && !first.empty())
    return Layout{{procs}, {first}};
  return used;
}

/// One hand-over from `from` into `into` of an array of `labels`, priced as
/// the runtime's redistribution moves it: the busiest rank's larger
/// direction at the network's bandwidth and, where anything moves and
/// `messages` says so, a message to each other process at the machine's
/// latency (D58).
static RedistCost handOverOf(const Layout &from, const Layout &into,
                             const std::vector<std::string> &labels,
                             const ContractionProblem &problem, const MachineModel &machine,
                             bool messages) {
  RedistCost cost;
  if (from.procs() > machine.procs || into.procs() > machine.procs)
    return cost;
  std::vector<double> sent, received;
  redistributionVolumes(from, into, labels, problem.extents, machine.elemBytes, sent, received);
  for (size_t r = 0; r < sent.size(); ++r)
    cost.commBytes = std::max({cost.commBytes, sent[r], received[r]});
  cost.seconds = cost.commBytes / machine.netBandwidth;
  if (cost.commBytes > 0 && messages)
    cost.seconds += machine.latency * static_cast<double>(machine.procs - 1);
  return cost;
}

/// What handing `problem`'s held operands over into `plan`'s layouts moves
/// (the layout library's redistributionTraffic, as the runtime predicts it).
/// A plan that runs whole on every process is not charged the messages: its
/// result then reaches every later reader with none, so they are the last
/// messages of the producer that distributed its result, not a cost the
/// whole plan adds; its bytes still count.
static RedistCost handOverCost(const ContractionProblem &problem, const ContractionPlan &plan,
                               const MachineModel &machine) {
  RedistCost cost;
  const PerOperand<const std::optional<Layout> *> held = {
      {&problem.heldA, &problem.heldB, &problem.heldC}};
  const PerOperand<const Layout *> used = {{&plan.layoutA, &plan.layoutB, &plan.layoutC}};
  for (Operand x : kOperands) {
    if (!*held[x])
      continue;
    const std::vector<std::string> &labels = problem.labels(x);
    const Layout into = handOverTarget(plan.algorithm, x, *used[x],
                                       labels.empty() ? "" : labels.front(), machine.procs);
    cost += handOverOf(**held[x], into, labels, problem, machine, !runsWholePlan(plan));
  }
  return cost;
}

/// What handing `plan`'s result over to the problem's readers moves, priced
/// as each reader's handOverCost prices it (D59). Only a result computed in
/// memory stays where it was computed.
static RedistCost handOffCost(const ContractionProblem &problem, const ContractionPlan &plan,
                              const MachineModel &machine) {
  RedistCost cost;
  if (!plan.inCore)
    return cost;
  for (const ContractionProblem::Reader &reader : problem.readers)
    cost += handOverOf(plan.layoutC, reader.into, problem.labelsC, problem, machine, !reader.whole);
  return cost;
}

/// The planner whose algorithms include `alg`.
static const AlgorithmPlanner &plannerOf(ParallelAlgorithm alg) {
  for (const AlgorithmPlanner *planner : algorithmPlanners()) {
    std::vector<ParallelAlgorithm> algorithms = planner->algorithms();
    if (std::find(algorithms.begin(), algorithms.end(), alg) != algorithms.end())
      return *planner;
  }
  llvm_unreachable("an algorithm without a planner");
}

PlanResult planContraction(const ContractionProblem &problem, const MachineModel &machine,
                           const PlanDecisions &decisions) {
  PlanResult result;
  for (const auto &[name, layout] :
       {std::pair{"A", &problem.givenA}, {"B", &problem.givenB}, {"C", &problem.requiredC}})
    if (*layout && (*layout)->procs() != machine.procs) {
      result.error = std::string("the layout of ") + name + " " + (*layout)->str() + " spans " +
                     std::to_string((*layout)->procs()) + " processes but the machine has " +
                     std::to_string(machine.procs);
      return result;
    }
  MacroIndicesOrError macro = macroIndicesOf(problem);
  if (!macro) {
    result.error = macro.error;
    return result;
  }
  if (!macro.value.sumA.empty() || !macro.value.sumB.empty()) {
    result = planContraction(withoutOneInputLabels(problem), machine, decisions);
    std::vector<std::string> summed = macro.value.sumA;
    summed.insert(summed.end(), macro.value.sumB.begin(), macro.value.sumB.end());
    result.remarks.push_back("labels " + joinedLabels(summed) +
                             " of one input only are summed out of it as it is loaded");
    return result;
  }
  // A given grid: at most P processes, and fewer only for COSMA, the one
  // algorithm that leaves processes idle (Kwasniewski et al. section 7.1).
  if (decisions.grid) {
    const int64_t procs = gridProcs(*decisions.grid);
    if (procs > machine.procs) {
      result.error = "the plan's grid " + gridList(*decisions.grid) + " has " +
                     std::to_string(procs) + " processes but the machine has " +
                     std::to_string(machine.procs);
      return result;
    }
    if (procs < machine.procs && decisions.algorithm &&
        *decisions.algorithm != ParallelAlgorithm::Cosma) {
      result.error = std::string("algorithm = ") + toString(*decisions.algorithm) +
                     " runs on every process, but the plan's grid " +
                     gridList(*decisions.grid) + " has " + std::to_string(procs) +
                     " of the machine's " + std::to_string(machine.procs) +
                     " (only cosma leaves processes idle)";
      return result;
    }
  }
  PlanOptions options;
  options.allowInCore = decisions.inCore.value_or(true) && !decisions.nest;
  // Both methods compete on the model's seconds ([G] 2.1's rule that takes
  // outside when the remote data fits is for reproducing [G], D52).
  options.outsideOnlyWhenRemoteFits = false;
  PlanningContext ctx{problem, machine, macro.value, decisions, options, result.remarks};
  // Every algorithm the decisions leave open proposes its candidates.
  auto search = [&](bool raggedOnly) {
    for (const AlgorithmPlanner *planner : algorithmPlanners()) {
      std::vector<ParallelAlgorithm> algorithms = planner->algorithms();
      if ((raggedOnly && !planner->plansRagged()) ||
          (decisions.algorithm &&
           std::find(algorithms.begin(), algorithms.end(), *decisions.algorithm) ==
               algorithms.end()))
        continue;
      planner->addCandidates(ctx, result.candidates);
    }
  };
  search(/*raggedOnly=*/false);

  // No label has an extent of at least the grid's: distribute one anyway,
  // some processes holding empty blocks. The whole contraction on every
  // process (D58) competes with those plans, not in their place.
  if (std::all_of(result.candidates.begin(), result.candidates.end(), runsWholePlan)) {
    const size_t remarks = result.remarks.size(), found = result.candidates.size();
    ctx.allowRagged = true;
    search(/*raggedOnly=*/true);
    result.remarks.resize(remarks); // the same skips again, said once
    if (result.candidates.size() > found)
      result.remarks.push_back(
          "no label has an extent of at least the grid's: some "
          "processes hold empty blocks");
  }
  if (result.candidates.empty()) {
    // Every array can be tiled down to one element, so no plan fits exactly when
    // the per-array budget is below one element; A is the first array to miss it.
    const double budget = machine.tileBudget();
    if (budget < static_cast<double>(machine.elemBytes)) {
      std::ostringstream os;
      os << "no plan fits in memory: array A needs at least " << machine.elemBytes
         << " bytes per process for one tile but its budget is " << budget << " bytes ("
         << machine.tileFraction << " of " << machine.memBytes << " bytes); at least "
         << static_cast<double>(machine.elemBytes) / machine.tileFraction
         << " bytes of memory per process are needed";
      result.error = os.str();
    }
    // Plans that exist with memory to spare were refused for memory: say so.
    constexpr double kRoomy = 1e30;
    if (result.error.empty() && machine.memBytes < kRoomy) {
      MachineModel roomy = machine;
      roomy.memBytes = kRoomy;
      if (!planContraction(problem, roomy, decisions).candidates.empty()) {
        std::ostringstream os;
        if (describe(decisions).empty())
          os << "no plan fits in memory: none of the algorithms' tiles and buffers fit in "
             << machine.memBytes << " bytes per process on " << machine.procs
             << " processes; raise mem or use more processes";
        else
          os << "no plan satisfies the given decisions:" << describe(decisions) << " in "
             << machine.memBytes << " bytes per process (with more memory one does)";
        result.error = os.str();
      }
    }
    if (result.error.empty())
      result.error = "no plan satisfies the given decisions" +
                     (describe(decisions).empty() ? std::string(" (none: every "
                                                                "algorithm was skipped)")
                                                  : std::string(":") + describe(decisions));
    return result;
  }
  const bool iContiguous = decisions.iContiguous.value_or(prefersIContiguous(problem));
  for (ContractionPlan &plan : result.candidates)
    plan.iContiguous = iContiguous;
  for (ContractionPlan &plan : result.candidates) {
    plan.handOver = handOverCost(problem, plan, machine);
    plan.handOff = handOffCost(problem, plan, machine);
    // Each message of stage 2 at the machine's latency (0: the papers' cost),
    // and a result left split over the processes the messages that hand it
    // to a reader that needs it whole (handOverCost charges them here).
    if (machine.latency > 0) {
      double messages = plannerOf(plan.algorithm).messages(plan, machine);
      if (!plan.layoutC.isReplicated())
        messages += static_cast<double>(machine.procs - 1);
      plan.seconds += machine.latency * messages;
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < result.candidates.size(); ++i)
    if (result.candidates[i].choiceSeconds() < result.candidates[best].choiceSeconds())
      best = i;
  result.chosen = best;
  return result;
}

double allGatherSteps(int64_t p) { return static_cast<double>(p - 1); }

double allReduceSteps(int64_t p) {
  if (p <= 1)
    return 0;
  if ((p & (p - 1)) == 0)
    return 2 * std::log2(static_cast<double>(p));
  return 2 * static_cast<double>(p - 1);
}

double tileCount(const TileNest &nest) {
  double tiles = 1;
  for (const std::vector<TileLoop> &group : nest.groups)
    for (const TileLoop &loop : group)
      tiles *= static_cast<double>(loop.count);
  return tiles;
}

std::string joinedLabels(const std::vector<std::string> &labels) {
  std::string s;
  for (const std::string &l : labels)
    s += (s.empty() ? "" : ", ") + l;
  return "{" + s + "}";
}

const std::vector<const AlgorithmPlanner *> &algorithmPlanners() {
  // Gao et al.'s candidates first: ties keep the order of the search before
  // the algorithms had files of their own.
  static const std::vector<const AlgorithmPlanner *> planners = {
      &gaoPlanner(), &batchPlanner(), &cosmaPlanner(), &pummaPlanner()};
  return planners;
}

std::string preferredLabel(const ContractionProblem &problem,
                           const std::vector<std::string> &members, int64_t parts) {
  std::string best;
  double bestScore = -1;
  for (const std::string &l : members)
    if (double score = labelPreference(problem.extents.at(l), parts); score > bestScore)
      best = l, bestScore = score;
  return best;
}

double RankVolumes::maxSent() const {
  return sent.empty() ? 0 : *std::max_element(sent.begin(), sent.end());
}
double RankVolumes::maxReceived() const {
  return received.empty() ? 0 : *std::max_element(received.begin(), received.end());
}

bool sameDecisions(const PlanDecisions &a, const PlanDecisions &b) {
  if (a.inCore != b.inCore || a.method != b.method || a.algorithm != b.algorithm ||
      a.order != b.order || a.memory != b.memory || a.iContiguous != b.iContiguous ||
      a.roll != b.roll || a.grid != b.grid || a.nest.has_value() != b.nest.has_value())
    return false;
  return !a.nest || sameLoops(*a.nest, *b.nest);
}

bool choiceStands(const PlanDecisions &searched, const ContractionPlan &chosen,
                  const PlanDecisions &now) {
  auto keeps = [](const auto &was, const auto &is) { return !was || is == was; };
  if (!keeps(searched.inCore, now.inCore) || !keeps(searched.method, now.method) ||
      !keeps(searched.algorithm, now.algorithm) || !keeps(searched.order, now.order) ||
      !keeps(searched.memory, now.memory) || !keeps(searched.iContiguous, now.iContiguous) ||
      !keeps(searched.roll, now.roll) || !keeps(searched.grid, now.grid) ||
      (searched.nest && !(now.nest && sameLoops(*searched.nest, *now.nest))))
    return false;
  // A grid restricts the candidates to those on it.
  if (now.grid && chosen.layoutA.grid != *now.grid)
    return false;
  // The storage order takes no part in the search: it only has to agree.
  if (now.iContiguous && *now.iContiguous != chosen.iContiguous)
    return false;
  PlanDecisions searchedRest = searched, nowRest = now;
  searchedRest.iContiguous = nowRest.iContiguous = std::nullopt;
  if (sameDecisions(searchedRest, nowRest))
    return true;
  // Other algorithms may gain candidates under `now` (out-of-core ones where
  // in-core was enough, inside ones where outside was, [G] 2.1), one that
  // `chosen` has does not: `chosen` proves its enumeration was the full one.
  if (now.algorithm != chosen.algorithm)
    return false;
  // planContraction's filter: method and order bind out-of-core plans only.
  // A plan out of core without Gao's tiling (COSMA's rounds) has none of them.
  if ((now.inCore && *now.inCore != chosen.inCore) ||
      (now.method && !chosen.inCore && (!chosen.tiled() || *now.method != chosen.method)) ||
      (now.order && !chosen.inCore && (!chosen.tiled() || *now.order != chosen.nest.order)) ||
      (now.memory && !chosen.inCore && (!chosen.tiled() || *now.memory != chosen.memory)))
    return false;
  if (now.nest)
    return chosen.tiled() && now.method && now.order && sameLoops(*now.nest, chosen.nest);
  return true;
}

} // namespace mlir::tc
