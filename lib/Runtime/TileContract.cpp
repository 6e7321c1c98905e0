//===- TileContract.cpp - local tile contraction: permutation + dgemm -----===//
//
// C(I,J) += A(I,K) * B(K,J) on sub-tiles of three row-major buffers of f64
// (dgemm) or f32 (sgemm), with the
// index groups of Gao et al. eq. 2.2: I = labels of A and C, J = of B and C,
// K = of A and B. An operand whose sub-tile is its whole buffer and whose labels
// are already grouped ([I,K] or [K,I]; [K,J] or [J,K]; [I,J] or [J,I]) goes to
// OpenBLAS as it is, transposed through the BLAS flags, and so does any
// sub-tile of a matrix (through the leading dimension); any other is packed
// into the grouped order first (and C unpacked after).
//
// The other label roles (docs/Derivations.md D30): labels in A, B and C
// (batch, L) make one product per batch value on operands packed as [L,I,K],
// [L,K,J], [L,I,J]; a label in one input only is summed out of that input
// while it is packed (one pass over the tile; single contractions sum such
// labels as the input loads instead, Hdf5IO.cpp). Products too small for BLAS to
// pay off (an element-wise product has M = N = K = 1) run as plain loops.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "StridedCopy.h"

#include <cblas.h>

#include <algorithm>

