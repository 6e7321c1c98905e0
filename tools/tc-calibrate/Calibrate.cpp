//===- Calibrate.cpp - tc-calibrate: measure the machine for the planners -===//
//
// Cociorva et al. section 4: Mcost is "measured for every non-matching pair of
// distributions and several array sizes" on the target and then interpolated.
// Run under mpirun with the process count to plan for; it measures, with tc's own
// runtime calls,
//   - message latency (a hand-over through tc's runtime per message, at least
//     an MPI_Sendrecv ping-pong's) and network bandwidth (MPI_Sendrecv
//     between rank pairs),
//   - disk bandwidth (each rank writes and reads a scratch file, page cache
//     dropped between),
//   - the dgemm rate of one process (OpenBLAS),
//   - Mcost: tc_rt_redistribute between every pair of distribution patterns of
//     a four-index array on every logical grid of P (factorizations into up to
//     --max-grid-dims factors), at several sizes, keyed as commPatternKey, and
//     reduce / all-reduce of partial sums over every group size dividing P,
// and writes a JSON machine file that tc-set-machine and tc-fuse-distribute read.
// `1` (first-slice) patterns are not measured (the runtime does not hold arrays
// that way); the planner costs them analytically.
//
//===----------------------------------------------------------------------===//
#include "BlasKernel.h"
#include "Context.h"
#include "DistArray.h"
#include "TC/Analysis/CommCostModel.h"
#include "TC/Analysis/Units.h"
#include "TC/Runtime/Runtime.h"

#include <cblas.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mlir::tc;

namespace {

struct Args {
  std::string output, scratch = ".";
  double mem = 0;
  int maxGridDims = 2, repeats = 3;
  std::vector<double> sizes = {64e3, 1e6, 8e6}; ///< bytes per process
  bool quick = false;
};

/// Where the machine file goes by default, and where tcc looks for it:
/// $TC_MACHINE_FILE, else $XDG_CONFIG_HOME/tc/machine.json, else
/// ~/.config/tc/machine.json.
std::string defaultMachineFile() {
  if (const char *file = std::getenv("TC_MACHINE_FILE"); file && *file)
    return file;
  if (const char *config = std::getenv("XDG_CONFIG_HOME"); config && *config)
    return std::string(config) + "/tc/machine.json";
  const char *home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.config/tc/machine.json";
}

[[noreturn]] void usage(const std::string &why) {
  if (tc_rt::ctx().rank == 0)
    std::fprintf(stderr,
                 "tc-calibrate: %s\n"
                 "usage: mpirun -np P tc-calibrate [--output machine.json] [--mem SIZE]\n"
                 "         [--sizes 64KB,1MB,8MB] [--max-grid-dims 2] [--repeats 3]\n"
                 "         [--scratch DIR] [--quick]\n"
                 "  --output   the machine file (default %s,\n"
                 "             which tcc reads for what a program's machine model lacks)\n"
                 "  --mem      memory per process to record (default: physical memory / P)\n"
                 "  --sizes    bytes per process of the measured redistributions\n"
                 "  --quick    one small size, one repetition (for tests)\n",
                 why.c_str(), defaultMachineFile().c_str());
  MPI_Finalize();
  std::exit(2);
}

Args parseArgs(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--output")
      a.output = value();
    else if (arg == "--scratch")
      a.scratch = value();
    else if (arg == "--mem") {
      std::optional<double> v = parseByteSize(value());
      if (!v || *v <= 0)
        usage("--mem takes a size such as 2GB");
      a.mem = *v;
    } else if (arg == "--sizes") {
      a.sizes.clear();
      std::stringstream list(value());
      std::string item;
      while (std::getline(list, item, ',')) {
        std::optional<double> v = parseByteSize(item);
        if (!v || *v < 8)
          usage("--sizes takes sizes of at least 8 bytes, e.g. 64KB,1MB");
        a.sizes.push_back(*v);
      }
    } else if (arg == "--max-grid-dims") {
      a.maxGridDims = std::atoi(value().c_str());
      if (a.maxGridDims < 1 || a.maxGridDims > kMaxGridDims)
        usage("--max-grid-dims must be 1.." + std::to_string(kMaxGridDims));
    } else if (arg == "--repeats") {
      a.repeats = std::atoi(value().c_str());
      if (a.repeats < 1)
        usage("--repeats must be at least 1");
    } else if (arg == "--quick") {
      a.quick = true;
    } else if (arg == "--help" || arg == "-h") {
      usage("measures this machine for tc's planners");
    } else {
      usage("unknown argument '" + arg + "'");
    }
  }
  if (a.output.empty())
    a.output = defaultMachineFile();
  if (a.quick) {
    a.sizes = {32e3};
    a.repeats = 1;
  }
  return a;
}

