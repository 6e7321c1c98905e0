//===- TileContractBench.cpp - tile contraction vs cblas_dgemm ------------===//
//
// Issue 4's goal: the runtime's local tile contraction (tc_rt_tile_contract:
// permutation where needed + OpenBLAS dgemm) reaches at least 90% of a bare
// cblas_dgemm on the same shapes for matmul-shaped tiles and 75% for permuted
// ones. Yardstick, in the same run: cblas_dgemm on the equivalent M x N x K.
// With --f32 the same cases run on f32 buffers (sgemm) against cblas_sgemm.
// Issue 33's yardstick beside it: the core's measured peak, a loop of
// independent FMAs on its widest vector unit (AVX-512 or AVX2), in the same
// precision. With --small, products of blocks a few to a hundred elements a
// side and with one row or column (lib/Runtime/MatrixProduct.cpp: libxsmm,
// gemv, dot) against cblas_dgemm on each shape. Single thread (as every rank
// runs). Usage: tc-tile-bench [repetitions] [--f32] [--small]
// [--blas-kernel NAME]
//
//===----------------------------------------------------------------------===//
#include "BlasKernel.h"
#include "MatrixProduct.h"
#include "TC/Runtime/Runtime.h"

#include <cblas.h>
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

struct Case {
  const char *name;
  std::string a, b, c; // one char per label
  std::map<char, int64_t> ext;
  double alpha = 1;
};

double seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

template <typename Fn> double best(int reps, Fn fn) {
  double t = 1e30;
  for (int r = 0; r < reps; ++r) {
    double s = seconds();
    fn();
    t = std::min(t, seconds() - s);
  }
  return t;
}

std::vector<int64_t> shapeOf(const std::string &labels, const std::map<char, int64_t> &ext) {
  std::vector<int64_t> s;
  for (char l : labels)
    s.push_back(ext.at(l));
  return s;
}

int64_t volume(const std::vector<int64_t> &s) {
  int64_t v = 1;
  for (int64_t x : s)
    v *= x;
  return v;
}

/// The yardstick: C(M x N) += alpha A(M x K) B(K x N) in one BLAS call.
void gemm(int64_t M, int64_t N, int64_t K, const double *a, const double *b, double *c,
          double alpha) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, alpha, a, K, b, N, 1.0, c, N);
}
void gemm(int64_t M, int64_t N, int64_t K, const float *a, const float *b, float *c, float alpha) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, alpha, a, K, b, N, 1.0f, c, N);
}

/// Independent FMA chains (enough to cover the FMA latency on two pipes):
/// flops per loop trip = kChains * lanes * 2.
constexpr int kChains = 12;

__attribute__((target("avx2,fma"))) double fmaLoopAvx2(int64_t trips, bool f32) {
  double sink = 0;
  if (f32) {
    __m256 acc[kChains];
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm256_set1_ps(1e-3f * i);
    const __m256 x = _mm256_set1_ps(0.9999f), y = _mm256_set1_ps(1e-4f);
    for (int64_t t = 0; t < trips; ++t)
      for (int i = 0; i < kChains; ++i)
        acc[i] = _mm256_fmadd_ps(acc[i], x, y);
    for (int i = 0; i < kChains; ++i)
      sink += _mm256_cvtss_f32(acc[i]);
  } else {
    __m256d acc[kChains];
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm256_set1_pd(1e-3 * i);
    const __m256d x = _mm256_set1_pd(0.9999999), y = _mm256_set1_pd(1e-7);
    for (int64_t t = 0; t < trips; ++t)
      for (int i = 0; i < kChains; ++i)
        acc[i] = _mm256_fmadd_pd(acc[i], x, y);
    for (int i = 0; i < kChains; ++i)
      sink += _mm256_cvtsd_f64(acc[i]);
  }
  return sink;
}

__attribute__((target("avx512f"))) double fmaLoopAvx512(int64_t trips, bool f32) {
  double sink = 0;
  if (f32) {
    __m512 acc[kChains];
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm512_set1_ps(1e-3f * i);
    const __m512 x = _mm512_set1_ps(0.9999f), y = _mm512_set1_ps(1e-4f);
    for (int64_t t = 0; t < trips; ++t)
      for (int i = 0; i < kChains; ++i)
        acc[i] = _mm512_fmadd_ps(acc[i], x, y);
    float lanes[16];
    for (int i = 0; i < kChains; ++i) {
      _mm512_storeu_ps(lanes, acc[i]);
      sink += lanes[0];
    }
  } else {
    __m512d acc[kChains];
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm512_set1_pd(1e-3 * i);
    const __m512d x = _mm512_set1_pd(0.9999999), y = _mm512_set1_pd(1e-7);
    for (int64_t t = 0; t < trips; ++t)
      for (int i = 0; i < kChains; ++i)
        acc[i] = _mm512_fmadd_pd(acc[i], x, y);
    double lanes[8];
    for (int i = 0; i < kChains; ++i) {
      _mm512_storeu_pd(lanes, acc[i]);
      sink += lanes[0];
    }
  }
  return sink;
}

