//===- HostTensors.cpp - a host's tensors in place of files ---------------===//
//
// The tensors a host passes to tc_rt_embedded_run (Embedding.cpp,
// include/TC/Runtime/Embedding.h). An input becomes, before the program runs,
// the kept value of its name from every rank's row share (keepShares, as a
// restart's carried tensors do), so that each statement hands over what its
// layout needs and no rank holds it whole; a scalar input is read from a
// one-element HDF5 image in memory. An output is stored as an in-memory
// result (a whole copy on every rank, completed by an all-reduce, Hdf5IO.cpp)
// and each rank copies its rows into the host's buffer.
//
//===----------------------------------------------------------------------===//
#include "HostTensors.h"

#include "Context.h"
#include "DistArray.h"
#include "KeptTensors.h"
#include "StoredTensors.h"

#include <hdf5.h>

#include <string>
#include <vector>

namespace tc_rt {
namespace {

/// A one-element HDF5 file in memory holding `value` as dataset `name`.
hid_t scalarImage(const std::string &name, double value) {
  hid_t file = memoryFile("host-" + name);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t ds =
      H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0 || ds < 0 ||
      H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0)
    fail("cannot hold input '" + name + "' in memory");
  H5Dclose(ds);
  H5Sclose(space);
  return file;
}

/// The host's output `name`, or null.
const HostTensor *hostOutput(const std::string &name) {
  for (const HostTensor &t : hostTensors())
    if (t.output && t.name == name)
      return &t;
  return nullptr;
}

} // namespace

std::vector<HostTensor> &hostTensors() {
  static std::vector<HostTensor> tensors;
  return tensors;
}

void placeHostInputs() {
  for (const HostTensor &t : hostTensors()) {
    if (t.output)
      continue;
    if (t.extents.empty()) {
      ctx().options.inputs[t.name] = "host:" + t.name;
      adoptInputFile("host:" + t.name, scalarImage(t.name, *static_cast<double *>(t.local)));
    } else
      keepShares(t.name, t.extents, static_cast<const double *>(t.local));
  }
}

bool isHostOutput(const std::string &name) { return hostOutput(name) != nullptr; }

void copyHostOutput(const std::string &name, int64_t dataset) {
  const HostTensor *t = hostOutput(name);
  if (!t)
    return;
  // This rank's rows of the whole copy every rank holds.
  auto [begin, end] = StoredTensor::shareOf(t->extents, ctx().rank, ctx().size);
  if (t->extents.empty())
    begin = 0, end = 1; // a scalar: on every rank
  hid_t space = H5Dget_space(dataset);
  selectRows(space, t->extents, begin, end);
  transferSelected(dataset, space, /*read=*/true, end - begin, static_cast<double *>(t->local),
                   "output '" + name + "' for the host");
  H5Sclose(space);
}

} // namespace tc_rt
