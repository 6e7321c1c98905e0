//===- TestArrays.h - arrays for runtime unit tests -------------*- C++ -*-===//
#ifndef TC_UNITTESTS_RUNTIME_TESTARRAYS_H
#define TC_UNITTESTS_RUNTIME_TESTARRAYS_H

#include "Context.h"
#include "TC/Runtime/Runtime.h"

#include <vector>

namespace tc::rt::test {

/// A zero-initialized array on the 1-d grid [P]: dimension d split along it when
/// split[d], else whole; in memory or in a scratch file under /tmp.
inline void *makeArray(const char *name, std::vector<int64_t> extents,
                       std::vector<bool> split, tc_rt_kind kind, bool onDisk) {
  ctx().options.scratch = "/tmp";
  std::vector<int64_t> desc = {static_cast<int64_t>(extents.size()), kind, TC_RT_INIT_ZERO,
                               onDisk ? 1 : 0, 1, ctx().size};
  for (size_t d = 0; d < extents.size(); ++d)
    desc.insert(desc.end(), {extents[d], split[d] ? 0 : -1, -1, static_cast<int64_t>(d)});
  return tc_rt_array(desc.data(), name, nullptr);
}

/// Counters of the compute phase (what tile ops charge).
inline Counters &compute() { return ctx().counters[Compute]; }

} // namespace tc::rt::test

#endif // TC_UNITTESTS_RUNTIME_TESTARRAYS_H
