//===- StridedCopy.h - copies between strided layouts -----------*- C++ -*-===//
#ifndef TC_LIB_RUNTIME_STRIDEDCOPY_H
#define TC_LIB_RUNTIME_STRIDEDCOPY_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tc_rt {

/// The index box of a strided copy with its dimensions of extent 1 dropped,
/// ordered by dst's strides (outermost first), and neighbours merged into one
/// dimension wherever both sides hold them contiguously one inside the
/// other: a copy between equal layouts becomes one run.
struct StridedBox {
  std::vector<int64_t> dstStride, srcStride, ext;
  bool empty = false;
  StridedBox(const std::vector<int64_t> &dstStrides, const std::vector<int64_t> &srcStrides,
             const std::vector<int64_t> &extents) {
    std::vector<int> order;
    for (int i = 0; i < static_cast<int>(extents.size()); ++i) {
      empty |= extents[i] <= 0;
      if (extents[i] > 1)
        order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return dstStrides[x] > dstStrides[y]; });
    for (int i : order) {
      if (!ext.empty() && dstStride.back() == dstStrides[i] * extents[i] &&
          srcStride.back() == srcStrides[i] * extents[i]) {
        ext.back() *= extents[i];
        dstStride.back() = dstStrides[i];
        srcStride.back() = srcStrides[i];
        continue;
      }
      dstStride.push_back(dstStrides[i]);
      srcStride.push_back(srcStrides[i]);
      ext.push_back(extents[i]);
    }
  }
};

/// f(dst[i], src[i]) for every index i of the box `ext`, both addressed by
/// per-dimension strides (in elements). Runs contiguous on both sides are
/// walked as one loop; otherwise the dimensions innermost in dst and in src
/// are walked in 32 x 32 blocks, so a permutation reads and writes whole
/// cache lines on both sides.
template <typename T, typename U, typename F>
void walkStrided(T *dst, const std::vector<int64_t> &dstStrides, U *src,
                 const std::vector<int64_t> &srcStrides, const std::vector<int64_t> &extents, F f) {
  const StridedBox box(dstStrides, srcStrides, extents);
  if (box.empty)
    return;
  const std::vector<int64_t> &dstStride = box.dstStride, &srcStride = box.srcStride, &ext = box.ext;
  const int d = static_cast<int>(ext.size());
  if (d == 0) { // one element
    f(*dst, *src);
    return;
  }
  int a = d - 1, b = 0; // innermost dimension of dst, of src
  for (int i = 1; i < d; ++i)
    if (srcStride[i] < srcStride[b])
      b = i;
  const bool runs = a == b && dstStride[a] == 1 && srcStride[a] == 1;
  const int64_t kBlock = 32;
  std::vector<int64_t> idx(d, 0);
  for (;;) {
    int64_t dOff = 0, sOff = 0;
    for (int i = 0; i < d; ++i)
      if (i != a && i != b) {
        dOff += idx[i] * dstStride[i];
        sOff += idx[i] * srcStride[i];
      }
    if (runs) {
      T *to = dst + dOff;
      U *from = src + sOff;
      for (int64_t j = 0; j < ext[a]; ++j)
        f(to[j], from[j]);
    } else if (a == b) {
      for (int64_t j = 0; j < ext[a]; ++j)
        f(dst[dOff + j * dstStride[a]], src[sOff + j * srcStride[a]]);
    } else {
      for (int64_t b0 = 0; b0 < ext[b]; b0 += kBlock)
        for (int64_t a0 = 0; a0 < ext[a]; a0 += kBlock) {
          int64_t b1 = std::min(ext[b], b0 + kBlock), a1 = std::min(ext[a], a0 + kBlock);
          for (int64_t jb = b0; jb < b1; ++jb)
            for (int64_t ja = a0; ja < a1; ++ja)
              f(dst[dOff + ja * dstStride[a] + jb * dstStride[b]],
                src[sOff + ja * srcStride[a] + jb * srcStride[b]]);
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

/// dst[i] = src[i] over the index box `ext` (walkStrided's addressing).
template <typename T>
void copyStrided(T *dst, const std::vector<int64_t> &dstStride, const T *src,
                 const std::vector<int64_t> &srcStride, const std::vector<int64_t> &ext) {
  walkStrided(dst, dstStride, src, srcStride, ext, [](T &to, const T &from) { to = from; });
}

/// dst[i] += s * src[i] over the index box `ext` (walkStrided's addressing).
template <typename T>
void addScaledStrided(T *dst, const std::vector<int64_t> &dstStride, const T *src,
                      const std::vector<int64_t> &srcStride, const std::vector<int64_t> &ext, T s) {
  walkStrided(dst, dstStride, src, srcStride, ext, [s](T &to, const T &from) { to += s * from; });
}

/// Row-major strides of `shape`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_STRIDEDCOPY_H
