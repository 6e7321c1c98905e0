//===- Runs.cpp - index maps of one dimension as lists of runs -------------===//
#include "Runs.h"
#include "StridedCopy.h"

#include <algorithm>

namespace tc_rt {

int64_t total(const Runs &runs) {
  int64_t n = 0;
  for (const Run &r : runs)
    n += r.len;
  return n;
}

Shape lengths(const Selection &sel) {
  Shape s;
  for (const Runs &r : sel)
    s.push_back(total(r));
  return s;
}

int64_t elements(const Selection &sel) {
  int64_t n = 1;
  for (const Runs &r : sel)
    n *= total(r);
  return n;
}

Runs merged(const Runs &runs) {
  Runs out;
  for (const Run &r : runs) {
    if (r.len <= 0)
      continue;
    if (!out.empty() && out.back().from + out.back().len == r.from &&
        out.back().to + out.back().len == r.to)
      out.back().len += r.len;
    else
      out.push_back(r);
  }
  return out;
}

Runs packed(const Runs &runs, bool fromSide) {
  Runs out;
  int64_t at = 0;
  for (const Run &r : runs) {
    out.push_back({fromSide ? r.from : r.to, at, r.len});
    at += r.len;
  }
  return merged(out);
}

Selection packed(const Selection &sel, bool fromSide) {
  Selection out;
  for (const Runs &r : sel)
    out.push_back(packed(r, fromSide));
  return out;
}

Runs packedRange(const Runs &runs, int64_t lo, int64_t hi) {
  Runs out;
  int64_t at = 0;
  for (const Run &r : runs) {
    int64_t a = std::max(lo, at), b = std::min(hi, at + r.len);
    if (a < b)
      out.push_back({r.from + (a - at), r.to + (a - at), b - a});
    at += r.len;
  }
  return out;
}

Runs overlap(const Runs &x, const Runs &y) {
  Runs out;
  size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    const Run &a = x[i], &b = y[j];
    int64_t lo = std::max(a.to, b.to), hi = std::min(a.to + a.len, b.to + b.len);
    if (lo < hi)
      out.push_back({a.from + (lo - a.to), b.from + (lo - b.to), hi - lo});
    // Advance the run that ends first (both when they end together).
    if (a.to + a.len <= b.to + b.len)
      ++i;
    else
      ++j;
  }
  return out;
}

Selection overlap(const Selection &x, const Selection &y) {
  Selection out;
  for (size_t d = 0; d < x.size(); ++d)
    out.push_back(overlap(x[d], y[d]));
  return out;
}

std::vector<Pattern> patterns(const Runs &runs) {
  std::vector<Pattern> out;
  for (const Run &r : runs) {
    if (r.len <= 0)
      continue;
    if (!out.empty()) {
      Pattern &p = out.back();
      if (r.len == p.block && p.count == 1 && r.to >= p.start + p.block) {
        p.stride = r.to - p.start;
        p.count = 2;
        continue;
      }
      if (r.len == p.block && p.count > 1 && r.to == p.start + p.count * p.stride) {
        ++p.count;
        continue;
      }
    }
    out.push_back({r.to, r.len, 1, r.len});
  }
  return out;
}

} // namespace tc_rt
