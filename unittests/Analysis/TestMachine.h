//===- TestMachine.h - the machine the planner unit tests plan for -*- C++ -*-===//
#ifndef TC_UNITTESTS_ANALYSIS_TESTMACHINE_H
#define TC_UNITTESTS_ANALYSIS_TESTMACHINE_H

#include "TC/Analysis/OutOfCoreCostModel.h"

namespace mlir::tc::test {

/// `procs` processes of `mem` bytes each, 200 MB/s network, 8 MB/s disk.
inline MachineModel machine(int64_t procs, double mem) {
  MachineModel m;
  m.procs = procs;
  m.memBytes = mem;
  m.netBandwidth = 200e6;
  m.diskBandwidth = 8e6;
  return m;
}

} // namespace mlir::tc::test

#endif // TC_UNITTESTS_ANALYSIS_TESTMACHINE_H
