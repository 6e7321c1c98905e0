//===- BlasKernel.cpp - the OpenBLAS kernel a process runs ----------------===//
#include "BlasKernel.h"

#include <cblas.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

namespace tc_rt {

namespace {

/// Set in the re-executed process: who chose the kernel it asked for, and
/// which ("WHO:KERNEL").
const char *const kReexecVariable = "TC_BLAS_KERNEL_CHOSEN_BY";

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

BlasKernelChoice &choice() {
  static BlasKernelChoice c;
  return c;
}

std::string runningKernel() {
  const char *name = openblas_get_corename();
  return name ? name : "";
}

/// Runs this program again with OPENBLAS_CORETYPE = kernel; returns only if
/// that fails.
void reexecWith(const std::string &kernel, const std::string &chosenBy, char **argv) {
  setenv("OPENBLAS_CORETYPE", kernel.c_str(), 1);
  setenv(kReexecVariable, (chosenBy + ":" + kernel).c_str(), 1);
  execv("/proc/self/exe", argv);
  std::fprintf(stderr,
               "%s: warning: cannot run again with OPENBLAS_CORETYPE=%s (%s); "
               "keeping OpenBLAS's %s kernel\n",
               argv[0], kernel.c_str(), std::strerror(errno), runningKernel().c_str());
}

} // namespace

CpuFeatures cpuFeatures() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
#endif
  return f;
}

std::string betterBlasKernel(const std::string &chosen, const CpuFeatures &cpu) {
  // OpenBLAS's kernels for CPUs before AVX: where DYNAMIC_ARCH lands on a CPU
  // model it does not know (driver/others/dynamic.c).
  static const char *const kGeneric[] = {"prescott", "core2",  "penryn",     "dunnington",
                                         "nehalem",  "katmai", "coppermine", "northwood",
                                         "banias",   "atom",   "unknown",    ""};
  const std::string name = lower(chosen);
  if (std::find(std::begin(kGeneric), std::end(kGeneric), name) == std::end(kGeneric))
    return "";
  if (cpu.avx512f && cpu.avx512bw && cpu.avx512dq && cpu.avx512vl)
    return "SkylakeX";
  if (cpu.avx2 && cpu.fma)
    return "Haswell";
  return "";
}

void selectBlasKernel(int *argc, char **argv) {
  BlasKernelChoice &c = choice();
  // --blas-kernel NAME, taken out of the arguments the program parses.
  std::string requested;
  for (int i = 1; i < *argc; ++i) {
    if (std::strcmp(argv[i], "--blas-kernel") != 0)
      continue;
    if (i + 1 < *argc)
      requested = argv[i + 1];
    const int drop = i + 1 < *argc ? 2 : 1;
    for (int k = i; k + drop <= *argc; ++k)
      argv[k] = argv[k + drop];
    *argc -= drop;
    break;
  }
  std::string by = requested.empty() ? "" : "--blas-kernel";
  if (requested.empty())
    if (const char *v = std::getenv("TC_BLAS_KERNEL"); v && *v)
      requested = v, by = "TC_BLAS_KERNEL";
  c.kernel = runningKernel();
  if (const char *again = std::getenv(kReexecVariable)) { // the re-executed process
    const std::string mark = again;
    const size_t colon = mark.find(':');
    c.chosenBy = mark.substr(0, colon);
    const std::string asked = colon == std::string::npos ? "" : mark.substr(colon + 1);
    unsetenv(kReexecVariable);
    // OpenBLAS ignores a name it has no kernel of; say so once (rank 0's
    // process, or the only one).
    const char *rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (lower(asked) != lower(c.kernel) && (!rank || std::string(rank) == "0"))
      std::fprintf(stderr, "%s: warning: OpenBLAS has no kernel '%s' (%s): running its %s kernel\n",
                   argv[0], asked.c_str(), c.chosenBy.c_str(), c.kernel.c_str());
    return;
  }
  if (!requested.empty()) {
    c.chosenBy = by;
    if (lower(requested) != lower(c.kernel))
      reexecWith(requested, by, argv);
    return;
  }
  if (const char *user = std::getenv("OPENBLAS_CORETYPE"); user && *user) {
    c.chosenBy = "OPENBLAS_CORETYPE";
    return;
  }
  c.chosenBy = "OpenBLAS";
  const std::string better = betterBlasKernel(c.kernel, cpuFeatures());
  if (!better.empty())
    reexecWith(better, "tc", argv);
}

const BlasKernelChoice &blasKernelChoice() { return choice(); }

void oneBlasThreadPerRank() {
  if (std::getenv("OPENBLAS_NUM_THREADS"))
    return;
  openblas_set_num_threads(1);
  // OpenBLAS's own shutdown of its thread pool (it starts the pool again if a
  // call ever asks for more threads); absent from its serial builds.
  using Shutdown = int (*)();
  if (auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_")))
    shutdown();
}

} // namespace tc_rt
