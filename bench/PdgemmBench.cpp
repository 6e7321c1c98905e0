//===- PdgemmBench.cpp - ScaLAPACK pdgemm, the yardstick for tc's matmul ---===//
//
// C = beta C + A * B (A m x k, B k x n, C m x n) on P = pr x pc processes
// (block-cyclic, square blocks NB, source process 0 0), timed around pdgemm alone
// (data already distributed, as tc's "compute" phase is timed), between barriers.
//
//   mpirun -np P tc-pdgemm-bench N [NB] [repetitions]
//     square N x N x N, C += A B, random data of its own; prints the best.
//   mpirun -np P tc-pdgemm-bench --shape MxNxK [--nb NB] [--reps R] [--grid PRxPC]
//         [--beta 0|1] [--tc-inputs SEED] [--check FILE.h5]
//     --grid       process grid (default: the most square pr x pc with pr <= pc)
//     --beta       1 (default): C += A B; 0: C = A B
//     --tc-inputs  A, B (and C when beta = 1) hold the values a tc program
//                  gets from --random-inputs SEED (lib/Runtime/Hdf5IO.cpp's
//                  randomValue on the arrays "A", "B", "C", numbered row-major),
//                  so both compute on the same matrices
//     --check      after the last repetition, compare this process's blocks of C
//                  with dataset "C" of FILE.h5 (tc's --output) and print the
//                  largest absolute difference over all processes
//   C is reset to its initial values (outside the clock) before each
//   repetition. Prints every repetition's time, the best and the median.
//
//===----------------------------------------------------------------------===//
#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int context, int request, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc,
            const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld,
               int *info);
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n,
             const int *k, const double *alpha, const double *a, const int *ia,
             const int *ja, const int *desca, const double *b, const int *ib,
             const int *jb, const int *descb, const double *beta, double *c,
             const int *ic, const int *jc, const int *descc);
void openblas_set_num_threads(int);
}

