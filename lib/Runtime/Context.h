//===- Context.h - process-wide state of the tc runtime ---------*- C++ -*-===//
//
// Options from the command line, the MPI grid, per-phase counters and failure
// handling, shared by the files of lib/Runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_CONTEXT_H
#define TC_LIB_RUNTIME_CONTEXT_H

#include "Clock.h"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tc_rt {

class Diis;

/// Phases of a run; the plan predicts the compute phase. Idle (between a
/// contraction's store and the next one's arrays, and freeing memory at the end)
/// is not reported.
enum Phase { Load = 0, Compute = 1, Store = 2, NumPhases = 3, Idle = 3 };
extern const char *const kPhaseNames[NumPhases];

struct Counters {
  double bytesSent = 0, bytesReceived = 0, bytesRead = 0, bytesWritten = 0;
  /// Of bytesRead, the input bytes used where their file holds them instead
  /// of copied out of it (MappedInputs.h).
  double bytesMapped = 0;
  double flops = 0, seconds = 0;
  double peakRss = 0; ///< VmHWM when the phase last ended
};

/// What a rank counted from `begin` to `end` (a statement's or an
/// iteration's share); the peak RSS is the one at `end`.
Counters countersBetween(const Counters &begin, const Counters &end);
/// Adds `k` (one more execution's counters) into `sum`: bytes, flops and
/// seconds add up, the peak RSS is the highest.
void accumulate(Counters &sum, const Counters &k);

/// Resident set size now ("VmRSS:") or at its peak ("VmHWM:"), in bytes.
double rssBytes(const char *key);
/// The peak resident set size so far (VmHWM), in bytes, without reading
/// /proc.
double peakRssBytes();
/// peakRssBytes for the end of a phase, read again only when the last read is
/// a millisecond older than `now` (wallSeconds now: a caller that has just read
/// the clock passes its reading): getrusage costs a microsecond, the phases
/// of a small statement ten, and in a millisecond the first touch of pages
/// adds a few MB at most.
double phasePeakRssBytes(double now);

struct Options {
  std::map<std::string, std::string> inputs; ///< --input NAME=file.h5
  bool randomInputs = false;
  uint64_t seed = 0;
  std::string output, scratch = ".", report;
  bool quiet = false;
  int repeat = 1; ///< --repeat: run the program this many times (timing)
  /// --checkpoint FILE: a loop's state after every `checkpointEvery`-th
  /// iteration; --restart FILE: a loop continues from that state.
  std::string checkpoint, restart;
  int64_t checkpointEvery = 1;
};

/// Where a statement's execution began (tc_rt_begin_statement): the rank's
/// counters and predictions then, so its share is what they grew by until
/// the next began.
struct StatementMark {
  double time = 0; ///< wallSeconds when it began
  Counters counters[NumPhases];
  double predictedDisk = 0, predictedComm = 0, predictedReceived = 0;
  int receivedPredictions = 0; ///< Context::receivedPredictions when it began
};

/// One statement of a program (a function tc_main calls) in the report: what
/// its executions counted on this rank, summed. A statement in a loop runs
/// once per iteration into the same record, so a long loop's report and
/// memory stay the size of its body, not of its iterations.
struct StatementRecord {
  std::string name;
  int64_t result = 0; ///< enum tc_rt_result: where its result went
  int64_t executions = 0;
  Counters phases[NumPhases]; ///< summed; peakRss the highest at an execution's end
  double predictedDisk = 0, predictedComm = 0, predictedReceived = 0;
  /// Whether every execution predicted its received bytes per rank (a fused
  /// program's tc_rt_plan_per_rank).
  bool receivedPredicted = true;
  double wall = 0; ///< seconds from each execution's start to the next's, summed
};

/// Bytes moved handing intermediates from the statements that computed them
/// to the ones that read them (KeptTensors.cpp), and the bytes the layout
/// library's redistributionTraffic predicts for those hand-overs.
struct HandOver {
  double sent = 0, received = 0, predictedSent = 0, predictedReceived = 0;
  HandOver since(const HandOver &begin) const {
    return {sent - begin.sent, received - begin.received, predictedSent - begin.predictedSent,
            predictedReceived - begin.predictedReceived};
  }
  HandOver &operator+=(const HandOver &h) {
    sent += h.sent, received += h.received;
    predictedSent += h.predictedSent, predictedReceived += h.predictedReceived;
    return *this;
  }
};

