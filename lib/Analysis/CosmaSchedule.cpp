//===- CosmaSchedule.cpp - COSMA for one contraction over labels ----------===//
#include "TC/Analysis/CosmaSchedule.h"
#include "TC/Layout/Ownership.h"

#include "TC/Analysis/CommOptimalMatmul.h"
#include "TC/Analysis/ProcessorGrid.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace mlir::tc {

namespace {

using tc_layout::ceilDiv;

/// The grid dimension a label is distributed along in x's compute view, or -1.
int64_t gridDimOf(const CosmaLayout &layout, Operand x, const std::string &l) {
  if (l == layout.i && x != Operand::B)
    return 0;
  if (l == layout.j && x != Operand::A)
    return 1;
  if (l == layout.k && x != Operand::C)
    return 2;
  return -1;
}

/// Padded block length of label l in x's compute view.
int64_t paddedBlock(const ContractionProblem &p, const CosmaLayout &layout, Operand x,
                    const std::string &l) {
  int64_t g = gridDimOf(layout, x, l);
  return ceilDiv(p.extents.at(l), g >= 0 ? layout.grid[g] : 1);
}

/// The member of `candidates` with the longest (padded) block in x's view.
std::string longestBlock(const ContractionProblem &p, const CosmaLayout &layout, Operand x,
                         const std::vector<std::string> &candidates) {
  std::string best;
  int64_t bestLen = -1;
  for (const std::string &l : candidates)
    if (int64_t len = paddedBlock(p, layout, x, l); len > bestLen)
      best = l, bestLen = len;
  return best;
}

/// Real elements of x's block at grid coordinate `coord`, or of the sub-block
/// of the group member at split coordinate `member` (the runtime's ceil-sized
/// blocks and balanced sub-blocks).
double blockElements(const ContractionProblem &problem, const CosmaLayout &layout, Operand x,
                     const int64_t coord[3], std::optional<int64_t> member) {
  const std::vector<int64_t> &g = layout.grid;
  const int64_t q = g[CosmaLayout::splitGridDim(x)];
  double n = 1;
  for (const std::string &l : problem.labels(x)) {
    int64_t gd = gridDimOf(layout, x, l);
    int64_t len = problem.extents.at(l);
    if (gd >= 0)
      len = tc_layout::blockLength(len, g[gd], coord[gd]);
    if (member && l == layout.splitLabel(x))
      len = tc_layout::balancedLength(len, q, *member);
    n *= static_cast<double>(len);
  }
  return n;
}

/// Calls fn(rank, coord) for every rank of the grid, row-major.
template <typename Fn> void forEachRank(const std::vector<int64_t> &g, Fn fn) {
  for (int64_t x = 0; x < g[0]; ++x)
    for (int64_t y = 0; y < g[1]; ++y)
      for (int64_t z = 0; z < g[2]; ++z) {
        const int64_t coord[3] = {x, y, z};
        fn((x * g[1] + y) * g[2] + z, coord);
      }
}

} // namespace

Layout CosmaLayout::computeLayout(Operand x) const {
  Layout out;
  out.grid = grid;
  switch (x) {
  case Operand::A:
    out.dims = {i, Layout::kReplicated, k};
    break;
  case Operand::B:
    out.dims = {Layout::kReplicated, j, k};
    break;
  case Operand::C:
    out.dims = {i, j, Layout::kReplicated};
    break;
  }
  return out;
}

CosmaLabels chooseCosmaLabels(const ContractionProblem &problem, const MacroIndices &macro,
                              const std::vector<int64_t> &grid) {
  CosmaLabels out;
  if (macro.I.empty() || macro.J.empty() || macro.K.empty()) {
    out.error = "cosma needs a label in each of I (A and C), J (B and C) and K (A and B)";
    return out;
  }
  out.i = preferredLabel(problem, macro.I, grid[0]);
  out.j = preferredLabel(problem, macro.J, grid[1]);
  out.k = preferredLabel(problem, macro.K, grid[2]);
  return out;
}