namespace {

// tc's --random-inputs values: a copy of randomValue in lib/Runtime/Hdf5IO.cpp.
uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

double tcRandomValue(uint64_t seed, const char *name, uint64_t linear) {
  uint64_t h = 1469598103934665603ull;
  for (const char *p = name; *p; ++p)
    h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
  uint64_t x = splitmix(splitmix(seed ^ h) + linear);
  return static_cast<double>(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/// One process's part of a rows x cols block-cyclic matrix (ScaLAPACK's
/// column-major local storage).
struct Local {
  int rows = 0, cols = 0, globalRows = 0, globalCols = 0, nb = 0;
  int desc[9];
  std::vector<double> v;
  // Global index of local row li / column lj.
  int64_t gRow(int li, int myr, int pr) const { return (int64_t(li / nb) * pr + myr) * nb + li % nb; }
  int64_t gCol(int lj, int myc, int pc) const { return (int64_t(lj / nb) * pc + myc) * nb + lj % nb; }
};

Local makeLocal(int m, int n, int nb, int ctxt, int pr, int pc, int myr, int myc) {
  Local l;
  int zero = 0, info;
  l.globalRows = m, l.globalCols = n, l.nb = nb;
  l.rows = numroc_(&m, &nb, &myr, &zero, &pr);
  l.cols = numroc_(&n, &nb, &myc, &zero, &pc);
  int lld = std::max(1, l.rows);
  descinit_(l.desc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  if (info != 0) {
    std::fprintf(stderr, "descinit failed (%d)\n", info);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  l.v.assign(size_t(l.rows) * l.cols, 0.0);
  return l;
}

void fillTc(Local &l, uint64_t seed, const char *name, int myr, int myc, int pr, int pc) {
  for (int lj = 0; lj < l.cols; ++lj) {
    int64_t gj = l.gCol(lj, myc, pc);
    for (int li = 0; li < l.rows; ++li)
      l.v[size_t(lj) * l.rows + li] =
          tcRandomValue(seed, name, uint64_t(l.gRow(li, myr, pr) * l.globalCols + gj));
  }
}

[[noreturn]] void usage(int me) {
  if (me == 0)
    std::fprintf(stderr,
                 "usage: tc-pdgemm-bench N [NB] [reps]\n"
                 "       tc-pdgemm-bench --shape MxNxK [--nb NB] [--reps R] [--grid PRxPC]\n"
                 "                       [--beta 0|1] [--tc-inputs SEED] [--check FILE.h5]\n");
  MPI_Finalize();
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  openblas_set_num_threads(1);
  int me, procs;
  Cblacs_pinfo(&me, &procs);
  int m = 4096, n = 4096, k = 4096, nb = 128, reps = 3, pr = 0, pc = 0;
  double beta = 1;
  bool legacy = true, tcInputs = false;
  uint64_t seed = 0;
  std::string check;
  if (argc > 1 && std::strncmp(argv[1], "--", 2) != 0) {
    m = n = k = std::atoi(argv[1]);
    nb = argc > 2 ? std::atoi(argv[2]) : 128;
    reps = argc > 3 ? std::atoi(argv[3]) : 3;
  } else {
    legacy = false;
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (i + 1 >= argc)
        usage(me);
      const char *v = argv[++i];
      if (a == "--shape") {
        if (std::sscanf(v, "%dx%dx%d", &m, &n, &k) != 3)
          usage(me);
      } else if (a == "--nb") {
        nb = std::atoi(v);
      } else if (a == "--reps") {
        reps = std::atoi(v);
      } else if (a == "--grid") {
        if (std::sscanf(v, "%dx%d", &pr, &pc) != 2 || pr * pc != procs)
          usage(me);
      } else if (a == "--beta") {
        beta = std::atof(v);
      } else if (a == "--tc-inputs") {
        tcInputs = true;
        seed = std::strtoull(v, nullptr, 10);
      } else if (a == "--check") {
        check = v;
      } else {
        usage(me);
      }
    }
  }
  if (m < 1 || n < 1 || k < 1 || nb < 1 || reps < 1)
    usage(me);
  if (pr == 0) { // the most square grid pr x pc with pr <= pc
    pr = 1;
    for (int d = 1; d * d <= procs; ++d)
      if (procs % d == 0)
        pr = d;
    pc = procs / pr;
  }
  int ctxt, myr, myc;
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", pr, pc);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myr, &myc);
  Local a = makeLocal(m, k, nb, ctxt, pr, pc, myr, myc);
  Local b = makeLocal(k, n, nb, ctxt, pr, pc, myr, myc);
  Local c = makeLocal(m, n, nb, ctxt, pr, pc, myr, myc);
  if (tcInputs) {
    fillTc(a, seed, "A", myr, myc, pr, pc);
    fillTc(b, seed, "B", myr, myc, pr, pc);
    if (beta != 0)
      fillTc(c, seed, "C", myr, myc, pr, pc);
  } else {
    std::mt19937_64 rng(me);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double &x : a.v)
      x = u(rng);
    for (double &x : b.v)
      x = u(rng);
  }
  const std::vector<double> c0 = c.v;
  int one = 1;
  double alpha = 1;
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    std::copy(c0.begin(), c0.end(), c.v.begin());
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    pdgemm_("N", "N", &m, &n, &k, &alpha, a.v.data(), &one, &one, a.desc, b.v.data(), &one,
            &one, b.desc, &beta, c.v.data(), &one, &one, c.desc);
    MPI_Barrier(MPI_COMM_WORLD);
    times.push_back(MPI_Wtime() - t);
  }
  // Every process's clock spans the same two barriers; take the slowest.
  MPI_Allreduce(MPI_IN_PLACE, times.data(), reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double best = sorted[0];
  double median = reps % 2 ? sorted[reps / 2] : (sorted[reps / 2 - 1] + sorted[reps / 2]) / 2;
  double flop = 2.0 * m * double(n) * k;
  if (me == 0) {
    if (legacy) {
      std::printf("pdgemm N=%d P=%d (%dx%d) NB=%d: %.3f s, %.1f GFLOP/s (best of %d)\n", n,
                  procs, pr, pc, nb, best, flop / best / 1e9, reps);
    } else {
      std::printf("pdgemm m=%d n=%d k=%d P=%d grid=%dx%d NB=%d beta=%g: best %.4f s, median "
                  "%.4f s, %.1f GFLOP/s at best; times", m, n, k, procs, pr, pc, nb, beta, best,
                  median, flop / best / 1e9);
      for (double t : times)
        std::printf(" %.4f", t);
      std::printf("\n");
    }
  }
  if (!check.empty()) {
    // Each process reads the rows and columns of its own blocks from the file.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    double maxDiff = 0, maxRef = 0;
    int bad = 0;
    hid_t f = H5Fopen(check.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = f < 0 ? -1 : H5Dopen2(f, "C", H5P_DEFAULT);
    if (ds < 0) {
      bad = 1;
    } else {
      hid_t space = H5Dget_space(ds);
      hsize_t dims[2] = {0, 0};
      if (H5Sget_simple_extent_ndims(space) != 2 ||
          H5Sget_simple_extent_dims(space, dims, nullptr) != 2 || dims[0] != hsize_t(m) ||
          dims[1] != hsize_t(n)) {
        bad = 2;
      } else {
        // One global column block (all rows, nb columns) at a time.
        std::vector<double> rowMajor;
        for (int lj0 = 0; lj0 < c.cols && !bad; lj0 += nb) {
          int width = std::min(nb, c.cols - lj0);
          hsize_t start[2] = {0, hsize_t(c.gCol(lj0, myc, pc))}, count[2] = {hsize_t(m), hsize_t(width)};
          rowMajor.resize(size_t(m) * width);
          H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
          hid_t mem = H5Screate_simple(2, count, nullptr);
          if (H5Dread(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, rowMajor.data()) < 0)
            bad = 3;
          H5Sclose(mem);
          for (int dj = 0; dj < width; ++dj)
            for (int li = 0; li < c.rows; ++li) {
              double ref = rowMajor[size_t(c.gRow(li, myr, pr)) * width + dj];
              double got = c.v[size_t(lj0 + dj) * c.rows + li];
              maxDiff = std::max(maxDiff, std::fabs(got - ref));
              maxRef = std::max(maxRef, std::fabs(ref));
            }
        }
      }
      H5Sclose(space);
      H5Dclose(ds);
    }
    if (f >= 0)
      H5Fclose(f);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &maxDiff, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &maxRef, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) {
      if (bad)
        std::printf("check %s: cannot read a %d x %d dataset 'C' (error %d)\n", check.c_str(),
                    m, n, bad);
      else
        std::printf("check against %s: max |pdgemm - tc| = %.3e (max |C| = %.3e, relative "
                    "%.3e)\n", check.c_str(), maxDiff, maxRef, maxRef > 0 ? maxDiff / maxRef : 0.0);
    }
    if (bad) {
      Cblacs_gridexit(ctxt);
      MPI_Finalize();
      return 1;
    }
  }
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return 0;
}
