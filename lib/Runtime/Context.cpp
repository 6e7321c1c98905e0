//===- Context.cpp - process-wide state of the tc runtime -----------------===//
#include "Context.h"
#include "BlasKernel.h"
#include "BlockArray.h"
#include "BufferPool.h"
#include "DistArray.h"
#include "TC/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <hdf5.h>
#include <sys/resource.h>
#include <unistd.h>

namespace tc_rt {

const char *const kPhaseNames[NumPhases] = {"load", "compute", "store"};

Context &ctx() {
  static Context c;
  return c;
}

Counters &counters() { return ctx().counters[ctx().phase]; }

double rssBytes(const char *key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(key, 0) == 0)
      return 1024.0 * std::atof(line.c_str() + std::strlen(key));
  return 0;
}

double peakRssBytes() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return 1024.0 * static_cast<double>(usage.ru_maxrss); // kB on Linux
}

TraceScope::TraceScope(const char *name, const char *of)
    : name(name), of(of), start(ctx().trace ? wallSeconds() : 0) {}

TraceScope::~TraceScope() {
  if (ctx().trace)
    std::fprintf(stderr, "rank %d: %s %.6f s%s%s\n", ctx().rank, name, wallSeconds() - start,
                 of ? " " : "", of ? of : "");
}

double phasePeakRssBytes(double now) {
  static double value = 0, readAt = -1;
  if (readAt < 0 || now - readAt >= 1e-3)
    value = peakRssBytes(), readAt = now;
  return value;
}

void setPhase(Phase p, bool sampleRss) { setPhaseAt(p, wallSeconds(), sampleRss); }

void setPhaseAt(Phase p, double now, bool sampleRss) {
  Context &c = ctx();
  c.counters[c.phase].seconds += now - c.phaseStart;
  if (sampleRss && c.phase != Idle)
    c.counters[c.phase].peakRss = phasePeakRssBytes(now);
  c.phase = p;
  c.phaseStart = now;
}

