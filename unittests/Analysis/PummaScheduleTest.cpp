//===- PummaScheduleTest.cpp - PUMMA over labels, against a simulation ----===//
//
// The PUMMA schedule of docs/Derivations.md D28 is simulated element by element
// here, independently of lib/Analysis/PummaSchedule.cpp: block-cyclic
// ownership, the roll of X along R, the gather of Y's K panel or the reduction
// of C's partial panel along G. The simulation counts the bytes every rank
// sends and receives and, for small problems, carries values through the
// stages (dense local multiplies of the padded buffers, as the lowering emits
// them) to check the distributed result against a serial contraction.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/PummaSchedule.h"

#include "TC/Analysis/Layout.h"

#include "TestMachine.h"

#include "TC/Layout/Ownership.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace mlir::tc;

namespace {

using test::machine;

ContractionProblem contraction(std::vector<std::string> a, std::vector<std::string> b,
                               std::vector<std::string> c, std::map<std::string, int64_t> e) {
  return {std::move(a), std::move(b), std::move(c), std::move(e), {}, {}, {}};
}

ContractionProblem matmul(int64_t m, int64_t n, int64_t k) {
  return contraction({"i", "k"}, {"k", "j"}, {"i", "j"}, {{"i", m}, {"j", n}, {"k", k}});
}

MacroIndices macroOf(const ContractionProblem &p) {
  MacroIndicesOrError macro = macroIndicesOf(p);
  EXPECT_TRUE(macro) << macro.error;
  return macro.value;
}

using tc_layout::ceilDiv;

/// All 2-d grids of P.
std::vector<std::vector<int64_t>> gridsOf(int64_t P) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t g0 = 1; g0 <= P; ++g0)
    if (P % g0 == 0)
      out.push_back({g0, P / g0});
  return out;
}

/// Calls f on every multi-index below `extents` (row-major).
template <typename F> void forEachIndex(const std::vector<int64_t> &extents, F f) {
  for (int64_t e : extents)
    if (e <= 0)
      return;
  std::vector<int64_t> idx(extents.size(), 0);
  while (true) {
    f(idx);
    size_t a = extents.size();
    while (a > 0) {
      --a;
      if (++idx[a] < extents[a])
        break;
      idx[a] = 0;
      if (a == 0)
        return;
    }
    if (extents.empty())
      return;
  }
}

/// How a buffer holds one label (D28, block-cyclic ownership): element i lies in
/// block i / nb, held by coordinate (i / nb) mod parts along grid dimension
/// `dim`, at local index ((i / nb) / parts) nb + i mod nb; every process stores
/// as many whole blocks as the busiest coordinate holds. dim -1: held whole. A
/// contiguous distribution is nb = ceil(N / parts). The same indexing with
/// parts = Q, dim -1, is the panel of a residue class mod Q.
struct Axis {
  int dim = -1;
  int64_t extent = 1, nb = 1, parts = 1;
  bool panel = false; ///< the residue class's rows, whole blocks
  bool split() const { return dim >= 0 || panel; }
  int64_t coord(int64_t i) const { return dim < 0 ? 0 : (i / nb) % parts; }
  int64_t local(int64_t i) const { return split() ? (i / nb) / parts * nb + i % nb : i; }
  int64_t stored() const {
    if (!split())
      return extent;
    std::vector<int64_t> held(parts, 0);
    for (int64_t I = 0; I * nb < extent; ++I)
      held[I % parts] += nb;
    return *std::max_element(held.begin(), held.end());
  }
  bool operator==(const Axis &o) const {
    return dim == o.dim && extent == o.extent && nb == o.nb && parts == o.parts && panel == o.panel;
  }
};

Axis axisOf(const Layout &layout, const std::string &label, int64_t extent) {
  Axis a;
  a.extent = extent;
  for (size_t d = 0; d < layout.dims.size(); ++d)
    if (layout.dims[d] == label) {
      a.dim = static_cast<int>(d);
      a.parts = layout.grid[d];
      a.nb = layout.cyclicBlock(d) > 0 ? layout.cyclicBlock(d) : ceilDiv(extent, a.parts);
    }
  return a;
}

