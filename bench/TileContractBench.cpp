//===- TileContractBench.cpp - tile contraction vs cblas_dgemm ------------===//
//
// Issue 4's goal: the runtime's local tile contraction (tc_rt_tile_contract:
// permutation where needed + OpenBLAS dgemm) reaches at least 90% of a bare
// cblas_dgemm on the same shapes for matmul-shaped tiles and 75% for permuted
// ones. Yardstick, in the same run: cblas_dgemm on the equivalent M x N x K.
// Single thread (as every rank runs). Usage: tc-tile-bench [repetitions]
//
//===----------------------------------------------------------------------===//
#include "TC/Runtime/Runtime.h"

#include <cblas.h>

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

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  openblas_set_num_threads(1);
  std::vector<Case> cases = {
      {"matmul C[i,j] += A[i,k] B[k,j], 1024^3", "ik", "kj", "ij",
       {{'i', 1024}, {'j', 1024}, {'k', 1024}}},
      {"matmul, B transposed B[j,k], 2048^3", "ik", "jk", "ij",
       {{'i', 2048}, {'j', 2048}, {'k', 2048}}},
      {"4-index T[a,b,c,d] += A[a,b,c,p] B[p,d], 64^4 x 64", "abcp", "pd", "abcd",
       {{'a', 64}, {'b', 64}, {'c', 64}, {'d', 64}, {'p', 64}}},
      {"CCSD T[i,j] += A[i,a,b,c] B[a,b,c,j], 256 x 40^3", "iabc", "abcj", "ij",
       {{'i', 256}, {'j', 256}, {'a', 40}, {'b', 40}, {'c', 40}}},
      {"permuted C[a,b,c,d] += A[a,m,b,n] B[n,c,m,d], 32^6", "ambn", "ncmd", "abcd",
       {{'a', 32}, {'b', 32}, {'c', 32}, {'d', 32}, {'m', 32}, {'n', 32}}},
      {"permuted C[d,c,b,a] += A[n,a,m,b] B[c,n,d,m], 32^6", "namb", "cndm", "dcba",
       {{'a', 32}, {'b', 32}, {'c', 32}, {'d', 32}, {'m', 32}, {'n', 32}}},
  };
  std::printf("%-52s %10s %10s %8s\n", "case", "tc GF/s", "dgemm GF/s", "tc/dgemm");
  for (const Case &c : cases) {
    std::vector<int64_t> sa = shapeOf(c.a, c.ext), sb = shapeOf(c.b, c.ext),
                         sc = shapeOf(c.c, c.ext);
    std::vector<double> a(volume(sa), 0.5), b(volume(sb), 0.25), cc(volume(sc), 0.0);
    // Label ids: positions in c.ext.
    auto operand = [&](const std::vector<int64_t> &shape, const std::string &labels) {
      tc_rt::TileContractDesc::Operand o{shape, {}};
      for (char l : labels)
        o.labels.push_back(std::distance(c.ext.begin(), c.ext.find(l)));
      return o;
    };
    tc_rt::TileContractDesc d{operand(sa, c.a), operand(sb, c.b), operand(sc, c.c), {}};
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
    double tTc = best(reps, [&] {
      tc_rt_tile_contract(desc.data(), a.data(), b.data(), cc.data(), offsets.data());
    });
    std::vector<double> ma(M * K, 0.5), mb(K * N, 0.25), mc(M * N, 0.0);
    double tBlas = best(reps, [&] {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0, ma.data(), K,
                  mb.data(), N, 1.0, mc.data(), N);
    });
    std::printf("%-52s %10.2f %10.2f %7.0f%%\n", c.name, flops / tTc / 1e9,
                flops / tBlas / 1e9, 100 * tBlas / tTc);
  }
  return 0;
}
