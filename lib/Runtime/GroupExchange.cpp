//===- GroupExchange.cpp - gathers and reductions within a group ----------===//
#include "GroupExchange.h"

namespace tc_rt {

Group groupAlong(const DistArray &a, int g) {
  Group grp;
  grp.g = g;
  grp.me = a.coords[g];
  for (int64_t m = 0; m < a.grid[g]; ++m) {
    std::vector<int> at = a.coords;
    at[g] = static_cast<int>(m);
    int r = 0;
    MPI_Cart_rank(a.comm, at.data(), &r);
    grp.ranks.push_back(r);
    grp.coords.push_back(at);
  }
  return grp;
}

namespace {
int count(int64_t n, const Messages &m) {
  if (n > INT32_MAX)
    fail(std::string(m.call) + ": message of more than 2^31 elements for array '" +
         m.array->name + "'");
  return static_cast<int>(n);
}

int checkedInt(int64_t v) {
  if (v > INT32_MAX || v < INT32_MIN)
    fail("a part of a panel or tile past 2^31 elements");
  return static_cast<int>(v);
}

/// The elements of a row-major buffer of `shape` that `sel` (buffer -> packed
/// index, its runs in packed order) selects, as one MPI datatype whose
/// elements come in the packed message's order: per dimension, from the
/// innermost out, the runs of the dimension (indexed) over one index of the
/// inner dimensions (resized to the dimension's stride).
template <typename T> MPI_Datatype boxesType(const Shape &shape, const Selection &sel) {
  const Shape stride = rowMajorStrides(shape);
  MPI_Datatype type = Element<T>::mpi();
  bool derived = false;
  for (int d = static_cast<int>(sel.size()) - 1; d >= 0; --d) {
    MPI_Datatype index;
    MPI_Type_create_resized(type, 0, static_cast<MPI_Aint>(stride[d] * sizeof(T)), &index);
    std::vector<int> lengths, starts;
    for (const Run &r : sel[d]) {
      lengths.push_back(checkedInt(r.len));
      starts.push_back(checkedInt(r.from));
    }
    MPI_Datatype runs;
    MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(), starts.data(), index,
                     &runs);
    MPI_Type_free(&index);
    if (derived)
      MPI_Type_free(&type);
    type = runs, derived = true;
  }
  if (!derived) // a scalar: its one element
    MPI_Type_contiguous(1, type, &type);
  MPI_Type_commit(&type);
  return type;
}
} // namespace

void Messages::post(bool sending, void *data, int count, MPI_Datatype type, int rank,
                    double bytes) {
  MPI_Request r;
  if (sending)
    MPI_Isend(data, count, type, rank, tag, array->comm, &r);
  else
    MPI_Irecv(data, count, type, rank, tag, array->comm, &r);
  requests.push_back(r);
  (sending ? counters().bytesSent : counters().bytesReceived) += bytes;
}

template <typename T> void Messages::send(const T *data, int64_t n, int rank) {
  if (n > 0)
    post(true, const_cast<T *>(data), count(n, *this), Element<T>::mpi(), rank,
         static_cast<double>(sizeof(T)) * n);
}

template <typename T> void Messages::receive(T *data, int64_t n, int rank) {
  if (n > 0)
    post(false, data, count(n, *this), Element<T>::mpi(), rank,
         static_cast<double>(sizeof(T)) * n);
}

template <typename T>
void Messages::postBoxes(bool sending, T *buf, const Shape &shape, const Selection &sel,
                         int rank) {
  const int64_t n = elements(sel);
  if (n == 0)
    return;
  count(n, *this);
  MPI_Datatype type = boxesType<T>(shape, sel);
  post(sending, buf, 1, type, rank, static_cast<double>(sizeof(T)) * n);
  MPI_Type_free(&type); // freed once the message no longer needs it
}

