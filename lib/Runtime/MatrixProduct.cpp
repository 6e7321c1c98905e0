//===- MatrixProduct.cpp - one core's matrix product: BLAS or a small kernel -===//
#include "MatrixProduct.h"

#include <cblas.h>
#include <libxsmm.h>

#include <type_traits>
#include <vector>

namespace tc_rt {
namespace {

/// `f64` for double, `f32` for float.
template <typename T, typename F64, typename F32> constexpr auto byType(F64 f64, F32 f32) {
  if constexpr (std::is_same_v<T, double>)
    return f64;
  else
    return f32;
}

/// The BLAS and libxsmm routines of one element type.
template <typename T> struct Routines {
  static constexpr auto gemm = byType<T>(cblas_dgemm, cblas_sgemm);
  static constexpr auto gemv = byType<T>(cblas_dgemv, cblas_sgemv);
  static constexpr auto dot = byType<T>(cblas_ddot, cblas_sdot);
  /// A kernel of C = A B + beta C (libxsmm's kernels take alpha = 1 only).
  static auto dispatch(libxsmm_blasint m, libxsmm_blasint n, libxsmm_blasint k,
                       const libxsmm_blasint *lda, const libxsmm_blasint *ldb,
                       const libxsmm_blasint *ldc, const T *beta, const int *flags) {
    const T one = 1;
    if constexpr (std::is_same_v<T, double>)
      return libxsmm_dmmdispatch(m, n, k, lda, ldb, ldc, &one, beta, flags, nullptr);
    else
      return libxsmm_smmdispatch(m, n, k, lda, ldb, ldc, &one, beta, flags, nullptr);
  }
};

CBLAS_TRANSPOSE flag(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

/// Strides of a row and of a column of a view.
template <typename T> int64_t rowStride(const Mat<T> &x) { return x.trans ? x.ld : 1; }
template <typename T> int64_t colStride(const Mat<T> &x) { return x.trans ? 1 : x.ld; }

/// A small product on a libxsmm kernel; false (nothing done) when none
/// fits. libxsmm is column-major: row-major C = A B is its C' = B' A', with
/// B' as stored when B is not transposed (its kernels cannot transpose their
/// first operand) and A' transposed or not. Its kernels take alpha = 1 only:
/// another alpha runs into a scratch that is then added, scaled.
template <typename T>
bool smallProduct(Mat<T> c, Mat<T> a, Mat<T> b, int64_t M, int64_t N, int64_t K, T alpha, T beta) {
  if (M * N * K > kSmallProductVolume || b.trans || c.trans || (beta != T(0) && beta != T(1)))
    return false;
  using R = Routines<T>;
  const int flags = a.trans ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  const libxsmm_blasint lda = b.ld, ldb = a.ld, tight = N;
  if (alpha == T(1)) {
    const libxsmm_blasint ldc = c.ld;
    if (auto kernel = R::dispatch(N, M, K, &lda, &ldb, &ldc, &beta, &flags)) {
      kernel(b.data, a.data, c.data);
      return true;
    }
    return false;
  }
  const T zero = 0;
  auto kernel = R::dispatch(N, M, K, &lda, &ldb, &tight, &zero, &flags);
  if (!kernel)
    return false;
  thread_local std::vector<T> scratch;
  scratch.resize(static_cast<size_t>(M * N));
  kernel(b.data, a.data, scratch.data());
  for (int64_t m = 0; m < M; ++m) {
    T *row = c.data + m * c.ld;
    const T *from = scratch.data() + m * N;
    if (beta == T(0))
      for (int64_t n = 0; n < N; ++n)
        row[n] = alpha * from[n];
    else
      for (int64_t n = 0; n < N; ++n)
        row[n] += alpha * from[n];
  }
  return true;
}

} // namespace

template <typename T>
void matrixProduct(Mat<T> c, Mat<T> a, Mat<T> b, int64_t M, int64_t N, int64_t K, T alpha, T beta) {
  using R = Routines<T>;
  // One row or one column of C: OpenBLAS 0.3.21's gemm packs its operands
  // anyway and runs these shapes 3-20x slower than gemv or dot (a CCSD
  // energy is a 1 x 1 x K product).
  if (K > 0 && M == 1 && N == 1) {
    const T d = R::dot(K, a.data, rowStride(a), b.data, colStride(b));
    c.data[0] = beta == T(0) ? alpha * d : alpha * d + beta * c.data[0];
    return;
  }
  if (K > 0 && M == 1) // C's row = A's row times B
    return R::gemv(CblasRowMajor, b.trans ? CblasNoTrans : CblasTrans, b.trans ? N : K,
                   b.trans ? K : N, alpha, b.data, b.ld, a.data, rowStride(a), beta, c.data,
                   rowStride(c));
  if (K > 0 && N == 1) // C's column = A times B's column
    return R::gemv(CblasRowMajor, a.trans ? CblasTrans : CblasNoTrans, a.trans ? K : M,
                   a.trans ? M : K, alpha, a.data, a.ld, b.data, colStride(b), beta, c.data,
                   colStride(c));
  if (K > 0 && smallProduct(c, a, b, M, N, K, alpha, beta))
    return;
  R::gemm(CblasRowMajor, flag(a.trans), flag(b.trans), M, N, K, alpha, a.data, a.ld, b.data, b.ld,
          beta, c.data, c.ld);
}

template void matrixProduct<double>(Mat<double>, Mat<double>, Mat<double>, int64_t, int64_t,
                                    int64_t, double, double);
template void matrixProduct<float>(Mat<float>, Mat<float>, Mat<float>, int64_t, int64_t, int64_t,
                                   float, float);

void startSmallKernels() {
  libxsmm_init();
  // One product per kind the kernels run: generating the code is the rest of
  // the start-up.
  for (double alpha : {1.0, 0.5}) {
    std::vector<double> a(64, 1), b(64, 1), c(64, 0);
    matrixProduct(Mat<double>{c.data(), false, 8}, Mat<double>{a.data(), false, 8},
                  Mat<double>{b.data(), false, 8}, 8, 8, 8, alpha, 1.0);
  }
}

std::string smallKernelTarget() { return libxsmm_get_target_arch(); }

} // namespace tc_rt
