//===- Units.cpp - sizes and rates with units -----------------------------===//
#include "TC/Analysis/Units.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace mlir::tc {

std::optional<double> parseByteSize(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  const char *begin = text.c_str();
  char *end = nullptr;
  double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value) || value < 0)
    return std::nullopt;
  std::string unit(end);
  // Allow one space between number and unit ("64 MB").
  if (!unit.empty() && unit.front() == ' ')
    unit.erase(0, 1);
  static const std::pair<const char *, double> kUnits[] = {
      {"", 1.0},           {"B", 1.0},
      {"KB", 1e3},         {"MB", 1e6},
      {"GB", 1e9},         {"TB", 1e12},
      {"KiB", 1024.0},     {"MiB", 1048576.0},
      {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
  };
  for (const auto &[name, scale] : kUnits)
    if (unit == name)
      return value * scale;
  return std::nullopt;
}

std::optional<double> parseByteRate(const std::string &text) {
  const std::string suffix = "/s";
  if (text.size() > suffix.size() &&
      text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0)
    return parseByteSize(text.substr(0, text.size() - suffix.size()));
  return parseByteSize(text);
}

std::string formatBytes(double bytes) {
  const char *units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (u < 4 && bytes >= 1000) {
    bytes /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof(text), u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return text;
}

} // namespace mlir::tc