/// Where one iteration of a loop started (tc_rt_begin_iteration).
struct IterationMark {
  double time = 0;
  Counters counters[NumPhases];
  double predictedDisk = 0, predictedComm = 0;
  HandOver handOver;
};

/// One iteration of a loop, as the report lists it (this rank's counters).
struct IterationRecord {
  std::string loop;
  int64_t iteration = 0;
  bool hasValue = false;        ///< the loop converges on a scalar
  double value = 0, change = 0; ///< change: from the previous iteration (none in the first)
  double seconds = 0;           ///< wall time, tc_rt_begin_iteration to tc_rt_end_iteration
  Counters phases[NumPhases];   ///< this rank's counters over the iteration, per phase
  double predictedDisk = 0, predictedComm = 0;
  HandOver handOver; ///< this rank's over the iteration
  int diis = 0; ///< DIIS entries the next values combine (0, 1: not extrapolated)
};

/// A loop that ended: after how many iterations, and whether it converged.
struct LoopOutcome {
  std::string loop, converge;
  double tolerance = 0;
  int64_t maxIterations = 0, iterations = 0;
  bool converged = false;
  double value = 0, change = 0;
};

struct Context {
  Options options;
  int rank = 0, size = 1;
  std::string program;
  uint64_t jobId = 0; ///< rank 0's pid, names scratch files of this run
  uint64_t runNumber = 0; ///< runs of the program begun in this process
  Counters counters[NumPhases + 1]; ///< the reported phases, then Idle
  Phase phase = Idle;
  double phaseStart = 0;
  // The plan (tc_rt_plan), summed over the contractions of the program.
  double predictedDisk = 0, predictedComm = 0, plannedFlops = 0;
  /// Bytes this rank is predicted to receive (tc_rt_plan_per_rank); -1: not
  /// predicted separately (single contractions receive what they send).
  double predictedReceived = -1;
  int receivedPredictions = 0; ///< calls of tc_rt_plan_per_rank so far
  int64_t chunkBytes = 64 << 20;
  HandOver handOver; ///< so far in the run
  /// The process counts a program specialized for several has plans for
  /// (tc_rt_plan_for_procs), in the order registered.
  std::vector<int64_t> plannedProcs;
  /// The statements of this run, in order of their first execution (empty:
  /// tc_main calls no tc_rt_begin_statement), and the one running: its
  /// record and where it began.
  std::vector<StatementRecord> statements;
  size_t runningStatement = 0;
  bool statementRunning = false;
  StatementMark statementStart;
  /// The record the next statement takes if its name is that record's: a
  /// loop's next iteration starts again at its body's first.
  size_t nextStatement = 0;
  /// Where the current statement's stores go (enum tc_rt_result): the output
  /// file, or as an intermediate later statements read back (Hdf5IO.cpp).
  int64_t storing = 0;
  bool storingIntermediate() const { return storing != 0; }
  /// The current statement stores the reciprocals of its values (X = 1 / ...).
  bool storingReciprocal = false;
  /// The current statement keeps the inputs it loads (TC_RT_KEEP_INPUTS).
  bool keepingInputs = false;
  /// Intermediates stored in this run, by name: the file arrays of that name
  /// load from instead of --input (the intermediates file, or a rank-local
  /// in-memory HDF5 file holding the whole tensor).
  std::map<std::string, int64_t> storedIntermediates;
  // Loops (tc_rt_begin_iteration, tc_rt_end_iteration): the open one's
  // start, its iteration count and last scalar; every iteration and loop of
  // the run, for the report.
  struct OpenLoop {
    int64_t iteration = 0;
    bool hasPrevious = false;
    double previous = 0;
    IterationMark start;
    bool begun = false;               ///< its first iteration began
    int64_t index = 0;                ///< loops begun in this run before it
    std::vector<std::string> carried; ///< the stored names of its carried tensors
    std::shared_ptr<Diis> diis;       ///< with `diis N`
    int diisUsed = 0;                 ///< entries the last extrapolation combined
    size_t firstStatement = 0;        ///< the record of its body's first statement
  };
  std::map<std::string, OpenLoop> openLoops;
  /// Inside an iteration of a loop.
  bool inLoop() const { return !openLoops.empty(); }
  std::vector<IterationRecord> iterations;
  std::vector<LoopOutcome> loops;
  bool restarted = false; ///< --restart's checkpoint was loaded
  int64_t loopsBegun = 0; ///< loops whose first iteration began in this run
  // Progress line.
  bool running = false; ///< inside tc_main (a tcc program's run)
  double startTime = 0, lastProgress = -1e30;
  double progressAfter = 3; ///< seconds before the first progress line (TC_PROGRESS_AFTER)
  bool progressShown = false;
  // The output being written, removed when the run fails. (Scratch files
  // have no name: the system frees them however the run ends.)
  std::string partialOutput;
  // Cartesian communicators by grid shape.
  std::map<std::vector<int64_t>, MPI_Comm> grids;
  // Fault injection: TC_FAIL_WRITE_AFTER_BYTES.
  double failWriteAfter = -1;
  bool trace = false; ///< TC_TRACE=1: one stderr line per runtime call
  // Run inside a host's MPI job (Embedding.cpp): the report stays here.
  bool embedded = false;
  std::string embeddedReport;
};