CosmaLayout completeCosmaLayout(const ContractionProblem &problem, const MacroIndices &macro,
                                const std::vector<int64_t> &grid, const std::string &i,
                                const std::string &j, const std::string &k) {
  CosmaLayout layout{grid, i, j, k, "", "", ""};
  // A's sub-blocks split its distributed I label and B's its J label, never K:
  // every round's panel then takes an even share from each process. C's split
  // the longer of its two blocks.
  layout.splitA = i;
  layout.splitB = j;
  layout.splitC = longestBlock(problem, layout, Operand::C, {i, j});
  return layout;
}

RankVolumes cosmaVolumes(const ContractionProblem &problem, const CosmaLayout &layout,
                          int64_t elemBytes) {
  const std::vector<int64_t> &g = layout.grid;
  const int64_t P = g[0] * g[1] * g[2];
  const double e = static_cast<double>(elemBytes);
  RankVolumes v;
  v.sent.assign(P, 0);
  v.received.assign(P, 0);
  forEachRank(g, [&](int64_t rank, const int64_t coord[3]) {
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
      const int64_t sd = CosmaLayout::splitGridDim(op), q = g[sd];
      const double block = blockElements(problem, layout, op, coord, std::nullopt);
      const double own = blockElements(problem, layout, op, coord, coord[sd]);
      if (op == Operand::C) { // ring reduce-scatter: all but the own part out, all but
                              // the previous member's in (GroupExchange.h)
        v.sent[rank] += e * (block - own);
        v.received[rank] +=
            e * (block - blockElements(problem, layout, op, coord, (coord[sd] + q - 1) % q));
      } else { // gather: own part out to q-1 processes, the others' parts in
        v.sent[rank] += e * static_cast<double>(q - 1) * own;
        v.received[rank] += e * (block - own);
      }
    }
  });
  return v;
}

std::vector<double> cosmaDiskBytes(const ContractionProblem &problem, const CosmaLayout &layout,
                                   int64_t elemBytes, bool readsC) {
  const std::vector<int64_t> &g = layout.grid;
  std::vector<double> disk(g[0] * g[1] * g[2], 0);
  forEachRank(g, [&](int64_t rank, const int64_t coord[3]) {
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
      const double own =
          blockElements(problem, layout, op, coord, coord[CosmaLayout::splitGridDim(op)]);
      const double passes = op != Operand::C ? 1 : readsC ? 2 : 1;
      disk[rank] += static_cast<double>(elemBytes) * passes * own;
    }
  });
  return disk;
}

CosmaBuffers cosmaBuffers(const ContractionProblem &problem, const CosmaLayout &layout,
                          const std::vector<TileLoop> &rounds) {
  CosmaBuffers b;
  auto roundTile = [&](const std::string &l, int64_t padded) {
    for (const TileLoop &r : rounds)
      if (r.label == l)
        return ceilDiv(padded, r.count);
    return padded;
  };
  for (Operand op : {Operand::A, Operand::B, Operand::C}) {
    double stored = 1, block = 1, panel = 1;
    for (const std::string &l : problem.labels(op)) {
      int64_t padded = paddedBlock(problem, layout, op, l);
      block *= static_cast<double>(padded);
      panel *= static_cast<double>(roundTile(l, padded));
      int64_t sd = CosmaLayout::splitGridDim(op);
      stored *= static_cast<double>(l == layout.splitLabel(op) ? ceilDiv(padded, layout.grid[sd])
                                                               : padded);
    }
    if (op == Operand::A)
      b.storedA = stored, b.panelA = panel;
    else if (op == Operand::B)
      b.storedB = stored, b.panelB = panel;
    else
      b.storedC = stored, b.blockC = block;
  }
  return b;
}