/// One core's peak GFLOP/s in the precision of `f32`, on the widest vector
/// unit with FMA (`unit` names it); 0 without AVX2 and FMA.
double peakGflops(int reps, bool f32, const char *&unit) {
  const tc_rt::CpuFeatures cpu = tc_rt::cpuFeatures();
  const bool wide = cpu.avx512f;
  if (!wide && !(cpu.avx2 && cpu.fma)) {
    unit = "none (no AVX2 and FMA)";
    return 0;
  }
  unit = wide ? "AVX-512" : "AVX2";
  const int64_t trips = 20000000;
  const int lanes = (wide ? 512 : 256) / (f32 ? 32 : 64);
  volatile double sink = 0;
  const double t = best(std::max(reps, 3), [&] {
    sink = sink + (wide ? fmaLoopAvx512(trips, f32) : fmaLoopAvx2(trips, f32));
  });
  return 2.0 * kChains * lanes * trips / t / 1e9;
}

} // namespace

/// Matrix-shaped cases: C[i,j] += alpha A[i,k] B[k,j] of M x N x K.
Case matmul(const char *name, int64_t M, int64_t N, int64_t K, double alpha = 1) {
  return {name, "ik", "kj", "ij", {{'i', M}, {'j', N}, {'k', K}}, alpha};
}

/// Small products: the block products of coupled-cluster tensors split by
/// symmetry (a few to a hundred orbitals a block), and products with one
/// row or one column of C.
std::vector<Case> smallCases() {
  return {
      {"dot C[] += A[k] B[k], k = 10000", "k", "k", "", {{'k', 10000}}},
      {"vector C[j] += A[k] B[k,j], 400 x 400", "k", "kj", "j", {{'j', 400}, {'k', 400}}},
      {"vector C[i] += A[i,k] B[k], 400 x 400", "ik", "k", "i", {{'i', 400}, {'k', 400}}},
      matmul("16 x 16 x 16", 16, 16, 16),
      matmul("20 x 20 x 20", 20, 20, 20),
      matmul("40 x 40 x 40", 40, 40, 40),
      matmul("40 x 40 x 40, alpha = -0.5", 40, 40, 40, -0.5),
      matmul("160 x 10 x 4", 160, 10, 4),
      matmul("512 x 5 x 5", 512, 5, 5),
      matmul("400 x 25 x 25", 400, 25, 25),
      matmul("25 x 25 x 400", 25, 25, 400),
      matmul("16 x 100 x 100", 16, 100, 100),
      matmul("400 x 100 x 25", 400, 100, 25),
      matmul("100 x 100 x 100", 100, 100, 100),
      matmul("400 x 100 x 400 (above the small products)", 400, 100, 400),
  };
}

