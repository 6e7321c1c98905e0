//===- CosmaVolumes.cpp - per-rank volumes of tc's COSMA plans ------------===//
//
// Issue 13's communication-volume benchmark: for COSMA's four shape classes
// (square, largeK, largeM, flat; Kwasniewski et al. section 8) and a set of
// process counts, the exact bytes every rank of tc's COSMA plan (planCosma,
// cosmaVolumes) sends and receives, the planner's overall choice
// (planContraction), and two yardsticks:
//
//  - the received-volume lower bound: with every element of A, B and C stored
//    once (inputs before, C after) and every rank computing mnk/P
//    multiply-adds, a rank needs the projections alpha, beta, gamma of its
//    domain, |alpha| + |beta| + |gamma| >= F(mnk/P), where F(V) minimizes
//    alpha + beta + gamma subject to alpha beta gamma >= V^2 (Loomis-Whitney)
//    and alpha <= mk, beta <= nk, gamma <= mn (no projection exceeds its
//    matrix). An element needed by r ranks costs at least r - 1 transfers, so
//    the ranks together receive at least P F(mnk/P) - (mk + nk + mn) words: per
//    rank on average, and so on the busiest rank, F(mnk/P) - (mk + nk + mn)/P,
//    where, by Hoelder's inequality over the ranks, F may also assume
//    alpha >= mk/P, beta >= nk/P and gamma >= mn/P (the projections cover the
//    matrices). With unlimited memory this is COSMA's Theorem 2 at the feasible
//    domain, less each rank's own share (the paper's Table 3 tall entry does the
//    same);
//  - COSMA's Theorem 2 as the library evaluates it (parallelLowerBound:
//    2mnk/(Pa) + a^2, a = min(sqrt S, cbrt(mnk/P)), own data included, the
//    matrices' extents ignored), for reference.
//
// COSMA v2.8.4's own figures (cosma_statistics, run by bench/cosma-volumes.sh)
// are joined from a CSV given with --cosma. For the cells that miss a goal, a
// what-if locates the cause: the grid with the fewest bytes on up to 3% fewer
// ranks, whatever the computation idle ranks add. Output: a Markdown
// table on stdout, and a CSV with --csv. Plain C++ over the analysis library:
// no MLIR.
//
//===----------------------------------------------------------------------===//
#include "TC/Analysis/CommOptimalMatmul.h"
#include "TC/Analysis/ContractionPlanner.h"
#include "TC/Analysis/CosmaSchedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace mlir::tc;

