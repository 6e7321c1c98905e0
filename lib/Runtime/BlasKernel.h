//===- BlasKernel.h - the OpenBLAS kernel a process runs ------------------===//
//
// Debian's OpenBLAS (DYNAMIC_ARCH) picks its kernel from the CPU model when it
// loads and falls back to a generic one (Prescott: SSE3) on a CPU it does not
// know, such as a recent Xeon, a quarter of the speed its SkylakeX kernel
// reaches there. A tc process checks the choice before MPI starts and, where
// the CPU has the vector units of a better kernel, runs again with
// OPENBLAS_CORETYPE naming it (docs/Derivations.md D43).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_BLASKERNEL_H
#define TC_LIB_RUNTIME_BLASKERNEL_H

#include <string>

namespace tc_rt {

struct CpuFeatures {
  bool avx512f = false, avx512bw = false, avx512dq = false, avx512vl = false;
  bool avx2 = false, fma = false;
};

/// This CPU's vector units.
CpuFeatures cpuFeatures();

/// The OpenBLAS core type a CPU with `cpu` runs better than `chosen` (what
/// OpenBLAS picked): SkylakeX (AVX-512 F, BW, DQ and VL) or Haswell (AVX2
/// and FMA) when `chosen` is one of OpenBLAS's pre-AVX kernels, its fallbacks
/// for a CPU it does not know; empty to keep `chosen`.
std::string betterBlasKernel(const std::string &chosen, const CpuFeatures &cpu);

/// The kernel running and who chose it: "OpenBLAS", "OPENBLAS_CORETYPE" (the
/// user's), "--blas-kernel" / "TC_BLAS_KERNEL", or "tc" (betterBlasKernel).
struct BlasKernelChoice {
  std::string kernel, chosenBy;
};

/// At the start of main, before MPI or threads start: applies `--blas-kernel
/// NAME` (removed from argv), TC_BLAS_KERNEL, the user's OPENBLAS_CORETYPE,
/// or betterBlasKernel, re-executing the program with OPENBLAS_CORETYPE set
/// when the kernel must change (OpenBLAS reads it only when it loads).
void selectBlasKernel(int *argc, char **argv);

/// At the start of main, before MPI starts: unless OPENBLAS_NUM_THREADS is
/// set, one BLAS thread per rank (the ranks fill the cores), and the worker
/// threads OpenBLAS's pthread build started when it loaded are shut down.
/// Left alone they poll for work with sched_yield for about 2^28 cycles
/// before they sleep: the first 0.1-0.2 s of every rank, MPI's start-up and
/// the first loads, on the cores the other ranks need.
void oneBlasThreadPerRank();

/// What selectBlasKernel settled on (the running kernel: OpenBLAS's name).
const BlasKernelChoice &blasKernelChoice();

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_BLASKERNEL_H