/// A local buffer: one axis per label of the array, row-major.
struct Buffer {
  std::vector<Axis> axes;
  std::vector<double> v;
  explicit Buffer(std::vector<Axis> ax) : axes(std::move(ax)) {
    size_t n = 1;
    for (const Axis &a : axes)
      n *= static_cast<size_t>(a.stored());
    v.assign(n, 0.0);
  }
  size_t at(const std::vector<int64_t> &global) const {
    size_t n = 0;
    for (size_t a = 0; a < axes.size(); ++a)
      n = n * axes[a].stored() + axes[a].local(global[a]);
    return n;
  }
};

/// PUMMA's roles, as D28 names them.
struct Variant {
  Operand roll;
  PummaMode mode;
  int64_t R;
};
const Variant kVariants[] = {
    {Operand::A, PummaMode::Gather, 0}, {Operand::A, PummaMode::Gather, 1},
    {Operand::A, PummaMode::Reduce, 0}, {Operand::A, PummaMode::Reduce, 1},
    {Operand::B, PummaMode::Gather, 0}, {Operand::B, PummaMode::Gather, 1},
    {Operand::B, PummaMode::Reduce, 0}, {Operand::B, PummaMode::Reduce, 1}};

struct Labels {
  std::string i, j, k;
};

/// The compute layouts written from D28's description: gather puts X's K on R
/// and its free label on G, reduce the reverse; Y holds K on G and its free
/// label on R; C holds X's free label on G and Y's on R. `blocks`: each label's
/// block size, 0 for contiguous.
std::array<Layout, 3> d28Layouts(const std::vector<int64_t> &grid, const Variant &v,
                                 const Labels &l, const std::map<std::string, int64_t> &blocks) {
  const int64_t R = v.R, G = 1 - v.R;
  const std::string &fx = v.roll == Operand::A ? l.i : l.j;
  const std::string &fy = v.roll == Operand::A ? l.j : l.i;
  auto make = [&](const std::string &onR, const std::string &onG) {
    Layout out;
    out.grid = grid;
    out.dims.assign(2, "");
    out.cyclic.assign(2, 0);
    out.dims[R] = onR;
    out.dims[G] = onG;
    out.cyclic[R] = blocks.at(onR);
    out.cyclic[G] = blocks.at(onG);
    if (!out.isCyclic())
      out.cyclic.clear();
    return out;
  };
  Layout x = v.mode == PummaMode::Gather ? make(l.k, fx) : make(fx, l.k);
  Layout y = make(fy, l.k), c = make(fy, fx);
  if (v.roll == Operand::A)
    return {x, y, c};
  return {y, x, c};
}

/// True when every label is held in the same blocks wherever it is
/// distributed (a contiguous block counting as ceil(N / parts)).
bool sameBlocksEverywhere(const ContractionProblem &p, const std::array<Layout, 3> &lay) {
  for (const auto &[label, extent] : p.extents) {
    std::optional<int64_t> nb;
    for (const Layout &l : lay) {
      Axis a = axisOf(l, label, extent);
      if (a.dim < 0)
        continue;
      if (nb && *nb != a.nb)
        return false;
      nb = a.nb;
    }
  }
  return true;
}

struct SimResult {
  RankVolumes bytes;
  double stored[3] = {0, 0, 0}; ///< elements of A's, B's and C's local buffers
  double panel = 0;             ///< elements of the panel buffer
  int64_t panelRows = 0;
  bool shapesAgree = true; ///< local extents of each label equal in every operand
  double maxError = 0;     ///< |C - (C0 + A B)| over C's real elements
};