/// The slowest rank's time of `fn` (best of `repeats`).
template <typename Fn>
double timed(int repeats, Fn fn) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    fn();
    double mine = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = std::min(best, slowest);
  }
  return best;
}

void progress(const std::string &what) {
  if (tc_rt::ctx().rank == 0)
    std::fprintf(stderr, "tc-calibrate: %s\n", what.c_str());
}

/// Latency (8-byte exchange) and bandwidth (16 MB exchange) between rank pairs.
std::pair<double, double> measureNetwork(int repeats) {
  int rank = tc_rt::ctx().rank, size = tc_rt::ctx().size;
  int partner = (rank ^ 1) < size ? (rank ^ 1) : MPI_PROC_NULL;
  auto exchange = [&](std::vector<char> &out, std::vector<char> &in, int times) {
    for (int t = 0; t < times; ++t)
      MPI_Sendrecv(out.data(), static_cast<int>(out.size()), MPI_CHAR, partner, 0, in.data(),
                   static_cast<int>(in.size()), MPI_CHAR, partner, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
  };
  std::vector<char> small(8), smallIn(8), big(16 << 20, 1), bigIn(16 << 20);
  const int pings = 200;
  double latency = timed(repeats, [&] { exchange(small, smallIn, pings); }) / pings;
  double seconds = timed(repeats, [&] { exchange(big, bigIn, 4); });
  double bandwidth = 4.0 * static_cast<double>(big.size()) / std::max(seconds - 4 * latency, 1e-9);
  return {latency, bandwidth};
}

/// What a message costs a program beyond its bytes: one element per pair of
/// ranks handed over by tc's runtime (tc_rt_redistribute: its schedule, its
/// packing and counting, and the exchange), from rows to columns of a P x P
/// array, so that every rank exchanges with every other; per message, the
/// slowest rank's time over many hand-overs in a row. The planners charge
/// it per communication step (docs/Derivations.md D58); a bare ping-pong
/// (the lower bound) leaves the runtime's part out.
double measureStep(int repeats, double pingPong) {
  const int64_t P = tc_rt::ctx().size;
  if (P == 1)
    return 0;
  const std::vector<int64_t> extents{P, P};
  void *rows = tc_rt_array(
      tc_rt::arrayDescription(extents, {P}, {0, -1}, TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO).data(),
      "calibration", nullptr);
  void *columns = tc_rt_array(
      tc_rt::arrayDescription(extents, {P}, {-1, 0}, TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO).data(),
      "calibration", nullptr);
  const int handOvers = 200;
  double seconds = timed(repeats, [&] {
    for (int h = 0; h < handOvers; ++h)
      tc_rt_redistribute(h % 2 ? columns : rows, h % 2 ? rows : columns);
  });
  tc_rt::releaseArrays();
  return std::max(pingPong, seconds / handOvers / static_cast<double>(P - 1));
}

/// Every rank writes then reads `bytes` of its own scratch file.
double measureDisk(const std::string &dir, double bytes) {
  std::string path = dir + "/tc-calibrate." + std::to_string(tc_rt::ctx().jobId) + "." +
                     std::to_string(tc_rt::ctx().rank);
  std::vector<char> buffer(4 << 20, 7);
  int64_t chunks = std::max<int64_t>(1, static_cast<int64_t>(bytes / buffer.size()));
  int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR, 0600);
  if (fd < 0)
    tc_rt::fail("cannot create scratch file '" + path + "': " + std::strerror(errno));
  auto io = [&](bool write) {
    for (int64_t c = 0; c < chunks; ++c) {
      off_t at = static_cast<off_t>(c * buffer.size());
      ssize_t n = write ? ::pwrite(fd, buffer.data(), buffer.size(), at)
                        : ::pread(fd, buffer.data(), buffer.size(), at);
      if (n != static_cast<ssize_t>(buffer.size()))
        tc_rt::fail("scratch file '" + path + "': " + std::strerror(errno));
    }
    if (write)
      ::fsync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); // the next read comes from disk
  };
  double writeSeconds = timed(1, [&] { io(true); });
  double readSeconds = timed(1, [&] { io(false); });
  ::close(fd);
  ::unlink(path.c_str());
  return 2.0 * static_cast<double>(chunks * buffer.size()) / (writeSeconds + readSeconds);
}

