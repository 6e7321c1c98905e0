//===- Diis.cpp - Pulay's DIIS over a loop's carried tensors --------------===//
//
// With the history's values t_k and errors e_k (k = 1..m, e_k = t_k minus the
// values iteration k started from), the next values are sum_k c_k t_k where c
// minimizes |sum_k c_k e_k| subject to sum_k c_k = 1: the Lagrangian's
// equations [B -1; -1 0] [c; lambda] = [0; -1] with B_kl = <e_k, e_l>
// (Pulay 1980; docs/Derivations.md D41).
//
//===----------------------------------------------------------------------===//
#include "Diis.h"
#include "BlockArray.h"
#include "KeptTensors.h"

#include "Context.h"
#include "StoredTensors.h"

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace tc_rt {

namespace {

/// BLAS's int counts, in pieces: a share out of core may exceed them.
constexpr int64_t kBlasPiece = int64_t(1) << 30;

double dot(int64_t n, const double *x, const double *y) {
  double s = 0;
  for (int64_t at = 0; at < n; at += kBlasPiece)
    s += cblas_ddot(static_cast<blasint>(std::min(kBlasPiece, n - at)), x + at, 1, y + at, 1);
  return s;
}

/// sum_i x[i] w[i] y[i], weighting x a piece at a time on the stack (a
/// whole weighted copy would take another share of memory, where the
/// history may be on disk for want of it).
double weightedDot(int64_t n, const double *x, const double *w, const double *y) {
  constexpr int64_t kPiece = 1024;
  double piece[kPiece];
  double s = 0;
  for (int64_t at = 0; at < n; at += kPiece) {
    const int64_t len = std::min(kPiece, n - at);
    for (int64_t i = 0; i < len; ++i)
      piece[i] = x[at + i] * w[at + i];
    s += cblas_ddot(static_cast<blasint>(len), piece, 1, y + at, 1);
  }
  return s;
}

void axpy(int64_t n, double a, const double *x, double *y) {
  for (int64_t at = 0; at < n; at += kBlasPiece)
    cblas_daxpy(static_cast<blasint>(std::min(kBlasPiece, n - at)), a, x + at, 1, y + at, 1);
}

} // namespace

std::vector<double> diisCoefficients(const std::vector<double> &b, int m) {
  // The bordered system in c' = D^1/2 c, with N = D^-1/2 B D^-1/2 the
  // overlaps normalized to a unit diagonal and the border D^-1/2 1 scaled to
  // a largest entry of 1: every entry is at most 1 in size, whatever the
  // errors' lengths (which shrink by orders of magnitude towards
  // convergence), so a small pivot means errors that are (nearly) linearly
  // dependent in a way no combination summing to one can use.
  std::vector<double> scale(m);
  double border = 0;
  for (int k = 0; k < m; ++k) {
    if (!(b[k * m + k] > 0) || !std::isfinite(b[k * m + k]))
      return {}; // an error of zero: nothing to extrapolate from
    scale[k] = 1 / std::sqrt(b[k * m + k]);
    border = std::max(border, scale[k]);
  }
  const int n = m + 1;
  std::vector<double> a(n * n, 0.0), x(n, 0.0);
  for (int k = 0; k < m; ++k) {
    for (int l = 0; l < m; ++l)
      a[k * n + l] = b[k * m + l] * scale[k] * scale[l];
    a[k * n + m] = a[m * n + k] = -scale[k] / border;
  }
  x[m] = -1 / border;
  // Gaussian elimination with partial pivoting.
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col]))
        pivot = r;
    if (!(std::fabs(a[pivot * n + col]) > kDiisPivot))
      return {};
    if (pivot != col) {
      for (int l = 0; l < n; ++l)
        std::swap(a[col * n + l], a[pivot * n + l]);
      std::swap(x[col], x[pivot]);
    }
    for (int r = col + 1; r < n; ++r) {
      const double f = a[r * n + col] / a[col * n + col];
      for (int l = col; l < n; ++l)
        a[r * n + l] -= f * a[col * n + l];
      x[r] -= f * x[col];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double s = x[r];
    for (int l = r + 1; l < n; ++l)
      s -= a[r * n + l] * x[l];
    x[r] = s / a[r * n + r];
  }
  std::vector<double> c(m);
  double sum = 0;
  for (int k = 0; k < m; ++k) {
    c[k] = x[k] * scale[k];
    sum += c[k];
  }
  if (!(std::fabs(sum) > 0) || !std::isfinite(sum))
    return {};
  for (double &v : c) {
    v /= sum; // 1 up to rounding
    if (!(std::fabs(v) <= kDiisLargestCoefficient))
      return {};
  }
  return c;
}

