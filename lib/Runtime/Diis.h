//===- Diis.h - Pulay's DIIS over a loop's carried tensors ----------------===//
//
// Direct inversion in the iterative subspace (Pulay 1980; docs/Derivations.md
// D41): after each iteration the carried tensors' next values are the
// combination of the last N iterations' values whose errors (each
// iteration's change) combine to the smallest norm, with coefficients that
// sum to one. Each rank works on its share of the tensors' values
// (StoredTensors.h); the history holds the shares, in memory, or in a scratch
// file when the carried tensors live in the intermediates file (out of core).
// Where every carried tensor is kept whole on every rank (computed so, D58),
// each rank works on all of the values instead, and nothing moves.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_DIIS_H
#define TC_LIB_RUNTIME_DIIS_H

#include "DistArray.h"

#include <deque>
#include <string>
#include <vector>

namespace tc_rt {

/// Where a carried tensor's values lie in the vector DIIS works on (the
/// tensors' values one after the other, in `carried` order).
struct DiisPiece {
  std::string name;
  Shape dims;        ///< of its values' dataset
  int64_t base = 0;  ///< its first value's place in the vector
  int64_t begin = 0; ///< this rank's share of its values: [begin, end)
  int64_t end = 0;
};

/// A pivot of the normalized DIIS system below this: errors dependent in a
/// way no combination can use, no extrapolation.
constexpr double kDiisPivot = 1e-12;
/// A coefficient larger than this in size: the least error is reached only
/// by cancelling nearly equal errors (a scalar that changes by the same
/// amount every iteration has no such combination at all), which rounding
/// decides, not the iteration; the extrapolation would multiply rounding by
/// the coefficient. No extrapolation then either (docs/Derivations.md D41).
constexpr double kDiisLargestCoefficient = 1e4;

/// The DIIS coefficients for the error overlaps `b` (m x m, row-major): the
/// combination of least norm whose coefficients sum to one, or none when the
/// system is singular (up to kDiisPivot), a coefficient exceeds
/// kDiisLargestCoefficient in size, or an error is zero.
std::vector<double> diisCoefficients(const std::vector<double> &b, int m);

class Diis {
public:
  /// DIIS over the stored tensors `names` from the last `length` iterations.
  Diis(std::vector<std::string> names, int64_t length, std::string loop);
  ~Diis();

  /// Before an iteration: keeps this rank's share of the values it starts from.
  void beginIteration();
  /// After an iteration another follows: adds its values and error to the
  /// history and, from two entries on, stores the extrapolation as the
  /// carried tensors' next values. Returns the entries used (1: none
  /// extrapolated). Collective.
  int endIteration();

  /// Finds the carried tensors' shares (on first use; collective).
  void locate();

  int64_t length() const { return length_; }
  int count() const { return static_cast<int>(order_.size()); }
  int64_t size() const { return total_; } ///< values in the whole vector
  const std::vector<DiisPiece> &pieces() const { return pieces_; }
  /// This rank's share of the vector (the pieces' [begin, end)), what a
  /// checkpoint writes and reads.
  int64_t shareSize() const { return checkpointShare_; }
  /// History entry k (0: the oldest): this rank's share of the values and errors.
  void entry(int k, std::vector<double> &values, std::vector<double> &errors);
  /// Appends an entry (this rank's share, a checkpoint's), as endIteration
  /// records one. Collective.
  void append(const std::vector<double> &values, const std::vector<double> &errors);

private:
  void readCarried(std::vector<double> &out);
  /// The values of `p` in the vector this rank works on.
  int64_t heldOf(const DiisPiece &p) const;
  /// Whether every carried tensor is kept whole on every rank now.
  bool wholeNow() const;
  /// This rank's shares of a whole vector, and (collective) the whole vector
  /// from every rank's shares.
  std::vector<double> sharesOf(const double *whole) const;
  std::vector<double> wholeOf(const double *shares) const;
  /// Works on whole vectors (true) or shares from now on, the history and the
  /// start converted (collective).
  void useWhole(bool whole);
  void slotIO(int slot, int which, bool read, double *data);
  /// A slot's values (which 0) or errors (1): in the history itself when it
  /// is in memory, else read into `scratch`.
  const double *slotData(int slot, int which, std::vector<double> &scratch);
  /// Records (values, errors) in a free slot, the oldest one's when full;
  /// its overlaps with the other entries' errors go into b_. Collective.
  void record(const std::vector<double> &values, const std::vector<double> &errors);

  std::vector<std::string> names_;
  int64_t length_;
  std::string loop_;
  std::vector<DiisPiece> pieces_;
  /// Values in the vector this rank works on (its share, or all of them when
  /// whole_), in the whole vector, and in this rank's share.
  int64_t share_ = 0, total_ = 0, checkpointShare_ = 0;
  bool located_ = false, onDisk_ = false;
  /// Every carried tensor is kept whole on every rank: each rank works on
  /// all the values, the same on every rank, and keeps them so.
  bool whole_ = false;
  /// Every carried tensor was kept in memory when DIIS located them (the
  /// history is in memory): whole_ may be set.
  bool allKept_ = false;
  std::vector<double> start_;  ///< the iteration's starting values (this rank's share)
  /// start_ holds the next iteration's starting values already: what
  /// endIteration left in the carried tensors (nothing changes them before the
  /// next iteration begins), so beginIteration need not read them again.
  bool startKnown_ = false;
  bool startRead_ = false;     ///< start_ holds values (of the current mode)
  std::vector<double> memory_; ///< the history in memory: per slot values, then errors
  int fd_ = -1;                ///< or in a scratch file
  std::deque<int> order_;      ///< the slots in use, oldest first
  std::vector<double> b_;      ///< error overlaps by slot (length x length)
  /// Per element of this rank's share, how many elements of the whole
  /// tensors it stands for (a block-sparse tensor's stored block for its
  /// flipped and exchanged ones): the overlaps are those of the whole
  /// tensors. Empty: all 1.
  std::vector<double> weights_;
};

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_DIIS_H
