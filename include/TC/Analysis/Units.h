//===- Units.h - sizes and rates with units ---------------------*- C++ -*-===//
//
// Parsing of machine-model quantities as users write them on command lines, in
// machine files and in the #tc.machine attribute: "64MB", "2GiB", "200MB/s", "1e9".
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_UNITS_H
#define TC_ANALYSIS_UNITS_H

#include <optional>
#include <string>

namespace mlir::tc {

/// Parses a byte count: a non-negative number with an optional unit B, KB, MB, GB,
/// TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024). Case of the unit
/// matters ("mb" is rejected: millibits are not a memory size). Returns nullopt on
/// malformed input.
std::optional<double> parseByteSize(const std::string &text);

/// Parses a rate in bytes per second: a byte size as above, optionally followed by
/// "/s" (a plain number is already bytes/s).
std::optional<double> parseByteRate(const std::string &text);

/// "503.0 MB", "12.8 GB": a byte count in powers of 1000 with one decimal, as
/// the papers' tables print memory.
std::string formatBytes(double bytes);

} // namespace mlir::tc

#endif // TC_ANALYSIS_UNITS_H
