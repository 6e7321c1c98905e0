//===- SetMachine.cpp - the tc-set-machine pass ---------------------------===//
//
// Builds the module's tc.machine attribute from a JSON machine file and pass
// options (options win, then the file, then an attribute already present, then
// the calibrated default file for measured quantities), so the planning passes
// read the machine from one place.
//
//===----------------------------------------------------------------------===//
#include "MachineSetup.h"
#include "TC/Analysis/Units.h"
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"
#include "TC/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::tc {
#define GEN_PASS_DEF_SETMACHINE
#include "TC/Transforms/Passes.h.inc"
} // namespace mlir::tc

using namespace mlir;
using namespace mlir::tc;

namespace {

using namespace machine_field;

/// Bandwidths of a commodity cluster node (10 Gb Ethernet, one SATA SSD), for
/// a machine nothing measured (Passes.td, tc-set-machine).
constexpr double kDefaultNetBw = 1e9;
constexpr double kDefaultDiskBw = 2e8;

/// Parses `text` for `field`: sizes and rates accept units, the rest plain numbers.
std::optional<double> parseField(Field field, const std::string &text) {
  if (field == Mem)
    return parseByteSize(text);
  if (field == NetBw || field == DiskBw)
    return parseByteRate(text);
  return parseByteSize(text); // a plain number; units make no sense but are harmless
}

struct SetMachinePass : public tc::impl::SetMachineBase<SetMachinePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<double> values[Count];
    VolumesKind volumesValue = VolumesKind::Paper;
    if (auto old = module->getAttrOfType<MachineAttr>(TCDialect::getMachineAttrName())) {
      values[Procs] = static_cast<double>(old.getProcs());
      values[Mem] = static_cast<double>(old.getMemBytes());
      values[NetBw] = old.getNetBandwidth().convertToDouble();
      values[DiskBw] = old.getDiskBandwidth().convertToDouble();
      values[ElemBytes] = static_cast<double>(old.getElemBytes());
      values[BcastFactor] = old.getBcastFactor().convertToDouble();
      values[ReduceFactor] = old.getReduceFactor().convertToDouble();
      // The attribute's default flop rate is a gap the calibrated file may fill.
      if (old.getFlopRate().convertToDouble() != MachineAttr::getDefaultFlopRate())
        values[FlopRate] = old.getFlopRate().convertToDouble();
      if (!old.getLatency().isZero())
        values[Latency] = old.getLatency().convertToDouble();
      volumesValue = old.getVolumes();
    }
    if (!machineFile.empty() && failed(readMachineFile(machineFile, values, volumesValue)))
      return signalPassFailure();
    if (!volumes.empty()) { // options win over the file
      std::optional<VolumesKind> v = symbolizeVolumesKind(volumes);
      if (!v) {
        module.emitError() << "option volumes=" << volumes << " is not "
                           << volumesChoices();
        return signalPassFailure();
      }
      volumesValue = *v;
    }
    if (failed(readOptions(values)))
      return signalPassFailure();
    for (Field required : {Procs, Mem})
      if (!values[required]) {
        module.emitError() << "the machine model lacks '" << kKeys[required]
                           << "': give it as an option, in a machine file or in the "
                              "module's tc.machine attribute";
        return signalPassFailure();
      }
    if (failed(fillMeasured(values)))
      return signalPassFailure();
    for (Field whole : {Procs, Mem, ElemBytes})
      if (values[whole] && *values[whole] != std::floor(*values[whole])) {
        module.emitError() << "machine " << kKeys[whole] << " = " << *values[whole]
                           << " is not a whole number";
        return signalPassFailure();
      }
    MachineAttr attr = MachineAttr::getChecked(
        [&] { return module.emitError(); }, module.getContext(),
        static_cast<int64_t>(*values[Procs]), static_cast<int64_t>(*values[Mem]),
        llvm::APFloat(*values[NetBw]), llvm::APFloat(*values[DiskBw]),
        static_cast<int64_t>(values[ElemBytes].value_or(8)),
        llvm::APFloat(values[BcastFactor].value_or(1.0)),
        llvm::APFloat(values[ReduceFactor].value_or(1.0)),
        llvm::APFloat(values[FlopRate].value_or(MachineAttr::getDefaultFlopRate())),
        llvm::APFloat(values[Latency].value_or(kDefaultLatency)), volumesValue);
    if (!attr)
      return signalPassFailure();
    module->setAttr(TCDialect::getMachineAttrName(), attr);
  }

  /// The values of `volumes`, for messages.
  static std::string volumesChoices() {
    return (stringifyVolumesKind(VolumesKind::Paper) + " or " +
            stringifyVolumesKind(VolumesKind::Runtime))
        .str();
  }

  /// Fills the measured quantities nothing else gave from the calibrated
  /// default file, then the bandwidths still missing with the documented
  /// defaults, said in one warning.
  LogicalResult fillMeasured(std::optional<double> (&values)[Count]) {
    const Field measured[] = {NetBw, DiskBw, FlopRate, Latency};
    if (!defaultMachineFile.empty() &&
        llvm::any_of(measured, [&](Field f) { return !values[f]; })) {
      std::optional<double> calibrated[Count];
      VolumesKind ignored;
      if (failed(readMachineFile(defaultMachineFile, calibrated, ignored)))
        return failure();
      for (Field f : measured)
        if (!values[f])
          values[f] = calibrated[f];
    }
    std::string filled;
    for (auto [field, value, text] : {std::tuple{NetBw, kDefaultNetBw, "1GB/s"},
                                      std::tuple{DiskBw, kDefaultDiskBw, "200MB/s"}})
      if (!values[field]) {
        values[field] = value;
        filled += (filled.empty() ? "" : ", ") + std::string(kKeys[field]) + " = " + text;
      }
    if (!filled.empty())
      getOperation().emitWarning()
          << "no measured bandwidths; planning with " << filled
          << " (run tc-calibrate to measure this machine)";
    return success();
  }

  LogicalResult readMachineFile(StringRef path, std::optional<double> (&values)[Count],
                                VolumesKind &volumesValue) {
    ModuleOp module = getOperation();
    auto fail = [&](const Twine &why) -> LogicalResult {
      return module.emitError() << "machine file '" << path << "': " << why;
    };
    FailureOr<llvm::json::Object> object = readMachineJson(module, path);
    if (failed(object))
      return failure();
    for (const auto &[key, value] : *object) {
      // Measured costs for operator trees, read by tc-fuse-distribute.
      if (key == "mcost" || key == "io_latency" || key == "call_overhead")
        continue;
      if (key == "volumes") {
        std::optional<llvm::StringRef> text = value.getAsString();
        std::optional<VolumesKind> v = text ? symbolizeVolumesKind(*text) : std::nullopt;
        if (!v)
          return fail("'volumes' must be " + volumesChoices());
        volumesValue = *v;
        continue;
      }
      const auto *it = llvm::find(kKeys, StringRef(key));
      if (it == std::end(kKeys))
        return fail("unknown key '" + key.str() + "'; expected one of " +
                    llvm::join(ArrayRef<StringLiteral>(kKeys), ", ") +
                    ", volumes (and io_latency, call_overhead, mcost for "
                    "tc-fuse-distribute)");
      Field field = static_cast<Field>(it - std::begin(kKeys));
      std::optional<double> v;
      if (std::optional<double> number = value.getAsNumber())
        v = *number;
      else if (std::optional<llvm::StringRef> text = value.getAsString())
        v = parseField(field, text->str());
      if (!v)
        return fail("'" + key.str() + "' must be a number or a string such as \"64MB\" "
                    "or \"200MB/s\"");
      values[field] = v;
    }
    return success();
  }

  LogicalResult readOptions(std::optional<double> (&values)[Count]) {
    auto text = [&](Field field, const std::string &option, const char *name) -> LogicalResult {
      if (option.empty())
        return success();
      values[field] = parseField(field, option);
      if (values[field])
        return success();
      return getOperation().emitError()
             << "option " << name << "=" << option
             << " is not a size or rate (plain bytes, or units KB MB GB KiB MiB GiB, "
                "rates ending in /s)";
    };
    if (procs > 0)
      values[Procs] = static_cast<double>(procs);
    if (elemBytes > 0)
      values[ElemBytes] = static_cast<double>(elemBytes);
    if (bcastFactor > 0)
      values[BcastFactor] = bcastFactor;
    if (reduceFactor > 0)
      values[ReduceFactor] = reduceFactor;
    if (flopRate > 0)
      values[FlopRate] = flopRate;
    if (latency >= 0)
      values[Latency] = latency;
    else if (latency != -1) // -1: not given (the option's default)
      return getOperation().emitError()
             << "option latency=" << latency << " is negative; give seconds >= 0 (0: the "
             << "papers' model, bytes only)";
    return success(succeeded(text(Mem, mem, "mem")) && succeeded(text(NetBw, netBw, "net-bw")) &&
                   succeeded(text(DiskBw, diskBw, "disk-bw")));
  }
};

} // namespace