template <typename T> int run(int reps, tc_rt_elem elem, bool small) {
  std::vector<Case> cases =
      small ? smallCases()
            : std::vector<Case>{
                  {"matmul C[i,j] += A[i,k] B[k,j], 1024^3",
                   "ik",
                   "kj",
                   "ij",
                   {{'i', 1024}, {'j', 1024}, {'k', 1024}}},
                  {"matmul, B transposed B[j,k], 2048^3",
                   "ik",
                   "jk",
                   "ij",
                   {{'i', 2048}, {'j', 2048}, {'k', 2048}}},
                  {"4-index T[a,b,c,d] += A[a,b,c,p] B[p,d], 64^4 x 64",
                   "abcp",
                   "pd",
                   "abcd",
                   {{'a', 64}, {'b', 64}, {'c', 64}, {'d', 64}, {'p', 64}}},
                  {"CCSD T[i,j] += A[i,a,b,c] B[a,b,c,j], 256 x 40^3",
                   "iabc",
                   "abcj",
                   "ij",
                   {{'i', 256}, {'j', 256}, {'a', 40}, {'b', 40}, {'c', 40}}},
                  {"permuted C[a,b,c,d] += A[a,m,b,n] B[n,c,m,d], 32^6",
                   "ambn",
                   "ncmd",
                   "abcd",
                   {{'a', 32}, {'b', 32}, {'c', 32}, {'d', 32}, {'m', 32}, {'n', 32}}},
                  {"permuted C[d,c,b,a] += A[n,a,m,b] B[c,n,d,m], 32^6",
                   "namb",
                   "cndm",
                   "dcba",
                   {{'a', 32}, {'b', 32}, {'c', 32}, {'d', 32}, {'m', 32}, {'n', 32}}},
              };
  const char *blas = elem == TC_RT_F32 ? "sgemm" : "dgemm";
  const tc_rt::BlasKernelChoice &kernel = tc_rt::blasKernelChoice();
  std::printf("# OpenBLAS kernel %s (chosen by %s)\n", kernel.kernel.c_str(),
              kernel.chosenBy.c_str());
  const char *unit = "";
  const double peak = peakGflops(reps, elem == TC_RT_F32, unit);
  std::printf("# one core's peak: %.2f GF/s (%s FMA loop, %s)\n", peak, unit,
              elem == TC_RT_F32 ? "f32" : "f64");
  if (small)
    std::printf("# small products: libxsmm %s kernels up to M N K = %lld\n",
                tc_rt::smallKernelTarget().c_str(),
                static_cast<long long>(tc_rt::kSmallProductVolume));
  std::printf("%-52s %10s %6s GF/s %5s/%s %8s\n", "case", "tc GF/s", blas, "tc", blas, "tc/peak");
  for (const Case &c : cases) {
    std::vector<int64_t> sa = shapeOf(c.a, c.ext), sb = shapeOf(c.b, c.ext),
                         sc = shapeOf(c.c, c.ext);
    std::vector<T> a(volume(sa), T(0.5)), b(volume(sb), T(0.25)), cc(volume(sc), T(0));
    // Label ids: positions in c.ext.
    auto operand = [&](const std::vector<int64_t> &shape, const std::string &labels) {
      tc_rt::TileContractDesc::Operand o{shape, {}};
      for (char l : labels)
        o.labels.push_back(std::distance(c.ext.begin(), c.ext.find(l)));
      return o;
    };
    tc_rt::TileContractDesc d{operand(sa, c.a), operand(sb, c.b), operand(sc, c.c), {}, elem,
                              c.alpha};
    for (auto &[l, e] : c.ext)
      d.labelExtents.push_back(e);
    std::vector<int64_t> desc = d.encode();
    std::vector<int64_t> offsets(sa.size() + sb.size() + sc.size(), 0);
    // M, N, K of the same contraction as a plain matrix product.
    int64_t M = 1, N = 1, K = 1;
    for (char l : c.c)
      (c.a.find(l) != std::string::npos ? M : N) *= c.ext.at(l);
    for (char l : c.a)
      if (c.b.find(l) != std::string::npos)
        K *= c.ext.at(l);
    double flops = 2.0 * M * N * K;
    // Products of microseconds are timed as many calls in a row.
    const int calls = static_cast<int>(std::max(1.0, 2e8 / flops));
    double tTc =
        best(reps,
             [&] {
               for (int i = 0; i < calls; ++i)
                 tc_rt_tile_contract(desc.data(), a.data(), b.data(), cc.data(), offsets.data());
             }) /
        calls;
    std::vector<T> ma(M * K, T(0.5)), mb(K * N, T(0.25)), mc(M * N, T(0));
    double tBlas = best(reps,
                        [&] {
                          for (int i = 0; i < calls; ++i)
                            gemm(M, N, K, ma.data(), mb.data(), mc.data(), static_cast<T>(c.alpha));
                        }) /
                   calls;
    std::printf("%-52s %10.2f %10.2f %7.0f%% %7.0f%%\n", c.name, flops / tTc / 1e9,
                flops / tBlas / 1e9, 100 * tBlas / tTc,
                peak > 0 ? 100 * flops / tTc / 1e9 / peak : 0.0);
  }
  return 0;
}

int main(int argc, char **argv) {
  tc_rt::selectBlasKernel(&argc, argv); // before OpenBLAS starts its threads
  int reps = 3;
  bool f32 = false, small = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--f32")
      f32 = true;
    else if (std::string(argv[i]) == "--small")
      small = true;
    else
      reps = std::atoi(argv[i]);
  }
  openblas_set_num_threads(1);
  return f32 ? run<float>(reps, TC_RT_F32, small) : run<double>(reps, TC_RT_F64, small);
}
