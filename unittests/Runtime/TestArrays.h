//===- TestArrays.h - arrays for runtime unit tests -------------*- C++ -*-===//
#ifndef TC_UNITTESTS_RUNTIME_TESTARRAYS_H
#define TC_UNITTESTS_RUNTIME_TESTARRAYS_H

#include "Context.h"
#include "DistArray.h"
#include "TC/Runtime/Runtime.h"

#include <cstdio>
#include <string>
#include <vector>

namespace tc_rt::test {

/// A layout from per-dimension records {extent, gridDim, skewDim, fileDim
/// [, splitDim [, cyclic]]} (the descriptor's order), its summed dimensions as
/// {fileDim, extent} pairs.
inline tc_layout::ArrayLayout layoutOf(tc_rt_kind kind, Shape grid,
                                       const std::vector<std::vector<int64_t>> &dims,
                                       const std::vector<std::pair<int64_t, int64_t>> &summed = {},
                                       int64_t firstSlice = 0) {
  tc_layout::ArrayLayout l = tc_layout::ArrayLayout::whole(static_cast<Holding>(kind), {}, grid);
  for (const std::vector<int64_t> &d : dims) {
    l.extents.push_back(d[0]);
    l.gridDim.push_back(d[1]);
    l.skewDim.push_back(d[2]);
    l.fileDim.push_back(d[3]);
    l.splitDim.push_back(d.size() > 4 ? d[4] : -1);
    l.cyclic.push_back(d.size() > 5 ? d[5] : 0);
  }
  for (auto [fileDim, extent] : summed) {
    l.summedFileDim.push_back(fileDim);
    l.summedExtent.push_back(extent);
  }
  l.firstSlice = firstSlice;
  return l;
}

/// A zero-initialized array on the 1-d grid [P]: dimension d split along it when
/// split[d], else whole; in memory or in a scratch file under /tmp.
inline void *makeArray(const char *name, std::vector<int64_t> extents,
                       std::vector<bool> split, tc_rt_kind kind, bool onDisk) {
  ctx().options.scratch = "/tmp";
  Shape gridDims;
  for (bool s : split)
    gridDims.push_back(s ? 0 : -1);
  return tc_rt_array(
      arrayDescription(extents, {ctx().size}, gridDims, kind, TC_RT_INIT_ZERO, onDisk).data(),
      name, nullptr);
}

/// A distributed array over `grid`: dimension d split along grid dimension
/// gridDims[d] (-1: whole), its block split again into sub-blocks along grid
/// dimension splitDims[d] (-1: none); in memory or in a scratch file under /tmp.
inline void *makeGridArray(const char *name, std::vector<int64_t> extents,
                           std::vector<int64_t> grid, std::vector<int64_t> gridDims,
                           std::vector<int64_t> splitDims, tc_rt_init init, bool onDisk) {
  ctx().options.scratch = "/tmp";
  return tc_rt_array(arrayDescription(extents, grid, gridDims, TC_RT_DISTRIBUTED, init, onDisk,
                                      splitDims)
                         .data(),
                     name, nullptr);
}

/// Counters of the compute phase (what tile ops charge).
inline Counters &compute() { return ctx().counters[Compute]; }

/// Stores `array` (tc_rt_store, to ctx().options.output, which is in place when
/// this returns: the run's end publishes it) and returns the bytes the store
/// phase read on this process (its scratch file, when on disk).
inline double storeCountingReads(void *array) {
  double before = ctx().counters[Store].bytesRead;
  tc_rt_store(array);
  closeRunFiles();
  setPhase(Compute);
  return ctx().counters[Store].bytesRead - before;
}

/// Removes `file` once every process is done with it.
inline void removeWhenAllDone(const std::string &file) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (ctx().rank == 0)
    std::remove(file.c_str());
}

/// --random-inputs SEED for the scope: inputs take randomValue's values.
struct RandomInputs {
  Options saved = ctx().options;
  explicit RandomInputs(uint64_t seed) {
    ctx().options.randomInputs = true;
    ctx().options.seed = seed;
  }
  ~RandomInputs() { ctx().options = saved; }
};

} // namespace tc_rt::test

#endif // TC_UNITTESTS_RUNTIME_TESTARRAYS_H