std::optional<std::vector<TileLoop>> cosmaRounds(const ContractionProblem &problem,
                                                 const MacroIndices &macro,
                                                 const CosmaLayout &layout, double memBytes,
                                                 int64_t elemBytes, CosmaStorage storage) {
  const double memElems = memBytes / static_cast<double>(elemBytes);
  std::vector<int64_t> kBlocks;
  int64_t kTotal = 1;
  for (const std::string &l : macro.K) {
    kBlocks.push_back(paddedBlock(problem, layout, Operand::A, l));
    kTotal *= kBlocks.back();
  }
  auto loopsFor = [&](int64_t rounds) {
    // Counts that divide the blocks let an input's rounds be sub-tiles of its
    // storage (in place, LowerCosmaProgram.cpp); not at any price: a block of
    // 2 x 751 would take 751 rounds of 2 outer products for 10 (and out of
    // core a disk read per row of every panel).
    std::vector<int64_t> counts = splitTileCount(static_cast<double>(rounds), kBlocks, true);
    int64_t total = 1;
    for (int64_t c : counts)
      total *= c;
    if (total > 2 * rounds)
      counts = splitTileCount(static_cast<double>(rounds), kBlocks, false);
    std::vector<TileLoop> loops;
    for (size_t n = 0; n < counts.size(); ++n)
      if (counts[n] > 1)
        loops.push_back({macro.K[n], counts[n]});
    return loops;
  };
  // Algorithm 1 lines 6-7: s outer products per round fill the memory the
  // partial sums (and stored blocks in memory) leave, two panels of A and B at a time.
  CosmaBuffers whole = cosmaBuffers(problem, layout, {});
  double fixed = whole.resident(storage);
  double perOuterProduct = 2 * (whole.panelA + whole.panelB) / static_cast<double>(kTotal);
  double s = std::floor((memElems - fixed) / perOuterProduct);
  if (s < 1)
    return std::nullopt;
  int64_t rounds = std::max(ceilDiv(kTotal, static_cast<int64_t>(std::min<double>(s, kTotal))),
                            ceilDiv(kTotal, kMaxRoundWidth));
  // Ceil-sized round tiles may be wider than s: add rounds until they fit.
  for (; rounds <= kTotal; ++rounds) {
    std::vector<TileLoop> loops = loopsFor(rounds);
    if (cosmaBuffers(problem, layout, loops).total(storage) <= memElems)
      return loops;
  }
  return std::nullopt;
}

double cosmaSeconds(const MacroSizes &sizes, int64_t used, double maxReceivedBytes,
                    const MachineModel &machine) {
  if (machine.netBandwidth <= 0)
    return maxReceivedBytes;
  double seconds = maxReceivedBytes / machine.netBandwidth;
  // Kwasniewski et al. section 7.1 / Fig. 5: idle ranks leave their share of
  // the F flops to the used ones, each of which then does F / P' instead of F / P.
  const int64_t P = machine.procs;
  if (used < P && machine.flopRate > 0) {
    const double F = 2 * sizes.I * sizes.J * sizes.K;
    seconds += F * (1 / static_cast<double>(used) - 1 / static_cast<double>(P)) /
               machine.flopRate;
  }
  return seconds;
}

