//===- StridedCopy.cpp - copies between strided layouts --------------------===//
#include "StridedCopy.h"

#include <algorithm>

namespace tc::rt {

using Shape = std::vector<int64_t>;

// The dimensions innermost in dst and in src are walked in 32 x 32 blocks, so a
// permutation reads and writes whole cache lines on both sides.
void copyStrided(double *dst, const Shape &dstStride, const double *src,
                 const Shape &srcStride, const Shape &ext) {
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
  Shape idx(d, 0);
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

Shape rowMajorStrides(const Shape &shape) {
  Shape s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

} // namespace tc::rt
