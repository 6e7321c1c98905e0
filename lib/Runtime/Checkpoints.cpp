//===- Checkpoints.cpp - a loop's state in an HDF5 file, and back ---------===//
//
// The file (docs/Derivations.md D42; `program`, the executable's name, `loop`,
// its label, and `procs` only inform):
//   /            attributes format = "tc-checkpoint", version, program, loop,
//                loop_index, iteration, has_previous, previous, carried, procs
//   /carried/T   each carried tensor in tc's layout: a dense dataset, or a
//                block-sparse group (docs/BlockSparse.md)
//   /diis        attributes length, count; datasets values and errors, f64
//                [count, n]: the history, oldest first, each row the carried
//                tensors' values one after the other (n in all)
// Every rank writes its share of the rows (StoredTensors.h) through parallel
// HDF5, so the layout does not depend on the process count.
//
//===----------------------------------------------------------------------===//
#include "Checkpoints.h"

#include "BlockArray.h"
#include "Diis.h"
#include "StoredTensors.h"

#include <hdf5.h>

#include <cstdio>

namespace tc_rt {

namespace {

constexpr int64_t kFormatVersion = 1;
const char *const kSmallDatasets[] = {"segment_counts", "segments", "blocks",
                                      "offsets",        "flip",     "pairs"};

void putString(hid_t at, const char *name, const std::string &value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, std::max<size_t>(value.size(), 1));
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0 || H5Awrite(attr, type, value.empty() ? " " : value.c_str()) < 0)
    fail(std::string("cannot write checkpoint attribute ") + name);
  H5Aclose(attr), H5Sclose(space), H5Tclose(type);
}

template <typename T> void putNumber(hid_t at, const char *name, T value) {
  const hid_t type = std::is_floating_point_v<T> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0 || H5Awrite(attr, type, &value) < 0)
    fail(std::string("cannot write checkpoint attribute ") + name);
  H5Aclose(attr), H5Sclose(space);
}

/// The attribute `name` of `at` as a string (empty: none).
std::string getString(hid_t at, const char *name) {
  if (H5Aexists(at, name) <= 0)
    return "";
  hid_t attr = H5Aopen(at, name, H5P_DEFAULT);
  hid_t type = H5Aget_type(attr);
  std::string out;
  if (H5Tget_class(type) == H5T_STRING && !H5Tis_variable_str(type)) {
    out.resize(H5Tget_size(type));
    hid_t mem = H5Tcopy(H5T_C_S1);
    H5Tset_size(mem, out.size());
    H5Aread(attr, mem, out.data());
    H5Tclose(mem);
    out.erase(out.find_last_not_of(std::string(" \0", 2)) + 1);
  }
  H5Tclose(type), H5Aclose(attr);
  return out;
}

template <typename T> bool getNumber(hid_t at, const char *name, T &value) {
  if (H5Aexists(at, name) <= 0)
    return false;
  hid_t attr = H5Aopen(at, name, H5P_DEFAULT);
  const hid_t type = std::is_floating_point_v<T> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  const bool ok = H5Aread(attr, type, &value) >= 0;
  H5Aclose(attr);
  return ok;
}

std::string joined(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ",") + n;
  return out;
}

/// Creates a dataset of `dims` (collectively: every rank calls it).
hid_t createDataset(hid_t at, const char *name, hid_t type, const Shape &dims) {
  std::vector<hsize_t> e(dims.begin(), dims.end());
  hid_t space = dims.empty() ? H5Screate(H5S_SCALAR)
                             : H5Screate_simple(static_cast<int>(e.size()), e.data(), nullptr);
  hid_t d = H5Dcreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Sclose(space);
  if (d < 0)
    fail(std::string("cannot create checkpoint dataset ") + name);
  return d;
}

/// Rows [begin, end) of a carried tensor (its share), counted.
void writeRows(hid_t dataset, const Shape &dims, int64_t begin, int64_t end, double *data) {
  rowsIO(dataset, dims, false, begin, end, data, "the checkpoint");
  counters().bytesWritten += 8.0 * (end - begin);
}
void readRows(hid_t dataset, const Shape &dims, int64_t begin, int64_t end, double *data,
              const std::string &path) {
  rowsIO(dataset, dims, true, begin, end, data, "checkpoint " + path);
  counters().bytesRead += 8.0 * (end - begin);
}

