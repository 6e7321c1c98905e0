//===- GroupExchange.cpp - gathers and reductions within a group ----------===//
#include "GroupExchange.h"

namespace tc::rt {

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
} // namespace

template <typename T> void Messages::send(const T *data, int64_t n, int rank) {
  if (n == 0)
    return;
  MPI_Request r;
  MPI_Isend(data, count(n, *this), Element<T>::mpi(), rank, tag, array->comm, &r);
  requests.push_back(r);
  counters().bytesSent += static_cast<double>(sizeof(T)) * n;
}

template <typename T> void Messages::receive(T *data, int64_t n, int rank) {
  if (n == 0)
    return;
  MPI_Request r;
  MPI_Irecv(data, count(n, *this), Element<T>::mpi(), rank, tag, array->comm, &r);
  requests.push_back(r);
  counters().bytesReceived += static_cast<double>(sizeof(T)) * n;
}

void Messages::wait() {
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

template <typename T> void GatherRequest<T>::finish() {
  messages.wait();
  for (const auto &[part, at] : parts)
    copyBoxes(buf, shape, recvBuf.data() + at, lengths(part), part, /*xToY=*/false);
}

template <typename T>
GatherRequest<T> *startGather(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                              const std::vector<Selection> &parts, int tag, const char *call) {
  auto *req = new GatherRequest<T>;
  req->buf = buf;
  req->shape = shape;
  req->messages = {&a, call, tag, {}};
  // Every other member's part, received packed one after the other.
  std::vector<int> from; // the member of each received part
  int64_t total = 0;
  for (int m = 0; m < grp.size(); ++m) {
    int64_t n = elements(parts[m]);
    if (m == grp.me || n == 0)
      continue;
    req->parts.push_back({parts[m], total});
    from.push_back(m);
    total += n;
  }
  req->recvBuf.resize(total);
  for (size_t k = 0; k < from.size(); ++k)
    req->messages.receive(req->recvBuf.data() + req->parts[k].second,
                          elements(req->parts[k].first), grp.ranks[from[k]]);
  const Selection &own = parts[grp.me];
  int64_t nOwn = elements(own);
  if (nOwn > 0 && grp.size() > 1) {
    req->sendBuf.resize(nOwn);
    copyBoxes(buf, shape, req->sendBuf.data(), lengths(own), own, /*xToY=*/true);
    for (int m = 0; m < grp.size(); ++m)
      if (m != grp.me)
        req->messages.send(req->sendBuf.data(), nOwn, grp.ranks[m]);
  }
  return req;
}

template <typename T>
Buffer<T> reduceToOwners(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                         const std::vector<Selection> &parts, int tag, const char *call) {
  const Selection &own = parts[grp.me];
  const int64_t nOwn = elements(own);
  Messages messages{&a, call, tag, {}};
  // Receive every other member's partial sum of the own part; send each member
  // the part of this partial sum it owns.
  Buffer<T> in(nOwn * (grp.size() - 1));
  for (int m = 0, slot = 0; m < grp.size(); ++m)
    if (m != grp.me)
      messages.receive(in.data() + nOwn * slot++, nOwn, grp.ranks[m]);
  std::vector<Buffer<T>> out(grp.size());
  for (int m = 0; m < grp.size(); ++m) {
    if (m == grp.me || elements(parts[m]) == 0)
      continue;
    out[m].resize(elements(parts[m]));
    copyBoxes(buf, shape, out[m].data(), lengths(parts[m]), parts[m], /*xToY=*/true);
    messages.send(out[m].data(), elements(parts[m]), grp.ranks[m]);
  }
  messages.wait();
  // Own part + the others' partial sums, in the members' order.
  Buffer<T> sum(nOwn);
  if (nOwn == 0)
    return sum;
  copyBoxes(buf, shape, sum.data(), lengths(own), own, /*xToY=*/true);
  for (size_t s = 0; s + 1 < static_cast<size_t>(grp.size()); ++s) {
    const T *x = in.data() + nOwn * s;
    for (int64_t i = 0; i < nOwn; ++i)
      sum[i] += x[i];
  }
  return sum;
}

template <typename T>
Buffer<T> ringReduceScatter(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                            const std::vector<Selection> &parts, int tag, const char *call) {
  const int q = grp.size(), me = grp.me;
  auto partAt = [&](int t) { return ((me - t - 1) % q + q) % q; }; // sent at step t
  auto contribution = [&](int m) {
    Buffer<T> x(elements(parts[m]));
    copyBoxes(buf, shape, x.data(), lengths(parts[m]), parts[m], /*xToY=*/true);
    return x;
  };
  Buffer<T> running = contribution(partAt(0));
  const int next = grp.ranks[(me + 1) % q], prev = grp.ranks[(me + q - 1) % q];
  for (int t = 0; t + 1 < q; ++t) {
    const int in = partAt(t + 1);
    Buffer<T> received(elements(parts[in]));
    Messages messages{&a, call, tag, {}};
    messages.receive(received.data(), received.size(), prev);
    messages.send(running.data(), running.size(), next);
    messages.wait();
    Buffer<T> own = contribution(in);
    for (int64_t i = 0; i < own.size(); ++i)
      received[i] += own[i];
    running = std::move(received);
  }
  return running; // partAt(q - 1) == me
}

#define TC_RT_INSTANTIATE(T)                                                                       \
  template struct GatherRequest<T>;                                                                \
  template GatherRequest<T> *startGather<T>(const DistArray &, const Group &, T *, const Shape &, \
                                            const std::vector<Selection> &, int, const char *);   \
  template Buffer<T> reduceToOwners<T>(const DistArray &, const Group &, T *, const Shape &,       \
                                       const std::vector<Selection> &, int, const char *);        \
  template Buffer<T> ringReduceScatter<T>(const DistArray &, const Group &, T *, const Shape &,   \
                                          const std::vector<Selection> &, int, const char *);
TC_RT_INSTANTIATE(double)
TC_RT_INSTANTIATE(float)
#undef TC_RT_INSTANTIATE

} // namespace tc::rt
