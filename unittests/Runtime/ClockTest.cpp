//===- ClockTest.cpp - the runtime's wall clock ---------------------------===//
#include "Clock.h"

#include <gtest/gtest.h>

#include <ctime>

namespace {

double monotonic() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Phases are timed by wallSeconds: over a busy 50 ms it must agree with
// CLOCK_MONOTONIC (whether it reads the time-stamp counter or not) and never
// run backwards.
TEST(Clock, AgreesWithMonotonicClock) {
  const double start = tc_rt::wallSeconds(), monotonicStart = monotonic();
  double last = start;
  while (monotonic() - monotonicStart < 0.05) {
    const double now = tc_rt::wallSeconds();
    ASSERT_GE(now, last);
    last = now;
  }
  const double elapsed = tc_rt::wallSeconds() - start, monotonicElapsed = monotonic() - monotonicStart;
  EXPECT_NEAR(elapsed, monotonicElapsed, 0.01 * monotonicElapsed)
      << (tc_rt::clockReadsCounter() ? "time-stamp counter" : "CLOCK_MONOTONIC");
}

} // namespace