/// Runs PUMMA on the compute layouts `lay` element by element (D28): Q =
/// grid[R] stages; at stage t the process at coordinate q along R holds X's
/// blocks of residue (q + t) mod Q of its label along R. Gather: the processes
/// along G gather Y's real elements of the K blocks of that residue into the
/// panel, C += X * panel. Reduce: panel = X * Y, whose real elements of X's
/// free blocks of that residue are summed into their owners along G. X's whole
/// padded buffer then moves one step along R (q receives from q + 1), except
/// after the last stage. With `values`, the data are random numbers and the
/// result is compared with a serial contraction.
SimResult simulate(const ContractionProblem &p, const std::array<Layout, 3> &lay, const Variant &v,
                   const Labels &l, bool values, unsigned seed = 1) {
  SimResult res;
  const std::vector<int64_t> &grid = lay[0].grid;
  const int64_t R = v.R, G = 1 - v.R, Q = grid[R], PG = grid[G], P = grid[0] * grid[1];
  const bool gather = v.mode == PummaMode::Gather;
  const int X = v.roll == Operand::A ? 0 : 1, Y = 1 - X;
  const std::string &fx = v.roll == Operand::A ? l.i : l.j;
  const int holder = gather ? Y : 2;
  const std::string &panelLabel = gather ? l.k : fx;
  auto rankOf = [&](const std::array<int64_t, 2> &c) { return c[0] * grid[1] + c[1]; };
  auto coordsOf = [&](int64_t r) { return std::array<int64_t, 2>{r / grid[1], r % grid[1]}; };

  std::vector<std::string> labels[3] = {p.labelsA, p.labelsB, p.labelsC};
  std::vector<int64_t> extents[3];
  std::vector<Axis> axes[3];
  for (int x = 0; x < 3; ++x)
    for (const std::string &lb : labels[x]) {
      extents[x].push_back(p.extents.at(lb));
      axes[x].push_back(axisOf(lay[x], lb, p.extents.at(lb)));
    }
  std::vector<Axis> panelAxes = axes[holder];
  const size_t panelPos =
      std::find(labels[holder].begin(), labels[holder].end(), panelLabel) - labels[holder].begin();
  Axis &pa = panelAxes[panelPos];
  const int64_t panelNb = pa.nb;
  pa.dim = -1;
  pa.parts = Q;
  pa.panel = true;
  res.panelRows = pa.stored();
  auto ownerOf = [&](int x, const std::vector<int64_t> &idx) {
    std::array<int64_t, 2> c{-1, -1};
    for (size_t a = 0; a < idx.size(); ++a)
      if (axes[x][a].dim >= 0)
        c[axes[x][a].dim] = axes[x][a].coord(idx[a]);
    EXPECT_TRUE(c[0] >= 0 && c[1] >= 0) << "PUMMA distributes both grid dimensions";
    return c;
  };

  // Global data and the local buffers every rank starts with.
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> global[3];
  std::vector<Buffer> local[3];
  for (int x = 0; x < 3; ++x) {
    local[x].assign(P, Buffer(axes[x]));
    res.stored[x] = static_cast<double>(local[x][0].v.size());
    if (!values)
      continue;
    forEachIndex(extents[x], [&](const std::vector<int64_t> &idx) {
      double d = uni(rng);
      global[x].push_back(d);
      Buffer &b = local[x][rankOf(ownerOf(x, idx))];
      b.v[b.at(idx)] = d;
    });
  }
  res.panel = static_cast<double>(Buffer(panelAxes).v.size());
  res.bytes.sent.assign(P, 0);
  res.bytes.received.assign(P, 0);

  // The local multiply: C += A * B over the padded local buffers, every label
  // running over its local extent (which must be the same in every operand).
  std::vector<std::string> all;
  for (int x = 0; x < 3; ++x)
    for (const std::string &lb : labels[x])
      if (std::find(all.begin(), all.end(), lb) == all.end())
        all.push_back(lb);
  auto multiply = [&](const Buffer &a, const Buffer &b, Buffer &c) {
    const Buffer *ops[3] = {&a, &b, &c};
    std::vector<int64_t> len(all.size(), -1);
    std::vector<std::vector<int64_t>> stride(3, std::vector<int64_t>(all.size(), 0));
    for (int x = 0; x < 3; ++x) {
      int64_t s = 1;
      for (size_t q = labels[x].size(); q-- > 0;) {
        size_t pos = std::find(all.begin(), all.end(), labels[x][q]) - all.begin();
        int64_t n = ops[x]->axes[q].stored();
        if (len[pos] >= 0 && len[pos] != n)
          res.shapesAgree = false;
        len[pos] = std::max(len[pos], n);
        stride[x][pos] = s;
        s *= n;
      }
    }
    if (!res.shapesAgree)
      return;
    forEachIndex(len, [&](const std::vector<int64_t> &idx) {
      int64_t o[3] = {0, 0, 0};
      for (int x = 0; x < 3; ++x)
        for (size_t q = 0; q < idx.size(); ++q)
          o[x] += idx[q] * stride[x][q];
      c.v[o[2]] += a.v[o[0]] * b.v[o[1]];
    });
  };

  const double e = 8;
  for (int64_t t = 0; t < Q; ++t) {
    std::vector<Buffer> panels(P, Buffer(panelAxes));
    if (gather) {
      forEachIndex(extents[Y], [&](const std::vector<int64_t> &idx) {
        std::array<int64_t, 2> o = ownerOf(Y, idx);
        if ((idx[panelPos] / panelNb) % Q != (o[R] + t) % Q)
          return;
        for (int64_t m = 0; m < PG; ++m) {
          std::array<int64_t, 2> to = o;
          to[G] = m;
          if (values)
            panels[rankOf(to)].v[panels[rankOf(to)].at(idx)] =
                local[Y][rankOf(o)].v[local[Y][rankOf(o)].at(idx)];
          if (m != o[G]) {
            res.bytes.sent[rankOf(o)] += e;
            res.bytes.received[rankOf(to)] += e;
          }
        }
      });
      if (values)
        for (int64_t r = 0; r < P; ++r)
          X == 0 ? multiply(local[0][r], panels[r], local[2][r])
                 : multiply(panels[r], local[1][r], local[2][r]);
    } else {
      if (values)
        for (int64_t r = 0; r < P; ++r)
          multiply(local[0][r], local[1][r], panels[r]);
      forEachIndex(extents[2], [&](const std::vector<int64_t> &idx) {
        std::array<int64_t, 2> o = ownerOf(2, idx);
        if ((idx[panelPos] / panelNb) % Q != (o[R] + t) % Q)
          return;
        for (int64_t m = 0; m < PG; ++m) {
          std::array<int64_t, 2> from = o;
          from[G] = m;
          if (values)
            local[2][rankOf(o)].v[local[2][rankOf(o)].at(idx)] +=
                panels[rankOf(from)].v[panels[rankOf(from)].at(idx)];
          if (m != o[G]) {
            res.bytes.sent[rankOf(from)] += e;
            res.bytes.received[rankOf(o)] += e;
          }
        }
      });
    }
    if (t + 1 < Q) { // roll X: q receives what q + 1 holds, the whole padded buffer
      std::vector<Buffer> next = local[X];
      for (int64_t r = 0; r < P; ++r) {
        std::array<int64_t, 2> from = coordsOf(r);
        from[R] = (from[R] + 1) % Q;
        next[r] = local[X][rankOf(from)];
        res.bytes.sent[r] += e * res.stored[X];
        res.bytes.received[r] += e * res.stored[X];
      }
      local[X] = std::move(next);
    }
  }
  if (!values)
    return res;
  // Serial C0 + A B over global indices.
  std::vector<double> want = global[2];
  std::vector<int64_t> allExt;
  for (const std::string &lb : all)
    allExt.push_back(p.extents.at(lb));
  std::vector<std::vector<size_t>> pos(3);
  for (int x = 0; x < 3; ++x)
    for (const std::string &lb : labels[x])
      pos[x].push_back(std::find(all.begin(), all.end(), lb) - all.begin());
  auto linear = [&](int x, const std::vector<int64_t> &idx) {
    size_t n = 0;
    for (size_t a = 0; a < pos[x].size(); ++a)
      n = n * extents[x][a] + idx[pos[x][a]];
    return n;
  };
  forEachIndex(allExt, [&](const std::vector<int64_t> &idx) {
    want[linear(2, idx)] += global[0][linear(0, idx)] * global[1][linear(1, idx)];
  });
  size_t n = 0;
  forEachIndex(extents[2], [&](const std::vector<int64_t> &idx) {
    const Buffer &b = local[2][rankOf(ownerOf(2, idx))];
    res.maxError = std::max(res.maxError, std::abs(b.v[b.at(idx)] - want[n++]));
  });
  return res;
}