std::vector<int64_t> fitCosmaGrid(const ContractionProblem &problem, const MacroIndices &macro,
                                  const MachineModel &machine, double delta) {
  const double I = macro.sizes.I, J = macro.sizes.J, K = macro.sizes.K;
  const double S = machine.memBytes / static_cast<double>(machine.elemBytes);
  const double e = static_cast<double>(machine.elemBytes);
  const int64_t P = machine.procs;
  const auto M = static_cast<int64_t>(std::llround(I)), N = static_cast<int64_t>(std::llround(J)),
             Kx = static_cast<int64_t>(std::llround(K));
  // Section 7.1: at most floor(delta P) idle ranks (the epsilon keeps 0.03 * 100
  // from rounding down, as in fitRanks).
  const int64_t lowest =
      std::max<int64_t>(1, P - static_cast<int64_t>(std::floor(delta * P + 1e-9)));
  struct Candidate {
    GridFit fit;
    double totalReceived; ///< elements, over all used ranks
    double bound;         ///< seconds at the average received volume: a lower bound
  };
  std::vector<Candidate> all;
  for (int64_t used = P; used >= lowest; --used)
    for (int64_t pm = 1; pm <= std::min(used, M); ++pm) {
      if (used % pm)
        continue;
      for (int64_t pn = 1; pn <= std::min(used / pm, N); ++pn) {
        if ((used / pm) % pn)
          continue;
        int64_t pk = used / pm / pn;
        if (pk > Kx)
          continue;
        // Each A block is received by the pn - 1 ranks that do not own a part of
        // it, whatever the sub-blocks; likewise B (pm - 1), C's partial sums (pk - 1).
        double total = static_cast<double>(pn - 1) * I * K +
                       static_cast<double>(pm - 1) * K * J +
                       static_cast<double>(pk - 1) * I * J;
        double bound = cosmaSeconds(macro.sizes, used, e * total / static_cast<double>(used),
                                    machine);
        all.push_back({evaluateGrid(I, J, K, pm, pn, pk, S), total, bound});
      }
    }
  if (all.empty()) {
    GridFit fit = fitRanks(I, J, K, P, S, delta);
    return {fit.pm, fit.pn, fit.pk};
  }
  const bool anyFits =
      std::any_of(all.begin(), all.end(), [](const Candidate &c) { return c.fit.fitsMemory; });
  all.erase(std::remove_if(all.begin(), all.end(),
                           [&](const Candidate &c) { return c.fit.fitsMemory != anyFits; }),
            all.end());
  std::sort(all.begin(), all.end(), [](const Candidate &x, const Candidate &y) {
    if (x.bound != y.bound)
      return x.bound < y.bound;
    if (x.fit.used != y.fit.used)
      return x.fit.used > y.fit.used;
    if (x.totalReceived != y.totalReceived)
      return x.totalReceived < y.totalReceived;
    if (x.fit.wordsPerRank != y.fit.wordsPerRank)
      return x.fit.wordsPerRank < y.fit.wordsPerRank;
    if (x.fit.flopsPerRank != y.fit.flopsPerRank)
      return x.fit.flopsPerRank < y.fit.flopsPerRank;
    return std::make_tuple(x.fit.pm, x.fit.pn, x.fit.pk) >
           std::make_tuple(y.fit.pm, y.fit.pn, y.fit.pk);
  });
  std::vector<int64_t> best;
  double bestSeconds = 0, bestMax = 0;
  int64_t bestUsed = 0;
  for (const Candidate &c : all) {
    // The busiest rank receives at least the average: no later grid can win
    // (one that only ties may still win on more ranks: it is looked at).
    if (!best.empty() && c.bound > bestSeconds)
      break;
    std::vector<int64_t> grid = {c.fit.pm, c.fit.pn, c.fit.pk};
    CosmaLabels labels = chooseCosmaLabels(problem, macro, grid);
    if (!labels.error.empty())
      return grid; // planCosma reports it
    CosmaLayout layout = completeCosmaLayout(problem, macro, grid, labels.i, labels.j, labels.k);
    double mx = cosmaVolumes(problem, layout, 1).maxReceived();
    double seconds = cosmaSeconds(macro.sizes, c.fit.used, e * mx, machine);
    // Earlier candidates win the remaining ties (fewer bytes in total, then
    // fitRanks's order).
    bool better = best.empty() || seconds < bestSeconds ||
                  (seconds == bestSeconds &&
                   (c.fit.used > bestUsed || (c.fit.used == bestUsed && mx < bestMax)));
    if (better)
      best = grid, bestSeconds = seconds, bestMax = mx, bestUsed = c.fit.used;
  }
  return best;
}

