//===- PanelCollectives.cpp - tiles of nested-block (split) arrays --------===//
//
// COSMA (Kwasniewski et al., SC'19, section 7) keeps a dimension of an array in
// nested blocks: its block along one grid dimension is split again along a
// second grid dimension g (TC_RT_ARRAY_DIM_SPLIT_DIM), so the q = grid[g]
// processes of a group along g (the same coordinates in every other grid
// dimension) share one block of the compute view and each stores one sub-block.
// Inputs are all-gathered along g a tile (round) at a time, partial results
// reduced along g back to the sub-blocks.
//
// Both collectives are direct exchanges between the q members of a group: one
// non-blocking message per ordered pair carrying exactly the real (clipped)
// elements of the sender's part, so with n_m the elements of the tile inside
// member m's sub-block (clipped to the block):
//   gather:          sent = (q-1) n_me,          received = sum_{m != me} n_m
//   reduce-scatter:  sent = sum_{m != me} n_m,   received = (q-1) n_me
// (8 bytes per element), counted when the messages start. Empty parts travel
// as no message at all. The start/wait pair lets a program gather the next
// round's tile while it computes on the current one (COSMA section 7.3).
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"
#include "StridedCopy.h"

#include <algorithm>

namespace tc::rt {
namespace {

// Tags of their own: a pending gather never matches another call's messages
// on the same (Cartesian, per grid shape) communicator.
const int kGatherTag = 21;
const int kReduceScatterTag = 22;

/// The processes of this one's group along the split grid dimension of `a`.
struct Group {
  int dim = -1;               ///< the split dimension of the array
  int g = -1;                 ///< its split grid dimension
  int me = 0;                 ///< this process's coordinate along g
  std::vector<int> ranks;     ///< rank in a.comm of the member at coordinate m
  std::vector<std::vector<int>> coords; ///< grid coordinates of member m
  int size() const { return static_cast<int>(ranks.size()); }
};

Group groupOf(const DistArray &a, const char *call) {
  Group grp;
  grp.dim = a.splitDimension();
  if (grp.dim < 0)
    fail(std::string(call) + ": array '" + a.name +
         "' has no split dimension (TC_RT_ARRAY_DIM_SPLIT_DIM)");
  grp.g = a.splitGridDim();
  grp.me = a.coords[grp.g];
  for (int64_t m = 0; m < a.grid[grp.g]; ++m) {
    std::vector<int> at = a.coords;
    at[grp.g] = static_cast<int>(m);
    int r = 0;
    MPI_Cart_rank(a.comm, at.data(), &r);
    grp.ranks.push_back(r);
    grp.coords.push_back(at);
  }
  return grp;
}

Shape tileShape(const DistArray &a, const int64_t *desc, const char *call) {
  TileDescView tile(desc);
  if (tile.rank() != a.rank())
    fail(std::string(call) + ": a tile of rank " + std::to_string(tile.rank()) + " for array '" +
         a.name + "' of rank " + std::to_string(a.rank()));
  if (tile.rootOnly())
    fail(std::string(call) + ": a root_only tile description for array '" + a.name + "'");
  Shape shape = tile.shape();
  for (int64_t e : shape)
    if (e < 0)
      fail(std::string(call) + ": a tile of shape " + str(shape) + " for array '" + a.name +
           "'");
  return shape;
}

/// Elements of a part (0 when empty).
int64_t elements(const TilePart &p) { return p.empty() ? 0 : product(p.len); }

int messageSize(int64_t n, const DistArray &a, const char *call) {
  if (n > INT32_MAX)
    fail(std::string(call) + ": message of more than 2^31 elements for array '" + a.name + "'");
  return static_cast<int>(n);
}

/// Copies part `p` of the tile buffer `buf` (shape `shape`) into a packed,
/// row-major buffer of shape p.len, or back.
void pack(double *packed, const double *buf, const Shape &shape, const TilePart &p) {
  Shape stride = rowMajorStrides(shape);
  const double *at = buf;
  for (size_t i = 0; i < shape.size(); ++i)
    at += p.bufStart[i] * stride[i];
  copyStrided(packed, rowMajorStrides(p.len), at, stride, p.len);
}
void unpack(double *buf, const Shape &shape, const TilePart &p, const double *packed) {
  Shape stride = rowMajorStrides(shape);
  double *at = buf;
  for (size_t i = 0; i < shape.size(); ++i)
    at += p.bufStart[i] * stride[i];
  copyStrided(at, stride, packed, rowMajorStrides(p.len), p.len);
}

/// A gather under way (the opaque handle of tc_rt_gather_tile_start).
struct PanelRequest {
  double *buf = nullptr;
  Shape shape;
  std::vector<MPI_Request> requests;
  std::vector<double> sendBuf, recvBuf;
  /// Received parts: where each sits in the tile and in recvBuf.
  std::vector<std::pair<TilePart, int64_t>> parts;
};

} // namespace
} // namespace tc::rt

using namespace tc::rt;

