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

/// A buffer of `n` elements of T from the pool, uninitialized, returned when
/// it goes out of scope.
template <typename T> class Buffer {
public:
  Buffer() = default;
  explicit Buffer(int64_t n) { resize(n); }
  Buffer(Buffer &&other) noexcept : ptr(other.ptr), n(other.n) { other.ptr = nullptr, other.n = 0; }
  Buffer &operator=(Buffer &&other) noexcept {
    if (this != &other) {
      releaseBuffer(ptr);
      ptr = other.ptr, n = other.n;
      other.ptr = nullptr, other.n = 0;
    }
    return *this;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { releaseBuffer(ptr); }
  /// Replaces the buffer with one of `n` elements (contents not kept).
  void resize(int64_t elements) {
    releaseBuffer(ptr);
    ptr = nullptr, n = 0;
    if (elements <= 0)
      return;
    ptr = static_cast<T *>(acquireBuffer(static_cast<size_t>(elements) * sizeof(T)));
    n = elements;
  }
  T *data() { return ptr; }
  const T *data() const { return ptr; }
  int64_t size() const { return n; }
  T &operator[](int64_t i) { return ptr[i]; }

private:
  T *ptr = nullptr;
  int64_t n = 0;
};

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_BUFFERPOOL_H
