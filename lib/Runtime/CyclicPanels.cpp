//===- CyclicPanels.cpp - PUMMA's panel collectives on block-cyclic arrays -===//
//
// PUMMA (Choi, Dongarra, Walker, section 3; notes 3.3 "MDB2, processor view"
// and 3.4 "Processor view") multiplies block-cyclic matrices stage by stage. At
// stage K1 of MDB2 (C = A B on a P x Q template) template column q holds A's
// block columns KP = c (mod Q) and needs B's block rows KP = c (mod Q), which
// the template rows hold cyclically (mod P): the panel of residue c, modulus Q
// of B's row dimension, gathered within the column (tc_rt_gather_cyclic). For
// C = A^T B each processor of a column computes a partial sum of a panel of C
// and the column reduces it onto the blocks' owners (tc_rt_reduce_cyclic).
// The modulus need not be the group's size: with P and Q relatively prime
// every member owns blocks of every panel.
//
// Both are direct exchanges within the group along the dimension's grid
// dimension (GroupExchange.h): a member's part is the panel's blocks it owns,
// clipped to the extent and to the real local rows of the other dimensions.
//
//===----------------------------------------------------------------------===//
#include "GroupExchange.h"
#include "TC/Layout/Ownership.h"

#include <algorithm>
#include <cstring>

namespace tc_rt {
namespace {

const int kGatherCyclicTag = 23;
const int kReduceCyclicTag = 24;

/// A panel call's arguments, checked.
struct Panel {
  int dim = 0, g = 0; ///< the cyclic dimension, its grid dimension
  int64_t modulus = 1, residue = 0;
  Shape shape; ///< of the buffer
};

Panel panelOf(const DistArray &a, const int64_t *desc, int64_t residue, const char *call) {
  CyclicPanelDescView v(desc);
  std::string who = std::string(call) + ": array '" + a.name + "'";
  if (v.rank() != a.rank())
    fail(who + " has rank " + std::to_string(a.rank()) + ", the panel description " +
         std::to_string(v.rank()));
  Panel p;
  if (v.dim() < 0 || v.dim() >= a.rank() || !a.isCyclic(static_cast<int>(v.dim())))
    fail(who + ": panel dimension " + std::to_string(v.dim()) + " is not a block-cyclic "
         "dimension of the array");
  p.dim = static_cast<int>(v.dim());
  p.g = static_cast<int>(a.gridDim[p.dim]);
  p.modulus = v.modulus();
  p.residue = residue;
  p.shape = v.shape();
  if (p.modulus < 1 || residue < 0 || residue >= p.modulus)
    fail(who + ": residue " + std::to_string(residue) + " modulo " +
         std::to_string(p.modulus) + " (need modulus >= 1 and 0 <= residue < modulus)");
  int64_t nb = a.cyclic[p.dim];
  int64_t rows = tc_layout::cyclicRows(a.extents[p.dim], nb, p.modulus);
  if (p.shape[p.dim] < rows)
    fail(who + ": a panel buffer of shape " + str(p.shape) + " has " +
         std::to_string(p.shape[p.dim]) + " rows in dimension " + std::to_string(p.dim) +
         ", the panel up to " + std::to_string(rows));
  for (int e = 0; e < a.rank(); ++e) {
    if (e == p.dim)
      continue;
    // The padded storage rows, the same on every process (an idle one stores none).
    if (p.shape[e] != a.storeRows(e))
      fail(who + ": a panel buffer of shape " + str(p.shape) + " but dimension " +
           std::to_string(e) + " is stored with " + std::to_string(a.storeRows(e)) + " rows");
    // The members must hold the same rows of the other dimensions.
    if (a.gridDim[e] == p.g)
      fail(who + ": dimension " + std::to_string(e) + " is distributed along grid dimension " +
           std::to_string(p.g) + " too, the panel's group");
  }
  return p;
}

/// The part of the panel held at grid coordinates `at`: runs from storage to
/// panel index. Panel row t nb + x is element (residue + t modulus) nb + x.
Selection heldPart(const DistArray &a, const Panel &p, const std::vector<int> &at) {
  Selection sel;
  for (int e = 0; e < a.rank(); ++e) {
    if (e != p.dim) {
      int64_t len = a.localLen(e, at);
      sel.push_back(len > 0 ? Runs{{0, 0, len}} : Runs{});
      continue;
    }
    Runs runs;
    int64_t nb = a.cyclic[e], extent = a.extents[e], G = a.grid[p.g];
    int64_t c = a.cyclicCoord(e, at);
    // Block I is the (I / G)-th of the coordinate I mod G holds.
    for (int64_t t = 0, I = p.residue; I * nb < extent; ++t, I += p.modulus)
      if (I % G == c)
        runs.push_back({(I / G) * nb, t * nb, std::min(nb, extent - I * nb)});
    sel.push_back(runs);
  }
  return sel;
}

/// Every member's part (storage -> panel index), by coordinate.
std::vector<Selection> heldParts(const DistArray &a, const Panel &p, const Group &grp) {
  std::vector<Selection> parts;
  for (const std::vector<int> &at : grp.coords)
    parts.push_back(heldPart(a, p, at));
  return parts;
}

/// The parts as buffer -> packed index (the messages).
std::vector<Selection> inBuffer(const std::vector<Selection> &held) {
  std::vector<Selection> parts;
  for (const Selection &s : held)
    parts.push_back(packed(s, /*fromSide=*/false));
  return parts;
}

std::string panelName(const Panel &p) {
  return "panel " + std::to_string(p.residue) + " mod " + std::to_string(p.modulus) +
         " of dimension " + std::to_string(p.dim);
}

} // namespace
} // namespace tc_rt

