//===- Embedding.cpp - a program run inside a host's MPI job --------------===//
//
// tc_rt_embedded_run (include/TC/Runtime/Embedding.h): the program's main,
// inside a process that already runs MPI, its dense tensors in the host's
// memory instead of files (HostTensors.cpp). Its own archive member, as
// main's: only a shared library built for a host links it.
//
//===----------------------------------------------------------------------===//
#include "TC/Runtime/Embedding.h"

#include "Context.h"
#include "HostTensors.h"

#include <cstring>

using namespace tc_rt;

extern "C" int tc_rt_embedded_run(int argc, char **argv, int32_t count,
                                  const tc_rt_embedded_tensor *tensors) {
  Context &c = ctx();
  resetRunState();
  c.options = Options();
  c.embeddedReport.clear();
  const char *slash = std::strrchr(argv[0], '/');
  startEmbedded(slash ? slash + 1 : argv[0]);
  std::vector<HostTensor> &host = hostTensors();
  host.clear();
  for (int32_t i = 0; i < count; ++i) {
    const tc_rt_embedded_tensor &t = tensors[i];
    if (t.f32)
      fail("tensor '" + std::string(t.name) + "': a host passes f64 tensors only");
    host.push_back({t.name, t.output != 0, Shape(t.extents, t.extents + t.rank), t.local});
  }
  const int status = runProgram(argc, argv, placeHostInputs);
  host.clear();
  return status;
}

extern "C" const char *tc_rt_embedded_report(void) { return ctx().embeddedReport.c_str(); }