/// Row `row`, columns [begin, end) of a 2-D dataset (the DIIS history), counted.
void historyIO(hid_t dataset, bool read, int64_t row, int64_t begin, int64_t end, double *data) {
  hid_t space = H5Dget_space(dataset);
  hsize_t start[2] = {static_cast<hsize_t>(row), static_cast<hsize_t>(begin)};
  hsize_t count[2] = {1, static_cast<hsize_t>(end - begin)};
  if (end > begin)
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  else
    H5Sselect_none(space);
  transferSelected(dataset, space, read, end - begin, data, "the DIIS history of a checkpoint");
  H5Sclose(space);
  (read ? counters().bytesRead : counters().bytesWritten) += 8.0 * (end - begin);
}

/// History entry `row` of the datasets `values` and `errors`: this rank's
/// share of each carried tensor, at the tensor's place in the row.
void historyRow(Diis &diis, hid_t values, hid_t errors, bool read, int64_t row, double *v,
                double *e) {
  int64_t at = 0;
  for (const DiisPiece &p : diis.pieces()) {
    historyIO(values, read, row, p.base + p.begin, p.base + p.end, v + at);
    historyIO(errors, read, row, p.base + p.begin, p.base + p.end, e + at);
    at += p.end - p.begin;
  }
}

/// A carried tensor into the checkpoint's group `carried`, in its stored layout.
void writeCarried(hid_t carried, const std::string &name, const std::string &loop) {
  StoredTensor t(name, "the checkpoint of loop " + loop);
  hid_t where = carried, group = -1;
  std::string valuesName = name;
  if (t.blockSparse()) {
    group = H5Gcreate2(carried, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const std::string what = "the checkpoint's group " + name;
    for (const char *small : kSmallDatasets) { // rank 0 writes the copy
      if ((std::string(small) == "flip" || std::string(small) == "pairs") &&
          H5Lexists(t.group(), small, H5P_DEFAULT) <= 0)
        continue; // not spin-restricted, no pair symmetries
      std::vector<hsize_t> dims;
      std::vector<int64_t> ints = readInts(t.group(), small, "tensor '" + name + "'", &dims);
      writeInts(group, small, dims, ints, what, /*everyRank=*/false);
    }
    where = group, valuesName = "values";
  }
  hid_t type = H5Dget_type(t.values());
  hid_t values = createDataset(where, valuesName.c_str(), type, t.dims());
  H5Tclose(type);
  std::vector<double> share(t.shareSize());
  t.readShare(share.data());
  writeRows(values, t.dims(), t.shareBegin(), t.shareEnd(), share.data());
  H5Dclose(values);
  if (group >= 0)
    H5Gclose(group);
}

} // namespace

