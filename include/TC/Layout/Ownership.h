//===- Ownership.h - which elements of a distributed dimension a process holds ===//
//
// The arithmetic of tc's distributions, in one place for the analyses that
// predict bytes, the lowering that sizes buffers and the runtime that moves
// them: the promise that measured bytes equal predicted ones rests on all
// three computing ownership the same way. Header-only and dependency-free (no
// MLIR, no MPI), so compiled programs' runtime uses it as it is.
//
// A dimension of `extent` elements over `parts` processes is held
//  - in contiguous blocks of ceil(extent / parts), the last ones clipped or
//    empty (Gao et al.'s distributions, COSMA's and the runtime's blocks);
//  - in balanced sub-blocks, the first len mod q one longer (COSMA's split of
//    an interval, Kwasniewski et al. section 7.1);
//  - block-cyclically, blocks of nb dealt round-robin, the last one clipped
//    (ScaLAPACK's layout, PUMMA; Choi, Dongarra and Walker section 2).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LAYOUT_OWNERSHIP_H
#define TC_LAYOUT_OWNERSHIP_H

#include <algorithm>
#include <cstdint>

namespace tc_layout {

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Start of contiguous block `c` of `extent` split into `parts` ceil-sized
/// blocks.
inline int64_t blockStart(int64_t extent, int64_t parts, int64_t c) {
  return c * ceilDiv(extent, parts);
}

/// Length of that block: ceil(extent / parts), less at the end, 0 past it.
inline int64_t blockLength(int64_t extent, int64_t parts, int64_t c) {
  const int64_t size = ceilDiv(extent, parts);
  return std::clamp<int64_t>(extent - c * size, 0, size);
}

/// Start of balanced part `c` of `len` elements split `q` ways.
inline int64_t balancedStart(int64_t len, int64_t q, int64_t c) {
  return c * (len / q) + std::min(c, len % q);
}

/// Length of that part: len / q, one more for the first len mod q.
inline int64_t balancedLength(int64_t len, int64_t q, int64_t c) {
  return len / q + (c < len % q ? 1 : 0);
}

/// Elements coordinate `c` holds of `extent` dealt in blocks of `nb` over
/// `parts` coordinates round-robin: blocks c, c + parts, ..., the last one of
/// the extent possibly partial.
inline int64_t cyclicLength(int64_t extent, int64_t nb, int64_t parts, int64_t c) {
  const int64_t blocks = ceilDiv(extent, nb);
  if (c >= blocks)
    return 0;
  int64_t n = ceilDiv(blocks - c, parts) * nb;
  if ((blocks - 1) % parts == c) // it holds the last block
    n -= blocks * nb - extent;
  return n;
}

/// Rows of the largest share of a block-cyclic dimension over `parts`
/// coordinates: the padded local extent (a panel buffer's rows).
inline int64_t cyclicRows(int64_t extent, int64_t nb, int64_t parts) {
  return ceilDiv(ceilDiv(extent, nb), parts) * nb;
}

} // namespace tc_layout

#endif // TC_LAYOUT_OWNERSHIP_H
