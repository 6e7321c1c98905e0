//===- Program.cpp - main() of every program tcc builds -------------------===//
//
// Parses the command line, starts MPI, runs the generated tc_main, and writes
// the JSON report: per rank and in total, the counters of each phase and the
// plan's per-rank predictions for the compute phase.
//
//===----------------------------------------------------------------------===//
#include "BlasKernel.h"
#include "BlockArray.h"
#include "Context.h"
#include "DistArray.h"
#include "TC/Runtime/Runtime.h"

#include <cblas.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tc_rt;

namespace {

const char *kHelp =
    R"(usage: mpirun -np P %s [options]

Runs the tensor contractions compiled into this program on P MPI processes
(P as planned: tcc --procs). Options:
  --input NAME=FILE.h5   read input tensor NAME from dataset NAME of FILE.h5
                         (repeat for each input; the shape must match)
  --random-inputs SEED   fill inputs without an --input with reproducible
                         pseudo-random values in [-1, 1) (same for any P)
  --output FILE.h5       write the result tensors, one dataset each, to FILE.h5
                         (written to a temporary name, renamed when complete)
  --scratch DIR          directory for the per-process scratch files of
                         out-of-core arrays, created if missing (default: the
                         current directory); the files have no name there, so
                         however a run ends nothing is left behind
  --report FILE.json     write measured bytes sent/received/read/written, flops
                         and seconds per rank and phase, with the plan's
                         predictions, to FILE.json
  --checkpoint FILE.h5   after every iteration of a loop, write what the next
                         needs (the carried tensors, the DIIS history, the
                         count) to FILE.h5 (parallel HDF5: a file system every
                         rank shares), replacing it only when complete
  --checkpoint-every K   write the checkpoint after every K-th iteration only
  --restart FILE.h5      continue the checkpoint's loop from its iteration, on
                         any process count the program was compiled for
  --repeat N             run the whole program N times in this process (inputs
                         reloaded each time) and report every run's compute
                         time; the counters are those of the last run
  --quiet                no progress line
  --blas-kernel NAME     run OpenBLAS's NAME kernel (OPENBLAS_CORETYPE names:
                         SkylakeX, Haswell, Zen, ...); also TC_BLAS_KERNEL=NAME.
                         Without either, a kernel the user set in
                         OPENBLAS_CORETYPE runs, else OpenBLAS's choice, unless
                         that is a pre-AVX fallback on a CPU with AVX2 or
                         AVX-512 (then Haswell or SkylakeX runs); the report
                         says which ran and who chose it
  --help                 this text
A progress line appears on stderr once a run takes more than 3 s
(TC_PROGRESS_AFTER=SECONDS changes the 3).
Environment: TC_TRACE=1 prints every runtime call with its duration;
TC_FAIL_WRITE_AFTER_BYTES=N makes disk writes fail after N bytes
(fault-injection for tests).
)";

[[noreturn]] void usageError(const std::string &msg) {
  if (ctx().rank == 0)
    std::fprintf(stderr, "%s: error: %s (see --help)\n", ctx().program.c_str(), msg.c_str());
  MPI_Finalize();
  std::exit(2);
}

void parseArgs(int argc, char **argv) {
  Options &o = ctx().options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usageError("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      if (ctx().rank == 0)
        std::printf(kHelp, ctx().program.c_str());
      MPI_Finalize();
      std::exit(0);
    } else if (a == "--input") {
      std::string v = value();
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        usageError("--input needs NAME=FILE.h5, got '" + v + "'");
      o.inputs[v.substr(0, eq)] = v.substr(eq + 1);
    } else if (a == "--random-inputs") {
      std::string v = value();
      char *end;
      o.seed = std::strtoull(v.c_str(), &end, 10);
      if (*end)
        usageError("--random-inputs needs an integer seed, got '" + v + "'");
      o.randomInputs = true;
    } else if (a == "--output") {
      o.output = value();
    } else if (a == "--scratch") {
      o.scratch = value();
    } else if (a == "--report") {
      o.report = value();
    } else if (a == "--repeat") {
      std::string v = value();
      char *end;
      long n = std::strtol(v.c_str(), &end, 10);
      if (*end || n < 1 || n > 1000)
        usageError("--repeat needs a count from 1 to 1000, got '" + v + "'");
      o.repeat = static_cast<int>(n);
    } else if (a == "--checkpoint") {
      o.checkpoint = value();
    } else if (a == "--checkpoint-every") {
      std::string v = value();
      char *end;
      long long n = std::strtoll(v.c_str(), &end, 10);
      if (*end || n < 1)
        usageError("--checkpoint-every needs a count of at least 1, got '" + v + "'");
      o.checkpointEvery = n;
    } else if (a == "--restart") {
      o.restart = value();
      if (access(o.restart.c_str(), R_OK) != 0)
        usageError("cannot read checkpoint '" + o.restart + "' (--restart)");
    } else if (a == "--quiet") {
      o.quiet = true;
    } else {
      usageError("unknown option '" + a + "'");
    }
  }
}

