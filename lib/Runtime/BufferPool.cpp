//===- BufferPool.cpp - buffers kept across calls and runs ----------------===//
#include "BufferPool.h"
#include "Context.h"

#include <algorithm>

#include <cstdlib>
#include <iterator>
#include <limits>
#include <malloc.h>
#include <map>
#include <string>
#include <sys/mman.h>
#include <unordered_map>

namespace tc_rt {
namespace {

struct Pool {
  std::multimap<size_t, void *> kept;       ///< freed buffers by size
  struct Held {
    size_t bytes;
    int holders;
    bool pooled; ///< kPooledBytes or more: kept when released, else freed
    void *mapBase = nullptr; ///< adoptMapping's: the mapping, unmapped when released
    size_t mapLength = 0;
    void *within = nullptr; ///< shareRange's: the buffer it is part of, released with it
  };
  std::unordered_map<void *, Held> inUse; ///< buffers handed out
  size_t keptBytes = 0, inUseBytes = 0, peakBytes = 0;
  bool keepingFreed = false; ///< keepFreedMemory(true): no trimming
};

Pool &pool() {
  static Pool p;
  return p;
}

/// Transparent huge pages: one page fault per 2 MiB of a fresh buffer instead
/// of one per 4 KiB (where the system grants them on request, madvise mode).
constexpr size_t kHugePage = size_t(2) << 20;

void *allocate(size_t bytes) {
  // A buffer of huge pages starts on one; only its whole huge pages are
  // marked, so it takes no more memory than its bytes.
  const bool huge = bytes >= kHugePage;
  void *buffer =
      huge ? std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage)
           : std::malloc(bytes);
  if (!buffer)
    fail("out of memory: cannot allocate " + std::to_string(bytes) + " bytes");
  if (huge)
    madvise(buffer, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);
  return buffer;
}

} // namespace

/// Free memory the heap keeps at its top. Buffers below the pool's size come
/// from the heap; glibc's default (128 KiB) returned the pages of each freed
/// packing buffer, and the next one faulted them all in again (a third of a
/// block-sparse product's time on 80 KB blocks).
constexpr int kHeapTopBytes = static_cast<int>(2 * kPooledBytes);

void startMemory() {
  // Setting the threshold also turns off glibc's dynamic threshold, which
  // would raise it to each larger block freed (up to 32 MiB), after which
  // staging chunks and packing buffers come from the heap and stay resident.
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kPooledBytes));
  mallopt(M_TRIM_THRESHOLD, kHeapTopBytes);
}

void *acquireBuffer(size_t bytes) {
  Pool &p = pool();
  void *buffer = nullptr;
  if (bytes < kPooledBytes) {
    buffer = allocate(bytes ? bytes : 1);
    p.inUse[buffer] = {bytes, 1, false};
    return buffer;
  }
  // The smallest kept buffer that holds the request, unless it is more than
  // twice as large and a buffer of the request's size can be mapped without
  // exceeding the pool's peak: a larger request may come for it (a program's
  // statements rarely ask twice for one size). Past the peak, a kept buffer
  // would be freed to make room for a fresh one, whose every page faults:
  // the larger kept buffer serves instead.
  const size_t limit = std::max(p.peakBytes, p.inUseBytes + bytes);
  auto fit = p.kept.lower_bound(bytes);
  if (fit != p.kept.end() &&
      (fit->first <= 2 * bytes || p.keptBytes + p.inUseBytes + bytes > limit)) {
    buffer = fit->second;
    bytes = fit->first;
    p.kept.erase(fit);
    p.keptBytes -= bytes;
  } else {
    while (!p.kept.empty() && p.keptBytes + p.inUseBytes + bytes > limit) {
      auto largest = std::prev(p.kept.end());
      std::free(largest->second);
      p.keptBytes -= largest->first;
      p.kept.erase(largest);
    }
    buffer = allocate(bytes);
  }
  p.inUse[buffer] = {bytes, 1, true};
  p.inUseBytes += bytes;
  p.peakBytes = std::max(p.peakBytes, p.inUseBytes + p.keptBytes);
  return buffer;
}

void trimPool() {
  Pool &p = pool();
  if (p.keepingFreed)
    return;
  for (auto &[bytes, buffer] : p.kept)
    std::free(buffer);
  p.kept.clear();
  p.keptBytes = 0;
}

void releaseFreedMemory() {
  if (pool().keepingFreed)
    return;
  trimPool();
  malloc_trim(0);
}

bool freedMemoryKept() { return pool().keepingFreed; }

void keepFreedMemory(bool keep) {
  pool().keepingFreed = keep;
  mallopt(M_TRIM_THRESHOLD, keep ? std::numeric_limits<int>::max() : kHeapTopBytes);
  releaseFreedMemory();
}

void releaseBuffer(void *buffer) {
  if (!buffer)
    return;
  Pool &p = pool();
  auto it = p.inUse.find(buffer);
  if (it == p.inUse.end()) { // not handed out here: malloc's
    std::free(buffer);
    return;
  }
  if (--it->second.holders > 0)
    return;
  if (void *within = it->second.within) {
    p.inUse.erase(it);
    releaseBuffer(within);
    return;
  }
  if (it->second.mapBase) {
    munmap(it->second.mapBase, it->second.mapLength);
    p.inUse.erase(it);
    return;
  }
  if (!it->second.pooled) {
    p.inUse.erase(it);
    std::free(buffer);
    return;
  }
  p.kept.emplace(it->second.bytes, buffer);
  p.keptBytes += it->second.bytes;
  p.inUseBytes -= it->second.bytes;
  p.inUse.erase(it);
}

void *adoptMapping(void *base, size_t length, size_t at, size_t bytes) {
  void *buffer = static_cast<char *>(base) + at;
  pool().inUse[buffer] = {bytes, 1, false, base, length};
  return buffer;
}

void *shareRange(void *buffer, size_t at, size_t bytes) {
  Pool &p = pool();
  auto whole = p.inUse.find(buffer);
  if (whole == p.inUse.end() || at + bytes > whole->second.bytes || bytes == 0)
    return nullptr;
  void *range = static_cast<char *>(buffer) + at;
  // A range starting where a buffer in use starts (the buffer itself, or
  // another share of the same start) is that buffer, retained once more.
  if (p.inUse.count(range))
    return retainBuffer(range, bytes) ? range : nullptr;
  ++whole->second.holders;
  p.inUse[range] = {bytes, 1, false, nullptr, 0, buffer};
  return range;
}

bool isMapping(const void *buffer) {
  auto it = pool().inUse.find(const_cast<void *>(buffer));
  return it != pool().inUse.end() && it->second.mapBase;
}

bool retainBuffer(void *buffer, size_t bytes) {
  auto it = pool().inUse.find(buffer);
  if (it == pool().inUse.end() || it->second.bytes < bytes)
    return false;
  ++it->second.holders;
  return true;
}

} // namespace tc_rt

// memref.alloc / memref.dealloc of generated programs (tcc lowers them with
// finalize-memref-to-llvm{use-generic-functions=true}).
extern "C" void *_mlir_memref_to_llvm_alloc(size_t bytes) { return tc_rt::acquireBuffer(bytes); }
extern "C" void _mlir_memref_to_llvm_free(void *buffer) { tc_rt::releaseBuffer(buffer); }