/// Removes what a failed run leaves and ends every rank, `wait` microseconds
/// after the message.
[[noreturn]] static void abortRun(useconds_t wait = 200 * 1000) {
  Context &c = ctx();
  if (!c.partialOutput.empty())
    ::unlink(c.partialOutput.c_str());
  // Give mpirun's output forwarding a moment to pass the message on, then end
  // every rank with a non-zero status; none is left waiting in a collective.
  ::usleep(wait);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void fail(const std::string &message) {
  Context &c = ctx();
  if (c.progressShown)
    std::fputc('\n', stderr);
  std::fprintf(stderr, "%s: rank %d: error: %s\n", c.program.c_str(), c.rank,
               message.c_str());
  std::fflush(stderr);
  abortRun();
}

void failOnRoot(const std::string &message) {
  Context &c = ctx();
  if (c.rank == 0) {
    if (c.progressShown)
      std::fputc('\n', stderr);
    std::fprintf(stderr, "%s: error: %s\n", c.program.c_str(), message.c_str());
    std::fflush(stderr);
  }
  // The silent ranks wait longer: rank 0's abort, after its message, ends them.
  abortRun(c.rank == 0 ? 200 * 1000 : 2000 * 1000);
}

std::string abiMismatch(int64_t compiledVersion) {
  if (compiledVersion == TC_RT_API_VERSION)
    return "";
  return "this program was compiled for tc runtime ABI " + std::to_string(compiledVersion) +
         ", the runtime is " + std::to_string(TC_RT_API_VERSION) + ": recompile with this tc";
}

std::string procsMismatch(const std::vector<int64_t> &procs) {
  if (std::find(procs.begin(), procs.end(), ctx().size) != procs.end())
    return "";
  // "5", "1 or 2", "1, 2 or 4"
  std::string list;
  for (size_t i = 0; i < procs.size(); ++i)
    list += (i == 0 ? "" : i + 1 == procs.size() ? " or " : ", ") + std::to_string(procs[i]);
  return "the program was planned for " + list + " processes but runs on " +
         std::to_string(ctx().size) + " (use mpirun -np " + list +
         ", or compile it again with --procs " + std::to_string(ctx().size) + ")";
}

MPI_Comm gridComm(const std::vector<int64_t> &grid) {
  Context &c = ctx();
  auto it = c.grids.find(grid);
  if (it != c.grids.end())
    return it->second;
  int64_t procs = 1;
  for (int64_t g : grid)
    procs *= g;
  if (procs > c.size)
    fail("a grid of " + std::to_string(procs) + " processes " + str(grid) +
         " on a run of " + std::to_string(c.size) + " (use mpirun -np " +
         std::to_string(procs) + ")");
  std::vector<int> dims(grid.begin(), grid.end()), periods(grid.size(), 1);
  MPI_Comm comm;
  // No reordering: rank r has the row-major coordinates of r, as the lowering
  // assumes. Ranks past the grid's product get MPI_COMM_NULL (MPI 7.5.1): a
  // grid of fewer processes than the run leaves them idle.
  MPI_Cart_create(MPI_COMM_WORLD, static_cast<int>(dims.size()), dims.data(),
                  periods.data(), 0, &comm);
  c.grids[grid] = comm;
  return comm;
}

void accumulate(Counters &sum, const Counters &k) {
  sum.bytesSent += k.bytesSent, sum.bytesReceived += k.bytesReceived;
  sum.bytesRead += k.bytesRead, sum.bytesWritten += k.bytesWritten;
  sum.bytesMapped += k.bytesMapped;
  sum.flops += k.flops, sum.seconds += k.seconds;
  sum.peakRss = std::max(sum.peakRss, k.peakRss);
}

void endStatement(double now) {
  Context &c = ctx();
  if (!c.statementRunning)
    return;
  c.statementRunning = false;
  StatementRecord &r = c.statements[c.runningStatement];
  const StatementMark &m = c.statementStart;
  for (int p = 0; p < NumPhases; ++p)
    accumulate(r.phases[p], countersBetween(m.counters[p], c.counters[p]));
  r.predictedDisk += c.predictedDisk - m.predictedDisk;
  r.predictedComm += c.predictedComm - m.predictedComm;
  const bool receivedPredicted = c.receivedPredictions > m.receivedPredictions;
  r.receivedPredicted &= receivedPredicted;
  if (receivedPredicted)
    r.predictedReceived += std::max(0.0, c.predictedReceived) - m.predictedReceived;
  r.wall += now - m.time;
  ++r.executions;
}

Counters countersBetween(const Counters &begin, const Counters &end) {
  Counters d;
  d.bytesSent = end.bytesSent - begin.bytesSent;
  d.bytesReceived = end.bytesReceived - begin.bytesReceived;
  d.bytesRead = end.bytesRead - begin.bytesRead;
  d.bytesMapped = end.bytesMapped - begin.bytesMapped;
  d.bytesWritten = end.bytesWritten - begin.bytesWritten;
  d.flops = end.flops - begin.flops;
  d.seconds = end.seconds - begin.seconds;
  d.peakRss = end.peakRss;
  return d;
}

void reportProgress() {
  Context &c = ctx();
  if (c.rank != 0 || c.options.quiet || !c.running)
    return;
  double now = wallSeconds();
  double elapsed = now - c.startTime;
  if (elapsed < c.progressAfter || now - c.lastProgress < 2)
    return;
  c.lastProgress = now;
  double done = c.counters[Compute].flops;
  double frac = c.plannedFlops > 0 ? done / c.plannedFlops : 0;
  if (frac > 1)
    frac = 1;
  std::fprintf(stderr, "\r%s: %s %5.1f%% of planned flops, %.1f s elapsed", c.program.c_str(),
               kPhaseNames[c.phase], 100 * frac, elapsed);
  if (frac > 0.01)
    std::fprintf(stderr, ", ~%.0f s left", elapsed / frac - elapsed);
  std::fflush(stderr);
  c.progressShown = true;
}

namespace {

/// Rank, size, program name and job id (rank 0's pid), MPI running.
void joinWorld(const std::string &program) {
  Context &c = ctx();
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  c.program = program;
  unsigned long long job = static_cast<unsigned long long>(::getpid());
  MPI_Bcast(&job, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  c.jobId = job;
}

} // namespace

void startProcess(int *argc, char ***argv, const std::string &program) {
  selectBlasKernel(argc, *argv); // may run the program again: before anything starts
  oneBlasThreadPerRank();        // before MPI starts: no BLAS threads polling beside it
  startMemory();                 // before MPI and HDF5 allocate anything
  // OpenMPI's MPI-IO opens every file with a shared-file-pointer component,
  // whose `sm` one keeps a named semaphore per file name in /dev/shm: a
  // process killed inside MPI_File_open leaves it locked, and every later
  // run on the machine that opens a file of that name hangs (a checkpoint
  // written again after a kill, docs/Derivations.md D42). tc uses no shared
  // file pointers; a user's own choice stays.
  ::setenv("OMPI_MCA_sharedfp", "^sm", /*overwrite=*/0);
  MPI_Init(argc, argv);
  joinWorld(program);
}

void startEmbedded(const std::string &program) {
  joinWorld(program);
  ctx().embedded = true;
}

} // namespace tc_rt

using namespace tc_rt;

extern "C" void tc_rt_check_abi(int64_t compiledVersion) {
  std::string mismatch = abiMismatch(compiledVersion);
  if (!mismatch.empty())
    failOnRoot(mismatch);
}

extern "C" void tc_rt_check_procs(int64_t procs) {
  std::string mismatch = procsMismatch({procs});
  if (!mismatch.empty())
    failOnRoot(mismatch);
}

extern "C" void tc_rt_plan_for_procs(int64_t procs) {
  std::vector<int64_t> &planned = ctx().plannedProcs;
  if (std::find(planned.begin(), planned.end(), procs) == planned.end())
    planned.push_back(procs);
}

extern "C" int64_t tc_rt_select_procs() {
  std::string mismatch = procsMismatch(ctx().plannedProcs);
  if (!mismatch.empty())
    failOnRoot(mismatch);
  return ctx().size;
}

extern "C" void tc_rt_begin_statement(const char *name, int64_t code) {
  Context &c = ctx();
  const bool reciprocal = code & TC_RT_RESULT_RECIPROCAL, keepInputs = code & TC_RT_KEEP_INPUTS;
  const int64_t result = code & ~int64_t(TC_RT_RESULT_RECIPROCAL | TC_RT_KEEP_INPUTS);
  if (result < TC_RT_RESULT_OUTPUT || result > TC_RT_RESULT_MEMORY)
    failOnRoot("statement '" + std::string(name) + "': unknown result kind " +
               std::to_string(result));
  // A statement's arrays are its own (each statement creates the arrays it
  // reads and writes): the previous statement's go now, with what the pool,
  // HDF5's free lists and malloc's heap keep of them, so a program's memory
  // is its busiest statement's, not the sum of all of them. In a loop the
  // pool and malloc keep it for the next iteration, which asks for the same
  // sizes (keepFreedMemory; the pool's footprint stays under the most it had
  // in use, BufferPool.h).
  releaseArrays();
  releaseBlockArrays();
  if (!freedMemoryKept()) // HDF5's free lists too (a tenth of a small statement's time)
    H5garbage_collect();
  releaseFreedMemory();
  const double now = wallSeconds(); // the end of one statement, the start of the next
  endStatement(now);
  size_t record = c.nextStatement;
  if (record >= c.statements.size() || c.statements[record].name != name ||
      c.statements[record].result != result) {
    record = c.statements.size();
    c.statements.emplace_back();
    c.statements.back().name = name;
    c.statements.back().result = result;
  }
  c.nextStatement = record + 1;
  c.runningStatement = record;
  c.statementRunning = true;
  StatementMark &m = c.statementStart;
  m.time = now;
  std::copy(c.counters, c.counters + NumPhases, m.counters);
  m.predictedDisk = c.predictedDisk, m.predictedComm = c.predictedComm;
  m.predictedReceived = std::max(0.0, c.predictedReceived);
  m.receivedPredictions = c.receivedPredictions;
  c.storing = result;
  c.storingReciprocal = reciprocal;
  c.keepingInputs = keepInputs;
}

extern "C" void tc_rt_plan(double predictedDisk, double predictedComm, double flops,
                           int64_t chunkBytes) {
  Context &c = ctx();
  c.predictedDisk += predictedDisk;
  c.predictedComm += predictedComm;
  c.plannedFlops += flops;
  if (chunkBytes > 0)
    c.chunkBytes = chunkBytes;
}

static void checkPlannedProcs(int64_t n) {
  if (n != ctx().size)
    fail("the program was planned for " + std::to_string(n) + " processes but runs on " +
         std::to_string(ctx().size) + "; compile it again with --procs " +
         std::to_string(ctx().size));
}

extern "C" void tc_rt_plan_per_rank(const double *sent, const double *received, int64_t n) {
  checkPlannedProcs(n);
  Context &c = ctx();
  c.predictedComm += sent[c.rank];
  c.predictedReceived = std::max(0.0, c.predictedReceived) + received[c.rank];
  ++c.receivedPredictions;
}

extern "C" void tc_rt_plan_disk_per_rank(const double *disk, int64_t n) {
  checkPlannedProcs(n);
  ctx().predictedDisk += disk[ctx().rank];
}
