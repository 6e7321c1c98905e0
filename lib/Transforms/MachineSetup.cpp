//===- MachineSetup.cpp - the machine the planners plan for ---------------===//
#include "MachineSetup.h"

#include "TC/Dialect/TCDialect.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tc;

MachineAttr mlir::tc::withProcsAndMemory(MachineAttr m, int64_t procs, int64_t memBytes) {
  return MachineAttr::get(m.getContext(), procs, memBytes, m.getNetBandwidth(),
                          m.getDiskBandwidth(), m.getElemBytes(), m.getBcastFactor(),
                          m.getReduceFactor(), m.getFlopRate(), m.getLatency(), m.getVolumes());
}

MachineModel mlir::tc::toMachineModel(MachineAttr attr) {
  MachineModel m;
  m.procs = attr.getProcs();
  m.memBytes = static_cast<double>(attr.getMemBytes());
  m.netBandwidth = attr.getNetBandwidth().convertToDouble();
  m.diskBandwidth = attr.getDiskBandwidth().convertToDouble();
  m.elemBytes = attr.getElemBytes();
  m.bcastFactor = attr.getBcastFactor().convertToDouble();
  m.reduceFactor = attr.getReduceFactor().convertToDouble();
  m.runtimeVolumes = attr.getVolumes() == VolumesKind::Runtime;
  m.flopRate = attr.getFlopRate().convertToDouble();
  m.latency = attr.getLatency().convertToDouble();
  return m;
}

FailureOr<MachineModel> mlir::tc::getMachineModel(Operation *scope) {
  MachineAttr attr = getEnclosingMachine(scope);
  if (!attr)
    return scope->emitError()
           << "planning needs a machine model: give the module a '"
           << TCDialect::getMachineAttrName()
           << "' attribute or run tc-plan/tc-set-machine with procs=, mem=, net-bw= "
              "and disk-bw= (or machine-file=)";
  return toMachineModel(attr);
}

MachineModel mlir::tc::forElementType(MachineModel machine, Type elementType) {
  machine.elemBytes = static_cast<int64_t>(elementType.getIntOrFloatBitWidth() / 8);
  return machine;
}

FailureOr<llvm::json::Object> mlir::tc::readMachineJson(Operation *scope, StringRef path) {
  auto fail = [&](const Twine &why) {
    return scope->emitError() << "machine file '" << path << "': " << why;
  };
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(buffer.getError().message());
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return fail(llvm::toString(json.takeError()));
  llvm::json::Object *object = json->getAsObject();
  if (!object)
    return fail("expected a JSON object with the keys of #tc.machine");
  return std::move(*object);
}

FailureOr<FusionCostSetup> mlir::tc::loadFusionCosts(Operation *scope, Type elementType,
                                                     StringRef machineFile,
                                                     double latencyOption,
                                                     double ioLatencyOption,
                                                     double callOverheadOption) {
  FailureOr<MachineModel> model = getMachineModel(scope);
  if (failed(model))
    return failure();
  *model = forElementType(*model, elementType);
  FusionCostSetup setup;
  setup.machine = FusionMachine{model->procs, model->memBytes, model->elemBytes,
                                model->flopRate, model->runtimeVolumes};
  setup.machine.diskBandwidth = model->diskBandwidth;
  if (model->runtimeVolumes) {
    setup.stagingBytes = 2.0 * static_cast<double>(fusedStagingChunk(model->memBytes));
    setup.machine.memBytes -= setup.stagingBytes;
  }
  setup.machine.ioLatency = 1e-4;    // an HDF5 hyperslab read or write
  setup.machine.callOverhead = 1e-6; // a runtime call on a small slice
  // The module's (tc-set-machine put it there), else the default.
  double latency = model->latency > 0 ? model->latency : kDefaultLatency;
  std::map<std::string, MeasuredCommCost::Points> table;
  if (!machineFile.empty()) {
    auto fail = [&](const Twine &why) {
      return scope->emitError() << "machine file '" << machineFile << "': " << why;
    };
    FailureOr<llvm::json::Object> object = readMachineJson(scope, machineFile);
    if (failed(object))
      return failure();
    if (std::optional<double> v = object->getNumber("latency"))
      latency = *v;
    if (std::optional<double> v = object->getNumber("io_latency"))
      setup.machine.ioLatency = *v;
    if (std::optional<double> v = object->getNumber("call_overhead"))
      setup.machine.callOverhead = *v;
    if (const llvm::json::Object *mcost = object->getObject("mcost"))
      for (const auto &[key, value] : *mcost) {
        const llvm::json::Array *points = value.getAsArray();
        if (!points)
          return fail("mcost '" + key.str() + "' must be a list of [bytes, seconds]");
        MeasuredCommCost::Points parsed;
        for (const llvm::json::Value &point : *points) {
          const llvm::json::Array *pair = point.getAsArray();
          std::optional<double> bytes, seconds;
          if (pair && pair->size() == 2) {
            bytes = (*pair)[0].getAsNumber();
            seconds = (*pair)[1].getAsNumber();
          }
          if (!bytes || !seconds || *bytes < 0 || *seconds < 0)
            return fail("mcost '" + key.str() + "' has a point that is not [bytes, seconds]");
          parsed.emplace_back(*bytes, *seconds);
        }
        table[key.str()] = std::move(parsed);
      }
  }
  if (latencyOption >= 0)
    latency = latencyOption;
  if (ioLatencyOption >= 0)
    setup.machine.ioLatency = ioLatencyOption;
  if (callOverheadOption >= 0)
    setup.machine.callOverhead = callOverheadOption;
  setup.latency = latency;
  auto analytic =
      std::make_shared<AnalyticCommCost>(latency, model->netBandwidth, model->elemBytes);
  setup.measuredPairs = table.size();
  if (table.empty())
    setup.comm = analytic;
  else
    setup.comm = std::make_shared<MeasuredCommCost>(std::move(table), analytic,
                                                    model->elemBytes);
  return setup;
}

int64_t mlir::tc::fusedStagingChunk(double memBytes) {
  return std::max<int64_t>(1 << 10,
                           std::min<int64_t>(4 << 20, static_cast<int64_t>(memBytes / 16)));
}