namespace tc::rt {
namespace {

template <typename T> struct Operand {
  T *data;
  Shape shape, labels;
  const int64_t *offsets;
  /// Per dimension, the sub-tile takes every steps[d]-th element (a fused
  /// loop's virtual blocks in a block it does not slice, Cociorva et al.
  /// 3.2(iii)); 1: contiguous.
  Shape steps;
  bool contiguous() const {
    return std::all_of(steps.begin(), steps.end(), [](int64_t s) { return s == 1; });
  }
};

/// A row-major matrix view: element (r, c) is data[trans ? c*ld + r : r*ld + c].
template <typename T> struct Mat {
  T *data;
  bool trans;
  int64_t ld;
  Mat t() const { return {data, !trans, ld}; }
};

template <typename T> bool isWhole(const Operand<T> &x, const Shape &labelExtent) {
  if (!x.contiguous())
    return false;
  for (size_t i = 0; i < x.shape.size(); ++i)
    if (x.offsets[i] != 0 || x.shape[i] != labelExtent[x.labels[i]])
      return false;
  return true;
}

Shape concat(const Shape &a, const Shape &b) {
  Shape r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

int64_t volume(const Shape &labels, const Shape &labelExtent) {
  int64_t v = 1;
  for (int64_t l : labels)
    v *= labelExtent[l];
  return v;
}

/// Copies the sub-tile of `x` into (or, unpacking, from) a contiguous array whose
/// dimensions are the labels `order`.
template <typename T>
void permuteCopy(const Operand<T> &x, const Shape &order, const Shape &labelExtent, T *packed,
                 bool pack) {
  const size_t d = order.size();
  Shape stride = rowMajorStrides(x.shape);
  int64_t base = 0;
  for (size_t i = 0; i < x.shape.size(); ++i)
    base += x.offsets[i] * stride[i];
  Shape tileStride(d), ext(d);
  for (size_t i = 0; i < d; ++i) {
    size_t src = std::find(x.labels.begin(), x.labels.end(), order[i]) - x.labels.begin();
    tileStride[i] = stride[src] * x.steps[src];
    ext[i] = labelExtent[order[i]];
  }
  Shape packedStride = rowMajorStrides(ext);
  if (pack)
    copyStrided(packed, packedStride, x.data + base, tileStride, ext);
  else
    copyStrided(x.data + base, tileStride, packed, packedStride, ext);
}

/// The operand as a (rows x cols) matrix over the label groups `rows`, `cols`,
/// packing into `scratch` when its layout does not allow a direct view.
template <typename T>
Mat<T> asMatrix(const Operand<T> &x, const Shape &rows, const Shape &cols,
                const Shape &labelExtent, std::vector<T> &scratch) {
  int64_t nr = volume(rows, labelExtent), nc = volume(cols, labelExtent);
  if (isWhole(x, labelExtent)) {
    if (x.labels == concat(rows, cols))
      return {x.data, false, nc};
    if (x.labels == concat(cols, rows))
      return {x.data, true, nr};
  }
  // A sub-tile of a matrix is a matrix with the buffer's row stride (a round
  // of a block used in place).
  if (x.shape.size() == 2 && rows.size() == 1 && cols.size() == 1 && x.contiguous()) {
    T *corner = x.data + x.offsets[0] * x.shape[1] + x.offsets[1];
    if (x.labels == concat(rows, cols))
      return {corner, false, x.shape[1]};
    if (x.labels == concat(cols, rows))
      return {corner, true, x.shape[1]};
  }
  scratch.resize(nr * nc);
  permuteCopy(x, concat(rows, cols), labelExtent, scratch.data(), true);
  return {scratch.data(), false, nc};
}

/// Packs the sub-tile of `x` as the labels `keep` (row-major), summed over the
/// labels `summed` (those of x's labels not in `keep`).
template <typename T>
void packSummed(const Operand<T> &x, const Shape &keep, const Shape &summed,
                const Shape &labelExtent, std::vector<T> &out) {
  const int64_t n = volume(keep, labelExtent), s = volume(summed, labelExtent);
  out.resize(n);
  if (s == 1) {
    permuteCopy(x, keep, labelExtent, out.data(), true);
    return;
  }
  static thread_local std::vector<T> full;
  full.resize(n * s);
  permuteCopy(x, concat(keep, summed), labelExtent, full.data(), true);
  for (int64_t i = 0; i < n; ++i) {
    T sum = 0;
    for (int64_t j = 0; j < s; ++j)
      sum += full[i * s + j];
    out[i] = sum;
  }
}

CBLAS_TRANSPOSE flag(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

/// C(M x N) += alpha * A(M x K) * B(K x N), C not transposed.
void gemm(Mat<double> c, Mat<double> a, Mat<double> b, int64_t M, int64_t N, int64_t K,
          double alpha) {
  cblas_dgemm(CblasRowMajor, flag(a.trans), flag(b.trans), M, N, K, alpha, a.data, a.ld, b.data,
              b.ld, 1.0, c.data, c.ld);
}
void gemm(Mat<float> c, Mat<float> a, Mat<float> b, int64_t M, int64_t N, int64_t K,
          float alpha) {
  cblas_sgemm(CblasRowMajor, flag(a.trans), flag(b.trans), M, N, K, alpha, a.data, a.ld, b.data,
              b.ld, 1.0f, c.data, c.ld);
}

/// Below this many multiply-adds a product runs as plain loops: a BLAS call
/// costs more than the arithmetic (an element-wise product is one).
constexpr int64_t kSmallProduct = 512;

/// The general case: batch labels L, and labels summed in one input (SA, SB).
/// Every operand is packed ([L,I,K], [L,K,J], [L,I,J]), each batch value one
/// product, and C unpacked.
template <typename T>
void contractBatched(const Operand<T> ops[3], const Shape &L, const Shape &I, const Shape &J,
                     const Shape &K, const Shape &sumA, const Shape &sumB,
                     const Shape &labelExtent, T alpha) {
  static thread_local std::vector<T> pa, pb, pc;
  const Shape orderA = concat(concat(L, I), K), orderB = concat(concat(L, K), J),
              orderC = concat(concat(L, I), J);
  packSummed(ops[0], orderA, sumA, labelExtent, pa);
  packSummed(ops[1], orderB, sumB, labelExtent, pb);
  pc.resize(volume(orderC, labelExtent));
  permuteCopy(ops[2], orderC, labelExtent, pc.data(), true);
  const int64_t nl = volume(L, labelExtent), M = volume(I, labelExtent),
                N = volume(J, labelExtent), Kn = volume(K, labelExtent);
  for (int64_t l = 0; l < nl; ++l) {
    T *a = pa.data() + l * M * Kn, *b = pb.data() + l * Kn * N;
    T *c = pc.data() + l * M * N;
    if (M * N * Kn > kSmallProduct) {
      gemm(Mat<T>{c, false, N}, Mat<T>{a, false, Kn}, Mat<T>{b, false, N}, M, N, Kn, alpha);
      continue;
    }
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < Kn; ++k) {
        const T aik = alpha * a[i * Kn + k];
        for (int64_t j = 0; j < N; ++j)
          c[i * N + j] += aik * b[k * N + j];
      }
  }
  permuteCopy(ops[2], orderC, labelExtent, pc.data(), false);
}

template <typename T>
void tileContract(const TileContractDescView &view, T *a, T *b, T *c, const int64_t *offsets) {
  T *buffers[3] = {a, b, c};
  Operand<T> ops[3];
  for (int x : {TC_RT_OPERAND_A, TC_RT_OPERAND_B, TC_RT_OPERAND_C})
    ops[x] = {buffers[x], view.shape(x), view.labels(x), offsets + view.offsetIndex(x),
              view.steps(x)};
  Shape labelExtent = view.labelExtents();
  const T alpha = static_cast<T>(view.alpha());
  auto has = [](const Operand<T> &x, int64_t l) {
    return std::find(x.labels.begin(), x.labels.end(), l) != x.labels.end();
  };
  Shape L, I, J, K, sumA, sumB;
  for (int64_t l : ops[2].labels)
    (has(ops[0], l) && has(ops[1], l) ? L : has(ops[0], l) ? I : J).push_back(l);
  for (int64_t l : ops[0].labels)
    if (!has(ops[2], l))
      (has(ops[1], l) ? K : sumA).push_back(l);
  for (int64_t l : ops[1].labels)
    if (!has(ops[0], l) && !has(ops[2], l))
      sumB.push_back(l);
  const int64_t M = volume(I, labelExtent), N = volume(J, labelExtent),
                Kn = volume(K, labelExtent), nl = volume(L, labelExtent);
  if (!L.empty() || !sumA.empty() || !sumB.empty()) {
    contractBatched(ops, L, I, J, K, sumA, sumB, labelExtent, alpha);
  } else {
    // Packing buffers live across calls: no allocation or page faults per tile.
    static thread_local std::vector<T> sa, sb, sc;
    Mat<T> ma = asMatrix(ops[0], I, K, labelExtent, sa);
    Mat<T> mb = asMatrix(ops[1], K, J, labelExtent, sb);
    Mat<T> mc = asMatrix(ops[2], I, J, labelExtent, sc);
    if (mc.trans) // C^T(J,I) += B^T(J,K) * A^T(K,I)
      gemm(mc.t(), mb.t(), ma.t(), N, M, Kn, alpha);
    else
      gemm(mc, ma, mb, M, N, Kn, alpha);
    if (mc.data == sc.data() && !sc.empty())
      permuteCopy(ops[2], concat(I, J), labelExtent, sc.data(), false);
  }
  // The sums of one-input labels are additions, not counted as flops.
  counters().flops += 2.0 * nl * M * N * Kn;
  reportProgress();
}

} // namespace
} // namespace tc::rt

extern "C" void tc_rt_tile_contract(const int64_t *desc, void *a, void *b, void *c,
                                    const int64_t *offsets) {
  tc::rt::TraceScope trace("tc_rt_tile_contract");
  using namespace tc::rt;
  TileContractDescView view(desc);
  withElement(view.elem(), [&](auto zero) {
    using T = decltype(zero);
    tileContract(view, static_cast<T *>(a), static_cast<T *>(b), static_cast<T *>(c), offsets);
  });
}