std::string describe(const ContractionProblem &p, const std::vector<int64_t> &grid,
                     const Variant &v, const std::array<Layout, 3> &lay) {
  std::string s;
  for (const auto &[l, e] : p.extents)
    s += l + "=" + std::to_string(e) + " ";
  s += "grid [" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + "] roll " +
       (v.roll == Operand::A ? "A" : "B") + (v.mode == PummaMode::Gather ? " gather" : " reduce") +
       " R=" + std::to_string(v.R) + " A " + lay[0].str() + " B " + lay[1].str() + " C " +
       lay[2].str();
  return s;
}

struct Counts {
  int accepted = 0, rejected = 0;
};

/// For every 2-d grid of P = 1..maxP, variant and block choice: pummaChoiceOf
/// accepts the D28 layouts exactly when each label has the same blocks
/// everywhere, the choice names the variant, and pummaVolumes / pummaBuffers /
/// pummaPanelRows equal the simulation's counts (and, with `values`, the
/// distributed result is right).
void checkAll(const ContractionProblem &p, const std::vector<Labels> &labelChoices,
              const std::vector<std::array<int64_t, 3>> &blockChoices, int64_t maxP, bool values,
              Counts &counts) {
  MacroIndices macro = macroOf(p);
  for (int64_t P = 1; P <= maxP; ++P)
    for (const std::vector<int64_t> &grid : gridsOf(P))
      for (const Labels &l : labelChoices)
        for (const std::array<int64_t, 3> &blk : blockChoices)
          for (const Variant &v : kVariants) {
            std::map<std::string, int64_t> blocks{{l.i, blk[0]}, {l.j, blk[1]}, {l.k, blk[2]}};
            std::array<Layout, 3> lay = d28Layouts(grid, v, l, blocks);
            std::string what = describe(p, grid, v, lay);
            PummaChoiceOrError got = pummaChoiceOf(p, macro, grid, v.roll, lay[0], lay[1], lay[2]);
            bool expect = sameBlocksEverywhere(p, lay);
            EXPECT_EQ(got.value.has_value(), expect) << what << ": " << got.error;
            if (!got.value) {
              ++counts.rejected;
              continue;
            }
            ++counts.accepted;
            const PummaChoice &ch = *got.value;
            EXPECT_EQ(ch.roll, v.roll) << what;
            EXPECT_EQ(ch.mode, v.mode) << what;
            EXPECT_EQ(ch.rollDim, v.R) << what;
            EXPECT_EQ(ch.stages(), grid[v.R]) << what;
            EXPECT_EQ(ch.i, l.i) << what;
            EXPECT_EQ(ch.j, l.j) << what;
            EXPECT_EQ(ch.k, l.k) << what;
            // The choice's layouts hold every label as the given ones do.
            for (Operand x : {Operand::A, Operand::B, Operand::C}) {
              Layout mine = lay[static_cast<int>(x)], theirs = ch.layout(x);
              for (const std::string &lb : p.labels(x))
                EXPECT_TRUE(axisOf(mine, lb, p.extents.at(lb)) ==
                            axisOf(theirs, lb, p.extents.at(lb)))
                    << what << ": label " << lb << " in " << theirs.str();
            }
            SimResult sim = simulate(p, lay, v, l, values, static_cast<unsigned>(counts.accepted));
            RankVolumes vol = pummaVolumes(p, ch, 8);
            ASSERT_EQ(vol.sent.size(), static_cast<size_t>(P)) << what;
            ASSERT_EQ(vol.received.size(), static_cast<size_t>(P)) << what;
            for (int64_t r = 0; r < P; ++r) {
              EXPECT_EQ(vol.sent[r], sim.bytes.sent[r]) << what << " rank " << r;
              EXPECT_EQ(vol.received[r], sim.bytes.received[r]) << what << " rank " << r;
            }
            PummaBuffers buf = pummaBuffers(p, ch);
            const int X = v.roll == Operand::A ? 0 : 1;
            EXPECT_EQ(buf.x, sim.stored[X]) << what;
            EXPECT_EQ(buf.y, sim.stored[1 - X]) << what;
            EXPECT_EQ(buf.c, sim.stored[2]) << what;
            EXPECT_EQ(buf.panel, sim.panel) << what;
            const std::string &pl = v.mode == PummaMode::Gather ? l.k : ch.freeX();
            EXPECT_EQ(pummaPanelRows(p.extents.at(pl), ch.blockOf(pl), ch.stages()), sim.panelRows)
                << what;
            EXPECT_TRUE(sim.shapesAgree) << what << ": local extents differ between operands";
            if (values) {
              EXPECT_LT(sim.maxError, 1e-12) << what;
            }
          }
}

