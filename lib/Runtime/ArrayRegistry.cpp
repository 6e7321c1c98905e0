//===- ArrayRegistry.cpp - the arrays a program has created ---------------===//
//
// Every array tc_rt_array creates lives until the program ends (or its
// statement's arrays are freed): the registry owns them and closes their
// scratch files.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <memory>
#include <unistd.h>
#include <unordered_map>

namespace tc_rt {

namespace {

std::vector<DistArray *> &allArrays() {
  static std::vector<DistArray *> arrays;
  return arrays;
}

/// Released arrays by the descriptor they were created from: a loop's
/// statements create the same arrays in every iteration, and an array's
/// layout is a dozen vectors to allocate, copy and free (a CCSD iteration
/// at small bases creates two hundred).
std::unordered_map<const int64_t *, std::vector<std::unique_ptr<DistArray>>> &spareArrays() {
  static std::unordered_map<const int64_t *, std::vector<std::unique_ptr<DistArray>>> spares;
  return spares;
}

} // namespace

void registerArray(DistArray *array) { allArrays().push_back(array); }

void releaseArrays() {
  for (DistArray *a : allArrays()) {
    if (a->fd >= 0)
      ::close(a->fd); // unnamed since it was opened: closing frees it
    if (!a->spares) {
      delete a;
      continue;
    }
    a->memory.resize(0);
    a->external = nullptr;
    a->fd = -1;
    a->path.clear();
    a->sliceFull.clear();
    a->sliceShift.clear();
    a->coords.clear();
    a->keepOnceGathered = false;
    a->spares->emplace_back(a);
  }
  allArrays().clear();
}

std::vector<std::unique_ptr<DistArray>> &spareArraysOf(const int64_t *desc) {
  return spareArrays()[desc];
}

DistArray *reusedArray(std::vector<std::unique_ptr<DistArray>> &spares, int64_t layoutId) {
  if (spares.empty())
    return nullptr;
  std::unique_ptr<DistArray> a = std::move(spares.back());
  spares.pop_back();
  // Another descriptor at that address (a caller's that was freed).
  return a->layoutId == layoutId ? a.release() : nullptr;
}

} // namespace tc_rt