using namespace tc_rt;

namespace {
template <typename T>
void gatherCyclic(DistArray &a, T *buf, const Panel &p, const char *call) {
  Group grp = groupAlong(a, p.g);
  std::vector<Selection> held = heldParts(a, p, grp);
  // Own part: from storage into its place in the panel (disk reads counted).
  transferRuns(a, true, held[grp.me], buf, p.shape, panelName(p) + " to gather");
  tc_rt_wait(startGather(a, grp, buf, p.shape, inBuffer(held), kGatherCyclicTag, call));
}

template <typename T>
void reduceCyclic(DistArray &a, T *buf, const Panel &p, const char *call) {
  Group grp = groupAlong(a, p.g);
  std::vector<Selection> held = heldParts(a, p, grp);
  // storage += the group's sum, piece by piece through a packed copy of the
  // own rows of the piece.
  const Selection own = packed(held[grp.me], /*fromSide=*/true);
  const std::string what = panelName(p) + " to reduce into";
  Buffer<T> rows;
  reduceToOwners<T>(a, grp, buf, p.shape, inBuffer(held), kReduceCyclicTag, call,
                    [&](int64_t lo, int64_t hi, T *sum) {
                      const Selection piece = rowsOf(own, lo, hi);
                      const int64_t n = elements(piece);
                      if (rows.size() < n)
                        rows.resize(n);
                      transferRuns(a, true, piece, rows.data(), lengths(piece), what);
                      for (int64_t i = 0; i < n; ++i)
                        rows[i] += sum[i];
                      transferRuns(a, false, piece, rows.data(), lengths(piece), what);
                    });
}
} // namespace

extern "C" void tc_rt_gather_cyclic(void *array, void *buf, const int64_t *desc,
                                    int64_t residue) {
  tc_rt::TraceScope trace("tc_rt_gather_cyclic");
  const char *call = "tc_rt_gather_cyclic";
  DistArray &a = *static_cast<DistArray *>(array);
  Panel p = panelOf(a, desc, residue, call);
  std::memset(buf, 0, product(p.shape) * a.elemBytes());
  if (a.idle) // past the grid: in no group
    return;
  withElement(a.elem, [&](auto zero) {
    gatherCyclic(a, static_cast<decltype(zero) *>(buf), p, call);
  });
}

extern "C" void tc_rt_reduce_cyclic(void *array, void *buf, const int64_t *desc,
                                    int64_t residue) {
  tc_rt::TraceScope trace("tc_rt_reduce_cyclic");
  const char *call = "tc_rt_reduce_cyclic";
  DistArray &a = *static_cast<DistArray *>(array);
  Panel p = panelOf(a, desc, residue, call);
  if (a.idle)
    return;
  withElement(a.elem, [&](auto zero) {
    reduceCyclic(a, static_cast<decltype(zero) *>(buf), p, call);
  });
}