const std::vector<std::array<int64_t, 3>> kBlocks = {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {0, 0, 0},
                                                     {2, 3, 1}, {3, 1, 2}, {0, 2, 3}, {1, 0, 0}};

TEST(PummaSchedule, VolumesMatchAnElementBySimulation) {
  Counts counts;
  for (auto [m, n, k] : {std::array<int64_t, 3>{61, 37, 53}, {13, 7, 17}, {5, 9, 3}, {1, 4, 2}})
    checkAll(matmul(m, n, k), {{"i", "j", "k"}}, kBlocks, 7, /*values=*/false, counts);
  // Several labels per macro-index: the others are held whole; each choice of
  // the distributed ones.
  ContractionProblem multi = contraction({"x", "k", "i", "y"}, {"y", "j", "k"}, {"i", "j", "x"},
                                         {{"i", 5}, {"x", 3}, {"j", 7}, {"k", 4}, {"y", 3}});
  checkAll(multi, {{"i", "j", "k"}, {"x", "j", "y"}, {"i", "j", "y"}, {"x", "j", "k"}},
           {{1, 1, 1}, {2, 3, 1}, {0, 0, 0}, {3, 2, 2}}, 6, false, counts);
  // 16 grids x 8 variants x 8 block choices x 4 shapes, and 14 grids x 8
  // variants x 4 block choices x 4 label choices: 5888 layouts, rejected only
  // where a contiguous K (gather) or X's free label (reduce) has different
  // ceil-sized blocks on the two grid dimensions.
  EXPECT_EQ(counts.accepted, 4704);
  EXPECT_EQ(counts.rejected, 1184);
}