void appendCounters(std::string &out, const Counters &k, double predictedDisk,
                    double predictedComm, double predictedReceived, bool withPrediction) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"bytes_sent\": %.0f, \"bytes_received\": %.0f, \"bytes_read\": %.0f, "
                "\"bytes_written\": %.0f, \"bytes_mapped\": %.0f, \"flops\": %.0f, "
                "\"seconds\": %.6f, \"peak_rss_bytes\": %.0f",
                k.bytesSent, k.bytesReceived, k.bytesRead, k.bytesWritten, k.bytesMapped, k.flops,
                k.seconds, k.peakRss);
  out += buf;
  if (withPrediction) {
    std::snprintf(buf, sizeof buf,
                  ", \"predicted_disk_bytes\": %.0f, \"predicted_comm_bytes\": %.0f",
                  predictedDisk, predictedComm);
    out += buf;
    if (predictedReceived >= 0) { // predicted per rank (fused programs)
      std::snprintf(buf, sizeof buf, ", \"predicted_received_bytes\": %.0f", predictedReceived);
      out += buf;
    }
  }
  out += "}";
}

/// A rank's hand-overs as the report gathers them: kHandOverFields doubles.
constexpr int kHandOverFields = 4;
void pack(const HandOver &h, double *v) {
  v[0] = h.sent, v[1] = h.received, v[2] = h.predictedSent, v[3] = h.predictedReceived;
}
HandOver unpackHandOver(const double *v) { return {v[0], v[1], v[2], v[3]}; }
/// `, "hand_over": {...}`: bytes moved handing intermediates on and the bytes
/// predicted for them.
void appendHandOver(std::string &out, const HandOver &h) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                ", \"hand_over\": {\"bytes_sent\": %.0f, \"bytes_received\": %.0f, "
                "\"predicted_sent_bytes\": %.0f, \"predicted_received_bytes\": %.0f}",
                h.sent, h.received, h.predictedSent, h.predictedReceived);
  out += buf;
}

/// A rank's counters as the report gathers them: kCounterFields doubles.
constexpr int kCounterFields = 8;
void pack(const Counters &k, double *v) {
  const double fields[kCounterFields] = {k.bytesSent, k.bytesReceived, k.bytesRead, k.bytesWritten,
                                         k.flops,     k.seconds,       k.peakRss,   k.bytesMapped};
  std::copy(fields, fields + kCounterFields, v);
}
Counters unpack(const double *v) {
  Counters k;
  k.bytesSent = v[0], k.bytesReceived = v[1], k.bytesRead = v[2], k.bytesWritten = v[3];
  k.flops = v[4], k.seconds = v[5], k.peakRss = v[6], k.bytesMapped = v[7];
  return k;
}
/// Adds a rank's counters into the total over ranks: bytes and flops sum, a
/// phase lasts as long as its slowest rank.
void addToTotal(Counters &total, const Counters &k) {
  total.bytesSent += k.bytesSent, total.bytesReceived += k.bytesReceived;
  total.bytesRead += k.bytesRead, total.bytesWritten += k.bytesWritten;
  total.bytesMapped += k.bytesMapped;
  total.flops += k.flops;
  total.seconds = std::max(total.seconds, k.seconds);
}

