//===- MappedInputs.h - input blocks mapped from their files ----*- C++ -*-===//
//
// A rank's block of a read-only input, used where the input file holds it
// instead of read into fresh memory (MappedInputs.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_MAPPEDINPUTS_H
#define TC_LIB_RUNTIME_MAPPEDINPUTS_H

#include "Runs.h"
#include "TC/Runtime/Descriptors.h"

#include <cstdint>
#include <string>

namespace tc_rt {

/// The block of the input `name` (--input) of `elem` elements whose dataset
/// has the extents `fileExtents`: its `bytes` from element `firstElement` on,
/// in the dataset's row-major order, mapped copy-on-write from the file, as a
/// buffer of the pool (BufferPool.h: adoptMapping). Null, mapping nothing,
/// unless the block is at least a pooled buffer's size (kPooledBytes), the
/// file stores the dataset as one contiguous range of native elements of
/// that shape and the name is a plain input of this run (not kept, not an
/// intermediate, not in the output file); the caller then reads the block as
/// before.
void *mapInputBlock(const std::string &name, tc_rt_elem elem, const Shape &fileExtents,
                    int64_t firstElement, int64_t bytes);

/// True, once, for a block mapInputBlock returned: the array whose storage it
/// is holds its values already (tc_rt_array then reads nothing). False for
/// any other buffer, a mapped block a kept input shares included.
bool takeMappedBlock(const void *storage);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_MAPPEDINPUTS_H