TEST(PummaSchedule, DistributedResultEqualsSerialProduct) {
  // C = A B, A^T B, A B^T, A^T B^T, each with C or C^T stored: the label orders
  // change the storage, not the schedule, so every variant must compute it.
  Counts counts;
  for (auto [m, n, k] : {std::array<int64_t, 3>{13, 7, 17}, {5, 9, 3}})
    for (bool at : {false, true})
      for (bool bt : {false, true})
        for (bool ct : {false, true}) {
          ContractionProblem p = contraction(
              at ? std::vector<std::string>{"k", "i"} : std::vector<std::string>{"i", "k"},
              bt ? std::vector<std::string>{"j", "k"} : std::vector<std::string>{"k", "j"},
              ct ? std::vector<std::string>{"j", "i"} : std::vector<std::string>{"i", "j"},
              {{"i", m}, {"j", n}, {"k", k}});
          checkAll(p, {{"i", "j", "k"}}, {{1, 1, 1}, {2, 3, 1}, {3, 2, 2}, {0, 0, 0}}, 7,
                   /*values=*/true, counts);
        }
  ContractionProblem multi = contraction({"x", "k", "i", "y"}, {"y", "j", "k"}, {"i", "j", "x"},
                                         {{"i", 5}, {"x", 3}, {"j", 7}, {"k", 4}, {"y", 3}});
  checkAll(multi, {{"i", "j", "k"}, {"x", "j", "y"}}, {{1, 1, 1}, {2, 3, 1}, {0, 0, 0}}, 6, true,
           counts);
  // 2 shapes x 8 label orders x 16 grids x 4 block choices x 8 variants, and
  // 14 grids x 2 label choices x 3 block choices x 8 variants: 8864 layouts.
  EXPECT_EQ(counts.accepted, 6888);
}