double measureFlopRate(int repeats) {
  const int n = 512;
  std::vector<double> a(n * n, 1.0), b(n * n, 0.5), c(n * n, 0.0);
  double best = 1e300;
  for (int r = 0; r < repeats + 1; ++r) { // the first warms up
    double start = MPI_Wtime();
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(),
                n, 1.0, c.data(), n);
    if (r > 0)
      best = std::min(best, MPI_Wtime() - start);
  }
  double rate = 2.0 * n * n * n / best, slowest = 0;
  MPI_Allreduce(&rate, &slowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return slowest;
}

/// A zero array of the four-index test shape distributed as `dist` over `grid`.
void *makeArray(const Grid &grid, const Distribution &dist, const std::vector<int64_t> &extents) {
  return tc_rt_array(tc_rt::arrayDescription(extents, grid, dist.gridDims(grid, {0, 1, 2, 3}),
                                             TC_RT_DISTRIBUTED, TC_RT_INIT_ZERO)
                         .data(),
                     "calibration", nullptr);
}

using Table = std::map<std::string, std::vector<std::pair<double, double>>>;

void measureRedistributions(const Args &args, Table &table) {
  OperatorTree names; // index ids 0..3 only need to exist for Distribution
  for (const Grid &grid : logicalGrids(tc_rt::ctx().size, args.maxGridDims)) {
    if (grid.size() == 1 && grid[0] == 1)
      continue;
    std::vector<Distribution> dists = enumerateDistributions(grid, 0xF, true, false);
    std::vector<std::pair<Distribution, Distribution>> pairs;
    std::set<std::string> seen;
    for (const Distribution &from : dists)
      for (const Distribution &to : dists)
        if (!(from == to) && seen.insert(commPatternKey(grid, from, to)).second)
          pairs.emplace_back(from, to);
    progress("grid " + gridString(grid) + ": " + std::to_string(pairs.size()) +
             " distribution pairs x " + std::to_string(args.sizes.size()) + " sizes");
    for (const auto &[from, to] : pairs) {
      std::vector<int64_t> lcmParts(4);
      double fromShare = 1;
      for (int i = 0; i < 4; ++i) {
        lcmParts[i] = std::lcm(from.parts(grid, i), to.parts(grid, i));
        fromShare *= static_cast<double>(lcmParts[i]) / static_cast<double>(from.parts(grid, i));
      }
      for (double bytes : args.sizes) {
        double base = std::max(1.0, std::round(std::pow(bytes / 8 / fromShare, 0.25)));
        std::vector<int64_t> extents(4);
        double localElems = 1;
        for (int i = 0; i < 4; ++i) {
          extents[i] = static_cast<int64_t>(base) * lcmParts[i];
          localElems *= static_cast<double>(extents[i] / from.parts(grid, i));
        }
        void *source = makeArray(grid, from, extents);
        void *destination = makeArray(grid, to, extents);
        double seconds = timed(args.repeats, [&] { tc_rt_redistribute(source, destination); });
        tc_rt::releaseArrays();
        table[commPatternKey(grid, from, to)].emplace_back(localElems * 8, seconds);
      }
    }
  }
}

void measureReductions(const Args &args, Table &table) {
  int rank = tc_rt::ctx().rank, size = tc_rt::ctx().size;
  for (int group = 2; group <= size; ++group) {
    if (size % group)
      continue;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank / group, rank, &comm);
    for (double bytes : args.sizes) {
      std::vector<double> in(static_cast<size_t>(bytes / 8), 1.0), out(in.size());
      int count = static_cast<int>(in.size());
      double reduce = timed(args.repeats, [&] {
        MPI_Reduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, 0, comm);
      });
      double allreduce = timed(args.repeats, [&] {
        MPI_Allreduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, comm);
      });
      table["reduce:" + std::to_string(group)].emplace_back(bytes, reduce);
      table["allreduce:" + std::to_string(group)].emplace_back(bytes, allreduce);
    }
    MPI_Comm_free(&comm);
  }
}

