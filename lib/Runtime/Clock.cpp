//===- Clock.cpp - the runtime's wall clock -------------------------------===//
//
// See Clock.h: the time-stamp counter where it is invariant, else
// CLOCK_MONOTONIC.
//
//===----------------------------------------------------------------------===//
#include "Clock.h"

#include <cstdint>
#include <ctime>
#include <fstream>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace tc_rt {
namespace {

double monotonicSeconds() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

#if defined(__x86_64__)
/// True if the counter ticks at one rate (the CPUID bit) and the kernel
/// keeps time by it (its clock source is "tsc"): the kernel checks that the
/// cores' counters agree and gives the source up when they do not.
bool invariantCounter() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
    return false;
  __get_cpuid(0x80000007u, &a, &b, &c, &d);
  if (!(d & (1u << 8)))
    return false;
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return source >> name && name == "tsc";
}

/// A monotonic time and the counter at that time: the counter read on both
/// sides of the clock, from the tightest of a few tries (a try the process
/// was descheduled in is wide).
struct Reading {
  double seconds = 0;
  uint64_t ticks = 0;
};
Reading readBoth() {
  Reading best;
  uint64_t narrowest = UINT64_MAX;
  for (int i = 0; i < 8; ++i) {
    const uint64_t before = __rdtsc();
    const double seconds = monotonicSeconds();
    const uint64_t after = __rdtsc();
    if (after - before < narrowest) {
      narrowest = after - before;
      best = {seconds, before + (after - before) / 2};
    }
  }
  return best;
}

/// The counter's rate, measured over 2 ms of CLOCK_MONOTONIC (a relative
/// error under 1e-4), and its origin; rate 0 where it is not invariant.
struct Counter {
  Reading origin;
  double secondsPerTick = 0;
};
const Counter &counter() {
  static const Counter measured = [] {
    Counter k;
    if (!invariantCounter())
      return k;
    const Reading start = readBoth();
    Reading end = start;
    while (end.seconds - start.seconds < 2e-3)
      end = readBoth();
    if (end.ticks > start.ticks) {
      k.origin = end;
      k.secondsPerTick = (end.seconds - start.seconds) / static_cast<double>(end.ticks - start.ticks);
    }
    return k;
  }();
  return measured;
}
#endif

} // namespace

double wallSeconds() {
#if defined(__x86_64__)
  const Counter &k = counter();
  if (k.secondsPerTick > 0)
    return k.origin.seconds +
           static_cast<double>(static_cast<int64_t>(__rdtsc() - k.origin.ticks)) * k.secondsPerTick;
#endif
  return monotonicSeconds();
}

bool clockReadsCounter() {
#if defined(__x86_64__)
  return counter().secondsPerTick > 0;
#else
  return false;
#endif
}

} // namespace tc_rt
