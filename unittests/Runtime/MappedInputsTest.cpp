//===- MappedInputsTest.cpp - input blocks mapped from their files --------===//
//
// A read-only input whose block is one contiguous range of its file is mapped
// from the file (MappedInputs.h): the values are the file's, the bytes count
// as read and as mapped, and the mapping goes with the buffer's last
// release. Every other case is read as before: a chunked dataset, a block
// below a pooled buffer's size, an input in the output file, an array that
// writes.
//
//===----------------------------------------------------------------------===//
#include "MappedInputs.h"
#include "TestArrays.h"

#include <hdf5.h>

#include <gtest/gtest.h>

using namespace tc_rt;
using tc_rt::test::layoutOf;
using tc_rt::test::removeWhenAllDone;

namespace {

/// Rows per rank of M[i, j] (split along i) and its columns: a block of
/// 1.28 MB, above a pooled buffer's size.
const int64_t kRows = 160, kCols = 1000;

double value(int64_t i, int64_t j) { return 1000.0 * i + j + 0.5; }

/// A file holding M (contiguous), C (the same values, chunked) and S (a
/// contiguous 4 x 4), written by rank 0.
std::string writeInputs() {
  const std::string file = "/tmp/tc-mapped-inputs-" + std::to_string(ctx().jobId) + ".h5";
  if (ctx().rank == 0) {
    const int64_t rows = kRows * ctx().size;
    std::vector<double> data;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < kCols; ++j)
        data.push_back(value(i, j));
    hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(kCols)};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    hid_t chunked = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk[2] = {16, 100};
    H5Pset_chunk(chunked, 2, chunk);
    for (auto [name, plist] : {std::pair<const char *, hid_t>{"M", H5P_DEFAULT}, {"C", chunked}}) {
      hid_t ds = H5Dcreate2(f, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, plist, H5P_DEFAULT);
      H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
      H5Dclose(ds);
    }
    H5Pclose(chunked);
    H5Sclose(space);
    hsize_t small[2] = {4, 4};
    space = H5Screate_simple(2, small, nullptr);
    hid_t ds = H5Dcreate2(f, "S", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    H5Dclose(ds);
    H5Sclose(space);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return file;
}

/// The inputs of a test from `file`, restored when it ends.
struct Inputs {
  Options saved = ctx().options;
  explicit Inputs(const std::string &file) {
    for (const char *name : {"M", "C", "S"})
      ctx().options.inputs[name] = file;
  }
  ~Inputs() { ctx().options = saved; }
};

/// `name`[i, j] of `rows` x kCols split along i over [P]: its descriptor.
std::vector<int64_t> splitRows(int64_t rows) {
  return tc_rt::ArrayDesc{
      layoutOf(TC_RT_DISTRIBUTED, {ctx().size}, {{rows, 0, -1, 0}, {kCols, -1, -1, 1}}),
      TC_RT_INIT_INPUT, false}
      .encode();
}

/// This rank's block of M's values in `block`, against the file's.
void expectRows(const double *block) {
  const int64_t first = ctx().rank * kRows;
  for (int64_t n = 0; n < kRows * kCols; ++n)
    ASSERT_EQ(block[n], value(first + n / kCols, n % kCols)) << "element " << n;
}

TEST(MappedInputs, AContiguousBlockIsTheFilesBytes) {
  const std::string file = writeInputs();
  {
    Inputs inputs(file);
    const int64_t rows = kRows * ctx().size, bytes = kRows * kCols * 8;
    void *block = mapInputBlock("M", TC_RT_F64, {rows, kCols}, ctx().rank * kRows * kCols, bytes);
    ASSERT_NE(block, nullptr);
    EXPECT_TRUE(isMapping(block));
    expectRows(static_cast<const double *>(block));
    // Private: a write changes this rank's copy, not the file.
    static_cast<double *>(block)[0] = -1;
    EXPECT_TRUE(takeMappedBlock(block));
    EXPECT_FALSE(takeMappedBlock(block)) << "claimed once";
    releaseBuffer(block);
    EXPECT_FALSE(isMapping(block)) << "unmapped at its last release";
    MPI_Barrier(MPI_COMM_WORLD);
    void *again = mapInputBlock("M", TC_RT_F64, {rows, kCols}, ctx().rank * kRows * kCols, bytes);
    ASSERT_NE(again, nullptr);
    expectRows(static_cast<const double *>(again));
    takeMappedBlock(again);
    releaseBuffer(again);
  }
  removeWhenAllDone(file);
}

TEST(MappedInputs, OtherCasesAreNotMapped) {
  const std::string file = writeInputs();
  {
    Inputs inputs(file);
    const int64_t rows = kRows * ctx().size, bytes = kRows * kCols * 8,
                  first = ctx().rank * kRows * kCols;
    EXPECT_EQ(mapInputBlock("C", TC_RT_F64, {rows, kCols}, first, bytes), nullptr) << "chunked";
    EXPECT_EQ(mapInputBlock("S", TC_RT_F64, {4, 4}, 0, 128), nullptr) << "below 1 MiB";
    EXPECT_EQ(mapInputBlock("M", TC_RT_F32, {rows, kCols}, first, bytes / 2), nullptr)
        << "another element type";
    EXPECT_EQ(mapInputBlock("M", TC_RT_F64, {rows, kCols + 1}, first, bytes), nullptr)
        << "another shape";
    EXPECT_EQ(mapInputBlock("X", TC_RT_F64, {rows, kCols}, first, bytes), nullptr)
        << "not an input";
    ctx().options.output = file;
    EXPECT_EQ(mapInputBlock("M", TC_RT_F64, {rows, kCols}, first, bytes), nullptr)
        << "the output file";
  }
  removeWhenAllDone(file);
}

TEST(MappedInputs, AReadOnlyArrayLoadsByMapping) {
  // tc_rt_alloc_storage maps the block of a read-only array, tc_rt_array
  // reads nothing more and counts the bytes as read and mapped; an array
  // that writes gets a buffer of its own, read from the file.
  const std::string file = writeInputs();
  {
    Inputs inputs(file);
    const std::vector<int64_t> desc = splitRows(kRows * ctx().size);
    const double bytes = static_cast<double>(kRows * kCols * 8);
    for (int readOnly : {1, 0}) {
      setPhase(Load);
      const Counters before = counters();
      void *storage = tc_rt_alloc_storage(desc.data(), "M", readOnly);
      EXPECT_EQ(isMapping(storage), readOnly == 1);
      auto *m = static_cast<DistArray *>(tc_rt_array(desc.data(), "M", storage));
      // tc_rt_array ends in the compute phase: the load's counters are done.
      const Counters load = countersBetween(before, ctx().counters[Load]);
      EXPECT_EQ(load.bytesRead, bytes);
      EXPECT_EQ(load.bytesMapped, readOnly ? bytes : 0.0);
      expectRows(m->mem<double>());
      setPhase(Idle);
      releaseArrays();
      releaseBuffer(storage);
    }
  }
  closeRunFiles();
  removeWhenAllDone(file);
}

} // namespace
