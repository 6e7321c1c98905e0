//===- GroupExchange.h - gathers and reductions within a group --*- C++ -*-===//
//
// The collectives of split arrays (COSMA's tiles, PanelCollectives.cpp) and of
// block-cyclic arrays (PUMMA's panels, CyclicPanels.cpp) act within a group:
// the processes along one grid dimension g that share every other coordinate.
// Each member holds a part of a buffer (a Selection from buffer index to packed
// index); both collectives are direct exchanges, one non-blocking message per
// ordered pair carrying exactly the real elements of a part (counted in the
// array's element bytes when the message starts), none for an empty part:
//   gather:  sent = (q-1) n_me,         received = sum_{m != me} n_m
//   reduce:  sent = sum_{m != me} n_m,  received = (q-1) n_me
// except the ring reduce-scatter, q-1 steps around the group, each passing one
// part's running sum to the next member:
//   ring:    sent = sum_{m != me} n_m,  received = sum_{m != me-1} n_m
// A member then receives what it does not own of one other member's part set,
// whatever the parts' sizes: with uneven parts the busiest member receives
// less than the direct exchange's (q-1) max n_m.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_GROUPEXCHANGE_H
#define TC_LIB_RUNTIME_GROUPEXCHANGE_H

#include "DistArray.h"

namespace tc_rt {

/// The processes of this one's group along grid dimension g of `a`'s grid.
struct Group {
  int g = -1;                           ///< the grid dimension
  int me = 0;                           ///< this process's coordinate along g
  std::vector<int> ranks;               ///< rank in a.comm of the member at coordinate m
  std::vector<std::vector<int>> coords; ///< grid coordinates of member m
  int size() const { return static_cast<int>(ranks.size()); }
};
Group groupAlong(const DistArray &a, int g);

/// Non-blocking messages of one call among a group, bytes counted as they start.
struct Messages {
  const DistArray *array = nullptr;
  const char *call = "";
  int tag = 0;
  std::vector<MPI_Request> requests;
  template <typename T> void send(const T *data, int64_t n, int rank);
  template <typename T> void receive(T *data, int64_t n, int rank);
  /// The boxes `sel` selects of a row-major buffer of `shape` (buffer ->
  /// packed index), sent or received in place as one packed message.
  template <typename T>
  void sendBoxes(const T *buf, const Shape &shape, const Selection &sel, int rank);
  template <typename T> void receiveBoxes(T *buf, const Shape &shape, const Selection &sel, int rank);
  void wait();

private:
  /// Starts one message of `count` items of `type` to or from `rank`.
  void post(bool sending, void *data, int count, MPI_Datatype type, int rank, double bytes);
  template <typename T>
  void postBoxes(bool sending, T *buf, const Shape &shape, const Selection &sel, int rank);
};

/// A request of tc_rt_gather_tile_start, completed by tc_rt_wait.
struct Request {
  virtual ~Request() = default;
  virtual void finish() = 0;
};

/// A gather under way: its messages go straight from and into the buffer.
template <typename T> struct GatherRequest : Request {
  Messages messages;
  /// Completes the messages.
  void finish() override;
};

/// Starts gathering `buf` (shape `shape`) among `grp`: parts[m] is member m's
/// part (buffer -> packed index); this process's own part must already be in
/// buf. Sends it to every other member, receives theirs.
template <typename T>
GatherRequest<T> *startGather(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                              const std::vector<Selection> &parts, int tag, const char *call);

/// Sums `buf` (shape `shape`) among `grp` onto each part's owner: sends every
/// other member m its part parts[m] of buf and sums this process's own part
/// with the others' (in the members' order). The own part's sum comes piece
/// by piece: done(lo, hi, sum) for its rows [lo, hi) of dim 0 (packed, see
/// rowsOf), each piece of at most a third of a chunk, so that the sum, what is
/// received and the caller's copy of its rows share one chunk (README,
/// "Memory"; issue 37).
template <typename T>
void reduceToOwners(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                    const std::vector<Selection> &parts, int tag, const char *call,
                    const std::function<void(int64_t, int64_t, T *)> &done);

/// The same sum by the ring (see above): member me sends at step t the running
/// sum of part (me - t - 1) mod q to member me + 1 and adds its own
/// contribution to the part (me - t - 2) mod q it receives from me - 1; after
/// q - 1 steps the part received is its own, summed over the group. The ring
/// runs once per piece index over every part's piece of that index (pieces as
/// above), done() taking the own part's.
template <typename T>
void ringReduceScatter(const DistArray &a, const Group &grp, T *buf, const Shape &shape,
                       const std::vector<Selection> &parts, int tag, const char *call,
                       const std::function<void(int64_t, int64_t, T *)> &done);

/// The rows [lo, hi) of dim 0 of a selection (in its packed order), packed
/// anew from 0 (a scalar: itself).
Selection rowsOf(const Selection &sel, int64_t lo, int64_t hi);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_GROUPEXCHANGE_H
