//===- PdgemmBench.cpp - ScaLAPACK pdgemm, the yardstick for tc's matmul ---===//
//
// C = C + A * B with N x N matrices on P = pr x pc processes (block-cyclic, block
// NB), timed around pdgemm alone (data already distributed, as tc's "compute"
// phase is timed). Usage: mpirun -np P tc-pdgemm-bench N [NB] [repetitions]
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  openblas_set_num_threads(1);
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  int nb = argc > 2 ? std::atoi(argv[2]) : 128;
  int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  int me, procs;
  Cblacs_pinfo(&me, &procs);
  // The most square grid pr x pc with pr <= pc.
  int pr = 1;
  for (int d = 1; d * d <= procs; ++d)
    if (procs % d == 0)
      pr = d;
  int pc = procs / pr, ctxt, myr, myc;
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", pr, pc);
  Cblacs_gridinfo(ctxt, &pr, &pc, &myr, &myc);
  int zero = 0, one = 1, info;
  int rows = numroc_(&n, &nb, &myr, &zero, &pr), cols = numroc_(&n, &nb, &myc, &zero, &pc);
  int lld = std::max(1, rows), desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  std::vector<double> a(size_t(rows) * cols), b(a.size()), c(a.size(), 0.0);
  std::mt19937_64 rng(me);
  std::uniform_real_distribution<double> u(-1, 1);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = u(rng), b[i] = u(rng);
  double alpha = 1, beta = 1, best = 1e30;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    pdgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &one, &one, desc, b.data(), &one, &one,
            desc, &beta, c.data(), &one, &one, desc);
    MPI_Barrier(MPI_COMM_WORLD);
    best = std::min(best, MPI_Wtime() - t);
  }
  if (me == 0)
    std::printf("pdgemm N=%d P=%d (%dx%d) NB=%d: %.3f s, %.1f GFLOP/s (best of %d)\n", n,
                procs, pr, pc, nb, best, 2.0 * n * n * double(n) / best / 1e9, reps);
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return 0;
}