/// The candidates D28's search describes on P processes: every 2-d grid, both
/// rolls, both modes, both roll dimensions; K (gather) or X's free label
/// (reduce) in LCM blocks ceil(N / lcm(grid)), the others contiguous.
struct Candidate {
  std::vector<int64_t> grid;
  Variant v;
  std::array<Layout, 3> lay;
  double maxReceived = 0, bufferElements = 0;
};
std::vector<Candidate> searchSpace(const ContractionProblem &p, int64_t P,
                                   const std::map<std::string, int64_t> &blockOverride = {}) {
  std::vector<Candidate> out;
  Labels l{"i", "j", "k"};
  for (const std::vector<int64_t> &grid : gridsOf(P))
    for (const Variant &v : kVariants) {
      const int64_t lcm = std::lcm(grid[0], grid[1]);
      const std::string &cyc = v.mode == PummaMode::Gather ? l.k : v.roll == Operand::A ? l.i : l.j;
      std::map<std::string, int64_t> blocks{{"i", 0}, {"j", 0}, {"k", 0}};
      blocks[cyc] =
          blockOverride.count(cyc) ? blockOverride.at(cyc) : ceilDiv(p.extents.at(cyc), lcm);
      Candidate c{grid, v, d28Layouts(grid, v, l, blocks)};
      SimResult sim = simulate(p, c.lay, v, l, false);
      c.maxReceived = sim.bytes.maxReceived();
      c.bufferElements = sim.stored[0] + sim.stored[1] + sim.stored[2] + sim.panel;
      out.push_back(c);
    }
  return out;
}

TEST(PummaSchedule, PlanIsTheCheapestCandidate) {
  // 96x80x112 on 6 and 5, and on 4 and 8, whose non-coprime grids make the
  // LCM block differ from ceil(N / P); extents no grid divides on 4, 6, 8, 9.
  for (auto [m, n, k, P] : {std::array<int64_t, 4>{96, 80, 112, 6},
                            {96, 80, 112, 5},
                            {96, 80, 112, 4},
                            {96, 80, 112, 8},
                            {61, 37, 53, 4},
                            {61, 37, 53, 6},
                            {61, 37, 53, 8},
                            {61, 37, 53, 9}}) {
    ContractionProblem p = matmul(m, n, k);
    MacroIndices macro = macroOf(p);
    std::vector<Candidate> cands = searchSpace(p, P);
    ASSERT_EQ(cands.size(), gridsOf(P).size() * 8);
    auto check = [&](double mem) {
      std::string what = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                         " P = " + std::to_string(P) + " mem = " + std::to_string(mem);
      std::vector<std::string> remarks;
      std::optional<ContractionPlan> plan = planPumma(p, macro, machine(P, mem), remarks);
      ASSERT_TRUE(plan.has_value()) << what;
      EXPECT_EQ(plan->algorithm, ParallelAlgorithm::Pumma);
      EXPECT_TRUE(plan->inCore);
      const std::vector<int64_t> &grid = plan->layoutA.grid;
      ASSERT_EQ(grid.size(), 2u) << what;
      EXPECT_EQ(grid[0] * grid[1], P) << what;
      EXPECT_EQ(plan->layoutB.grid, grid);
      EXPECT_EQ(plan->layoutC.grid, grid);
      // The plan's layouts describe a PUMMA choice, whose volumes it predicts,
      // and which the simulation confirms.
      PummaChoiceOrError ch =
          pummaChoiceOf(p, macro, grid, plan->roll, plan->layoutA, plan->layoutB, plan->layoutC);
      ASSERT_TRUE(ch.value.has_value()) << what << ": " << ch.error;
      RankVolumes v = pummaVolumes(p, *ch.value, 8);
      EXPECT_EQ(plan->sentPerRank, v.sent) << what;
      EXPECT_EQ(plan->receivedPerRank, v.received) << what;
      EXPECT_EQ(plan->commBytes, v.maxReceived()) << what;
      EXPECT_DOUBLE_EQ(plan->seconds, plan->commBytes / 200e6) << what;
      Variant var{ch.value->roll, ch.value->mode, ch.value->rollDim};
      SimResult sim =
          simulate(p, std::array<Layout, 3>{plan->layoutA, plan->layoutB, plan->layoutC}, var,
                   {"i", "j", "k"}, false);
      EXPECT_EQ(sim.bytes.received, plan->receivedPerRank) << what;
      EXPECT_EQ(sim.bytes.sent, plan->sentPerRank) << what;
      double planBuffers = plan->bufferBytes[0] + plan->bufferBytes[1] + plan->bufferBytes[2];
      EXPECT_EQ(planBuffers, 8 * (sim.stored[0] + sim.stored[1] + sim.stored[2] + sim.panel))
          << what;
      EXPECT_LE(planBuffers, mem) << what;
      EXPECT_EQ(planBuffers, 8 * pummaBuffers(p, *ch.value).total()) << what;
      // No candidate that fits is cheaper.
      double least = std::numeric_limits<double>::infinity();
      for (const Candidate &c : cands)
        if (8 * c.bufferElements <= mem)
          least = std::min(least, c.maxReceived);
      EXPECT_EQ(plan->commBytes, least) << what;
    };
    double used = 0;
    check(1e9);
    {
      std::vector<std::string> remarks;
      std::optional<ContractionPlan> plan = planPumma(p, macro, machine(P, 1e9), remarks);
      ASSERT_TRUE(plan.has_value());
      used = plan->bufferBytes[0] + plan->bufferBytes[1] + plan->bufferBytes[2];
    }
    // Just too little memory for the best plan: the cheapest that fits.
    check(used - 8);
    // Only the roll asked for.
    for (Operand roll : {Operand::A, Operand::B}) {
      std::vector<std::string> remarks;
      std::optional<ContractionPlan> plan = planPumma(p, macro, machine(P, 1e9), remarks, roll);
      ASSERT_TRUE(plan.has_value());
      EXPECT_EQ(plan->roll, roll);
      double least = std::numeric_limits<double>::infinity();
      for (const Candidate &c : cands)
        if (c.v.roll == roll)
          least = std::min(least, c.maxReceived);
      EXPECT_EQ(plan->commBytes, least) << m << "x" << n << "x" << k << " P = " << P;
    }
  }
  // Nothing fits: no plan, with a remark.
  ContractionProblem p = matmul(96, 80, 112);
  MacroIndices macro = macroOf(p);
  std::vector<std::string> remarks;
  EXPECT_FALSE(planPumma(p, macro, machine(6, 1000), remarks).has_value());
  EXPECT_FALSE(remarks.empty());
}

