//===- SummedLoadTest.cpp - inputs summed over dimensions as they load ----===//
//
// Labels of one input only are summed out of it as it is loaded
// (docs/Derivations.md D30): A[s, i, t] becomes A'[i] = sum_s,t A[s, i, t],
// from an HDF5 dataset and from random inputs, in memory and in a scratch file.
//
//===----------------------------------------------------------------------===//
#include "TestArrays.h"

#include <hdf5.h>

#include <gtest/gtest.h>

using namespace tc_rt;
using tc_rt::test::RandomInputs;
using tc_rt::test::removeWhenAllDone;

namespace {

const int64_t S = 3, I = 10, T = 4;

/// A'[i] on the grid [P], split along it, loaded from A[s, i, t].
void *summedArray(bool onDisk) {
  ctx().options.scratch = "/tmp";
  tc_rt::ArrayDesc d{
      tc_rt::test::layoutOf(TC_RT_DISTRIBUTED, {ctx().size}, {{I, 0, -1, 1}}, {{0, S}, {2, T}}),
      TC_RT_INIT_INPUT, onDisk};
  return tc_rt_array(d.encode().data(), "A", nullptr);
}

/// This process's block of A'[i] against value(s, i, t) summed.
void expectSums(void *array, const std::function<double(int64_t, int64_t, int64_t)> &value) {
  const int64_t block = (I + ctx().size - 1) / ctx().size;
  std::vector<double> buf(block, -1);
  int64_t zero = 0;
  tc_rt_read_tile(array, buf.data(), tc_rt::TileDesc{{block}}.encode().data(), &zero);
  for (int64_t l = 0; l < block && ctx().rank * block + l < I; ++l) {
    const int64_t i = ctx().rank * block + l;
    double expect = 0;
    for (int64_t s = 0; s < S; ++s)
      for (int64_t t = 0; t < T; ++t)
        expect += value(s, i, t);
    EXPECT_NEAR(buf[l], expect, 1e-12) << "element " << i;
  }
}

class SummedLoad : public ::testing::TestWithParam<bool> {};

TEST_P(SummedLoad, FromRandomInputs) {
  RandomInputs random(7);
  void *a = summedArray(GetParam());
  expectSums(a, [](int64_t s, int64_t i, int64_t t) {
    return randomValue(7, "A", static_cast<uint64_t>((s * I + i) * T + t));
  });
}

TEST_P(SummedLoad, FromHdf5) {
  const std::string file = "/tmp/tc-summed-load-" + std::to_string(ctx().jobId) + ".h5";
  auto value = [](int64_t s, int64_t i, int64_t t) { return 100.0 * s + i + 0.01 * t; };
  if (ctx().rank == 0) {
    std::vector<double> data;
    for (int64_t s = 0; s < S; ++s)
      for (int64_t i = 0; i < I; ++i)
        for (int64_t t = 0; t < T; ++t)
          data.push_back(value(s, i, t));
    hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[3] = {S, I, T};
    hid_t space = H5Screate_simple(3, dims, nullptr);
    hid_t ds = H5Dcreate2(f, "A", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    H5Dclose(ds);
    H5Sclose(space);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  Options saved = ctx().options;
  ctx().options.inputs["A"] = file;
  void *a = summedArray(GetParam());
  ctx().options = saved;
  expectSums(a, value);
  removeWhenAllDone(file);
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndOnDisk, SummedLoad, ::testing::Bool());

} // namespace
