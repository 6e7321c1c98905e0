//===- Iterations.cpp - a program's loops: convergence and their report ---===//
//
// A program with loops (tc-outline-loops) repeats a loop's statements; after
// each iteration tc_rt_end_iteration reads the scalar the loop converges on
// from the intermediates store, where the statement that computed it left
// it, and decides for every rank whether to run another. Rank 0's value
// decides, so that ranks never disagree on the iteration count. Before the
// next iteration the carried tensors are extrapolated (DIIS, Diis.cpp) and
// the loop's state written to --checkpoint (Checkpoints.cpp); the first
// iteration of a loop loads --restart's state.
//
//===----------------------------------------------------------------------===//
#include "Checkpoints.h"
#include "Context.h"
#include "Diis.h"
#include "DistArray.h"
#include "KeptTensors.h"
#include "TC/Runtime/Runtime.h"

#include <hdf5.h>

#include <cmath>
#include <cstdio>

namespace tc_rt {

namespace {

/// The scalar intermediate `name`: a dataset of one element, or a
/// block-sparse group whose `values` hold its one block (none: zero). Rank
/// 0's.
double readStoredScalar(const std::string &loop, const std::string &name) {
  std::string where;
  const hid_t file = storedIntermediateFile(name, where);
  if (file < 0)
    failOnRoot("loop " + loop + " converges on '" + name +
               "', which no statement of the iteration stored");
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t values = -1;
  if (hid_t group = H5Gopen2(file, name.c_str(), H5P_DEFAULT); group >= 0) {
    values = H5Dopen2(group, "values", H5P_DEFAULT);
    H5Gclose(group);
  } else {
    values = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  }
  if (values < 0)
    fail("loop " + loop + ": cannot open '" + name + "' in " + where);
  hid_t space = H5Dget_space(values);
  const hssize_t elements = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  double value = 0;
  if (elements > 1)
    fail("loop " + loop + " converges on '" + name + "', which holds " + std::to_string(elements) +
         " elements, not one");
  if (elements == 1 &&
      H5Dread(values, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0)
    fail("loop " + loop + ": reading '" + name + "' from " + where + " failed");
  H5Dclose(values);
  return value;
}

IterationMark markNow() {
  Context &c = ctx();
  IterationMark m;
  m.time = wallSeconds();
  std::copy(c.counters, c.counters + NumPhases, m.counters);
  m.predictedDisk = c.predictedDisk, m.predictedComm = c.predictedComm;
  m.handOver = c.handOver;
  return m;
}

/// Rank 0's line on stderr for each iteration.
void printIteration(const IterationRecord &r, const std::string &converge, int64_t max) {
  Context &c = ctx();
  if (c.rank != 0 || c.options.quiet)
    return;
  if (c.progressShown) { // end the overwritten progress line first
    std::fputc('\n', stderr);
    c.progressShown = false;
  }
  std::fprintf(stderr, "%s: loop %s: iteration %lld of at most %lld", c.program.c_str(),
               r.loop.c_str(), static_cast<long long>(r.iteration), static_cast<long long>(max));
  if (r.hasValue) {
    std::fprintf(stderr, ": %s = %.12g", converge.c_str(), r.value);
    if (r.iteration > 1)
      std::fprintf(stderr, ", change %.3e", r.change);
  }
  if (r.diis > 1)
    std::fprintf(stderr, ", DIIS of %d", r.diis);
  std::fprintf(stderr, ", %.3f s\n", r.seconds);
  std::fflush(stderr);
}

} // namespace

bool anyLoopUnconverged() {
  for (const LoopOutcome &l : ctx().loops)
    if (!l.converge.empty() && !l.converged)
      return true;
  return false;
}

} // namespace tc_rt

using namespace tc_rt;

namespace {

std::vector<std::string> splitNames(const std::string &list) {
  std::vector<std::string> out;
  for (size_t at = 0; at < list.size();) {
    size_t comma = list.find(',', at);
    if (comma == std::string::npos)
      comma = list.size();
    out.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

/// A loop's first iteration: its carried tensors, DIIS, and the state of
/// --restart's checkpoint when it is this loop's.
void beginLoop(const std::string &loop, Context::OpenLoop &state, const char *carried,
               int64_t diis) {
  Context &c = ctx();
  state.begun = true;
  state.index = c.loopsBegun++;
  state.carried = splitNames(carried);
  if (diis > 0)
    state.diis = std::make_shared<Diis>(state.carried, diis, loop);
  if (c.options.restart.empty() || c.restarted)
    return;
  setPhase(Load);
  c.restarted = restoreCheckpoint(c.options.restart, loop, state);
  setPhase(Idle);
  if (c.restarted && c.rank == 0 && !c.options.quiet)
    std::fprintf(stderr, "%s: loop %s: restarting after iteration %lld from %s\n",
                 c.program.c_str(), loop.c_str(), static_cast<long long>(state.iteration),
                 c.options.restart.c_str());
}

} // namespace

extern "C" void tc_rt_begin_iteration(const char *loop, const char *carried, int64_t diis) {
  Context &c = ctx();
  Context::OpenLoop &state = c.openLoops[loop];
  if (!state.begun) {
    beginLoop(loop, state, carried, diis);
    keepFreedMemory(true);
    state.firstStatement = c.nextStatement;
  } else { // its statements run into the records of the first iteration's
    c.nextStatement = state.firstStatement;
  }
  state.start = markNow();
  if (state.diis) { // the values this iteration starts from
    setPhase(Load);
    state.diis->beginIteration();
    setPhase(Idle);
  }
}

extern "C" int64_t tc_rt_end_iteration(const char *loop, const char *converge, double tolerance,
                                       int64_t maxIterations) {
  Context &c = ctx();
  setPhase(Idle, false);
  auto open = c.openLoops.find(loop);
  if (open == c.openLoops.end())
    failOnRoot(std::string("loop ") + loop + " ends an iteration it did not begin");
  Context::OpenLoop &state = open->second;
  IterationRecord r;
  r.loop = loop;
  r.iteration = ++state.iteration;
  r.hasValue = converge[0] != '\0';
  if (r.hasValue) {
    // Where the statement that computed it kept it, else from the store.
    if (!readKeptScalar(converge, r.value)) {
      r.value = readStoredScalar(loop, converge);
      MPI_Bcast(&r.value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    r.change = state.hasPrevious ? r.value - state.previous : 0;
  }
  // A scalar that is not a number never converges.
  const bool converged =
      r.hasValue && state.hasPrevious && std::fabs(r.change) < tolerance && std::isfinite(r.value);
  state.hasPrevious = true;
  state.previous = r.value;
  const bool again = !converged && r.iteration < maxIterations;
  if (again && (state.diis || !c.options.checkpoint.empty())) {
    setPhase(Store);
    if (state.diis)
      r.diis = state.diis->endIteration();
    if (!c.options.checkpoint.empty() && r.iteration % c.options.checkpointEvery == 0)
      writeCheckpoint(c.options.checkpoint, loop, state);
    setPhase(Idle);
  }
  const IterationMark end = markNow();
  r.seconds = end.time - state.start.time;
  for (int p = 0; p < NumPhases; ++p)
    r.phases[p] = countersBetween(state.start.counters[p], end.counters[p]);
  r.predictedDisk = end.predictedDisk - state.start.predictedDisk;
  r.predictedComm = end.predictedComm - state.start.predictedComm;
  r.handOver = end.handOver.since(state.start.handOver);
  c.iterations.push_back(r);
  printIteration(r, converge, maxIterations);
  if (again)
    return 1;
  LoopOutcome outcome;
  outcome.loop = loop, outcome.converge = converge, outcome.tolerance = tolerance;
  outcome.maxIterations = maxIterations, outcome.iterations = r.iteration;
  outcome.converged = converged, outcome.value = r.value, outcome.change = r.change;
  c.loops.push_back(outcome);
  c.openLoops.erase(open);
  if (!c.inLoop())
    keepFreedMemory(false);
  if (r.hasValue && !converged && c.rank == 0)
    std::fprintf(stderr,
                 "%s: error: loop %s did not converge in %lld iterations: %s changed by "
                 "%.3e in the last, not less than %.3e (the outputs hold the last "
                 "iteration's values)\n",
                 c.program.c_str(), loop, static_cast<long long>(r.iteration), converge,
                 std::fabs(r.change), tolerance);
  return 0;
}
