//===- Clock.h - the runtime's wall clock -----------------------*- C++ -*-===//
//
// Phases, statements and loop iterations are timed around every array a
// statement creates and every result it stores: a water STO-3G CCSD iteration
// reads the clock some 600 times, and at 30-40 ns per clock_gettime (what
// MPI_Wtime calls) that was 4-5% of its wall time. Where the CPU's time-stamp
// counter ticks at one rate in every power state (the invariant TSC, CPUID
// 0x80000007 EDX bit 8) and the kernel keeps time by it (clock source "tsc",
// which it gives up when the cores' counters disagree), the clock reads the
// counter instead, about 10 ns, converted at a rate measured once against
// CLOCK_MONOTONIC; elsewhere it is CLOCK_MONOTONIC.
//
//===----------------------------------------------------------------------===//
#ifndef TC_RUNTIME_CLOCK_H
#define TC_RUNTIME_CLOCK_H

namespace tc_rt {

/// Seconds since an arbitrary origin, fixed for the process.
double wallSeconds();

/// True if wallSeconds reads the time-stamp counter.
bool clockReadsCounter();

} // namespace tc_rt

#endif // TC_RUNTIME_CLOCK_H