TEST(PummaSchedule, GivenPummaLayoutsAreUsedInPlace) {
  // Constrained mode: A, B and C given in the layouts of a PUMMA variant. That
  // variant computes in place (no redistribution), so the plan costs no more
  // than its simulated volume, and a plan in the given layouts moves nothing
  // before or after.
  int cases = 0;
  for (const std::vector<int64_t> &grid : {std::vector<int64_t>{2, 3}, {3, 2}, {2, 2}})
    for (const std::array<int64_t, 3> &blk :
         {std::array<int64_t, 3>{1, 1, 1}, {2, 3, 5}, {0, 0, 7}, {9, 0, 0}})
      for (const Variant &v : kVariants) {
        ContractionProblem p = matmul(61, 37, 53);
        MacroIndices macro = macroOf(p);
        Labels l{"i", "j", "k"};
        std::array<Layout, 3> lay =
            d28Layouts(grid, v, l, {{"i", blk[0]}, {"j", blk[1]}, {"k", blk[2]}});
        if (!pummaChoiceOf(p, macro, grid, v.roll, lay[0], lay[1], lay[2]).value)
          continue;
        ++cases;
        p.givenA = lay[0];
        p.givenB = lay[1];
        p.requiredC = lay[2];
        std::string what = describe(p, grid, v, lay);
        const int64_t P = grid[0] * grid[1];
        std::vector<std::string> remarks;
        std::optional<ContractionPlan> plan = planPumma(p, macro, machine(P, 1e9), remarks);
        ASSERT_TRUE(plan.has_value()) << what;
        double inPlace = simulate(p, lay, v, l, false).bytes.maxReceived();
        EXPECT_LE(plan->totalSeconds(), inPlace / 200e6 * (1 + 1e-12)) << what;
        auto same = [&](const Layout &a, const Layout &b) {
          return canonicalBlocks(a, p.extents).samePartition(canonicalBlocks(b, p.extents));
        };
        if (same(plan->layoutA, lay[0]) && same(plan->layoutB, lay[1]) &&
            same(plan->layoutC, lay[2])) {
          EXPECT_EQ(plan->redist.commBytes, 0) << what;
          EXPECT_EQ(plan->redist.seconds, 0) << what;
        }
      }
  EXPECT_GT(cases, 50);
}

} // namespace
