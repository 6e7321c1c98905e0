//===- StridedCopy.h - copies between strided layouts -----------*- C++ -*-===//
#ifndef TC_LIB_RUNTIME_STRIDEDCOPY_H
#define TC_LIB_RUNTIME_STRIDEDCOPY_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tc_rt {

/// dst[i] = src[i] over the index box `ext`, both addressed by per-dimension
/// strides (in elements). The dimensions innermost in dst and in src are
/// walked in 32 x 32 blocks, so a permutation reads and writes whole cache
/// lines on both sides.
template <typename T>
void copyStrided(T *dst, const std::vector<int64_t> &dstStride, const T *src,
                 const std::vector<int64_t> &srcStride, const std::vector<int64_t> &ext) {
  const int d = static_cast<int>(ext.size());
  if (d == 0) { // a scalar
    *dst = *src;
    return;
  }
  int a = 0, b = 0; // innermost dimension of dst, of src
  for (int i = 1; i < d; ++i) {
    if (dstStride[i] < dstStride[a])
      a = i;
    if (srcStride[i] < srcStride[b])
      b = i;
  }
  const int64_t kBlock = 32;
  std::vector<int64_t> idx(d, 0);
  for (;;) {
    int64_t dOff = 0, sOff = 0;
    for (int i = 0; i < d; ++i)
      if (i != a && i != b) {
        dOff += idx[i] * dstStride[i];
        sOff += idx[i] * srcStride[i];
      }
    if (a == b) {
      for (int64_t j = 0; j < ext[a]; ++j)
        dst[dOff + j * dstStride[a]] = src[sOff + j * srcStride[a]];
    } else {
      for (int64_t b0 = 0; b0 < ext[b]; b0 += kBlock)
        for (int64_t a0 = 0; a0 < ext[a]; a0 += kBlock) {
          int64_t b1 = std::min(ext[b], b0 + kBlock), a1 = std::min(ext[a], a0 + kBlock);
          for (int64_t jb = b0; jb < b1; ++jb)
            for (int64_t ja = a0; ja < a1; ++ja)
              dst[dOff + ja * dstStride[a] + jb * dstStride[b]] =
                  src[sOff + ja * srcStride[a] + jb * srcStride[b]];
        }
    }
    int i = d - 1;
    for (; i >= 0; --i) {
      if (i == a || i == b)
        continue;
      if (++idx[i] < ext[i])
        break;
      idx[i] = 0;
    }
    if (i < 0)
      break;
  }
}


/// Row-major strides of `shape`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_STRIDEDCOPY_H
