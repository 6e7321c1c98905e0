//===- BufferPoolTest.cpp - which buffer a request gets (serial) ----------===//
//
// The pool keeps freed buffers mapped and hands one out again for a request
// it holds: within twice the request's size, or of any size when mapping a
// fresh buffer would take the pool past the most it ever held (a kept
// buffer would be freed for it, and every page of the fresh one faults).
// The buffers here are a gigabyte of address space, never touched, so that
// they set the pool's peak whatever earlier tests left in it.
//
//===----------------------------------------------------------------------===//
#include "BufferPool.h"

#include <gtest/gtest.h>

using namespace tc_rt;

TEST(BufferPool, KeptBuffersServeRequestsTheyHold) {
  keepFreedMemory(true); // as in a loop: nothing trimmed between requests
  const size_t big = size_t(1) << 30;
  void *x = acquireBuffer(big);
  ASSERT_NE(x, nullptr);
  releaseBuffer(x);
  // Within twice the request: the kept buffer.
  void *y = acquireBuffer(big / 2 + 1);
  EXPECT_EQ(y, x);
  releaseBuffer(y);
  // A third of it, at the pool's peak: mapping it afresh would free the kept
  // buffer, so the kept buffer serves.
  void *z = acquireBuffer(big / 3);
  EXPECT_EQ(z, x);
  releaseBuffer(z);
  // Below the peak (the gigabyte freed, the peak stays), a request more than
  // twice smaller than a kept buffer is mapped afresh: the kept buffer stays
  // for a larger request.
  keepFreedMemory(false);
  keepFreedMemory(true);
  void *w = acquireBuffer(big / 4);
  releaseBuffer(w);
  void *v = acquireBuffer(big / 16);
  EXPECT_NE(v, w);
  void *u = acquireBuffer(big / 4);
  EXPECT_EQ(u, w);
  releaseBuffer(u);
  releaseBuffer(v);
  keepFreedMemory(false); // frees what the pool kept
}

TEST(BufferPool, ASharedBufferReturnsAtItsLastRelease) {
  keepFreedMemory(true);
  for (size_t bytes : {size_t(4096), size_t(8) << 20}) { // malloc's, and the pool's
    void *x = acquireBuffer(bytes);
    EXPECT_TRUE(retainBuffer(x, bytes)) << bytes;
    EXPECT_FALSE(retainBuffer(x, 2 * bytes)) << "more bytes than the buffer holds";
    releaseBuffer(x);
    // Still held: a pooled buffer is not handed out again yet.
    void *y = acquireBuffer(bytes);
    EXPECT_NE(y, x) << bytes;
    releaseBuffer(y);
    releaseBuffer(x);
  }
  int onStack = 0;
  EXPECT_FALSE(retainBuffer(&onStack, sizeof onStack)) << "not a buffer of the pool";
  keepFreedMemory(false);
}

TEST(BufferPool, ARangeHoldsItsBufferUntilReleased) {
  keepFreedMemory(true);
  const size_t bytes = size_t(8) << 20;
  char *x = static_cast<char *>(acquireBuffer(bytes));
  EXPECT_EQ(shareRange(x, bytes - 100, 200), nullptr) << "past the buffer's end";
  int onStack = 0;
  EXPECT_EQ(shareRange(&onStack, 0, sizeof onStack), nullptr) << "not a buffer of the pool";
  void *range = shareRange(x, 4096, 1 << 20);
  ASSERT_EQ(range, x + 4096);
  EXPECT_EQ(shareRange(x, 4096, 1 << 20), range) << "the same range, retained once more";
  EXPECT_EQ(shareRange(x, 0, 4096), x) << "a range from the start is the buffer itself";
  releaseBuffer(x);
  releaseBuffer(x); // its holder and the range from its start
  // The ranges hold it: a request it would serve gets another buffer.
  void *y = acquireBuffer(bytes);
  EXPECT_NE(y, x);
  releaseBuffer(range);
  releaseBuffer(range);
  // The last range released, the buffer returns to the pool.
  void *z = acquireBuffer(bytes);
  EXPECT_EQ(z, x);
  releaseBuffer(z);
  releaseBuffer(y);
  keepFreedMemory(false);
}
