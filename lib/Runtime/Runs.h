//===- Runs.h - index maps of one dimension as lists of runs ----*- C++ -*-===//
//
// What a process holds of an array is, per dimension, a list of runs: one run
// for a block, one per owned block of a block-cyclic dimension. Boxes are
// products of one run per dimension (a Selection). Redistribution intersects
// run lists, HDF5 I/O turns them into strided hyperslabs, the panel collectives
// pack them into messages.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_RUNS_H
#define TC_LIB_RUNTIME_RUNS_H

#include "StridedCopy.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tc_rt {

using Shape = std::vector<int64_t>;

/// `len` consecutive indices of one dimension from `from` on one side map to
/// `len` consecutive indices from `to` on the other (the sides: by use, e.g.
/// storage -> global, storage -> buffer, buffer -> packed message).
struct Run {
  int64_t from = 0, to = 0, len = 0;
  bool operator==(const Run &o) const { return from == o.from && to == o.to && len == o.len; }
};
using Runs = std::vector<Run>;
/// A product of run lists, one per dimension: the box of one run per dimension,
/// for every combination.
using Selection = std::vector<Runs>;

/// Sum of the runs' lengths.
int64_t total(const Runs &runs);
/// Per dimension, the total length (the packed shape).
Shape lengths(const Selection &sel);
/// Number of elements (0 if any dimension is empty).
int64_t elements(const Selection &sel);

/// Consecutive runs contiguous on both sides merged into one.
Runs merged(const Runs &runs);
/// The runs with their `from` side (fromSide) or their `to` side kept as `from`
/// and `to` the position in their concatenation (a packed message), merged.
Runs packed(const Runs &runs, bool fromSide);
Selection packed(const Selection &sel, bool fromSide);
/// The part of `runs` covering positions [lo, hi) of their concatenation.
Runs packedRange(const Runs &runs, int64_t lo, int64_t hi);

/// Where two run lists that map to one index space on their `to` side (global
/// indices) meet: runs from x's `from` to y's `from`, in ascending `to` order
/// (both lists must be ascending and non-overlapping in `to`).
Runs overlap(const Runs &x, const Runs &y);
Selection overlap(const Selection &x, const Selection &y);

/// Calls fn(from, to, len) for every box of the selection (none if a dimension
/// has no run), row-major over the runs. A template, allocating only the
/// box's three shapes: redistributions between small arrays run it several
/// times per statement.
template <typename F> void forEachBox(const Selection &sel, F &&fn) {
  const size_t d = sel.size();
  for (const Runs &r : sel)
    if (r.empty())
      return;
  std::vector<size_t> idx(d, 0);
  Shape from(d), to(d), len(d);
  for (;;) {
    for (size_t i = 0; i < d; ++i) {
      const Run &r = sel[i][idx[i]];
      from[i] = r.from, to[i] = r.to, len[i] = r.len;
    }
    fn(static_cast<const Shape &>(from), static_cast<const Shape &>(to),
       static_cast<const Shape &>(len));
    int i = static_cast<int>(d) - 1;
    while (i >= 0 && ++idx[i] == sel[i].size())
      idx[i--] = 0;
    if (i < 0)
      return;
  }
}

/// Copies each box of `sel` between row-major buffers: from `x` (shape xShape,
/// at the box's `from`) to `y` (shape yShape, at its `to`), or back.
template <typename T>
void copyBoxes(T *x, const Shape &xShape, T *y, const Shape &yShape,
               const Selection &sel, bool xToY) {
  Shape xs = rowMajorStrides(xShape), ys = rowMajorStrides(yShape);
  forEachBox(sel, [&](const Shape &from, const Shape &to, const Shape &len) {
    int64_t xo = 0, yo = 0;
    for (size_t i = 0; i < len.size(); ++i) {
      xo += from[i] * xs[i];
      yo += to[i] * ys[i];
    }
    if (xToY)
      copyStrided(y + yo, ys, x + xo, xs, len);
    else
      copyStrided(x + xo, xs, y + yo, ys, len);
  });
}

/// Splits `runs` into maximal regular patterns (HDF5 hyperslabs) of their `to`
/// side: `count` runs of length `block`, `stride` apart, from `start`.
struct Pattern {
  int64_t start = 0, stride = 1, count = 0, block = 0;
};
std::vector<Pattern> patterns(const Runs &runs);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_RUNS_H
