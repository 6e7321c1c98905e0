//===- PummaSchedule.cpp - PUMMA for one contraction over labels ----------===//
#include "TC/Analysis/PummaSchedule.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <numeric>

namespace mlir::tc {

namespace {

using tc_layout::ceilDiv;

/// Elements of `extent` at coordinate `c` of `parts` along a grid dimension:
/// whole cyclic blocks of `block` dealt round-robin, or a ceil-sized
/// contiguous block when `block` is 0.
int64_t localCount(int64_t extent, int64_t parts, int64_t block, int64_t c) {
  return block <= 0 ? tc_layout::blockLength(extent, parts, c)
                    : tc_layout::cyclicLength(extent, block, parts, c);
}

/// Real elements of x's block (in `layout`, x's) at grid coordinates `at`,
/// leaving out `skip`.
double realElements(const ContractionProblem &p, const PummaChoice &choice, Operand x,
                    const Layout &layout, const int64_t at[2], const std::string &skip) {
  double n = 1;
  for (const std::string &l : p.labels(x)) {
    if (l == skip)
      continue;
    int64_t g = layout.gridDimOf(l), e = p.extents.at(l);
    n *= static_cast<double>(g < 0 ? e : localCount(e, choice.grid[g], choice.blockOf(l), at[g]));
  }
  return n;
}

/// Padded elements of x's block (the buffer every process allocates).
double paddedElements(const ContractionProblem &p, const PummaChoice &choice, Operand x) {
  Layout layout = choice.layout(x);
  double n = 1;
  for (const std::string &l : p.labels(x))
    n *= static_cast<double>(layout.paddedLocal(l, p.extents.at(l)));
  return n;
}

/// The label whose blocks a stage's panel holds: Y's K (gather) or C's copy
/// of X's free label (reduce); and the array holding the panel.
const std::string &panelLabel(const PummaChoice &c) {
  return c.mode == PummaMode::Gather ? c.k : c.freeX();
}
Operand panelArray(const PummaChoice &c) {
  return c.mode == PummaMode::Gather ? c.other() : Operand::C;
}


} // namespace

int64_t PummaChoice::blockOf(const std::string &label) const {
  return label == i ? blockI : label == j ? blockJ : label == k ? blockK : 0;
}

Layout PummaChoice::layout(Operand x) const {
  const int64_t R = rollDim, G = 1 - rollDim;
  Layout out;
  out.grid = grid;
  out.dims.assign(2, Layout::kReplicated);
  auto place = [&](const std::string &label, int64_t dim) {
    out.dims[dim] = label;
    if (out.cyclic.empty())
      out.cyclic.assign(2, 0);
    out.cyclic[dim] = blockOf(label);
  };
  if (x == Operand::C) {
    place(freeX(), G);
    place(freeY(), R);
  } else if (x == roll) {
    place(k, mode == PummaMode::Gather ? R : G);
    place(freeX(), mode == PummaMode::Gather ? G : R);
  } else {
    place(k, G);
    place(freeY(), R);
  }
  if (!out.isCyclic())
    out.cyclic.clear();
  return out;
}

PummaChoiceOrError pummaChoiceOf(const ContractionProblem &problem, const MacroIndices &macro,
                                 const std::vector<int64_t> &grid, Operand roll,
                                 const Layout &a, const Layout &b, const Layout &c) {
  PummaChoiceOrError out;
  auto fail = [&](const std::string &why) {
    out.error = why;
    return out;
  };
  if (grid.size() != 2)
    return fail("pumma runs on a 2-d grid");
  if (roll == Operand::C)
    return fail("pumma rolls an input (a or b), not the result");
  const Layout *layouts[3] = {&a, &b, &c};
  const char *names[3] = {"A", "B", "C"};
  // Each array's two distributed labels, one per grid dimension.
  std::string labelOf[3][2];
  for (int x = 0; x < 3; ++x)
    for (int g = 0; g < 2; ++g) {
      const std::string &l = layouts[x]->dims.size() == 2 ? layouts[x]->dims[g] : "";
      if (l.empty() || l == Layout::kReplicated || l == Layout::kFirstSlice)
        return fail(std::string("pumma distributes a label of ") + names[x] +
                    " along each grid dimension; " + names[x] + " has " + layouts[x]->str());
      labelOf[x][g] = l;
    }
  auto in = [](const std::vector<std::string> &v, const std::string &l) {
    return std::find(v.begin(), v.end(), l) != v.end();
  };
  auto pick = [&](int x, const std::vector<std::string> &members) -> std::string {
    for (int g = 0; g < 2; ++g)
      if (in(members, labelOf[x][g]))
        return labelOf[x][g];
    return "";
  };
  PummaChoice ch;
  ch.grid = grid;
  ch.roll = roll;
  ch.i = pick(0, macro.I);
  ch.k = pick(0, macro.K);
  ch.j = pick(1, macro.J);
  if (ch.i.empty() || ch.k.empty() || ch.j.empty() || pick(1, macro.K) != ch.k ||
      pick(2, macro.I) != ch.i || pick(2, macro.J) != ch.j)
    return fail("pumma distributes one label of I in A and C, one of J in B and C and one "
                "of K in A and B, the same label in both arrays; got A " +
                a.str() + ", B " + b.str() + ", C " + c.str());
  // Blocks agree wherever a label occurs: a contiguous block is the cyclic
  // block of ceil(extent / grid extent), so compare those.
  auto blockIn = [&](int x, const std::string &l) {
    int64_t d = layouts[x]->gridDimOf(l), nb = layouts[x]->cyclicBlock(d);
    return nb > 0 ? nb : ceilDiv(problem.extents.at(l), grid[d]);
  };
  ch.blockI = blockIn(0, ch.i);
  ch.blockJ = blockIn(1, ch.j);
  ch.blockK = blockIn(0, ch.k);
  if (blockIn(2, ch.i) != ch.blockI || blockIn(2, ch.j) != ch.blockJ ||
      blockIn(1, ch.k) != ch.blockK)
    return fail("pumma needs each label in the same blocks in every array (equal block-cyclic "
                "block sizes, a contiguous block counting as ceil(extent / grid extent)); "
                "got A " + a.str() + ", B " + b.str() + ", C " + c.str());
  const int x = roll == Operand::A ? 0 : 1, y = 1 - x;
  const int64_t kX = layouts[x]->gridDimOf(ch.k), kY = layouts[y]->gridDimOf(ch.k);
  ch.mode = kX != kY ? PummaMode::Gather : PummaMode::Reduce;
  ch.rollDim = ch.mode == PummaMode::Gather ? kX : 1 - kX;
  // C holds X's free label along the dimension X does not move along.
  if (c.gridDimOf(ch.freeX()) != 1 - ch.rollDim)
    return fail("pumma needs C to hold '" + ch.freeX() + "' (the free label of the rolled " +
                names[x] + ") along grid dimension " + std::to_string(1 - ch.rollDim) +
                "; redistribute C instead");
  if (layouts[y]->gridDimOf(ch.freeY()) != ch.rollDim)
    return fail(std::string("pumma needs ") + names[y] + "'s free label along the roll "
                "dimension " + std::to_string(ch.rollDim));
  out.value = ch;
  return out;
}

int64_t pummaPanelRows(int64_t extent, int64_t block, int64_t modulus) {
  return tc_layout::cyclicRows(extent, block, modulus);
}

RankVolumes pummaVolumes(const ContractionProblem &problem, const PummaChoice &choice,
                         int64_t elemBytes) {
  const std::vector<int64_t> &g = choice.grid;
  const int64_t R = choice.rollDim, G = 1 - R, Q = g[R], PG = g[G];
  const double e = static_cast<double>(elemBytes);
  const std::string &label = panelLabel(choice);
  const int64_t extent = problem.extents.at(label), nb = choice.blockOf(label);
  const int64_t blocks = ceilDiv(extent, nb);
  // rows[r][m]: rows of residue class r (mod Q) that coordinate m along G owns.
  std::vector<std::vector<double>> rows(Q, std::vector<double>(PG, 0));
  for (int64_t blk = 0; blk < blocks; ++blk)
    rows[blk % Q][blk % PG] += static_cast<double>(std::min(nb, extent - blk * nb));
  const double rolled = paddedElements(problem, choice, choice.roll);
  const Operand holder = panelArray(choice);
  const Layout holderLayout = choice.layout(holder);
  RankVolumes v;
  v.sent.assign(g[0] * g[1], 0);
  v.received.assign(g[0] * g[1], 0);
  for (int64_t c0 = 0; c0 < g[0]; ++c0)
    for (int64_t c1 = 0; c1 < g[1]; ++c1) {
      const int64_t at[2] = {c0, c1}, rank = c0 * g[1] + c1, me = at[G];
      v.sent[rank] += e * static_cast<double>(Q - 1) * rolled;
      v.received[rank] += e * static_cast<double>(Q - 1) * rolled;
      // The group along G shares every other coordinate, hence the width.
      const double width = realElements(problem, choice, holder, holderLayout, at, label);
      for (int64_t t = 0; t < Q; ++t) {
        const std::vector<double> &r = rows[(at[R] + t) % Q];
        double others = 0;
        for (int64_t m = 0; m < PG; ++m)
          if (m != me)
            others += r[m];
        const double mine = static_cast<double>(PG - 1) * r[me];
        if (choice.mode == PummaMode::Gather) { // own part out to all, the others' in
          v.sent[rank] += e * width * mine;
          v.received[rank] += e * width * others;
        } else { // the others' parts out to their owners, own part in from all
          v.sent[rank] += e * width * others;
          v.received[rank] += e * width * mine;
        }
      }
    }
  return v;
}

PummaBuffers pummaBuffers(const ContractionProblem &problem, const PummaChoice &choice) {
  PummaBuffers b;
  b.x = paddedElements(problem, choice, choice.roll);
  b.y = paddedElements(problem, choice, choice.other());
  b.c = paddedElements(problem, choice, Operand::C);
  const Operand holder = panelArray(choice);
  const std::string &label = panelLabel(choice);
  const int64_t e = problem.extents.at(label);
  const int64_t own = choice.layout(holder).paddedLocal(label, e);
  b.panel = (holder == Operand::C ? b.c : b.y) / static_cast<double>(own) *
            static_cast<double>(pummaPanelRows(e, choice.blockOf(label), choice.stages()));
  return b;
}

std::optional<ContractionPlan> pummaPlanOf(const ContractionProblem &problem,
                                           const PummaChoice &choice,
                                           const MachineModel &machine) {
  PummaBuffers buffers = pummaBuffers(problem, choice);
  const double e = static_cast<double>(machine.elemBytes);
  if (buffers.total() * e > machine.memBytes)
    return std::nullopt;
  ContractionPlan plan;
  plan.inCore = true;
  plan.algorithm = ParallelAlgorithm::Pumma;
  plan.roll = choice.roll;
  plan.layoutA = choice.layout(Operand::A);
  plan.layoutB = choice.layout(Operand::B);
  plan.layoutC = choice.layout(Operand::C);
  const bool xIsA = choice.roll == Operand::A;
  const bool gather = choice.mode == PummaMode::Gather;
  plan.bufferBytes[0] = e * (xIsA ? buffers.x : buffers.y + (gather ? buffers.panel : 0));
  plan.bufferBytes[1] = e * (xIsA ? buffers.y + (gather ? buffers.panel : 0) : buffers.x);
  plan.bufferBytes[2] = e * (buffers.c + (gather ? 0 : buffers.panel));
  RankVolumes volumes = pummaVolumes(problem, choice, machine.elemBytes);
  plan.sentPerRank = volumes.sent;
  plan.receivedPerRank = volumes.received;
  plan.commBytes = volumes.maxReceived();
  plan.seconds = machine.netBandwidth > 0 ? plan.commBytes / machine.netBandwidth : 0;
  // Given layouts are used in place when they partition alike (stages 1/3).
  auto cost = [&](const Layout &from, const Layout &to, const std::vector<std::string> &labels) {
    return redistributionCost(canonicalBlocks(from, problem.extents),
                              canonicalBlocks(to, problem.extents), labels, problem.extents,
                              machine);
  };
  if (problem.givenA)
    plan.redist += cost(*problem.givenA, plan.layoutA, problem.labelsA);
  if (problem.givenB)
    plan.redist += cost(*problem.givenB, plan.layoutB, problem.labelsB);
  if (problem.requiredC)
    plan.redist += cost(plan.layoutC, *problem.requiredC, problem.labelsC);
  return plan;
}

std::optional<ContractionPlan> planPumma(const ContractionProblem &problem,
                                         const MacroIndices &macro, const MachineModel &machine,
                                         std::vector<std::string> &remarks,
                                         std::optional<Operand> onlyRoll) {
  if (macro.I.empty() || macro.J.empty() || macro.K.empty()) {
    remarks.push_back("pumma skipped: it needs a label in each of I (A and C), J (B and C) "
                      "and K (A and B)");
    return std::nullopt;
  }
  // Grids: every factorization of P into two, and the given layouts' 2-d grids.
  std::vector<std::vector<int64_t>> grids;
  for (int64_t g0 = 1; g0 <= machine.procs; ++g0)
    if (machine.procs % g0 == 0)
      grids.push_back({g0, machine.procs / g0});
  // Labels and block sizes: those of the given layouts first (used in place
  // when they fit), then the planner's own.
  const std::optional<Layout> *given[3] = {&problem.givenA, &problem.givenB,
                                           &problem.requiredC};
  std::optional<ContractionPlan> best;
  auto consider = [&](const PummaChoice &choice) {
    std::optional<ContractionPlan> plan = pummaPlanOf(problem, choice, machine);
    if (plan && (!best || plan->totalSeconds() < best->totalSeconds() - 1e-15))
      best = plan;
  };
  for (Operand roll : {Operand::A, Operand::B})
    for (int64_t R : {0, 1})
      if (!onlyRoll || *onlyRoll == roll)
      for (PummaMode mode : {PummaMode::Gather, PummaMode::Reduce})
        for (const std::vector<int64_t> &grid : grids) {
          PummaChoice ch;
          ch.grid = grid;
          ch.roll = roll;
          ch.rollDim = R;
          ch.mode = mode;
          // A given layout's labels and blocks on this grid, else the largest
          // labels; K in LCM blocks (section 3.1), so that both grid dimensions
          // hold an even share of it; X's free label likewise when reducing.
          const int64_t lcm = std::lcm(grid[0], grid[1]);
          auto choose = [&](const std::vector<std::string> &members, std::string &label,
                            int64_t &block, bool cyclic) {
            for (const std::optional<Layout> *l : given)
              if (*l && (*l)->grid == grid)
                for (size_t d = 0; d < 2 && d < (*l)->dims.size(); ++d)
                  if (std::find(members.begin(), members.end(), (*l)->dims[d]) !=
                      members.end()) {
                    label = (*l)->dims[d];
                    int64_t e = problem.extents.at(label);
                    block = (*l)->cyclicBlock(d) > 0 ? (*l)->cyclicBlock(d)
                                                     : ceilDiv(e, grid[d]);
                    return;
                  }
            label = preferredLabel(problem, members, lcm);
            block = cyclic ? ceilDiv(problem.extents.at(label), lcm) : 0;
          };
          const bool reduceA = mode == PummaMode::Reduce && roll == Operand::A;
          const bool reduceB = mode == PummaMode::Reduce && roll == Operand::B;
          choose(macro.I, ch.i, ch.blockI, reduceA);
          choose(macro.J, ch.j, ch.blockJ, reduceB);
          choose(macro.K, ch.k, ch.blockK, mode == PummaMode::Gather);
          consider(ch);
        }
  if (!best)
    remarks.push_back("pumma skipped: no grid fits its blocks and one panel in memory "
                      "(out-of-core PUMMA is not implemented)");
  return best;
}

} // namespace mlir::tc
