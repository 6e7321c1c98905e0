//===- NetBench.cpp - point-to-point bandwidth, for the model's net_bw ----===//
//
// Every rank exchanges a buffer with its ring neighbours (MPI_Sendrecv, as the
// runtime's shifts do) and reports bytes sent per second per process.
// Usage: mpirun -np P tc-net-bench [MiB] [repetitions]
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t n = (argc > 1 ? std::atol(argv[1]) : 64) * (1 << 20) / sizeof(double);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> out(n, rank), in(n);
  double best = 1e30;
  for (int r = 0; r <= reps; ++r) { // the first exchange opens the connection
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    MPI_Sendrecv(out.data(), static_cast<int>(n), MPI_DOUBLE, (rank + 1) % size, 0, in.data(),
                 static_cast<int>(n), MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (r > 0)
      best = std::min(best, MPI_Wtime() - t);
  }
  if (rank == 0)
    std::printf("net_bw %.0f bytes/s per process (%zu MiB sendrecv ring, P = %d)\n",
                n * sizeof(double) / best, n * sizeof(double) >> 20, size);
  MPI_Finalize();
  return 0;
}