/// A JSON number, or null for one that is not finite.
std::string number(double v) {
  if (!std::isfinite(v))
    return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string statementsReport();
std::string loopsReport();
/// The report's name of each enum tc_rt_result.
const char *const kResultNames[] = {"output", "intermediate (file)", "intermediate (memory)"};

double baselineRss = 0;
std::vector<double> runSeconds; ///< compute seconds of each run (--repeat)

/// Threads of this process now (/proc/self/status), 0 where unknown: the
/// report's `threads`, rank 0's (one for tc, MPI's own, no BLAS workers).
int processThreads() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "Threads:") {
      int n = 0;
      status >> n;
      return n;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0;
}

/// Gathers every rank's counters to rank 0 and writes the report there. Each rank
/// sends one row: per phase kPerPhase counters, then its baseline and peak RSS,
/// then the compute seconds of every run.
void writeReport() {
  Context &c = ctx();
  // Every rank knows whether a report is wanted (the same options), so all
  // skip the gathers alike; formatting a long loop's statements took seconds.
  if (c.options.report.empty() && !c.embedded)
    return;
  const int runs = c.options.repeat;
  constexpr int kPerPhase = kCounterFields, kBaseline = NumPhases * kPerPhase,
                kPeak = kBaseline + 1, kPredicted = kPeak + 1, kHandOver = kPredicted + 3,
                kRuns = kHandOver + kHandOverFields;
  const int n = kRuns + runs;
  std::vector<double> mine(n);
  for (int p = 0; p < NumPhases; ++p)
    pack(c.counters[p], mine.data() + kPerPhase * p);
  mine[kBaseline] = baselineRss;
  mine[kPeak] = peakRssBytes();
  mine[kPredicted] = c.predictedDisk;
  mine[kPredicted + 1] = c.predictedComm;
  mine[kPredicted + 2] = c.predictedReceived;
  pack(c.handOver, mine.data() + kHandOver);
  std::copy(runSeconds.begin(), runSeconds.end(), mine.begin() + kRuns);
  std::vector<double> all(c.rank == 0 ? n * c.size : 0);
  MPI_Gather(mine.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const std::string statements = statementsReport();
  const std::string loops = loopsReport();
  if (c.rank != 0)
    return;
  // Received bytes are predicted per rank when every statement predicts them
  // (fused programs); a single contraction receives what it sends.
  bool receivedPredicted = c.predictedReceived >= 0;
  for (const StatementRecord &s : c.statements)
    receivedPredicted &= s.receivedPredicted;
  const BlasKernelChoice &blas = blasKernelChoice();
  std::string out = "{\n  \"program\": \"" + c.program +
                    "\",\n  \"procs\": " + std::to_string(c.size) +
                    ",\n  \"blas_kernel\": {\"name\": \"" + blas.kernel + "\", \"chosen_by\": \"" +
                    blas.chosenBy + "\"},\n  \"threads\": " + std::to_string(processThreads()) +
                    ",\n  \"ranks\": [\n";
  Counters total[NumPhases];
  double totalPredicted[3] = {0, 0, 0};
  HandOver totalHandOver;
  for (int r = 0; r < c.size; ++r) {
    out += "    {\"rank\": " + std::to_string(r);
    const double *predicted = all.data() + r * n + kPredicted;
    for (int x = 0; x < 3; ++x)
      totalPredicted[x] += predicted[x];
    for (int p = 0; p < NumPhases; ++p) {
      Counters k = unpack(all.data() + r * n + kPerPhase * p);
      out += std::string(", \"") + kPhaseNames[p] + "\": ";
      appendCounters(out, k, predicted[0], predicted[1], receivedPredicted ? predicted[2] : -1,
                     p == Compute);
      addToTotal(total[p], k);
    }
    const HandOver handOver = unpackHandOver(all.data() + r * n + kHandOver);
    appendHandOver(out, handOver);
    totalHandOver += handOver;
    char rss[160];
    std::snprintf(rss, sizeof rss, ", \"baseline_rss_bytes\": %.0f, \"peak_rss_bytes\": %.0f",
                  all[r * n + kBaseline], all[r * n + kPeak]);
    out += rss;
    if (runs > 1) {
      out += ", \"compute_seconds_per_run\": [";
      for (int k = 0; k < runs; ++k)
        out += (k ? ", " : "") + std::to_string(all[r * n + kRuns + k]);
      out += "]";
    }
    out += r + 1 < c.size ? "},\n" : "}\n";
  }
  out += "  ],\n  \"total\": {";
  for (int p = 0; p < NumPhases; ++p) {
    out += std::string(p ? ", \"" : "\"") + kPhaseNames[p] + "\": ";
    appendCounters(out, total[p], totalPredicted[0], totalPredicted[1],
                   receivedPredicted ? totalPredicted[2] : -1, p == Compute);
  }
  appendHandOver(out, totalHandOver);
  out += "}";
  if (!c.statements.empty())
    out += statements;
  out += loops;
  if (runs > 1) { // a run takes as long as its slowest rank; the best run
    double best = 1e300;
    for (int k = 0; k < runs; ++k) {
      double slowest = 0;
      for (int r = 0; r < c.size; ++r)
        slowest = std::max(slowest, all[r * n + kRuns + k]);
      best = std::min(best, slowest);
    }
    out += ",\n  \"best_compute_seconds\": " + std::to_string(best);
  }
  out += "\n}\n";
  if (c.embedded) { // the host reads it (Embedding.cpp)
    c.embeddedReport = out;
    return;
  }
  std::ofstream f(c.options.report);
  f << out;
  if (!f)
    std::fprintf(stderr, "%s: cannot write report %s\n", c.program.c_str(),
                 c.options.report.c_str());
}

/// Each statement's counters per phase and predictions on every rank, summed
/// over the ranks per statement (bytes, flops; seconds: the slowest rank) and
/// over its executions (one per iteration in a loop), its wall seconds (from
/// each execution's start to the next statement's), then each rank's compute
/// counters, as JSON.
std::string statementsReport() {
  Context &c = ctx();
  const size_t n = c.statements.size();
  // Per phase the counters, then predicted disk, comm, received, then wall.
  constexpr int kPredicted = NumPhases * kCounterFields, kWall = kPredicted + 3,
                kFields = kWall + 1;
  std::vector<double> mine(n * kFields);
  for (size_t s = 0; s < n; ++s) {
    const StatementRecord &r = c.statements[s];
    double *v = mine.data() + s * kFields;
    for (int p = 0; p < NumPhases; ++p)
      pack(r.phases[p], v + p * kCounterFields);
    double *predicted = v + kPredicted;
    predicted[0] = r.predictedDisk;
    predicted[1] = r.predictedComm;
    predicted[2] = r.receivedPredicted ? r.predictedReceived : -1;
    v[kWall] = r.wall;
  }
  std::vector<double> all(c.rank == 0 ? mine.size() * c.size : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
             static_cast<int>(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (c.rank != 0)
    return "";
  std::string out = ",\n  \"statements\": [";
  for (size_t s = 0; s < n; ++s) {
    Counters total[NumPhases];
    double predicted[3] = {0, 0, 0}, wall = 0;
    std::string ranks;
    for (int r = 0; r < c.size; ++r) {
      const double *v = all.data() + (r * n + s) * kFields;
      const double *p = v + kPredicted;
      for (int ph = 0; ph < NumPhases; ++ph) {
        Counters k = unpack(v + ph * kCounterFields);
        addToTotal(total[ph], k);
        total[ph].peakRss = std::max(total[ph].peakRss, k.peakRss);
      }
      for (int x = 0; x < 3; ++x)
        predicted[x] += p[x];
      wall = std::max(wall, v[kWall]);
      ranks += std::string(r ? ", " : "") + "{\"rank\": " + std::to_string(r) + ", \"compute\": ";
      appendCounters(ranks, unpack(v + Compute * kCounterFields), p[0], p[1], p[2], true);
      ranks += "}";
    }
    const bool received = all[s * kFields + kPredicted + 2] >= 0;
    out += std::string(s ? "," : "") + "\n    {\"name\": \"" + c.statements[s].name +
           "\", \"result\": \"" + kResultNames[c.statements[s].result] +
           "\", \"executions\": " + std::to_string(c.statements[s].executions) +
           ", \"seconds\": " + number(wall);
    for (int ph = 0; ph < NumPhases; ++ph) {
      out += std::string(", \"") + kPhaseNames[ph] + "\": ";
      appendCounters(out, total[ph], predicted[0], predicted[1], received ? predicted[2] : -1,
                     ph == Compute);
    }
    out += ", \"ranks\": [" + ranks + "]}";
  }
  return out + "\n  ]";
}

/// Every loop's iterations: the scalar, its change, the seconds, and per
/// phase the counters summed over the ranks (the compute phase's with the
/// plan's predictions), then each rank's compute counters, as JSON.
std::string loopsReport() {
  Context &c = ctx();
  const size_t n = c.iterations.size();
  // Per phase the counters, then the predicted disk and comm bytes, then the
  // hand-overs.
  constexpr int kPredicted = NumPhases * kCounterFields, kHandOver = kPredicted + 2,
                kFields = kHandOver + kHandOverFields;
  std::vector<double> mine(n * kFields);
  for (size_t i = 0; i < n; ++i) {
    const IterationRecord &r = c.iterations[i];
    double *v = mine.data() + i * kFields;
    for (int p = 0; p < NumPhases; ++p)
      pack(r.phases[p], v + p * kCounterFields);
    v[kPredicted] = r.predictedDisk;
    v[kPredicted + 1] = r.predictedComm;
    pack(r.handOver, v + kHandOver);
  }
  std::vector<double> all(c.rank == 0 ? mine.size() * c.size : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
             static_cast<int>(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (c.rank != 0 || c.loops.empty())
    return "";
  std::string out = ",\n  \"loops\": [";
  size_t next = 0; // the first record of the loop being written
  for (size_t l = 0; l < c.loops.size(); ++l) {
    const LoopOutcome &loop = c.loops[l];
    out += std::string(l ? "," : "") + "\n    {\"loop\": \"" + loop.loop + "\", \"converge\": \"" +
           loop.converge + "\", \"tolerance\": " + number(loop.tolerance) +
           ", \"max_iterations\": " + std::to_string(loop.maxIterations) +
           ", \"iterations\": " + std::to_string(loop.iterations) + ", \"converged\": " +
           (loop.converge.empty() ? "null"
            : loop.converged      ? "true"
                                  : "false") +
           ", \"value\": " + number(loop.converge.empty() ? NAN : loop.value) +
           ", \"per_iteration\": [";
    bool first = true;
    for (; next < n && c.iterations[next].loop == loop.loop; ++next) {
      const IterationRecord &r = c.iterations[next];
      out += std::string(first ? "" : ",") +
             "\n      {\"iteration\": " + std::to_string(r.iteration) +
             ", \"value\": " + number(r.hasValue ? r.value : NAN) +
             ", \"change\": " + number(r.hasValue && r.iteration > 1 ? r.change : NAN) +
             ", \"seconds\": " + number(r.seconds) + ", \"diis\": " + std::to_string(r.diis);
      first = false;
      Counters total[NumPhases];
      double predicted[2] = {0, 0};
      std::string ranks;
      for (int rank = 0; rank < c.size; ++rank) {
        const double *v = all.data() + (rank * n + next) * kFields;
        for (int p = 0; p < NumPhases; ++p)
          addToTotal(total[p], unpack(v + p * kCounterFields));
        const double *p = v + kPredicted;
        predicted[0] += p[0], predicted[1] += p[1];
        ranks += std::string(rank ? ", " : "") + "{\"rank\": " + std::to_string(rank) +
                 ", \"compute\": ";
        appendCounters(ranks, unpack(v + Compute * kCounterFields), p[0], p[1], -1, true);
        appendHandOver(ranks, unpackHandOver(v + kHandOver));
        ranks += "}";
      }
      for (int p = 0; p < NumPhases; ++p) {
        out += std::string(", \"") + kPhaseNames[p] + "\": ";
        appendCounters(out, total[p], predicted[0], predicted[1], -1, p == Compute);
      }
      out += ", \"ranks\": [" + ranks + "]}";
    }
    out += "]}";
  }
  return out + "\n  ]";
}

} // namespace

namespace tc_rt {

/// Clears what a run of the program leaves for the next run in this process
/// (--repeat, or a host's next call, Embedding.cpp).
void resetRunState() {
  Context &c = ctx();
  for (Counters &k : c.counters)
    k = Counters();
  c.predictedDisk = c.predictedComm = c.plannedFlops = 0;
  c.predictedReceived = -1;
  c.receivedPredictions = 0;
  c.statements.clear();
  c.statementRunning = false;
  c.nextStatement = 0;
  c.iterations.clear();
  c.loops.clear();
  c.restarted = false;
  c.loopsBegun = 0;
}

int runProgram(int argc, char **argv, void (*beforeEachRun)()) {
  Context &c = ctx();
  parseArgs(argc, argv);
  // One BLAS thread per rank unless the user says otherwise (ranks fill the
  // cores). Not again where oneBlasThreadPerRank shut the workers down:
  // OpenBLAS would start them again.
  if (!std::getenv("OPENBLAS_NUM_THREADS") && openblas_get_num_threads() > 1)
    openblas_set_num_threads(1);
  c.trace = std::getenv("TC_TRACE") && std::string(std::getenv("TC_TRACE")) == "1";
  if (const char *p = std::getenv("TC_PROGRESS_AFTER"))
    c.progressAfter = std::atof(p);
  if (const char *f = std::getenv("TC_FAIL_WRITE_AFTER_BYTES"))
    c.failWriteAfter = std::atof(f);
  // Open every connection now (OpenMPI connects lazily, tens of ms on the first
  // message), so that no phase pays for it.
  std::vector<int> ping(c.size, 0), pong(c.size, 0);
  MPI_Alltoall(ping.data(), 1, MPI_INT, pong.data(), 1, MPI_INT, MPI_COMM_WORLD);
  // OpenBLAS allocates and faults in its packing buffers on the first product;
  // products of the largest size tile contractions call it with keep that
  // library start-up off the compute clock and its packing memory in the
  // fixed overhead measured next (about 1.4 MB).
  warmUpBlas();
  c.startTime = c.phaseStart = wallSeconds();
  // What MPI, HDF5 and OpenBLAS hold before the program touches any data: the
  // fixed part of the memory a run needs beyond the plan's budget.
  baselineRss = rssBytes("VmRSS:");
  runSeconds.clear();
  for (int run = 0; run < c.options.repeat; ++run) {
    if (run > 0) // every run reports on its own; only timings accumulate
      resetRunState();
    ++c.runNumber;
    c.running = true;
    if (beforeEachRun)
      beforeEachRun();
    tc_main();
    c.running = false;
    setPhase(Idle);
    endStatement();
    if (!c.options.restart.empty() && !c.restarted) // before the outputs are published
      failOnRoot("checkpoint " + c.options.restart +
                 " is of no loop of this program (--restart): nothing continued from it");
    if (!c.options.checkpoint.empty() && c.loopsBegun == 0 && c.rank == 0 && run == 0)
      std::fprintf(stderr, "%s: warning: --checkpoint %s: the program has no loop, so no "
                           "checkpoint was written\n",
                   c.program.c_str(), c.options.checkpoint.c_str());
    runSeconds.push_back(c.counters[Compute].seconds);
    closeRunFiles();
    releaseArrays();
    releaseBlockArrays();
  }
  if (c.progressShown)
    std::fputc('\n', stderr);
  writeReport();
  // Outputs and report are complete; a loop that did not converge (it said
  // so on stderr) makes the run's status 3.
  return anyLoopUnconverged() ? 3 : 0;
}

} // namespace tc_rt

int main(int argc, char **argv) {
  const char *slash = std::strrchr(argv[0], '/');
  tc_rt::startProcess(&argc, &argv, slash ? slash + 1 : argv[0]);
  const int status = tc_rt::runProgram(argc, argv);
  MPI_Finalize();
  return status;
}