template <typename T>
void Messages::sendBoxes(const T *buf, const Shape &shape, const Selection &sel, int rank) {
  postBoxes(true, const_cast<T *>(buf), shape, sel, rank);
}

template <typename T>
void Messages::receiveBoxes(T *buf, const Shape &shape, const Selection &sel, int rank) {
  postBoxes(false, buf, shape, sel, rank);
}

void Messages::wait() {
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

template <typename T> void GatherRequest<T>::finish() { messages.wait(); }

template <typename T>
GatherRequest<T> *startGather(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                              const std::vector<Selection> &parts, int tag, const char *call) {
  auto *req = new GatherRequest<T>;
  req->messages = {&a, call, tag, {}};
  // Every other member's part straight into its place in buf, and the own part
  // straight out of it (MPI datatypes over the parts' boxes): no staging copy
  // of the panel beside it (README, "Memory").
  for (int m = 0; m < grp.size(); ++m)
    if (m != grp.me)
      req->messages.receiveBoxes(buf, shape, parts[m], grp.ranks[m]);
  for (int m = 0; m < grp.size(); ++m)
    if (m != grp.me)
      req->messages.sendBoxes(buf, shape, parts[grp.me], grp.ranks[m]);
  return req;
}

namespace {
/// Rows of dim 0 of `part` in one of its pieces: at most `limit` elements, at
/// least one row.
int64_t pieceRows(const Selection &part, int64_t limit) {
  const Shape len = lengths(part);
  int64_t row = 1;
  for (size_t d = 1; d < len.size(); ++d)
    row *= len[d];
  return std::max<int64_t>(1, limit / std::max<int64_t>(1, row));
}

/// Pieces of `part` (none for an empty part; a scalar is one).
int64_t pieceCount(const Selection &part, int64_t limit) {
  if (elements(part) == 0)
    return 0;
  if (part.empty())
    return 1;
  const int64_t rows = pieceRows(part, limit);
  return (lengths(part)[0] + rows - 1) / rows;
}
} // namespace

Selection rowsOf(const Selection &sel, int64_t lo, int64_t hi) {
  if (sel.empty())
    return sel;
  Selection out = sel;
  out[0] = packed(packedRange(sel[0], lo, hi), /*fromSide=*/true);
  return out;
}

namespace {
/// Piece p of `part` (empty past its last), and its rows [lo, hi) of dim 0.
Selection pieceOf(const Selection &part, int64_t p, int64_t limit, int64_t *lo = nullptr,
                  int64_t *hi = nullptr) {
  const int64_t rows = pieceRows(part, limit);
  const int64_t first = p * rows, last = part.empty() ? 1 : std::min(lengths(part)[0], first + rows);
  if (lo)
    *lo = first, *hi = last;
  if (part.empty()) // a scalar: one piece
    return p == 0 ? part : Selection{Runs{}};
  return rowsOf(part, first, std::max(first, last));
}
} // namespace

template <typename T>
void reduceToOwners(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                    const std::vector<Selection> &parts, int tag, const char *call,
                    const std::function<void(int64_t, int64_t, T *)> &done) {
  // Pieces of at most a third of a chunk: the sum, a member's contribution
  // and the caller's copy of the storage rows share one chunk.
  const int64_t limit = chunkElems(sizeof(T), 3);
  Messages messages{&a, call, tag, {}};
  // Each other member its part of this partial sum, piece by piece, straight
  // from buf.
  for (int m = 0; m < grp.size(); ++m)
    if (m != grp.me)
      for (int64_t p = 0; p < pieceCount(parts[m], limit); ++p)
        messages.sendBoxes(buf, shape, pieceOf(parts[m], p, limit), grp.ranks[m]);
  // The own part piece by piece: own contribution + the others' partial sums,
  // in the members' order.
  const Selection &own = parts[grp.me];
  const int64_t pieces = pieceCount(own, limit);
  Buffer<T> sum, in;
  if (pieces > 0) {
    const int64_t most = elements(pieceOf(own, 0, limit));
    sum.resize(most);
    in.resize(most);
  }
  for (int64_t p = 0; p < pieces; ++p) {
    int64_t lo, hi;
    const Selection piece = pieceOf(own, p, limit, &lo, &hi);
    const int64_t n = elements(piece);
    copyBoxes(buf, shape, sum.data(), lengths(piece), piece, /*xToY=*/true);
    for (int m = 0; m < grp.size(); ++m) {
      if (m == grp.me)
        continue;
      MPI_Recv(in.data(), count(n, messages), Element<T>::mpi(), grp.ranks[m], tag, a.comm,
               MPI_STATUS_IGNORE);
      counters().bytesReceived += static_cast<double>(sizeof(T)) * n;
      for (int64_t i = 0; i < n; ++i)
        sum[i] += in[i];
    }
    done(lo, hi, sum.data());
  }
  messages.wait();
}

template <typename T>
void ringReduceScatter(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                       const std::vector<Selection> &parts, int tag, const char *call,
                       const std::function<void(int64_t, int64_t, T *)> &done) {
  const int q = grp.size(), me = grp.me;
  auto partAt = [&](int t) { return ((me - t - 1) % q + q) % q; }; // sent at step t
  // The ring once per piece index, on every part's piece of that index: the
  // running sum, the one received and the own contribution share one chunk.
  const int64_t limit = chunkElems(sizeof(T), 3);
  int64_t pieces = 0;
  for (const Selection &part : parts)
    pieces = std::max(pieces, pieceCount(part, limit));
  const int next = grp.ranks[(me + 1) % q], prev = grp.ranks[(me + q - 1) % q];
  for (int64_t p = 0; p < pieces; ++p) {
    auto contribution = [&](int m) {
      const Selection piece = pieceOf(parts[m], p, limit);
      Buffer<T> x(elements(piece));
      copyBoxes(buf, shape, x.data(), lengths(piece), piece, /*xToY=*/true);
      return x;
    };
    Buffer<T> running = contribution(partAt(0));
    for (int t = 0; t + 1 < q; ++t) {
      const int in = partAt(t + 1);
      Buffer<T> received(elements(pieceOf(parts[in], p, limit)));
      Messages messages{&a, call, tag, {}};
      messages.receive(received.data(), received.size(), prev);
      messages.send(running.data(), running.size(), next);
      messages.wait();
      Buffer<T> own = contribution(in);
      for (int64_t i = 0; i < own.size(); ++i)
        received[i] += own[i];
      running = std::move(received);
    }
    // partAt(q - 1) == me: the own part's piece, summed over the group.
    int64_t lo, hi;
    pieceOf(parts[me], p, limit, &lo, &hi);
    if (running.size() > 0)
      done(lo, hi, running.data());
  }
}

#define TC_RT_INSTANTIATE(T)                                                                       \
  template struct GatherRequest<T>;                                                                \
  template void Messages::sendBoxes<T>(const T *, const Shape &, const Selection &, int);          \
  template void Messages::receiveBoxes<T>(T *, const Shape &, const Selection &, int);             \
  template GatherRequest<T> *startGather<T>(const DistArray &, const Group &, T *, const Shape &, \
                                            const std::vector<Selection> &, int, const char *);   \
  template void reduceToOwners<T>(const DistArray &, const Group &, T *, const Shape &,            \
                                  const std::vector<Selection> &, int, const char *,               \
                                  const std::function<void(int64_t, int64_t, T *)> &);             \
  template void ringReduceScatter<T>(const DistArray &, const Group &, T *, const Shape &,         \
                                     const std::vector<Selection> &, int, const char *,            \
                                     const std::function<void(int64_t, int64_t, T *)> &);
TC_RT_INSTANTIATE(double)
TC_RT_INSTANTIATE(float)
#undef TC_RT_INSTANTIATE

} // namespace tc_rt