namespace {

/// True, with a remark, when inputs are given or the result is required in a
/// layout: COSMA does not redistribute into its own yet.
bool refusesGivenLayouts(const ContractionProblem &problem, std::vector<std::string> &remarks) {
  if (!problem.givenA && !problem.givenB && !problem.requiredC)
    return false;
  remarks.push_back("cosma skipped: inputs given or a result required in a layout are not "
                    "redistributed into COSMA's layout yet");
  return true;
}

/// The layout on `grid` with its distributed labels, or nullopt with a remark
/// when COSMA does not apply to the problem's labels.
std::optional<CosmaLayout> cosmaLayoutOn(const ContractionProblem &problem,
                                         const MacroIndices &macro,
                                         const std::vector<int64_t> &grid,
                                         std::vector<std::string> &remarks) {
  CosmaLabels labels = chooseCosmaLabels(problem, macro, grid);
  if (!labels.error.empty()) {
    remarks.push_back("cosma skipped: " + labels.error);
    return std::nullopt;
  }
  return completeCosmaLayout(problem, macro, grid, labels.i, labels.j, labels.k);
}

/// COSMA's plan on `layout` with `rounds`: its compute views, buffers (what
/// memory holds under `storage`) and per-rank volumes, `procs` entries long
/// (ranks past the grid idle, moving nothing); its costs are the caller's.
ContractionPlan cosmaPlan(const ContractionProblem &problem, const CosmaLayout &layout,
                          const std::vector<TileLoop> &rounds, const MachineModel &machine,
                          CosmaStorage storage) {
  ContractionPlan plan;
  plan.inCore = storage == CosmaStorage::InMemory;
  plan.algorithm = ParallelAlgorithm::Cosma;
  plan.layoutA = layout.computeLayout(Operand::A);
  plan.layoutB = layout.computeLayout(Operand::B);
  plan.layoutC = layout.computeLayout(Operand::C);
  plan.rounds = rounds;
  CosmaBuffers buffers = cosmaBuffers(problem, layout, rounds);
  const double e = static_cast<double>(machine.elemBytes);
  const bool stored = storage == CosmaStorage::InMemory;
  plan.bufferBytes[0] = e * ((stored ? buffers.storedA : 0) + 2 * buffers.panelA);
  plan.bufferBytes[1] = e * ((stored ? buffers.storedB : 0) + 2 * buffers.panelB);
  plan.bufferBytes[2] = e * ((stored ? buffers.storedC : 0) + buffers.blockC);
  RankVolumes volumes = cosmaVolumes(problem, layout, machine.elemBytes);
  volumes.sent.resize(machine.procs, 0.0);
  volumes.received.resize(machine.procs, 0.0);
  plan.sentPerRank = volumes.sent;
  plan.receivedPerRank = volumes.received;
  plan.commBytes = volumes.maxReceived();
  return plan;
}

} // namespace

std::optional<ContractionPlan> planCosma(const ContractionProblem &problem,
                                         const MacroIndices &macro, const MachineModel &machine,
                                         std::vector<std::string> &remarks,
                                         const std::optional<std::vector<int64_t>> &givenGrid,
                                         double delta) {
  if (refusesGivenLayouts(problem, remarks))
    return std::nullopt;
  // Up to delta P ranks may be left idle (Kwasniewski et al. section 7.1): the
  // runtime runs them without data, outside the grid's communicator.
  std::vector<int64_t> grid =
      givenGrid ? *givenGrid : fitCosmaGrid(problem, macro, machine, delta);
  const int64_t used = gridProcs(grid);
  if (grid.size() != 3 || used > machine.procs) {
    remarks.push_back("cosma skipped: its grid " + gridList(grid) +
                      " is not a 3-d grid of at most " + std::to_string(machine.procs) +
                      " processes");
    return std::nullopt;
  }
  std::optional<CosmaLayout> layout = cosmaLayoutOn(problem, macro, grid, remarks);
  if (!layout)
    return std::nullopt;
  std::optional<std::vector<TileLoop>> rounds =
      cosmaRounds(problem, macro, *layout, machine.memBytes, machine.elemBytes);
  // fitRanks's memory test is looser than the rounds': the larger blocks of a
  // grid that leaves ranks idle may not fit where a grid of all ranks does.
  if (!rounds && !givenGrid && used < machine.procs && delta > 0)
    return planCosma(problem, macro, machine, remarks, givenGrid, /*delta=*/0);
  if (!rounds) {
    remarks.push_back("cosma in core skipped: its stored blocks, partial sums and one outer "
                      "product of each input do not fit in memory");
    return std::nullopt;
  }
  // Ranks used..P-1 are idle: they move nothing.
  ContractionPlan plan = cosmaPlan(problem, *layout, *rounds, machine, CosmaStorage::InMemory);
  plan.seconds = machine.netBandwidth > 0
                     ? cosmaSeconds(macro.sizes, used, plan.commBytes, machine)
                     : 0;
  return plan;
}