Diis::Diis(std::vector<std::string> names, int64_t length, std::string loop)
    : names_(std::move(names)), length_(length), loop_(std::move(loop)), b_(length * length, 0.0) {}

Diis::~Diis() {
  if (fd_ >= 0)
    ::close(fd_);
}

/// Where each carried tensor's share lies; the history in memory when every
/// carried tensor is kept in memory, else in a scratch file.
void Diis::locate() {
  if (located_)
    return;
  located_ = true;
  Context &c = ctx();
  allKept_ = true;
  for (const std::string &name : names_) {
    // A tensor kept in memory is read as shares where it is kept; opening it
    // as a stored tensor would make it whole on every rank.
    Shape dims;
    if (keptAsRows(name, dims)) {
      auto [begin, end] = StoredTensor::shareOf(dims, c.rank, c.size);
      pieces_.push_back({name, dims, total_, begin, end});
      total_ += product(dims);
      share_ += end - begin;
      if (!weights_.empty())
        weights_.resize(share_, 1.0);
      continue;
    }
    allKept_ = false;
    StoredTensor t(name, "DIIS of loop " + loop_);
    DiisPiece p{name, t.dims(), total_, t.shareBegin(), t.shareEnd()};
    pieces_.push_back(p);
    // Weights for the blocks a stored one stands for, else 1.
    std::vector<double> w;
    if (t.blockSparse())
      w = elementMultiplicities(t.group(), "tensor '" + name + "'");
    if (!w.empty() || !weights_.empty()) {
      weights_.resize(share_, 1.0); // the pieces before: weight 1
      if (w.empty())
        weights_.resize(share_ + t.shareSize(), 1.0);
      else
        weights_.insert(weights_.end(), w.begin() + t.shareBegin(), w.begin() + t.shareEnd());
    }
    total_ += t.elements();
    share_ += t.shareSize();
    onDisk_ |= !t.inMemory();
  }
  checkpointShare_ = share_;
  if (!onDisk_) {
    memory_.assign(2 * length_ * share_, 0.0);
    useWhole(wholeNow());
    return;
  }
  const std::string path =
      c.options.scratch + "/.tc-diis-" + std::to_string(c.jobId) + "-" + std::to_string(c.rank);
  fd_ = openScratch(c.options.scratch, path);
  if (fd_ < 0)
    fail("cannot create a scratch file for the DIIS history of loop " + loop_ + " in " +
         c.options.scratch);
}

bool Diis::wholeNow() const {
  // Every rank decides alike, from the layouts alone.
  return allKept_ && !onDisk_ &&
         std::all_of(names_.begin(), names_.end(), [](const std::string &n) {
           Shape dims;
           return keptWholeEverywhere(n, dims);
         });
}

std::vector<double> Diis::sharesOf(const double *whole) const {
  std::vector<double> shares;
  shares.reserve(checkpointShare_);
  for (const DiisPiece &p : pieces_)
    shares.insert(shares.end(), whole + p.base + p.begin, whole + p.base + p.end);
  return shares;
}

