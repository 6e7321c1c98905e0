//===- StoredTensors.h - a named tensor of the intermediates store --------===//
//
// A loop's carried tensors live in the intermediates store under their names
// (Hdf5IO.cpp): a dense dataset, or a block-sparse group whose `values` hold
// its blocks in the tensor's block order, in each rank's memory (the whole
// tensor) or in the shared intermediates file. DIIS and checkpoints see such a
// tensor as one array of values, each rank a share of its rows.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_STOREDTENSORS_H
#define TC_LIB_RUNTIME_STOREDTENSORS_H

#include "DistArray.h"

#include <hdf5.h>

#include <string>
#include <vector>

namespace tc_rt {

class StoredTensor {
public:
  /// Opens the stored tensor `name`; a tensor nothing stored fails on every
  /// rank, naming `use`.
  StoredTensor(const std::string &name, const std::string &use);
  ~StoredTensor();
  StoredTensor(const StoredTensor &) = delete;
  StoredTensor &operator=(const StoredTensor &) = delete;

  const std::string &name() const { return name_; }
  bool inMemory() const { return inMemory_; }
  bool blockSparse() const { return group_ >= 0; }
  hid_t group() const { return group_; }      ///< block-sparse: the group
  hid_t values() const { return values_; }    ///< the dataset of the values
  const Shape &dims() const { return dims_; } ///< the values' dataset extents
  int64_t elements() const { return product(dims_); }
  /// This rank's share: whole rows of dimension 0 (elements of a block-sparse
  /// tensor's values), rank r the r-th block of ceil(rows / P) rows, as
  /// element offsets.
  int64_t shareBegin() const { return shareBegin_; }
  int64_t shareEnd() const { return shareEnd_; }
  int64_t shareSize() const { return shareEnd_ - shareBegin_; }
  /// Reads this rank's share (in f64, whatever the element type).
  void readShare(double *out) const;
  /// Makes `share` (this rank's, every rank calling) the tensor's new value:
  /// in memory every rank's copy gets every share, in the intermediates file
  /// each rank writes its own. Collective.
  void publish(const double *share);

  /// Row-aligned element range [begin, end) of rank `r` of `p`: the rows a
  /// layout distributed along dimension 0 over [p] gives rank r.
  static std::pair<int64_t, int64_t> shareOf(const Shape &dims, int r, int p);

private:
  std::string name_, where_;
  bool inMemory_ = false;
  hid_t group_ = -1, values_ = -1;
  Shape dims_;
  int64_t shareBegin_ = 0, shareEnd_ = 0;
};

/// Selects the element range [begin, end) (whole rows of dimension 0, or any
/// range of a 1-D or scalar dataset) in `space` of extents `dims`.
void selectRows(hid_t space, const Shape &dims, int64_t begin, int64_t end);

/// Reads (or writes) the `n` elements selected in `space` of `dataset` as
/// f64 from (into) `data`; a failure ends the run, naming `what`.
void transferSelected(hid_t dataset, hid_t space, bool read, int64_t n, double *data,
                      const std::string &what);

/// transferSelected of the element range [begin, end) (selectRows).
void rowsIO(hid_t dataset, const Shape &dims, bool read, int64_t begin, int64_t end, double *data,
            const std::string &what);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_STOREDTENSORS_H
