//===- BufferPool.h - buffers kept across calls and runs --------*- C++ -*-===//
//
// On some machines (VMs with shadow paging) the first touch of a fresh page
// costs 15-20 us, 0.2-0.3 GB/s: a buffer malloc maps anew in every stage or
// run costs more than the bytes it carries. The pool keeps large freed
// buffers mapped and hands them out again for a request they hold (of at
// least half their size), so that a program's panels, its partial sums and
// the runtime's message buffers are touched once per process. Generated programs allocate through
// it too (memref.alloc lowered with use-generic-functions).
//
// Its footprint (buffers in use plus kept) never exceeds the most it ever had
// in use: a request the kept buffers cannot serve first frees kept ones,
// largest first, until it fits under that peak. That bound holds for the
// process's resident memory only because a freed large block leaves it:
// startMemory() has malloc map every block of kPooledBytes or more on its
// own and unmap it on free (glibc otherwise raises that threshold to the
// largest block freed so far, and blocks below it come from the heap, which
// keeps them resident after free: a run's load-phase staging chunks stayed
// on top of its compute-phase tiles, issue 37).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_BUFFERPOOL_H
#define TC_LIB_RUNTIME_BUFFERPOOL_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace tc_rt {

/// Blocks of this many bytes or more are pooled here, and malloc maps and
/// unmaps them (startMemory); smaller ones come from malloc's heap.
inline constexpr size_t kPooledBytes = size_t(1) << 20;

/// Fixes malloc's mmap threshold at kPooledBytes (no dynamic raise), so that
/// freeing a large block returns its pages. Called first thing at start-up.
void startMemory();

/// `bytes` of uninitialized memory (malloc's alignment); never null.
void *acquireBuffer(size_t bytes);
/// Returns a buffer of acquireBuffer (null: nothing). A buffer retained
/// (retainBuffer) returns to the pool at its last release.
void releaseBuffer(void *buffer);
/// Hands out the `bytes` at offset `at` of a mapping (`base`, `length` bytes,
/// from mmap) as a buffer of acquireBuffer: retained and released alike,
/// unmapped at its last release, never counted in the pool's bound (its
/// pages are a file's). An input's block mapped from its file
/// (MappedInputs.h).
void *adoptMapping(void *base, size_t length, size_t at, size_t bytes);
/// The `bytes` at offset `at` of `buffer`, a buffer of acquireBuffer (or
/// adoptMapping) in use, as a buffer of their own: released like one, and
/// `buffer` stays in use until it is (a read-only array viewing part of a
/// kept tensor, KeptTensors.h). Null, sharing nothing, if the range is not
/// inside a buffer in use.
void *shareRange(void *buffer, size_t at, size_t bytes);
/// True if `buffer` is one adoptMapping handed out, still in use.
bool isMapping(const void *buffer);
/// One more holder of `buffer`, a buffer of acquireBuffer in use of at least
/// `bytes`: true, and each holder releases it once; false (nothing retained)
/// for any other pointer. A kept intermediate takes over the program's tile buffer
/// this way instead of copying it (KeptTensors.cpp).
bool retainBuffer(void *buffer, size_t bytes);
/// Frees every kept buffer (those in use stay). An input's load holds a
/// staging chunk beside the buffers already in use; kept, that chunk would
/// stay resident through the computation beside what it allocates outside the
/// pool (buffers under kPooledBytes), above the plan's budget.
/// Nothing while freed memory is kept (keepFreedMemory).
void trimPool();

/// trimPool, and malloc's free heap returned to the system (a statement's
/// start: a program's memory is its busiest statement's); nothing while freed
/// memory is kept.
void releaseFreedMemory();

/// While a loop of the program runs (`keep`), memory freed by one statement
/// stays mapped for the next: malloc keeps its heap's free top and the pool
/// is not trimmed, since every iteration asks for the same buffers again
/// (returned and mapped afresh, each page's first touch cost a water CCSD
/// iteration a third of its time). When the loop ends (`!keep`), everything
/// kept is freed.
void keepFreedMemory(bool keep);
/// True while freed memory is kept (keepFreedMemory(true)).
bool freedMemoryKept();

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
  /// Shares `buffer`, `elements` of T retained from the pool (retainBuffer),
  /// in place of this one's; false (nothing changed) if the pool cannot.
  bool share(void *buffer, int64_t elements) {
    if (elements <= 0 || !retainBuffer(buffer, static_cast<size_t>(elements) * sizeof(T)))
      return false;
    releaseBuffer(ptr);
    ptr = static_cast<T *>(buffer), n = elements;
    return true;
  }
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

/// A std::vector allocator from the pool: the runtime's staging chunks and
/// packing buffers, so that every large buffer of a run shares the pool's
/// bound (the most it ever had in use) with the tiles. Growing a vector
/// leaves its new elements uninitialized: every buffer is filled (a read, a
/// receive, a packing copy) before it is read, and zeroing a fresh one
/// touched every page twice (a third of a CCSD iteration's load phase).
template <typename T> struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U> PoolAllocator(const PoolAllocator<U> &) {}
  T *allocate(size_t n) { return static_cast<T *>(acquireBuffer(n * sizeof(T))); }
  void deallocate(T *p, size_t) { releaseBuffer(p); }
  /// Default-initialized (for numbers: not written) where a vector grows
  /// without a value.
  template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U> bool operator==(const PoolAllocator<U> &) const { return true; }
  template <typename U> bool operator!=(const PoolAllocator<U> &) const { return false; }
};
template <typename T> using PooledVector = std::vector<T, PoolAllocator<T>>;

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_BUFFERPOOL_H