double physicalMemoryPerProcess() {
  double bytes = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                 static_cast<double>(::sysconf(_SC_PAGESIZE));
  return std::floor(bytes / tc_rt::ctx().size);
}

void writeMachineFile(const Args &args, double mem, std::pair<double, double> network,
                      double disk, double flops, const Table &table) {
  std::error_code error;
  std::filesystem::path parent = std::filesystem::path(args.output).parent_path();
  if (!parent.empty() && !std::filesystem::create_directories(parent, error) && error)
    tc_rt::fail("cannot create '" + parent.string() + "' for '" + args.output +
                "': " + error.message());
  std::string temp = args.output + ".tmp";
  FILE *f = std::fopen(temp.c_str(), "w");
  if (!f)
    tc_rt::fail("cannot write '" + temp + "': " + std::strerror(errno));
  std::fprintf(f, "{\n  \"procs\": %d,\n  \"mem\": %.0f,\n  \"net_bw\": %.6g,\n", tc_rt::ctx().size,
               mem, network.second);
  std::fprintf(f, "  \"disk_bw\": %.6g,\n  \"elem_bytes\": 8,\n", disk);
  // One process sends no message: its file leaves the latency to the default
  // (a ping-pong with no partner measures nothing).
  if (tc_rt::ctx().size > 1)
    std::fprintf(f, "  \"latency\": %.6g,\n", network.first);
  std::fprintf(f, "  \"flop_rate\": %.6g,\n  \"mcost\": {", flops);
  bool first = true;
  for (const auto &[key, points] : table) {
    std::fprintf(f, "%s\n    \"%s\": [", first ? "" : ",", key.c_str());
    for (size_t i = 0; i < points.size(); ++i)
      std::fprintf(f, "%s[%.0f, %.6g]", i ? ", " : "", points[i].first, points[i].second);
    std::fprintf(f, "]");
    first = false;
  }
  std::fprintf(f, "\n  }\n}\n");
  if (std::fclose(f) != 0 || std::rename(temp.c_str(), args.output.c_str()) != 0) {
    std::remove(temp.c_str());
    tc_rt::fail("cannot write '" + args.output + "': " + std::strerror(errno));
  }
}

} // namespace

int main(int argc, char **argv) {
  tc_rt::startProcess(&argc, &argv, "tc-calibrate");
  tc_rt::Context &c = tc_rt::ctx();
  Args args = parseArgs(argc, argv);
  c.options.scratch = args.scratch;
  tc_rt::setPhase(tc_rt::Compute);
  // One thread per rank, as programs run; not set again where startProcess
  // shut OpenBLAS's workers down (setting it starts them again).
  if (openblas_get_num_threads() > 1)
    openblas_set_num_threads(1);

  progress("network latency and bandwidth");
  std::pair<double, double> network = measureNetwork(args.repeats);
  network.first = measureStep(args.repeats, network.first);
  progress("disk bandwidth");
  double disk = measureDisk(args.scratch, args.quick ? 8e6 : 256e6);
  const tc_rt::BlasKernelChoice &blas = tc_rt::blasKernelChoice();
  progress("dgemm rate (OpenBLAS's " + blas.kernel + " kernel, chosen by " + blas.chosenBy + ")");
  double flops = measureFlopRate(args.repeats);
  Table table;
  measureRedistributions(args, table);
  progress("reductions");
  measureReductions(args, table);
  if (c.rank == 0) {
    writeMachineFile(args, args.mem > 0 ? args.mem : physicalMemoryPerProcess(), network, disk,
                     flops, table);
    std::fprintf(stderr,
                 "tc-calibrate: wrote %s: latency %.3g s, network %s/s, disk %s/s, dgemm %.3g "
                 "GFLOP/s, %zu measured patterns\n",
                 args.output.c_str(), network.first, formatBytes(network.second).c_str(),
                 formatBytes(disk).c_str(), flops / 1e9, table.size());
  }
  MPI_Finalize();
  return 0;
}
