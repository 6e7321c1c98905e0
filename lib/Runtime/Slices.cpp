//===- Slices.cpp - the calls of fused programs ----------------------------===//
//
// A fused operator tree (Cociorva et al. Fig. 2(c), tc-lower-fused) keeps
// reduced arrays: slices of its tensors at the current values of the loops they
// are fused on. These calls read an input's slice, write the result's slice,
// clear an accumulator and combine partial sums over the grid dimensions of the
// distributed summed indices; redistribution and the local products are the
// calls single contractions use.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <algorithm>
#include <cstring>
#include <map>

using namespace tc_rt;

namespace {

/// Marks `a` as the slice at `shift` of a tensor with the extents of `desc`.
void setSlice(DistArray &a, const int64_t *desc, const int64_t *shift) {
  SliceDescView slice(desc);
  int rank = static_cast<int>(slice.rank());
  if (rank != a.rank())
    fail("slice of '" + a.name + "' has " + std::to_string(rank) + " dimensions, the array " +
         std::to_string(a.rank()));
  a.sliceFull = slice.shape();
  a.sliceShift.assign(shift, shift + rank);
  for (int d = 0; d < rank; ++d)
    if (a.sliceFull[d] % a.extents[d] != 0)
      fail("slice of '" + a.name + "': dimension " + std::to_string(d) + " of extent " +
           std::to_string(a.extents[d]) + " does not divide the tensor's " +
           std::to_string(a.sliceFull[d]));
}

/// The communicator of the processes that differ only along the grid
/// dimensions in `mask` (one per mask and grid, kept for the run).
MPI_Comm subGrid(const DistArray &a, int64_t mask) {
  static std::map<std::pair<Shape, int64_t>, MPI_Comm> comms;
  auto key = std::make_pair(a.grid, mask);
  auto it = comms.find(key);
  if (it != comms.end())
    return it->second;
  std::vector<int> remain(a.grid.size());
  for (size_t g = 0; g < a.grid.size(); ++g)
    remain[g] = (mask >> g) & 1;
  MPI_Comm sub;
  MPI_Cart_sub(gridComm(a.grid), remain.data(), &sub);
  return comms[key] = sub;
}

void requireInMemory(const DistArray &a, const char *call) {
  if (a.onDisk)
    fail(std::string(call) + " needs '" + a.name + "' in memory");
}

} // namespace

extern "C" void tc_rt_load_slice(void *array, const int64_t *desc, const int64_t *shift) {
  TraceScope trace("tc_rt_load_slice");
  DistArray &a = *static_cast<DistArray *>(array);
  setSlice(a, desc, shift);
  loadSlice(a);
}

extern "C" void tc_rt_store_slice(void *array, const int64_t *desc, const int64_t *shift) {
  TraceScope trace("tc_rt_store_slice");
  DistArray &a = *static_cast<DistArray *>(array);
  setSlice(a, desc, shift);
  storeSlice(a);
}

extern "C" void tc_rt_finish_store(void *array) {
  TraceScope trace("tc_rt_finish_store");
  finishStore(*static_cast<DistArray *>(array));
}

extern "C" void tc_rt_zero_array(void *array) {
  TraceScope trace("tc_rt_zero_array");
  DistArray &a = *static_cast<DistArray *>(array);
  requireInMemory(a, "tc_rt_zero_array");
  std::memset(a.mem<void>(), 0, product(a.storeShape) * a.elemBytes());
}

extern "C" void tc_rt_combine_partial(void *array, int64_t gridDims) {
  TraceScope trace("tc_rt_combine_partial");
  DistArray &a = *static_cast<DistArray *>(array);
  requireInMemory(a, "tc_rt_combine_partial");
  if (a.idle) // past the grid: no partial sums
    return;
  int g = a.splitGridDim();
  if (g >= 0 && ((gridDims >> g) & 1) && a.grid[g] > 1)
    fail("tc_rt_combine_partial: array '" + a.name + "' holds different sub-blocks along grid "
         "dimension " + std::to_string(g) + " (use tc_rt_reduce_scatter_tile)");
  withElement(a.elem, [&](auto zero) {
    allreduceOver(a.mem<decltype(zero)>(), product(a.storeShape), subGrid(a, gridDims));
  });
}