void writeCheckpoint(const std::string &path, const std::string &loop,
                     const Context::OpenLoop &state) {
  Context &c = ctx();
  const std::string temporary = path + ".tmp";
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  hid_t file = H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (file < 0)
    fail("cannot create checkpoint " + temporary + " (for --checkpoint " + path + ")");
  putString(file, "format", "tc-checkpoint");
  putNumber<int64_t>(file, "version", kFormatVersion);
  putString(file, "program", c.program);
  putString(file, "loop", loop);
  putNumber<int64_t>(file, "loop_index", state.index);
  putNumber<int64_t>(file, "iteration", state.iteration);
  putNumber<int64_t>(file, "has_previous", state.hasPrevious);
  putNumber<double>(file, "previous", state.previous);
  putString(file, "carried", joined(state.carried));
  putNumber<int64_t>(file, "procs", c.size);
  hid_t carried = H5Gcreate2(file, "carried", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  for (const std::string &name : state.carried)
    writeCarried(carried, name, loop);
  H5Gclose(carried);
  if (Diis *diis = state.diis.get(); diis && diis->count() > 0) {
    hid_t group = H5Gcreate2(file, "diis", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    putNumber<int64_t>(group, "length", diis->length());
    putNumber<int64_t>(group, "count", diis->count());
    const Shape dims{diis->count(), diis->size()};
    hid_t values = createDataset(group, "values", H5T_IEEE_F64LE, dims);
    hid_t errors = createDataset(group, "errors", H5T_IEEE_F64LE, dims);
    std::vector<double> v, e;
    for (int k = 0; k < diis->count(); ++k) {
      diis->entry(k, v, e);
      historyRow(*diis, values, errors, /*read=*/false, k, v.data(), e.data());
    }
    H5Dclose(values), H5Dclose(errors), H5Gclose(group);
  }
  if (H5Fclose(file) < 0)
    fail("closing checkpoint " + temporary + " failed");
  MPI_Barrier(MPI_COMM_WORLD);
  if (c.rank == 0 && std::rename(temporary.c_str(), path.c_str()) != 0)
    fail("cannot rename " + temporary + " to " + path);
  MPI_Barrier(MPI_COMM_WORLD);
}

bool restoreCheckpoint(const std::string &path, const std::string &loop, Context::OpenLoop &state) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0)
    failOnRoot("cannot open checkpoint " + path + " (--restart)");
  int64_t version = 0;
  if (getString(file, "format") != "tc-checkpoint" || !getNumber(file, "version", version))
    failOnRoot(path + " is not a tc checkpoint (--restart)");
  if (version != kFormatVersion)
    failOnRoot("checkpoint " + path + " has format version " + std::to_string(version) +
               "; this program reads version " + std::to_string(kFormatVersion));
  // The loop by its place in the run (its label, a source location, only
  // informs: the program may have moved or been edited around it).
  int64_t index = -1;
  getNumber(file, "loop_index", index);
  if (index != state.index) { // a later loop's: this one runs from its start
    H5Fclose(file);
    return false;
  }
  const std::string carried = getString(file, "carried");
  if (carried != joined(state.carried))
    failOnRoot("checkpoint " + path + " of loop " + getString(file, "loop") + " carries [" +
               carried + "], loop " + loop + " of the program [" + joined(state.carried) + "]");
  for (const std::string &name : state.carried) {
    StoredTensor t(name, "--restart");
    const std::string object = "carried/" + name;
    hid_t group = t.blockSparse() ? H5Gopen2(file, object.c_str(), H5P_DEFAULT) : -1;
    hid_t values = t.blockSparse() ? (group < 0 ? -1 : H5Dopen2(group, "values", H5P_DEFAULT))
                                   : H5Dopen2(file, object.c_str(), H5P_DEFAULT);
    if (values < 0 || extentsOf(values) != t.dims() ||
        (t.blockSparse() && readInts(group, "blocks", "checkpoint " + path) !=
                                readInts(t.group(), "blocks", "tensor '" + name + "'")))
      failOnRoot("checkpoint " + path + ": /" + object +
                 " does not have the program's shape and blocks (a checkpoint of another "
                 "molecule or basis?)");
    std::vector<double> share(t.shareSize());
    readRows(values, t.dims(), t.shareBegin(), t.shareEnd(), share.data(), path);
    H5Dclose(values);
    if (group >= 0)
      H5Gclose(group);
    t.publish(share.data());
  }
  int64_t hasPrevious = 0;
  getNumber(file, "iteration", state.iteration);
  getNumber(file, "has_previous", hasPrevious);
  getNumber(file, "previous", state.previous);
  state.hasPrevious = hasPrevious != 0;
  Diis *diis = state.diis.get();
  if (diis && H5Lexists(file, "diis", H5P_DEFAULT) > 0) {
    hid_t group = H5Gopen2(file, "diis", H5P_DEFAULT);
    int64_t count = 0;
    getNumber(group, "count", count);
    hid_t values = H5Dopen2(group, "values", H5P_DEFAULT);
    hid_t errors = H5Dopen2(group, "errors", H5P_DEFAULT);
    diis->locate();
    if (values < 0 || errors < 0 || extentsOf(values) != Shape{count, diis->size()})
      failOnRoot("checkpoint " + path + ": the DIIS history does not fit the carried tensors");
    std::vector<double> v(diis->shareSize()), e(diis->shareSize());
    for (int64_t k = std::max<int64_t>(0, count - diis->length()); k < count; ++k) {
      historyRow(*diis, values, errors, /*read=*/true, k, v.data(), e.data());
      diis->append(v, e);
    }
    H5Dclose(values), H5Dclose(errors), H5Gclose(group);
  }
  H5Fclose(file);
  return true;
}

} // namespace tc_rt
