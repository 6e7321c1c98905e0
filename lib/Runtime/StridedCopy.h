//===- StridedCopy.h - copies between strided layouts -----------*- C++ -*-===//
#ifndef TC_LIB_RUNTIME_STRIDEDCOPY_H
#define TC_LIB_RUNTIME_STRIDEDCOPY_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tc_rt {

/// A list of at most `capacity` entries (one per dimension of a tensor), on
/// the stack up to 16: block-sparse programs walk thousands of blocks of a
/// few elements per stage, and a heap allocation per list was most of a
/// walk.
template <typename T> class DimList {
public:
  explicit DimList(size_t capacity) {
    if (capacity > kInline) {
      heap.resize(capacity);
      items = heap.data();
    }
  }
  DimList(const DimList &) = delete;
  DimList &operator=(const DimList &) = delete;
  void push_back(T v) { items[count++] = v; }
  T &back() { return items[count - 1]; }
  T &operator[](int i) { return items[i]; }
  const T &operator[](int i) const { return items[i]; }
  int size() const { return count; }
  bool empty() const { return count == 0; }
  T *begin() { return items; }
  T *end() { return items + count; }
  const T *begin() const { return items; }
  const T *end() const { return items + count; }

private:
  static constexpr size_t kInline = 16;
  T local[kInline];
  std::vector<T> heap;
  T *items = local;
  int count = 0;
};

/// The index box of a strided copy with its dimensions of extent 1 dropped,
/// ordered by dst's strides (outermost first), and neighbours merged into one
/// dimension wherever both sides hold them contiguously one inside the
/// other: a copy between equal layouts becomes one run.
struct StridedBox {
  DimList<int64_t> dstStride, srcStride, ext;
  bool empty = false;
  StridedBox(const std::vector<int64_t> &dstStrides, const std::vector<int64_t> &srcStrides,
             const std::vector<int64_t> &extents)
      : dstStride(extents.size()), srcStride(extents.size()), ext(extents.size()) {
    DimList<int> order(extents.size());
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
/// per-dimension strides (in elements). Two dimensions are walked by the inner
/// loops, the others by an odometer that carries its offsets along. When dst
/// and src are innermost along the same dimension, the inner loops are it and
/// dst's next one (runs contiguous on both sides, however short, as a tight
/// loop: a block of a coupled-cluster tensor holds runs of a few elements);
/// otherwise they are dst's and src's innermost, walked in 32 x 32 blocks, so
/// a permutation reads and writes whole cache lines on both sides.
template <typename T, typename U, typename F>
void walkStrided(T *dst, const std::vector<int64_t> &dstStrides, U *src,
                 const std::vector<int64_t> &srcStrides, const std::vector<int64_t> &extents, F f) {
  const StridedBox box(dstStrides, srcStrides, extents);
  if (box.empty)
    return;
  const DimList<int64_t> &dstStride = box.dstStride, &srcStride = box.srcStride, &ext = box.ext;
  const int d = ext.size();
  if (d == 0) { // one element
    f(*dst, *src);
    return;
  }
  int a = d - 1, b = 0; // innermost dimension of dst, of src
  for (int i = 1; i < d; ++i)
    if (srcStride[i] < srcStride[b])
      b = i;
  const bool sameInner = a == b;
  if (sameInner)
    b = d - 2; // -1: a single dimension
  const int64_t da = dstStride[a], sa = srcStride[a], na = ext[a];
  const int64_t db = b >= 0 ? dstStride[b] : 0, sb = b >= 0 ? srcStride[b] : 0,
                nb = b >= 0 ? ext[b] : 1;
  const bool unit = sameInner && da == 1 && sa == 1;
  const int64_t kBlock = 32;
  auto inner = [&](T *to, U *from) {
    if (unit) {
      for (int64_t jb = 0; jb < nb; ++jb) {
        T *t = to + jb * db;
        U *s = from + jb * sb;
        for (int64_t ja = 0; ja < na; ++ja)
          f(t[ja], s[ja]);
      }
    } else if (sameInner) {
      for (int64_t jb = 0; jb < nb; ++jb)
        for (int64_t ja = 0; ja < na; ++ja)
          f(to[jb * db + ja * da], from[jb * sb + ja * sa]);
    } else {
      for (int64_t b0 = 0; b0 < nb; b0 += kBlock)
        for (int64_t a0 = 0; a0 < na; a0 += kBlock) {
          const int64_t b1 = std::min(nb, b0 + kBlock), a1 = std::min(na, a0 + kBlock);
          for (int64_t jb = b0; jb < b1; ++jb)
            for (int64_t ja = a0; ja < a1; ++ja)
              f(to[ja * da + jb * db], from[ja * sa + jb * sb]);
        }
    }
  };
  // The odometer over the other dimensions, innermost last.
  DimList<int> outer(d);
  DimList<int64_t> idx(d);
  for (int i = 0; i < d; ++i)
    if (i != a && i != b) {
      outer.push_back(i);
      idx.push_back(0);
    }
  int64_t dOff = 0, sOff = 0;
  for (;;) {
    inner(dst + dOff, src + sOff);
    int k = outer.size() - 1;
    for (; k >= 0; --k) {
      const int i = outer[k];
      dOff += dstStride[i], sOff += srcStride[i];
      if (++idx[k] < ext[i])
        break;
      dOff -= ext[i] * dstStride[i], sOff -= ext[i] * srcStride[i];
      idx[k] = 0;
    }
    if (k < 0)
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
