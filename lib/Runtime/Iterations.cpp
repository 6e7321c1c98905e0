//===- Iterations.cpp - a program's loops: convergence and their report ---===//
//
// A program with loops (tc-outline-loops) repeats a loop's statements; after
// each iteration tc_rt_end_iteration reads the scalar the loop converges on
// from the intermediates store, where the statement that computed it left
// it, and decides for every rank whether to run another. Rank 0's value
// decides, so that ranks never disagree on the iteration count.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "DistArray.h"
#include "TC/Runtime/Runtime.h"

#include <hdf5.h>

#include <cmath>
#include <cstdio>

namespace tc_rt {

namespace {

/// The scalar intermediate `name`: a dataset of one element, or a
/// block-sparse group whose `values` hold its one block (none: zero).
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
  m.time = MPI_Wtime();
  std::copy(c.counters, c.counters + NumPhases, m.counters);
  m.predictedDisk = c.predictedDisk, m.predictedComm = c.predictedComm;
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

extern "C" void tc_rt_begin_iteration(const char *loop) {
  Context &c = ctx();
  c.openLoops[loop].start = markNow();
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
    r.value = readStoredScalar(loop, converge);
    MPI_Bcast(&r.value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    r.change = state.hasPrevious ? r.value - state.previous : 0;
  }
  const IterationMark end = markNow();
  r.seconds = end.time - state.start.time;
  for (int p = 0; p < NumPhases; ++p)
    r.phases[p] = countersBetween(state.start.counters[p], end.counters[p]);
  r.predictedDisk = end.predictedDisk - state.start.predictedDisk;
  r.predictedComm = end.predictedComm - state.start.predictedComm;
  c.iterations.push_back(r);
  printIteration(r, converge, maxIterations);
  // A scalar that is not a number never converges.
  const bool converged =
      r.hasValue && state.hasPrevious && std::fabs(r.change) < tolerance && std::isfinite(r.value);
  state.hasPrevious = true;
  state.previous = r.value;
  if (!converged && r.iteration < maxIterations)
    return 1;
  LoopOutcome outcome;
  outcome.loop = loop, outcome.converge = converge, outcome.tolerance = tolerance;
  outcome.maxIterations = maxIterations, outcome.iterations = r.iteration;
  outcome.converged = converged, outcome.value = r.value, outcome.change = r.change;
  c.loops.push_back(outcome);
  c.openLoops.erase(open);
  if (r.hasValue && !converged && c.rank == 0)
    std::fprintf(stderr,
                 "%s: error: loop %s did not converge in %lld iterations: %s changed by "
                 "%.3e in the last, not less than %.3e (the outputs hold the last "
                 "iteration's values)\n",
                 c.program.c_str(), loop, static_cast<long long>(r.iteration), converge,
                 std::fabs(r.change), tolerance);
  return 0;
}
