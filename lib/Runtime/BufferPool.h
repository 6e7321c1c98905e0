//===- BufferPool.h - buffers kept across calls and runs --------*- C++ -*-===//
//
// On some machines (VMs with shadow paging) the first touch of a fresh page
// costs 15-20 us, 0.2-0.3 GB/s: a buffer malloc maps anew in every stage or
// run costs more than the bytes it carries. The pool keeps large freed
// buffers mapped and hands them out again for the same size, so that a
// program's panels, its partial sums and the runtime's message buffers are
// touched once per process. Generated programs allocate through it too
// (memref.alloc lowered with use-generic-functions).
//
// Its footprint (buffers in use plus kept) never exceeds the most it ever had
// in use: a request the kept buffers cannot serve first frees kept ones,
// largest first, until it fits under that peak.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_BUFFERPOOL_H
#define TC_LIB_RUNTIME_BUFFERPOOL_H

#include <cstddef>
#include <cstdint>

namespace tc::rt {

/// `bytes` of uninitialized memory (malloc's alignment); never null.
void *acquireBuffer(size_t bytes);
/// Returns a buffer of acquireBuffer (null: nothing).
void releaseBuffer(void *buffer);

/// A buffer of `n` doubles from the pool, uninitialized, returned when it
/// goes out of scope.
class Scratch {
public:
  Scratch() = default;
  explicit Scratch(int64_t n) { resize(n); }
  Scratch(Scratch &&other) noexcept : ptr(other.ptr), n(other.n) { other.ptr = nullptr, other.n = 0; }
  Scratch &operator=(Scratch &&other) noexcept;
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch() { releaseBuffer(ptr); }
  /// Replaces the buffer with one of `n` doubles (contents not kept).
  void resize(int64_t n);
  double *data() { return ptr; }
  const double *data() const { return ptr; }
  int64_t size() const { return n; }
  double &operator[](int64_t i) { return ptr[i]; }

private:
  double *ptr = nullptr;
  int64_t n = 0;
};

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_BUFFERPOOL_H