namespace {

struct Shape {
  std::string name;
  int64_t m, n, k;
};

/// The shapes of COSMA's section 8 at sizes its statistics tool simulates in
/// seconds: square strong scaling (2^14), flat strong scaling (2^17 x 2^17 x
/// 2^9), and tall-and-skinny largeK / largeM with the same 2^40 volume as
/// 2^10 x 2^10 x 2^20.
const std::vector<Shape> kShapes = {
    {"square", 16384, 16384, 16384},
    {"largeK", 1024, 1024, 1048576},
    {"largeM", 1048576, 1024, 1024},
    {"flat", 131072, 131072, 512},
};
const std::vector<int64_t> kProcs = {16, 64, 256, 1024, 4096, 65, 100, 257, 1000, 2047};

/// COSMA v2.8.4's figures for one case (bench/cosma-volumes.sh's CSV).
struct CosmaRow {
  std::string status; ///< ok, crash or absent
  int64_t used = 0;
  std::string strategy;
  double expandedAvg = 0, receivedAvg = 0, receivedMax = 0;
};

/// Minimum of alpha + beta + gamma with alpha beta gamma >= V^2 and each in
/// [lo, hi]: convex in the logarithms, so at the optimum the unclamped ones
/// share one value t (found by bisection on log t) and the others sit at the
/// bound that t crosses.
double minProjections(double V, const double (&lo)[3], const double (&hi)[3]) {
  auto clamped = [&](double logT, int i) {
    return std::min(std::max(logT, std::log(lo[i])), std::log(hi[i]));
  };
  const double target = 2 * std::log(V);
  double a = std::log(*std::min_element(lo, lo + 3)), b = std::log(*std::max_element(hi, hi + 3));
  for (int it = 0; it < 200; ++it) {
    double mid = 0.5 * (a + b);
    double f = clamped(mid, 0) + clamped(mid, 1) + clamped(mid, 2);
    (f < target ? a : b) = mid;
  }
  double sum = 0;
  for (int i = 0; i < 3; ++i)
    sum += std::exp(clamped(b, i));
  return sum;
}

/// Words received per rank, at least (the file comment): the projections of a
/// domain of mnk/P points, each no larger than its matrix and, on average over
/// the ranks, no smaller than its matrix's share (every element is used
/// somewhere), less that share.
double receivedLowerBound(const Shape &s, int64_t P) {
  const double m = s.m, n = s.n, k = s.k, p = static_cast<double>(P);
  const double V = m * n * k / p;
  const double whole[3] = {m * k, n * k, m * n};
  const double lo[3] = {whole[0] / p, whole[1] / p, whole[2] / p};
  return std::max(0.0, minProjections(V, lo, whole) - (lo[0] + lo[1] + lo[2]));
}

/// The fewest bytes any grid on P' in [P - floor(0.03 P), P] ranks gives the
/// busiest rank (fitCosmaGrid on each P', the bytes alone, ties to more ranks):
/// what the planner would choose if idle ranks cost no computation. A
/// diagnostic of the cells where the machine model keeps every rank busy.
std::pair<std::vector<int64_t>, double> bestGridWithIdleRanks(const ContractionProblem &problem,
                                                              const MacroIndices &macro,
                                                              MachineModel machine) {
  const int64_t P = machine.procs;
  std::vector<int64_t> best;
  double bestMax = 0;
  for (int64_t q = P; q >= P - static_cast<int64_t>(std::floor(0.03 * P + 1e-9)); --q) {
    machine.procs = q;
    std::vector<int64_t> g = fitCosmaGrid(problem, macro, machine);
    CosmaLabels l = chooseCosmaLabels(problem, macro, g);
    double mx = cosmaVolumes(problem, completeCosmaLayout(problem, macro, g, l.i, l.j, l.k), 8)
                    .maxReceived();
    if (best.empty() || mx < bestMax)
      best = g, bestMax = mx;
  }
  return {best, bestMax};
}

std::string gridStr(const std::vector<int64_t> &g) {
  std::string out;
  for (size_t i = 0; i < g.size(); ++i)
    out += (i ? "x" : "") + std::to_string(g[i]);
  return out;
}

std::string mb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", bytes / 1e6);
  return buf;
}
std::string ratio(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", x);
  return buf;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    out.push_back(item);
  return out;
}

/// Reads shape,m,n,k,P,status,P_used,strategy,expanded_avg_B,received_avg_B,
/// received_max_B (a header line first).
std::map<std::pair<std::string, int64_t>, CosmaRow> readCosma(const std::string &path) {
  std::map<std::pair<std::string, int64_t>, CosmaRow> rows;
  std::ifstream in(path);
  if (!in) {
    std::cerr << "tc-cosma-volumes: cannot read " << path << "\n";
    std::exit(1);
  }
  std::string line;
  std::getline(in, line); // header
  while (std::getline(in, line)) {
    std::vector<std::string> f = split(line, ',');
    if (f.size() < 11)
      continue;
    CosmaRow r;
    r.status = f[5];
    if (r.status == "ok") {
      r.used = std::stoll(f[6]);
      r.strategy = f[7];
      r.expandedAvg = std::stod(f[8]);
      r.receivedAvg = std::stod(f[9]);
      r.receivedMax = std::stod(f[10]);
    }
    rows[{f[0], std::stoll(f[4])}] = r;
  }
  return rows;
}

