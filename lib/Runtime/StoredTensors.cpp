//===- StoredTensors.cpp - a named tensor of the intermediates store ------===//
//
// Shares of a stored tensor's values by rows, read and published back for DIIS
// (Diis.cpp) and checkpoints (Checkpoints.cpp).
//
//===----------------------------------------------------------------------===//
#include "StoredTensors.h"

#include "Context.h"

#include <algorithm>
#include <limits>

namespace tc_rt {

std::pair<int64_t, int64_t> StoredTensor::shareOf(const Shape &dims, int r, int p) {
  const int64_t rows = dims.empty() ? 1 : dims[0];
  const int64_t rowElements = dims.empty() ? 1 : product(Shape(dims.begin() + 1, dims.end()));
  // Blocks of ceil(rows / p) rows, as a layout distributed along dimension 0
  // deals them (KeptTensors.h's shares of kept tensors).
  const int64_t block = (rows + p - 1) / p;
  const int64_t first = std::min(rows, r * block), last = std::min(rows, (r + 1) * block);
  return {first * rowElements, last * rowElements};
}

void selectRows(hid_t space, const Shape &dims, int64_t begin, int64_t end) {
  if (dims.empty()) { // a scalar: its one element or nothing
    if (end > begin)
      H5Sselect_all(space);
    else
      H5Sselect_none(space);
    return;
  }
  const int64_t rowElements = product(Shape(dims.begin() + 1, dims.end()));
  std::vector<hsize_t> start(dims.size(), 0), count(dims.begin(), dims.end());
  start[0] = rowElements ? begin / rowElements : 0;
  count[0] = rowElements ? (end - begin) / rowElements : 0;
  if (count[0] == 0)
    H5Sselect_none(space);
  else
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
}

StoredTensor::StoredTensor(const std::string &name, const std::string &use) : name_(name) {
  const hid_t file = storedIntermediateFile(name, where_);
  if (file < 0)
    failOnRoot(use + " needs tensor '" + name + "', which no statement stored");
  inMemory_ = where_ == "memory";
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) > 0) {
    group_ = H5Gopen2(file, name.c_str(), H5P_DEFAULT); // a block-sparse group, or a dataset
    values_ = group_ >= 0 ? H5Dopen2(group_, "values", H5P_DEFAULT)
                          : H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  }
  if (values_ < 0)
    fail("cannot open tensor '" + name + "' in " + where_ + " (" + use + ")");
  dims_ = extentsOf(values_);
  std::tie(shareBegin_, shareEnd_) = shareOf(dims_, ctx().rank, ctx().size);
}

StoredTensor::~StoredTensor() {
  if (values_ >= 0)
    H5Dclose(values_);
  if (group_ >= 0)
    H5Gclose(group_);
}

void transferSelected(hid_t dataset, hid_t space, bool read, int64_t n, double *data,
                      const std::string &what) {
  const hsize_t count = n;
  hid_t mem = H5Screate_simple(1, &count, nullptr);
  if (n == 0)
    H5Sselect_none(mem);
  herr_t status = read ? H5Dread(dataset, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, data)
                       : H5Dwrite(dataset, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, data);
  H5Sclose(mem);
  if (status < 0)
    fail((read ? "reading " : "writing ") + what + " failed");
}

void rowsIO(hid_t dataset, const Shape &dims, bool read, int64_t begin, int64_t end, double *data,
            const std::string &what) {
  hid_t space = H5Dget_space(dataset);
  selectRows(space, dims, begin, end);
  transferSelected(dataset, space, read, end - begin, data, what);
  H5Sclose(space);
}

void StoredTensor::readShare(double *out) const {
  rowsIO(values_, dims_, true, shareBegin_, shareEnd_, out,
         "the share of '" + name_ + "' in " + where_);
  if (!inMemory_)
    counters().bytesRead += 8.0 * shareSize();
}

void StoredTensor::publish(const double *share) {
  Context &c = ctx();
  if (!inMemory_) { // each rank its rows of the shared file
    rowsIO(values_, dims_, false, shareBegin_, shareEnd_, const_cast<double *>(share),
           "the share of '" + name_ + "' to " + where_);
    counters().bytesWritten += 8.0 * shareSize();
    MPI_Barrier(MPI_COMM_WORLD); // every share written before any is read
    return;
  }
  // Every rank's copy is whole: gather the shares.
  if (elements() > std::numeric_limits<int>::max())
    fail("tensor '" + name_ + "' has " + std::to_string(elements()) +
         " elements, more than one gather of its shares takes");
  std::vector<int> counts(c.size), displs(c.size);
  for (int r = 0; r < c.size; ++r) {
    auto [b, e] = shareOf(dims_, r, c.size);
    counts[r] = static_cast<int>(e - b), displs[r] = static_cast<int>(b);
  }
  std::vector<double> whole(elements());
  MPI_Allgatherv(share, counts[c.rank], MPI_DOUBLE, whole.data(), counts.data(), displs.data(),
                 MPI_DOUBLE, MPI_COMM_WORLD);
  counters().bytesSent += 8.0 * shareSize() * (c.size - 1);
  counters().bytesReceived += 8.0 * (elements() - shareSize());
  rowsIO(values_, dims_, false, 0, elements(), whole.data(), "'" + name_ + "' in memory");
}

} // namespace tc_rt
