//===- StridedCopy.h - copies between strided layouts -----------*- C++ -*-===//
#ifndef TC_LIB_RUNTIME_STRIDEDCOPY_H
#define TC_LIB_RUNTIME_STRIDEDCOPY_H

#include <cstdint>
#include <vector>

namespace tc::rt {

/// dst[i] = src[i] over the index box `ext`, both addressed by per-dimension
/// strides (in elements). Permutations read and write whole cache lines.
void copyStrided(double *dst, const std::vector<int64_t> &dstStride, const double *src,
                 const std::vector<int64_t> &srcStride, const std::vector<int64_t> &ext);

/// Row-major strides of `shape`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_STRIDEDCOPY_H
