//===- MatrixProduct.h - one core's matrix product: BLAS or a small kernel -===//
//
// Every local product of tc's kernels (TileContract.cpp) ends in one call
// here, on row-major matrix views. Which routine runs depends on the shape:
// a product with one row or one column of C is a matrix-vector (or dot)
// product; a small one (M N K up to a million) a just-in-time kernel of
// libxsmm; the rest OpenBLAS's gemm (docs/Derivations.md D55).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_MATRIXPRODUCT_H
#define TC_LIB_RUNTIME_MATRIXPRODUCT_H

#include <cstdint>
#include <string>

namespace tc_rt {

/// A row-major matrix view: element (r, c) is data[trans ? c*ld + r : r*ld + c].
template <typename T> struct Mat {
  T *data;
  bool trans;
  int64_t ld;
  Mat t() const { return {data, !trans, ld}; }
  /// The view from element (r, c) on.
  Mat at(int64_t r, int64_t c) const {
    return {data + (trans ? c * ld + r : r * ld + c), trans, ld};
  }
};

/// C(M x N) = alpha * A(M x K) * B(K x N) + beta * C. With beta = 0, C is
/// written without being read.
template <typename T>
void matrixProduct(Mat<T> c, Mat<T> a, Mat<T> b, int64_t M, int64_t N, int64_t K, T alpha, T beta);

extern template void matrixProduct<double>(Mat<double>, Mat<double>, Mat<double>, int64_t, int64_t,
                                           int64_t, double, double);
extern template void matrixProduct<float>(Mat<float>, Mat<float>, Mat<float>, int64_t, int64_t,
                                          int64_t, float, float);

/// The products (M N K at most this) that run on libxsmm's kernels: on the
/// machines measured they beat OpenBLAS's gemm up to 100^3 and lose beyond
/// (bench/README.md).
constexpr int64_t kSmallProductVolume = 1000000;

/// Starts libxsmm (its CPU check and kernel registry, some milliseconds
/// once), so that the first small product does not pay for it.
void startSmallKernels();

/// The instruction set libxsmm generates its kernels for on this CPU (e.g.
/// "hsw", "skx"), for reports.
std::string smallKernelTarget();

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_MATRIXPRODUCT_H