/// With TC_TRACE=1, prints "rank R: NAME S s" when the scope ends (per call),
/// "rank R: NAME S s OF" with what the call worked on (an array's name).
class TraceScope {
public:
  explicit TraceScope(const char *name, const char *of = nullptr);
  ~TraceScope();

private:
  const char *name, *of;
  double start;
};

Context &ctx();

/// MPI_Init and the context every process needs: rank, size, program name and
/// the job id (rank 0's pid, which names scratch and temporary files).
void startProcess(int *argc, char ***argv, const std::string &program);
/// The same in a host that already runs MPI (Embedding.cpp): no MPI_Init, no
/// other OpenBLAS kernel (the host started it).
void startEmbedded(const std::string &program);

/// Runs the program (tc_main) as its command line says, `--repeat` times, and
/// writes the report; the exit status (3: a loop did not converge). MPI runs.
/// `beforeEachRun`, if any, runs just before each run's tc_main.
int runProgram(int argc, char **argv, void (*beforeEachRun)() = nullptr);
/// Clears what a run leaves for the next run in this process.
void resetRunState();
/// Adds the running statement's execution, if any, ended at `now`, to its
/// record (the next statement begins, or the run's statements end).
void endStatement(double now = wallSeconds());
Counters &counters(); ///< of the current phase

/// Switches the phase the counters charge (closes the time of the previous one
/// and, with sampleRss, records its peak RSS, phasePeakRssBytes; the time between
/// statements, Idle, has none).
void setPhase(Phase p, bool sampleRss = true);
/// setPhase at a time the caller has just read (wallSeconds), without reading
/// the clock again.
void setPhaseAt(Phase p, double now, bool sampleRss);

/// Prints "<program>: rank R: error: <message>", removes scratch files and partial output, and
/// ends every rank with exit status 1.
[[noreturn]] void fail(const std::string &message);
/// As fail, for an error every rank meets alike: only rank 0 prints
/// "<program>: error: <message>".
[[noreturn]] void failOnRoot(const std::string &message);

/// What tc_rt_check_abi says about a program compiled for ABI
/// `compiledVersion`: empty if this runtime implements it.
std::string abiMismatch(int64_t compiledVersion);

/// A Cartesian communicator (periodic in every dimension) for `grid` over the
/// first G ranks (G its product; rank r has the row-major coordinates of r), or
/// MPI_COMM_NULL on ranks G.., which the grid leaves idle (COSMA, Kwasniewski et
/// al. section 7.1). Collective over MPI_COMM_WORLD on its first call for a
/// grid; fails if G exceeds the number of ranks.
MPI_Comm gridComm(const std::vector<int64_t> &grid);

/// What tc_rt_check_procs (one count) or tc_rt_select_procs (several) says
/// about a program planned for `procs` processes: empty if the run has one of
/// those counts.
std::string procsMismatch(const std::vector<int64_t> &procs);

/// Whether a loop that converges on a scalar stopped at its largest
/// iteration count instead (Iterations.cpp); the run's status is then 3.
bool anyLoopUnconverged();

/// Rank 0's progress line on stderr, at most every 2 s once a run passes
/// progressAfter seconds.
void reportProgress();

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_CONTEXT_H