void usage() {
  std::cerr << "usage: tc-cosma-volumes [--csv FILE] [--cosma FILE] [--procs P,P,...]\n"
               "                        [--shapes square,largeK,largeM,flat] [--mem BYTES]\n"
               "                        [--list-cases]\n";
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  std::string csvPath, cosmaPath;
  std::vector<int64_t> procs = kProcs;
  std::vector<Shape> shapes = kShapes;
  double memBytes = 1e18; // unlimited, as COSMA_CPU_MAX_MEMORY unset
  bool listCases = false;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    auto value = [&]() -> std::string {
      if (a + 1 >= argc)
        usage();
      return argv[++a];
    };
    if (arg == "--csv")
      csvPath = value();
    else if (arg == "--cosma")
      cosmaPath = value();
    else if (arg == "--mem")
      memBytes = std::stod(value());
    else if (arg == "--list-cases")
      listCases = true;
    else if (arg == "--procs") {
      procs.clear();
      for (const std::string &p : split(value(), ','))
        procs.push_back(std::stoll(p));
    } else if (arg == "--shapes") {
      shapes.clear();
      for (const std::string &name : split(value(), ',')) {
        auto it = std::find_if(kShapes.begin(), kShapes.end(),
                               [&](const Shape &s) { return s.name == name; });
        if (it == kShapes.end())
          usage();
        shapes.push_back(*it);
      }
    } else
      usage();
  }
  if (listCases) {
    for (const Shape &s : shapes)
      for (int64_t P : procs)
        std::cout << s.name << " " << s.m << " " << s.n << " " << s.k << " " << P << "\n";
    return 0;
  }
  std::map<std::pair<std::string, int64_t>, CosmaRow> cosma;
  if (!cosmaPath.empty())
    cosma = readCosma(cosmaPath);

  struct Row {
    Shape s;
    int64_t P;
    std::vector<int64_t> grid, idleGrid;
    double recvMax, recvAvg, sentMax, sentAvg, faces, idleMax;
    std::string alg, algGrid;
    double algBytes, bound, thm2;
    CosmaRow cosma;
    bool vsCosma, vsBound;
  };
  std::vector<Row> rows;
  for (const Shape &s : shapes)
    for (int64_t P : procs) {
      MachineModel machine;
      machine.procs = P;
      machine.memBytes = memBytes;
      machine.netBandwidth = 1e9;
      // One core of the paper's machine (Piz Daint XC40, Xeon E5-2695 v4:
      // 2.1 GHz x 16 double flops per cycle): what decides whether idling up
      // to 3% of the ranks pays (Kwasniewski et al. section 7.1, Fig. 5).
      machine.flopRate = 3.36e10;
      machine.diskBandwidth = 1e8;
      machine.runtimeVolumes = true;
      const double e = static_cast<double>(machine.elemBytes);
      const double S = memBytes / e;
      ContractionProblem problem{
          {"i", "k"}, {"k", "j"}, {"i", "j"}, {{"i", s.m}, {"j", s.n}, {"k", s.k}}, {}, {}, {}};
      MacroIndicesOrError macro = macroIndicesOf(problem);
      if (!macro) {
        std::cerr << "tc-cosma-volumes: " << macro.error << "\n";
        return 1;
      }
      std::vector<std::string> remarks;
      std::optional<ContractionPlan> plan = planCosma(problem, macro.value, machine, remarks);
      if (!plan) {
        std::cerr << "tc-cosma-volumes: no COSMA plan for " << s.name << " P=" << P << ": "
                  << (remarks.empty() ? "" : remarks.back()) << "\n";
        return 1;
      }
      Row r;
      r.s = s;
      r.P = P;
      const std::vector<double> &recv = plan->receivedPerRank, &sent = plan->sentPerRank;
      r.recvMax = *std::max_element(recv.begin(), recv.end());
      r.recvAvg = std::accumulate(recv.begin(), recv.end(), 0.0) / P;
      r.sentMax = *std::max_element(sent.begin(), sent.end());
      r.sentAvg = std::accumulate(sent.begin(), sent.end(), 0.0) / P;
      // The layouts are A <i,*,k>, B <*,j,k>, C <i,j,*>, all on [pm, pn, pk].
      r.grid = plan->layoutA.grid;
      r.faces = e * evaluateGrid(s.m, s.n, s.k, r.grid[0], r.grid[1], r.grid[2], S).wordsPerRank;
      std::tie(r.idleGrid, r.idleMax) = bestGridWithIdleRanks(problem, macro.value, machine);

      PlanResult choice = planContraction(problem, machine);
      r.alg = r.algGrid = "-";
      r.algBytes = 0;
      if (choice.chosen) {
        const ContractionPlan &c = choice.candidates[*choice.chosen];
        r.alg = toString(c.algorithm);
        r.algGrid = gridStr(c.layoutA.grid);
        r.algBytes = c.totalCommBytes();
      }
      r.bound = e * receivedLowerBound(s, P);
      r.thm2 = e * parallelLowerBound(s.m, s.n, s.k, P, S);
      auto found = cosma.find({s.name, P});
      r.cosma.status = cosmaPath.empty() ? "absent" : "missing";
      if (found != cosma.end())
        r.cosma = found->second;
      // COSMA's average is floor(8 sum / P_used) (stats.sh's integer shell
      // arithmetic): tc's is floored too.
      r.vsCosma = r.cosma.status == "ok" && r.recvMax <= r.cosma.receivedMax &&
                  std::floor(r.recvAvg) <= r.cosma.receivedAvg;
      r.vsBound = r.recvMax <= 1.05 * r.bound;
      rows.push_back(r);
    }

  std::cout << "| shape | P | tc grid | tc recv max | tc recv avg | tc sent max | planner's choice "
               "| bound | COSMA ranks: strategy | COSMA recv max | COSMA recv avg | tc/bound "
               "| tc/COSMA max | tc/COSMA avg | <= COSMA | <= 1.05 bound |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row &r : rows) {
    bool ok = r.cosma.status == "ok";
    std::cout << "| " << r.s.name << " | " << r.P << " | " << gridStr(r.grid) << " | "
              << mb(r.recvMax) << " | " << mb(r.recvAvg) << " | " << mb(r.sentMax) << " | " << r.alg
              << " " << r.algGrid << ": " << mb(r.algBytes) << " | " << mb(r.bound) << " | "
              << (ok ? std::to_string(r.cosma.used) + ": " + r.cosma.strategy : r.cosma.status)
              << " | " << (ok ? mb(r.cosma.receivedMax) : "-") << " | "
              << (ok ? mb(r.cosma.receivedAvg) : "-") << " | " << ratio(r.recvMax / r.bound)
              << " | " << (ok ? ratio(r.recvMax / r.cosma.receivedMax) : "-") << " | "
              << (ok ? ratio(r.recvAvg / r.cosma.receivedAvg) : "-") << " | "
              << (ok ? (r.vsCosma ? "yes" : "**no**") : "-") << " | "
              << (r.vsBound ? "yes" : "**no**") << " |\n";
  }
  std::cout
      << "\nCells missing a goal, with what-ifs (MB received by the busiest rank):\n\n"
         "| shape | P | tc grid: recv max | fewest bytes on 97-100% of the ranks "
         "| COSMA recv max | bound |\n|---|---|---|---|---|---|\n";
  for (const Row &r : rows) {
    if ((r.vsCosma || r.cosma.status != "ok") && r.vsBound)
      continue;
    std::cout << "| " << r.s.name << " | " << r.P << " | " << gridStr(r.grid) << ": "
              << mb(r.recvMax) << " | "
              << (r.idleGrid == r.grid ? "same grid" : gridStr(r.idleGrid) + ": " + mb(r.idleMax))
              << " | " << (r.cosma.status == "ok" ? mb(r.cosma.receivedMax) : r.cosma.status)
              << " | " << mb(r.bound) << " |\n";
  }

  if (!csvPath.empty()) {
    std::ofstream csv(csvPath);
    csv << "shape,m,n,k,P,tc_grid,tc_recv_max_B,tc_recv_avg_B,tc_sent_max_B,tc_sent_avg_B,"
           "tc_faces_max_B,idle3_grid,idle3_recv_max_B,planner_alg,"
           "planner_grid,planner_comm_B,bound_recv_B,bound_thm2_B,cosma_status,cosma_P_used,"
           "cosma_strategy,cosma_expanded_avg_B,cosma_recv_avg_B,cosma_recv_max_B,"
           "tc_over_bound,tc_over_cosma_max,tc_over_cosma_avg,meets_cosma,meets_bound\n";
    for (const Row &r : rows) {
      bool ok = r.cosma.status == "ok";
      char line[1024];
      std::snprintf(
          line, sizeof line,
          "%s,%lld,%lld,%lld,%lld,%s,%.0f,%.1f,%.0f,%.1f,%.0f,%s,%.0f,%s,%s,%.0f,%.1f,%.1f,"
          "%s,%lld,%s,%.0f,%.0f,%.0f,%.6f,%s,%s,%s,%s\n",
          r.s.name.c_str(), static_cast<long long>(r.s.m), static_cast<long long>(r.s.n),
          static_cast<long long>(r.s.k), static_cast<long long>(r.P), gridStr(r.grid).c_str(),
          r.recvMax, r.recvAvg, r.sentMax, r.sentAvg, r.faces,
          gridStr(r.idleGrid).c_str(), r.idleMax, r.alg.c_str(), r.algGrid.c_str(), r.algBytes,
          r.bound, r.thm2, r.cosma.status.c_str(), static_cast<long long>(r.cosma.used),
          r.cosma.strategy.c_str(), r.cosma.expandedAvg, r.cosma.receivedAvg, r.cosma.receivedMax,
          r.recvMax / r.bound, ok ? ratio(r.recvMax / r.cosma.receivedMax).c_str() : "",
          ok ? ratio(r.recvAvg / r.cosma.receivedAvg).c_str() : "",
          ok ? (r.vsCosma ? "yes" : "no") : "", r.vsBound ? "yes" : "no");
      csv << line;
    }
  }
  return 0;
}