std::vector<double> Diis::wholeOf(const double *shares) const {
  Context &c = ctx();
  std::vector<double> whole(total_);
  for (const DiisPiece &p : pieces_) {
    std::vector<int> counts(c.size), displacements(c.size);
    for (int r = 0; r < c.size; ++r) {
      auto [begin, end] = StoredTensor::shareOf(p.dims, r, c.size);
      counts[r] = static_cast<int>(end - begin);
      displacements[r] = static_cast<int>(begin);
    }
    MPI_Allgatherv(shares, static_cast<int>(p.end - p.begin), MPI_DOUBLE, whole.data() + p.base,
                   counts.data(), displacements.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    shares += p.end - p.begin;
  }
  return whole;
}

void Diis::useWhole(bool whole) {
  if (whole == whole_)
    return;
  // The plan may hold a carried tensor whole before the loop and split in it
  // (or the other way): the history and the start follow (collective).
  auto convert = [&](const double *v) { return whole ? wholeOf(v) : sharesOf(v); };
  const int64_t from = share_, to = whole ? total_ : checkpointShare_;
  if (startRead_) // every rank alike (an empty share is a share too)
    start_ = convert(start_.data());
  std::vector<double> memory(2 * length_ * to);
  for (int64_t slot = 0; slot < 2 * length_; ++slot) {
    std::vector<double> v = convert(memory_.data() + slot * from);
    std::copy(v.begin(), v.end(), memory.begin() + slot * to);
  }
  memory_.swap(memory);
  share_ = to;
  whole_ = whole;
}

int64_t Diis::heldOf(const DiisPiece &p) const {
  return whole_ ? product(p.dims) : p.end - p.begin;
}

void Diis::readCarried(std::vector<double> &out) {
  out.resize(share_);
  double *at = out.data();
  for (const DiisPiece &p : pieces_) {
    Shape dims;
    if (whole_) {
      if (!keptWholeEverywhere(p.name, dims) || dims != p.dims)
        fail("DIIS of loop " + loop_ + ": tensor '" + p.name + "' changed its shape");
      readKeptWhole(p.name, at);
      at += heldOf(p);
      continue;
    }
    if (keptAsRows(p.name, dims)) {
      if (dims != p.dims)
        fail("DIIS of loop " + loop_ + ": tensor '" + p.name + "' changed its shape");
      readKeptShare(p.name, at);
      at += p.end - p.begin;
      continue;
    }
    StoredTensor t(p.name, "DIIS of loop " + loop_);
    if (t.shareBegin() != p.begin || t.shareEnd() != p.end)
      fail("DIIS of loop " + loop_ + ": tensor '" + p.name + "' changed its shape");
    t.readShare(at);
    at += t.shareSize();
  }
}

void Diis::slotIO(int slot, int which, bool read, double *data) {
  const int64_t at = (2 * static_cast<int64_t>(slot) + which) * share_;
  if (!onDisk_) {
    double *m = memory_.data() + at;
    read ? std::copy(m, m + share_, data) : std::copy(data, data + share_, m);
    return;
  }
  fileIO(fd_, read, data, share_ * sizeof(double), at * sizeof(double),
         "the DIIS history of loop " + loop_, ctx().options.scratch);
}

const double *Diis::slotData(int slot, int which, std::vector<double> &scratch) {
  if (!onDisk_)
    return memory_.data() + (2 * static_cast<int64_t>(slot) + which) * share_;
  scratch.resize(share_);
  slotIO(slot, which, true, scratch.data());
  return scratch.data();
}

void Diis::beginIteration() {
  locate();
  useWhole(wholeNow());
  if (!startKnown_)
    readCarried(start_);
  startRead_ = true;
  startKnown_ = false;
}

void Diis::record(const std::vector<double> &values, const std::vector<double> &errors) {
  int slot;
  if (count() < length_) {
    std::vector<bool> used(length_, false);
    for (int s : order_)
      used[s] = true;
    slot = static_cast<int>(std::find(used.begin(), used.end(), false) - used.begin());
  } else {
    slot = order_.front();
    order_.pop_front();
  }
  slotIO(slot, 0, false, const_cast<double *>(values.data()));
  slotIO(slot, 1, false, const_cast<double *>(errors.data()));
  order_.push_back(slot);
  // The new error's overlaps with every entry's (its own included), by BLAS:
  // a loop's one running sum waits on each add (a water STO-3G iteration's
  // DIIS took twice as long).
  std::vector<double> dots(order_.size(), 0.0), other;
  for (size_t k = 0; k < order_.size(); ++k) {
    const double *e = order_[k] == slot ? errors.data() : slotData(order_[k], 1, other);
    dots[k] = weights_.empty() ? dot(share_, errors.data(), e)
                               : weightedDot(share_, errors.data(), weights_.data(), e);
  }
  if (!whole_) // each rank summed its share; whole, every rank summed all
    MPI_Allreduce(MPI_IN_PLACE, dots.data(), static_cast<int>(dots.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  for (size_t k = 0; k < order_.size(); ++k)
    b_[slot * length_ + order_[k]] = b_[order_[k] * length_ + slot] = dots[k];
}

void Diis::append(const std::vector<double> &values, const std::vector<double> &errors) {
  locate();
  if (whole_)
    record(wholeOf(values.data()), wholeOf(errors.data()));
  else
    record(values, errors);
}

void Diis::entry(int k, std::vector<double> &values, std::vector<double> &errors) {
  values.resize(share_), errors.resize(share_);
  slotIO(order_[k], 0, true, values.data());
  slotIO(order_[k], 1, true, errors.data());
  if (whole_) {
    values = sharesOf(values.data());
    errors = sharesOf(errors.data());
  }
}

int Diis::endIteration() {
  useWhole(wholeNow());
  std::vector<double> values, errors(share_);
  readCarried(values);
  for (int64_t i = 0; i < share_; ++i)
    errors[i] = values[i] - start_[i];
  record(values, errors);
  // Unless extrapolated below, the next iteration starts from these values.
  auto startNextFrom = [&](std::vector<double> &carried) {
    start_.swap(carried);
    startKnown_ = true;
  };
  const int m = count();
  if (m < 2) {
    startNextFrom(values);
    return 1;
  }
  std::vector<double> b(m * m);
  for (int k = 0; k < m; ++k)
    for (int l = 0; l < m; ++l)
      b[k * m + l] = b_[order_[k] * length_ + order_[l]];
  std::vector<double> coefficients = diisCoefficients(b, m);
  // Whole, each rank solved its own copy of the system: rank 0's answer
  // decides for all, so that every rank extrapolates or none (copies that
  // differ in the last bits, e.g. from other BLAS kernels, could decide
  // apart at a pivot's or coefficient's limit).
  if (whole_) {
    std::vector<double> decided(m + 1, 0.0);
    decided[0] = coefficients.empty() ? 0 : 1;
    std::copy(coefficients.begin(), coefficients.end(), decided.begin() + 1);
    MPI_Bcast(decided.data(), m + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    coefficients.assign(decided[0] != 0 ? decided.begin() + 1 : decided.end(), decided.end());
  }
  if (coefficients.empty()) { // singular (errors not independent): plain iteration
    startNextFrom(values);
    return 1;
  }
  std::vector<double> next(share_, 0.0);
  for (int k = 0; k < m; ++k)
    axpy(share_, coefficients[k], slotData(order_[k], 0, values), next.data());
  // A kept tensor's next value stays as each rank's share (later statements
  // hand over from there); a stored one is published to the store.
  const double *at = next.data();
  bool allKept = true;
  for (const DiisPiece &p : pieces_) {
    Shape dims;
    if (whole_) {
      keepWhole(p.name, p.dims, at);
    } else if (keptAsRows(p.name, dims)) {
      keepShares(p.name, dims, at);
    } else {
      StoredTensor t(p.name, "DIIS of loop " + loop_);
      t.publish(at);
      allKept = false;
    }
    at += heldOf(p);
  }
  // A stored tensor may hold fewer digits than `next` (f32): the next
  // iteration then reads what it holds.
  if (allKept)
    startNextFrom(next);
  return m;
}

} // namespace tc_rt
