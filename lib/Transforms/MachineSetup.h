//===- MachineSetup.h - the machine the planners plan for -------*- C++ -*-===//
//
// The module's #tc.machine as Gao et al.'s MachineModel ([G] section 2), and the
// machine file of tc-calibrate as the communication and computation costs of
// Cociorva et al.'s fusion planner ([C] section 3.2: Mcost, CalcCost), with the
// runtime's staging buffers kept out of the memory the planners may use.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_MACHINESETUP_H
#define TC_LIB_TRANSFORMS_MACHINESETUP_H

#include "TC/Analysis/FusionPlanner.h"
#include "TC/Analysis/OutOfCoreCostModel.h"
#include "TC/Dialect/TCAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <memory>

namespace mlir::tc {

MachineModel toMachineModel(MachineAttr attr);

/// `machine` planned for `procs` processes with `memBytes` bytes each, its
/// other parameters unchanged (a copy per process count, tc-specialize-procs;
/// the memory a program's in-memory intermediates leave, tc-split-program).
MachineAttr withProcsAndMemory(MachineAttr machine, int64_t procs, int64_t memBytes);

/// What a message costs beyond its bytes where nothing measured it: the
/// runtime's exchange of a few hundred bytes between two ranks, waits
/// included, measured 10-15 us on 2 processes (docs/Derivations.md D58).
/// tc-set-machine's and tc-fuse-distribute's default.
constexpr double kDefaultLatency = 1e-5;

/// getEnclosingMachine(scope) as a MachineModel; emits an error on `scope` when
/// there is none.
FailureOr<MachineModel> getMachineModel(Operation *scope);

/// `machine` for tensors of `elementType`: its elem_bytes becomes the type's
/// size (4 for f32, 8 for f64), so that every volume a planner predicts is in
/// the bytes the runtime moves for those tensors.
MachineModel forElementType(MachineModel machine, Type elementType);

/// The JSON object of a machine file; emits "machine file 'F': why" on `scope`
/// when it cannot be read, is not JSON or is not an object.
FailureOr<llvm::json::Object> readMachineJson(Operation *scope, StringRef path);

/// Mcost for the planner: the measured table of `machineFile` (tc-calibrate's
/// "mcost" key) over the analytic model, or the analytic model alone. Latency
/// comes from the option when >= 0, else from the file, else from the
/// machine of `scope` when > 0, else 1e-5 s; the slice
/// I/O latency and call overhead from the options when >= 0, else the file's
/// io_latency / call_overhead, else 1e-4 s and 1e-6 s; the flop rate from the
/// machine of `scope` (getMachineAttr; tc-set-machine reads the file's
/// flop_rate into it);
/// volumes in bytes of `elementType` (forElementType).
struct FusionCostSetup {
  std::shared_ptr<const CommCostModel> comm;
  FusionMachine machine;
  double latency = 0;
  size_t measuredPairs = 0;
  double stagingBytes = 0; ///< kept out of machine.memBytes for the runtime's buffers
};
FailureOr<FusionCostSetup> loadFusionCosts(Operation *scope, Type elementType,
                                           StringRef machineFile, double latencyOption,
                                           double ioLatencyOption, double callOverheadOption);

/// Bytes a fused program stages redistributions and slice I/O in (the
/// runtime's chunk): a sixteenth of the memory, between 1 KiB and 4 MiB. Send
/// and receive buffers make two of them, which planning for the runtime
/// (volumes = runtime) keeps out of the memory it gives the arrays.
int64_t fusedStagingChunk(double memBytes);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_MACHINESETUP_H