std::optional<ContractionPlan>
planCosmaOutOfCore(const ContractionProblem &problem, const MacroIndices &macro,
                   const MachineModel &machine, std::vector<std::string> &remarks,
                   const std::optional<std::vector<int64_t>> &givenGrid) {
  if (refusesGivenLayouts(problem, remarks))
    return std::nullopt;
  const int64_t P = machine.procs;
  const auto extent = [](double x) { return static_cast<int64_t>(std::llround(x)); };
  std::vector<std::vector<int64_t>> grids;
  if (givenGrid) { // of at most P ranks: those past it idle, as in core
    if (givenGrid->size() == 3 && gridProcs(*givenGrid) <= P)
      grids.push_back(*givenGrid);
  } else {
    for (int64_t pm = 1; pm <= std::min(P, extent(macro.sizes.I)); ++pm)
      for (int64_t pn = 1; pn <= std::min(P / pm, extent(macro.sizes.J)); ++pn)
        if (P % (pm * pn) == 0 && P / (pm * pn) <= extent(macro.sizes.K))
          grids.push_back({pm, pn, P / (pm * pn)});
  }
  // The runtime stages disk transfers and collectives in a chunk of its own.
  const double memory = machine.memBytes - machine.stagingBytes();
  std::optional<ContractionPlan> best;
  double bestReceived = 0;
  for (const std::vector<int64_t> &grid : grids) {
    std::optional<CosmaLayout> layout = cosmaLayoutOn(problem, macro, grid, remarks);
    if (!layout)
      return std::nullopt;
    std::optional<std::vector<TileLoop>> rounds =
        cosmaRounds(problem, macro, *layout, memory, machine.elemBytes, CosmaStorage::OnDisk);
    if (!rounds)
      continue;
    ContractionPlan plan = cosmaPlan(problem, *layout, *rounds, machine, CosmaStorage::OnDisk);
    std::vector<double> disk = cosmaDiskBytes(problem, *layout, machine.elemBytes, !problem.freshC);
    plan.diskBytes = *std::max_element(disk.begin(), disk.end());
    plan.seconds = plan.diskBytes / machine.diskBandwidth +
                   cosmaSeconds(macro.sizes, gridProcs(grid), plan.commBytes, machine);
    // Its buffers share the memory the staging chunk leaves, as COSMA's
    // sequential schedule's tiles do (D29).
    plan.memory = TileMemory::Shared;
    const double received =
        std::accumulate(plan.receivedPerRank.begin(), plan.receivedPerRank.end(), 0.0);
    // Ties: fewer bytes received over all ranks, then the first grid.
    if (best && (plan.seconds > best->seconds ||
                 (plan.seconds == best->seconds && received >= bestReceived)))
      continue;
    best = plan;
    bestReceived = received;
  }
  if (best)
    return best;
  if (givenGrid && grids.empty())
    remarks.push_back("cosma out of core skipped: its grid " + gridList(*givenGrid) +
                      " is not a 3-d grid of at most " + std::to_string(P) + " processes");
  else if (grids.empty())
    remarks.push_back("cosma out of core skipped: no grid of " + std::to_string(P) +
                      " processes has each factor within its extent of I, J and K");
  else
    remarks.push_back("cosma out of core skipped: on no grid do C's partial sums and one outer "
                      "product of each input fit in memory beside the staging chunk");
  return std::nullopt;
}

} // namespace mlir::tc
