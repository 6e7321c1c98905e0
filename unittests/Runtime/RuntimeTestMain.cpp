//===- RuntimeTestMain.cpp - GoogleTest main under MPI --------------------===//
#include "Context.h"

#include <gtest/gtest.h>

#include <unistd.h>

int main(int argc, char **argv) {
  tc_rt::startProcess(&argc, &argv, "TCRuntimeTests");
  tc_rt::Context &c = tc_rt::ctx();
  tc_rt::setPhase(tc_rt::Compute); // what tile ops charge in a program
  ::testing::InitGoogleTest(&argc, argv);
  // Only rank 0 prints; every rank runs every test (collectives need them all).
  if (c.rank != 0)
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  int failed = RUN_ALL_TESTS();
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return anyFailed;
}