extern "C" void *tc_rt_gather_tile_start(void *array, double *buf, const int64_t *desc,
                                         const int64_t *offsets) {
  tc::rt::TraceScope trace("tc_rt_gather_tile_start");
  const char *call = "tc_rt_gather_tile_start";
  DistArray &a = *static_cast<DistArray *>(array);
  Shape shape = tileShape(a, desc, call);
  Group grp = groupOf(a, call);
  auto *req = new PanelRequest;
  req->buf = buf;
  req->shape = shape;
  std::fill(buf, buf + product(shape), 0.0);
  // Own part: from storage into its place in the tile (disk reads counted).
  TilePart own = tilePart(a, shape, offsets);
  transferBox(a, true, own.storeStart, own.len, buf, shape, own.bufStart,
              tileName(shape, offsets) + " to gather");
  int64_t nOwn = elements(own);
  // Every other member's part, received packed one after the other.
  std::vector<int> from; // the member of each received part
  int64_t total = 0;
  for (int m = 0; m < grp.size(); ++m) {
    if (m == grp.me)
      continue;
    TilePart p = tilePart(a, shape, offsets, grp.coords[m]);
    int64_t n = elements(p);
    if (n == 0)
      continue;
    messageSize(n, a, call);
    req->parts.push_back({p, total});
    from.push_back(m);
    total += n;
  }
  req->recvBuf.resize(total);
  for (size_t k = 0; k < from.size(); ++k) {
    int64_t n = elements(req->parts[k].first);
    MPI_Request r;
    MPI_Irecv(req->recvBuf.data() + req->parts[k].second, static_cast<int>(n), MPI_DOUBLE,
              grp.ranks[from[k]], kGatherTag, a.comm, &r);
    req->requests.push_back(r);
    counters().bytesReceived += 8.0 * n;
  }
  if (nOwn > 0 && grp.size() > 1) {
    int n = messageSize(nOwn, a, call);
    req->sendBuf.resize(nOwn);
    pack(req->sendBuf.data(), buf, shape, own);
    for (int m = 0; m < grp.size(); ++m) {
      if (m == grp.me)
        continue;
      MPI_Request r;
      MPI_Isend(req->sendBuf.data(), n, MPI_DOUBLE, grp.ranks[m], kGatherTag, a.comm, &r);
      req->requests.push_back(r);
      counters().bytesSent += 8.0 * nOwn;
    }
  }
  return req;
}

extern "C" void tc_rt_wait(void *request) {
  tc::rt::TraceScope trace("tc_rt_wait");
  if (!request)
    return;
  auto *req = static_cast<PanelRequest *>(request);
  MPI_Waitall(static_cast<int>(req->requests.size()), req->requests.data(),
              MPI_STATUSES_IGNORE);
  for (const auto &[part, at] : req->parts)
    unpack(req->buf, req->shape, part, req->recvBuf.data() + at);
  delete req;
}

extern "C" void tc_rt_gather_tile(void *array, double *buf, const int64_t *desc,
                                  const int64_t *offsets) {
  tc::rt::TraceScope trace("tc_rt_gather_tile");
  tc_rt_wait(tc_rt_gather_tile_start(array, buf, desc, offsets));
}

extern "C" void tc_rt_reduce_scatter_tile(void *array, double *buf, const int64_t *desc,
                                          const int64_t *offsets) {
  tc::rt::TraceScope trace("tc_rt_reduce_scatter_tile");
  const char *call = "tc_rt_reduce_scatter_tile";
  DistArray &a = *static_cast<DistArray *>(array);
  Shape shape = tileShape(a, desc, call);
  Group grp = groupOf(a, call);
  if (grp.size() == 1)
    return;
  TilePart own = tilePart(a, shape, offsets);
  int64_t nOwn = elements(own);
  messageSize(nOwn, a, call);
  // Receive every other member's partial sum of the own part; send each member
  // the part of this partial sum inside its sub-block.
  std::vector<MPI_Request> requests;
  std::vector<double> in(nOwn * (grp.size() - 1));
  std::vector<int> from; // member of each received slot
  if (nOwn > 0)
    for (int m = 0; m < grp.size(); ++m) {
      if (m == grp.me)
        continue;
      MPI_Request r;
      MPI_Irecv(in.data() + nOwn * from.size(), static_cast<int>(nOwn), MPI_DOUBLE,
                grp.ranks[m], kReduceScatterTag, a.comm, &r);
      requests.push_back(r);
      from.push_back(m);
      counters().bytesReceived += 8.0 * nOwn;
    }
  std::vector<std::vector<double>> out(grp.size());
  for (int m = 0; m < grp.size(); ++m) {
    if (m == grp.me)
      continue;
    TilePart p = tilePart(a, shape, offsets, grp.coords[m]);
    int64_t n = elements(p);
    if (n == 0)
      continue;
    int count = messageSize(n, a, call);
    out[m].resize(n);
    pack(out[m].data(), buf, shape, p);
    MPI_Request r;
    MPI_Isend(out[m].data(), count, MPI_DOUBLE, grp.ranks[m], kReduceScatterTag, a.comm, &r);
    requests.push_back(r);
    counters().bytesSent += 8.0 * n;
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  if (nOwn == 0)
    return;
  // Own part += the others' partial sums, in the members' order.
  std::vector<double> sum(nOwn);
  pack(sum.data(), buf, shape, own);
  for (size_t s = 0; s < from.size(); ++s) {
    const double *x = in.data() + nOwn * s;
    for (int64_t i = 0; i < nOwn; ++i)
      sum[i] += x[i];
  }
  unpack(buf, shape, own, sum.data());
}
