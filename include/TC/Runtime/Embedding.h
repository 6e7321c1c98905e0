/*===- Embedding.h - a tc program run inside a host's MPI job ----*- C -*-===*\
|*                                                                            *|
|* A program tcc builds as a shared library (the Python package's            *|
|* Executable.run_in_job, docs/Python.md) runs inside a process that already  *|
|* runs MPI on MPI_COMM_WORLD (mpi4py): every rank calls                      *|
|* tc_rt_embedded_run with its local part of each dense input and a buffer    *|
|* for its local part of each dense output, and no file is read or written    *|
|* for them. A rank's local part of a tensor of extent n0 along its first     *|
|* dimension, on P ranks, is the rows [r b, min(n0, (r + 1) b)) with          *|
|* b = ceil(n0 / P), every index of the other dimensions, row-major; a scalar  *|
|* is whole on every rank.                                                    *|
\*===----------------------------------------------------------------------===*/
#ifndef TC_RUNTIME_EMBEDDING_H
#define TC_RUNTIME_EMBEDDING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One tensor a host passes: its name in the program, 0 for an input and 1
 * for an output, its element type (0: f64, 1: f32), its rank and extents
 * (whole tensor), and this rank's local part (read for an input, written for
 * an output). */
typedef struct tc_rt_embedded_tensor {
  const char *name;
  int32_t output;
  int32_t f32;
  int32_t rank;
  const int64_t *extents;
  void *local;
} tc_rt_embedded_tensor;

/** Runs the program with the command line argv (the program's options but
 * --input and --output: the tensors come from `tensors`), collectively on
 * MPI_COMM_WORLD, MPI already initialized and left running. Returns the
 * program's exit status (0, or 3 when a loop did not converge); an error
 * aborts the job as it would end the program. */
int tc_rt_embedded_run(int argc, char **argv, int32_t count, const tc_rt_embedded_tensor *tensors);

/** The last run's JSON report (as --report writes it) on rank 0; "" on the
 * other ranks. Valid until the next run. */
const char *tc_rt_embedded_report(void);

#ifdef __cplusplus
}
#endif

#endif /* TC_RUNTIME_EMBEDDING_H */
