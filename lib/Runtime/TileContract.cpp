//===- TileContract.cpp - local tile contraction: permutation + dgemm -----===//
//
// C(I,J) += A(I,K) * B(K,J) on sub-tiles of three row-major buffers of f64
// or f32 (one matrix product, MatrixProduct.h: BLAS or libxsmm), with the
// index groups of Gao et al. eq. 2.2: I = labels of A and C, J = of B and C,
// K = of A and B. An operand whose sub-tile is its whole buffer and whose labels
// are already grouped ([I,K] or [K,I]; [K,J] or [J,K]; [I,J] or [J,I]) goes to
// OpenBLAS as it is, transposed through the BLAS flags, and so does any
// sub-tile of a matrix (through the leading dimension); any other is packed
// into the grouped order first (and C unpacked after).
//
// The other label roles (docs/Derivations.md D30): labels in A, B and C
// (batch, L) make one product per batch value on operands packed as [L,I,K],
// [L,K,J], [L,I,J]; a label in one input only is summed out of that input
// while it is packed (one pass over the tile; single contractions sum such
// labels as the input loads instead, Hdf5IO.cpp). Products too small for BLAS to
// pay off (an element-wise product has M = N = K = 1) run as plain loops.
//
// contractBlocks (TileContract.h) runs a block-sparse step's products on the
// same machinery, assembled into larger products or on grids of blocks (D46).
//
//===----------------------------------------------------------------------===//
#include "TileContract.h"
#include "DistArray.h"
#include "MatrixProduct.h"
#include "StridedCopy.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tc_rt {
namespace {

/// Rows and columns of C in one BLAS call at most: OpenBLAS's packing memory
/// then stays what warmUpBlas's product touches.
constexpr int64_t kGemmBlock = 512;

template <typename T> struct Operand {
  T *data;
  Shape shape, labels;
  Shape offsets; ///< of the sub-tile in the buffer, per dimension
  /// Per dimension, the sub-tile takes every steps[d]-th element (a fused
  /// loop's virtual blocks in a block it does not slice, Cociorva et al.
  /// 3.2(iii)); 1: contiguous.
  Shape steps;
  bool contiguous() const {
    return std::all_of(steps.begin(), steps.end(), [](int64_t s) { return s == 1; });
  }
};

Shape concat(const Shape &a, const Shape &b) {
  Shape r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

int64_t volume(const Shape &labels, const Shape &labelExtent) {
  int64_t v = 1;
  for (int64_t l : labels)
    v *= labelExtent[l];
  return v;
}

/// The label groups of one call (Gao et al. eq. 2.2 and docs/Derivations.md
/// D30): batch L, I (A and C), J (B and C), K (A and B), and the labels summed
/// out of A alone and of B alone.
struct Groups {
  Shape L, I, J, K, sumA, sumB;
  bool batched() const { return !L.empty() || !sumA.empty() || !sumB.empty(); }
};

/// The sub-tile of `x` walked over the labels `order`: its first element and,
/// per label, its stride in the buffer and its extent. Labels of `x` not in
/// `order` stay at the sub-tile's offset.
template <typename T> struct TileWalk {
  T *corner;
  Shape stride, ext;
};
template <typename T>
TileWalk<T> walkOf(const Operand<T> &x, const Shape &order, const Shape &labelExtent) {
  const size_t d = order.size();
  Shape stride = rowMajorStrides(x.shape);
  TileWalk<T> w{x.data, Shape(d), Shape(d)};
  for (size_t i = 0; i < x.shape.size(); ++i)
    w.corner += x.offsets[i] * stride[i];
  for (size_t i = 0; i < d; ++i) {
    size_t src = std::find(x.labels.begin(), x.labels.end(), order[i]) - x.labels.begin();
    w.stride[i] = stride[src] * x.steps[src];
    w.ext[i] = labelExtent[order[i]];
  }
  return w;
}

/// Copies the sub-tile of `x` into (or, unpacking, from) a contiguous array whose
/// dimensions are the labels `order`.
template <typename T>
void permuteCopy(const Operand<T> &x, const Shape &order, const Shape &labelExtent, T *packed,
                 bool pack) {
  const TileWalk<T> w = walkOf(x, order, labelExtent);
  Shape packedStride = rowMajorStrides(w.ext);
  if (pack)
    copyStrided(packed, packedStride, w.corner, w.stride, w.ext);
  else
    copyStrided(w.corner, w.stride, packed, packedStride, w.ext);
}

/// The sub-tile of `x` as a (rows x cols) matrix over the label groups `rows`,
/// `cols` without a copy, when its buffer holds it so: its labels are rows
/// then cols (or cols then rows: transposed), it is contiguous, and in each
/// group every dimension after the first is whole, so that the group's
/// dimensions merge into one stride (a whole tile, or a sub-tile cut along
/// the first label of a group, e.g. a round of a block used in place).
template <typename T>
std::optional<Mat<T>> directView(const Operand<T> &x, const Shape &rows, const Shape &cols,
                                 const Shape &labelExtent) {
  // No allocation here: every product asks this of each operand, twice.
  auto isConcat = [&](const Shape &first, const Shape &second) {
    return x.labels.size() == first.size() + second.size() &&
           std::equal(first.begin(), first.end(), x.labels.begin()) &&
           std::equal(second.begin(), second.end(), x.labels.begin() + first.size());
  };
  if (!x.contiguous())
    return std::nullopt;
  const bool plain = isConcat(rows, cols);
  if (!plain && !isConcat(cols, rows))
    return std::nullopt;
  const size_t d = x.shape.size(), outer = (plain ? rows : cols).size();
  for (size_t i = 0; i < d; ++i)
    if (i != 0 && i != outer && labelExtent[x.labels[i]] != x.shape[i])
      return std::nullopt;
  // Row-major strides from the last dimension: the corner's offset and the
  // outer group's stride (with no outer label, one stored row of the inner).
  int64_t stride = 1, at = 0, ld = std::max<int64_t>(1, volume(plain ? cols : rows, labelExtent));
  for (size_t i = d; i-- > 0;) {
    at += x.offsets[i] * stride;
    if (i + 1 == outer)
      ld = stride;
    stride *= x.shape[i];
  }
  return Mat<T>{x.data + at, !plain, std::max<int64_t>(ld, 1)};
}

/// The operand as a (rows x cols) matrix over the label groups `rows`, `cols`,
/// packing into `scratch` when its layout does not allow a direct view.
template <typename T>
Mat<T> asMatrix(const Operand<T> &x, const Shape &rows, const Shape &cols,
                const Shape &labelExtent, PooledVector<T> &scratch) {
  if (std::optional<Mat<T>> m = directView(x, rows, cols, labelExtent))
    return *m;
  int64_t nc = volume(cols, labelExtent);
  scratch.resize(volume(rows, labelExtent) * nc);
  permuteCopy(x, concat(rows, cols), labelExtent, scratch.data(), true);
  return {scratch.data(), false, nc};
}

/// Packs the sub-tile of `x` as the labels `keep` (row-major), summed over the
/// labels `summed` (those of x's labels not in `keep`).
template <typename T>
void packSummed(const Operand<T> &x, const Shape &keep, const Shape &summed,
                const Shape &labelExtent, PooledVector<T> &out) {
  const int64_t n = volume(keep, labelExtent), s = volume(summed, labelExtent);
  out.resize(n);
  if (s == 1) {
    permuteCopy(x, keep, labelExtent, out.data(), true);
    return;
  }
  PooledVector<T> full(n * s);
  permuteCopy(x, concat(keep, summed), labelExtent, full.data(), true);
  for (int64_t i = 0; i < n; ++i) {
    T sum = 0;
    for (int64_t j = 0; j < s; ++j)
      sum += full[i * s + j];
    out[i] = sum;
  }
}

/// Elements a call on these sub-tiles packs (all its packing buffers together).
template <typename T>
int64_t packedElems(const Operand<T> ops[3], const Groups &g, const Shape &labelExtent) {
  if (g.batched()) {
    auto summedInput = [&](const Shape &keep, const Shape &summed) {
      const int64_t n = volume(keep, labelExtent), s = volume(summed, labelExtent);
      return s == 1 ? n : n + n * s;
    };
    return summedInput(concat(concat(g.L, g.I), g.K), g.sumA) +
           summedInput(concat(concat(g.L, g.K), g.J), g.sumB) +
           volume(concat(concat(g.L, g.I), g.J), labelExtent);
  }
  int64_t n = 0;
  const Shape *groups[3][2] = {{&g.I, &g.K}, {&g.K, &g.J}, {&g.I, &g.J}};
  for (int x = 0; x < 3; ++x)
    if (!directView(ops[x], *groups[x][0], *groups[x][1], labelExtent))
      n += volume(*groups[x][0], labelExtent) * volume(*groups[x][1], labelExtent);
  return n;
}

/// C(M x N) = alpha * A(M x K) * B(K x N) + beta * C, C not transposed, in
/// blocks of C of at most kGemmBlock x kGemmBlock.
template <typename T>
void gemm(Mat<T> c, Mat<T> a, Mat<T> b, int64_t M, int64_t N, int64_t K, T alpha, T beta = 1) {
  for (int64_t m = 0; m < M; m += kGemmBlock)
    for (int64_t n = 0; n < N; n += kGemmBlock)
      matrixProduct(c.at(m, n), a.at(m, 0), b.at(0, n), std::min(kGemmBlock, M - m),
                    std::min(kGemmBlock, N - n), K, alpha, beta);
}

/// Below this many multiply-adds a product runs as plain loops: a BLAS call
/// costs more than the arithmetic (an element-wise product is one).
constexpr int64_t kSmallProduct = 512;

/// The general case: batch labels L, and labels summed in one input (SA, SB).
/// Every operand is packed ([L,I,K], [L,K,J], [L,I,J]), each batch value one
/// product, and C unpacked.
template <typename T>
void contractBatched(const Operand<T> ops[3], const Groups &g, const Shape &labelExtent,
                     T alpha) {
  PooledVector<T> pa, pb, pc;
  const Shape orderA = concat(concat(g.L, g.I), g.K), orderB = concat(concat(g.L, g.K), g.J),
              orderC = concat(concat(g.L, g.I), g.J);
  packSummed(ops[0], orderA, g.sumA, labelExtent, pa);
  packSummed(ops[1], orderB, g.sumB, labelExtent, pb);
  pc.resize(volume(orderC, labelExtent));
  permuteCopy(ops[2], orderC, labelExtent, pc.data(), true);
  const int64_t nl = volume(g.L, labelExtent), M = volume(g.I, labelExtent),
                N = volume(g.J, labelExtent), Kn = volume(g.K, labelExtent);
  for (int64_t l = 0; l < nl; ++l) {
    T *a = pa.data() + l * M * Kn, *b = pb.data() + l * Kn * N;
    T *c = pc.data() + l * M * N;
    if (M * N * Kn > kSmallProduct) {
      gemm(Mat<T>{c, false, N}, Mat<T>{a, false, Kn}, Mat<T>{b, false, N}, M, N, Kn, alpha);
      continue;
    }
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < Kn; ++k) {
        const T aik = alpha * a[i * Kn + k];
        for (int64_t j = 0; j < N; ++j)
          c[i * N + j] += aik * b[k * N + j];
      }
  }
  permuteCopy(ops[2], orderC, labelExtent, pc.data(), false);
}

/// One piece: operands packed as needed, one (blocked) product.
template <typename T>
void contractPiece(const Operand<T> ops[3], const Groups &g, const Shape &labelExtent, T alpha) {
  if (g.batched())
    return contractBatched(ops, g, labelExtent, alpha);
  const int64_t M = volume(g.I, labelExtent), N = volume(g.J, labelExtent),
                Kn = volume(g.K, labelExtent);
  // One input a scalar and nothing summed (a tensor copied or added: `X = Y`
  // is Y's product with a scalar of ones): C += (alpha b) A, walked in place.
  if (Kn == 1 && (M == 1 || N == 1)) {
    const bool aVaries = N == 1;
    const Operand<T> &varying = ops[aVaries ? 0 : 1], &scalar = ops[aVaries ? 1 : 0];
    const Shape &labels = aVaries ? g.I : g.J;
    const TileWalk<T> c = walkOf(ops[2], labels, labelExtent),
                      x = walkOf(varying, labels, labelExtent);
    addScaledStrided(c.corner, c.stride, x.corner, x.stride, c.ext,
                     alpha * *walkOf(scalar, Shape(), labelExtent).corner);
    return;
  }
  PooledVector<T> sa, sb, sc;
  Mat<T> ma = asMatrix(ops[0], g.I, g.K, labelExtent, sa);
  Mat<T> mb = asMatrix(ops[1], g.K, g.J, labelExtent, sb);
  Mat<T> mc = asMatrix(ops[2], g.I, g.J, labelExtent, sc);
  if (mc.trans) // C^T(J,I) += B^T(J,K) * A^T(K,I)
    gemm(mc.t(), mb.t(), ma.t(), N, M, Kn, alpha);
  else
    gemm(mc, ma, mb, M, N, Kn, alpha);
  if (mc.data == sc.data() && !sc.empty())
    permuteCopy(ops[2], concat(g.I, g.J), labelExtent, sc.data(), false);
}

/// The contraction of the sub-tiles with at most `budget` elements packed at
/// a time: whole when that fits, else in two pieces along the label whose
/// halving leaves the least to pack (the longest on ties), each again so.
template <typename T>
void contractWithin(Operand<T> ops[3], const Groups &g, Shape &labelExtent, T alpha,
                    int64_t budget) {
  if (packedElems(ops, g, labelExtent) <= budget)
    return contractPiece(ops, g, labelExtent, alpha);
  int64_t best = -1, bestPacked = 0;
  for (int64_t l = 0; l < static_cast<int64_t>(labelExtent.size()); ++l) {
    const int64_t e = labelExtent[l];
    if (e <= 1)
      continue;
    labelExtent[l] = e - e / 2; // the larger half
    const int64_t packed = packedElems(ops, g, labelExtent);
    labelExtent[l] = e;
    if (best < 0 || packed < bestPacked ||
        (packed == bestPacked && e > labelExtent[best]))
      best = l, bestPacked = packed;
  }
  if (best < 0) // nothing left to cut
    return contractPiece(ops, g, labelExtent, alpha);
  const int64_t e = labelExtent[best], half = e / 2;
  labelExtent[best] = half;
  contractWithin(ops, g, labelExtent, alpha, budget);
  for (int x = 0; x < 3; ++x)
    for (size_t i = 0; i < ops[x].labels.size(); ++i)
      if (ops[x].labels[i] == best)
        ops[x].offsets[i] += half * ops[x].steps[i];
  labelExtent[best] = e - half;
  contractWithin(ops, g, labelExtent, alpha, budget);
  for (int x = 0; x < 3; ++x)
    for (size_t i = 0; i < ops[x].labels.size(); ++i)
      if (ops[x].labels[i] == best)
        ops[x].offsets[i] -= half * ops[x].steps[i];
  labelExtent[best] = e;
}

/// One call's operands, label groups and extents.
template <typename T> struct TileCall {
  Operand<T> ops[3];
  Groups g;
  Shape labelExtent;
  T alpha;

  /// The call `desc` on buffers a, b, c, at sub-tile offsets `offsets`
  /// (the ABI's order: A's, then B's, then C's; none: whole buffers).
  TileCall(const TileContractDesc &desc, T *a, T *b, T *c, const int64_t *offsets = nullptr)
      : labelExtent(desc.labelExtents), alpha(static_cast<T>(desc.alpha)) {
    for (int x : {TC_RT_OPERAND_A, TC_RT_OPERAND_B, TC_RT_OPERAND_C}) {
      const TileContractDesc::Operand &d = desc.operand(x);
      const size_t n = d.shape.size();
      ops[x] = {nullptr, d.shape, d.labels, Shape(n, 0), d.steps.empty() ? Shape(n, 1) : d.steps};
    }
    moveTo(a, b, c, offsets);
    auto has = [](const Operand<T> &x, int64_t l) {
      return std::find(x.labels.begin(), x.labels.end(), l) != x.labels.end();
    };
    for (int64_t l : ops[2].labels)
      (has(ops[0], l) && has(ops[1], l) ? g.L : has(ops[0], l) ? g.I : g.J).push_back(l);
    for (int64_t l : ops[0].labels)
      if (!has(ops[2], l))
        (has(ops[1], l) ? g.K : g.sumA).push_back(l);
    for (int64_t l : ops[1].labels)
      if (!has(ops[0], l) && !has(ops[2], l))
        g.sumB.push_back(l);
  }

  /// The call on buffers a, b, c, at sub-tile offsets `offsets` (as the
  /// constructor's; none: whole buffers).
  void moveTo(T *a, T *b, T *c, const int64_t *offsets) {
    T *buffers[3] = {a, b, c};
    for (int x : {TC_RT_OPERAND_A, TC_RT_OPERAND_B, TC_RT_OPERAND_C}) {
      ops[x].data = buffers[x];
      const size_t n = ops[x].offsets.size();
      if (offsets)
        std::copy(offsets, offsets + n, ops[x].offsets.begin()), offsets += n;
      else
        std::fill(ops[x].offsets.begin(), ops[x].offsets.end(), 0);
    }
  }

  int64_t volumeOf(const Shape &labels) const { return volume(labels, labelExtent); }

  /// The input with the larger buffer (0: A, 1: B; A on ties).
  int largerInput() const { return product(ops[0].shape) >= product(ops[1].shape) ? 0 : 1; }

  /// C += alpha * A * B, packing at most `budget` elements at a time.
  void run(int64_t budget) {
    contractWithin(ops, g, labelExtent, alpha, budget);
    count();
  }

  /// Counts the call's flops (sums of one-input labels are additions, not
  /// counted) and reports progress.
  void count() const {
    counters().flops += 2.0 * volumeOf(g.L) * volumeOf(g.I) * volumeOf(g.J) * volumeOf(g.K);
    reportProgress();
  }
};

/// A program calls tc_rt_tile_contract with a few constant descriptors, in
/// a loop many times each: each descriptor's call is decoded once and kept
/// with a copy of the descriptor, which a later call at that address must
/// equal (a caller's buffer may hold another descriptor there by then). At
/// water's STO-3G CCSD, decoding took most of a product's few microseconds.
template <typename T>
void tileContract(const int64_t *desc, const TileContractDescView &view, T *a, T *b, T *c,
                  const int64_t *offsets) {
  struct Known {
    std::vector<int64_t> words;
    std::optional<TileCall<T>> call;
  };
  static std::map<const int64_t *, Known> known;
  Known &k = known[desc];
  const auto n = static_cast<size_t>(view.size());
  if (!k.call || k.words.size() != n || !std::equal(k.words.begin(), k.words.end(), desc)) {
    k.words.assign(desc, desc + n);
    k.call.emplace(view.decode(), a, b, c, offsets);
  } else {
    k.call->moveTo(a, b, c, offsets);
  }
  k.call->run(chunkElems(sizeof(T)));
}

/// The sub-tile of `x` over the labels `rows` then `cols`, and a row-major
/// matrix at `m` (`ld` elements a row) of as many rows and columns: the
/// strides to walk both alike (walkStrided's addressing).
template <typename T> struct MatrixWalk {
  TileWalk<T> tile;
  Shape matrixStride;
};
template <typename T>
MatrixWalk<T> matrixWalk(const Operand<T> &x, const Shape &rows, const Shape &cols,
                         const Shape &labelExtent, int64_t ld) {
  auto extentsOf = [&](const Shape &labels) {
    Shape e;
    for (int64_t l : labels)
      e.push_back(labelExtent[l]);
    return e;
  };
  Shape rowStride = rowMajorStrides(extentsOf(rows));
  for (int64_t &s : rowStride)
    s *= ld;
  return {walkOf(x, concat(rows, cols), labelExtent),
          concat(rowStride, rowMajorStrides(extentsOf(cols)))};
}

/// Calls on a grid of blocks (D46): the blocks of input `each` (0: A, 1: B)
/// one at a time, the other input's blocks `wide` side by side as one wide
/// operand; cells[e][w] is the product of each-block e and wide-block w.
/// Each-block A [I,K]: the B blocks as the column ranges of one [K, sum J],
/// one product per A block into a scratch [I, sum J]. Each-block B [K,J]:
/// the A blocks as the row ranges of one [sum I, K], one product per B block
/// into a scratch [sum I, J]. Every call then adds its range into its C
/// block. Each block is packed (or read in place) once, and each product is
/// as wide as the other input's blocks together.
template <typename T> struct Grid {
  int each;
  std::vector<std::vector<TileCall<T> *>> cells;
};

template <typename T> void contractGrid(const Grid<T> &grid, size_t w0, size_t w1) {
  const int each = grid.each, other = 1 - each;
  const TileCall<T> &first = *grid.cells[0][w0];
  const Groups &g = first.g;
  const int64_t Kn = first.volumeOf(g.K);
  // The wide operand: per wide block, its offset in columns (each A) or rows.
  std::vector<int64_t> at;
  int64_t total = 0;
  for (size_t w = w0; w < w1; ++w) {
    at.push_back(total);
    total += grid.cells[0][w]->volumeOf(each == 0 ? g.J : g.I);
  }
  Buffer<T> wide(Kn * total);
  for (size_t w = w0; w < w1; ++w) {
    const TileCall<T> &c = *grid.cells[0][w];
    const MatrixWalk<T> m = each == 0 ? matrixWalk(c.ops[other], g.K, g.J, c.labelExtent, total)
                                      : matrixWalk(c.ops[other], g.I, g.K, c.labelExtent, Kn);
    T *to = wide.data() + (each == 0 ? at[w - w0] : at[w - w0] * Kn);
    copyStrided(to, m.matrixStride, static_cast<const T *>(m.tile.corner), m.tile.stride,
                m.tile.ext);
  }
  PooledVector<T> pack;
  Buffer<T> result;
  for (const std::vector<TileCall<T> *> &row : grid.cells) {
    const TileCall<T> &c = *row[w0];
    const Mat<T> me = each == 0 ? asMatrix(c.ops[0], g.I, g.K, c.labelExtent, pack)
                                : asMatrix(c.ops[1], g.K, g.J, c.labelExtent, pack);
    const int64_t fixed = c.volumeOf(each == 0 ? g.I : g.J); // M or N of this block
    result.resize(fixed * total);
    if (each == 0)
      gemm(Mat<T>{result.data(), false, total}, me, Mat<T>{wide.data(), false, total}, fixed, total,
           Kn, c.alpha, T(0));
    else
      gemm(Mat<T>{result.data(), false, fixed}, Mat<T>{wide.data(), false, Kn}, me, total, fixed,
           Kn, c.alpha, T(0));
    for (size_t w = w0; w < w1; ++w) {
      const TileCall<T> &cell = *row[w];
      const int64_t ld = each == 0 ? total : fixed;
      const T *from = result.data() + (each == 0 ? at[w - w0] : at[w - w0] * fixed);
      const MatrixWalk<T> m = matrixWalk(cell.ops[2], g.I, g.J, cell.labelExtent, ld);
      addScaledStrided(m.tile.corner, m.tile.stride, from, m.matrixStride, m.tile.ext, T(1));
      cell.count();
    }
  }
}

/// Whether call `c` gains from running with others sharing its input
/// `shared`: BLAS packs the shared block once for them all instead of once
/// per call, while this call's other input and C, which BLAS would use in
/// place where their layout allows, are copied into the wide operand and
/// added from the scratch result (D46).
template <typename T> bool worthSharing(const TileCall<T> &c, int shared) {
  const Groups &g = c.g;
  const int64_t M = c.volumeOf(g.I), N = c.volumeOf(g.J), Kn = c.volumeOf(g.K);
  const bool otherInPlace =
      shared == 0 ? directView(c.ops[1], g.K, g.J, c.labelExtent).has_value()
                  : directView(c.ops[0], g.I, g.K, c.labelExtent).has_value();
  const bool cInPlace = directView(c.ops[2], g.I, g.J, c.labelExtent).has_value();
  const int64_t saved = shared == 0 ? M * Kn : Kn * N;
  const int64_t copied = (otherInPlace ? (shared == 0 ? Kn * N : M * Kn) : 0) +
                         (cInPlace ? M * N : 0);
  return saved > copied;
}

/// Runs `grid` in pieces that pack within `budget` elements: all its each-
/// blocks with as many wide blocks as fit; a single cell runs alone.
template <typename T> void contractGridWithin(const Grid<T> &grid, int64_t budget) {
  const int each = grid.each, other = 1 - each;
  const size_t nw = grid.cells[0].size();
  int64_t eachMost = 0, rowsMost = 0; // the largest each-block; its rows (M or N)
  for (const auto &row : grid.cells) {
    const TileCall<T> &c = *row[0];
    eachMost = std::max(eachMost, product(c.ops[each].shape));
    rowsMost = std::max(rowsMost, c.volumeOf(each == 0 ? c.g.I : c.g.J));
  }
  size_t w0 = 0;
  while (w0 < nw) {
    size_t w1 = w0;
    int64_t wideElems = 0, cols = 0;
    while (w1 < nw) {
      const TileCall<T> &c = *grid.cells[0][w1];
      const int64_t moreWide = product(c.ops[other].shape),
                    moreCols = c.volumeOf(each == 0 ? c.g.J : c.g.I);
      if (w1 > w0 && wideElems + moreWide + eachMost + rowsMost * (cols + moreCols) > budget)
        break;
      wideElems += moreWide, cols += moreCols, ++w1;
    }
    if (grid.cells.size() == 1 && w1 - w0 == 1)
      grid.cells[0][w0]->run(budget);
    else if (wideElems + eachMost + rowsMost * cols > budget)
      for (const auto &row : grid.cells) // one wide block does not fit with the rest
        row[w0]->run(budget);
    else
      contractGrid(grid, w0, w1);
    w0 = w1;
  }
}

/// The tasks `tasks` by their summed segments, each a grid of A blocks by B
/// blocks (one grid per block of the larger input where some pairing is not
/// a task).
template <typename T>
void contractSummedGroups(const std::vector<BlockProduct<T>> &products,
                          std::vector<TileCall<T>> &calls, const std::vector<size_t> &tasks,
                          int64_t budget) {
  std::map<std::vector<int64_t>, std::vector<size_t>> bySummed;
  std::vector<const std::vector<size_t> *> order;
  for (size_t i : tasks) {
    auto [it, fresh] = bySummed.try_emplace(products[i].summedSegments);
    if (fresh)
      order.push_back(&it->second);
    it->second.push_back(i);
  }
  for (const std::vector<size_t> *group : order) {
    const TileCall<T> &first = calls[group->front()];
    const int each = first.largerInput();
    auto blockOf = [&](size_t i, int x) { return x == 0 ? products[i].readA : products[i].readB; };
    // Rows: the distinct each-blocks; columns: the distinct other blocks.
    std::map<int64_t, size_t> rowOf, colOf;
    for (size_t i : *group) {
      rowOf.try_emplace(blockOf(i, each), rowOf.size());
      colOf.try_emplace(blockOf(i, 1 - each), colOf.size());
    }
    Grid<T> full{each, std::vector<std::vector<TileCall<T> *>>(
                           rowOf.size(), std::vector<TileCall<T> *>(colOf.size(), nullptr))};
    bool complete = group->size() == rowOf.size() * colOf.size();
    for (size_t i : *group) {
      TileCall<T> *&cell = full.cells[rowOf[blockOf(i, each)]][colOf[blockOf(i, 1 - each)]];
      complete &= cell == nullptr;
      cell = &calls[i];
    }
    if (complete) {
      contractGridWithin(full, budget);
      continue;
    }
    std::map<int64_t, Grid<T>> perBlock;
    for (size_t i : *group) {
      Grid<T> &one = perBlock.try_emplace(blockOf(i, each), Grid<T>{each, {{}}}).first->second;
      one.cells[0].push_back(&calls[i]);
    }
    for (auto &[block, one] : perBlock)
      contractGridWithin(one, budget);
  }
}

/// The positions of a set's row, summed or column segments in its assembled
/// matrices: per key, its offset.
struct Ranges {
  std::map<std::vector<int64_t>, int64_t> at;
  int64_t total = 0;
  void add(const std::vector<int64_t> &key, int64_t extent) {
    if (at.try_emplace(key, total).second)
      total += extent;
  }
  int64_t offset(const std::vector<int64_t> &key) const { return at.at(key); }
};

/// Tasks over every pairing of their row, summed and column segments (each
/// once) as one product (D46): A assembled as [rows, summed] from its
/// blocks, B as [summed, columns], C = A B into a scratch, each C block
/// added from its range once. False, doing nothing, if the tasks are not
/// such a set or its matrices do not fit in `budget` elements.
template <typename T>
bool contractAssembled(const std::vector<BlockProduct<T>> &products,
                       std::vector<TileCall<T>> &calls, const std::vector<size_t> &tasks,
                       int64_t budget) {
  Ranges rows, summed, columns;
  std::set<std::vector<std::vector<int64_t>>> seen;
  for (size_t i : tasks) {
    const BlockProduct<T> &p = products[i];
    const TileCall<T> &c = calls[i];
    rows.add(p.rowSegments, c.volumeOf(c.g.I));
    summed.add(p.summedSegments, c.volumeOf(c.g.K));
    columns.add(p.columnSegments, c.volumeOf(c.g.J));
    seen.insert({p.rowSegments, p.summedSegments, p.columnSegments});
  }
  const int64_t M = rows.total, Kn = summed.total, N = columns.total;
  if (seen.size() != tasks.size() ||
      tasks.size() != rows.at.size() * summed.at.size() * columns.at.size() ||
      M * Kn + Kn * N + M * N > budget)
    return false;
  // Per place of the assembled A (row, summed), B (summed, column) and C
  // (row, column), the first task there. One brick per place: a
  // spin-restricted tensor's brick may stand for two blocks, and the keys
  // must not join tasks that read different bricks at one place.
  using Place = std::pair<int64_t, int64_t>;
  std::map<Place, size_t> firstAt[3];
  for (size_t i : tasks) {
    const BlockProduct<T> &p = products[i];
    const int64_t r = rows.offset(p.rowSegments), k = summed.offset(p.summedSegments),
                  n = columns.offset(p.columnSegments);
    const Place places[3] = {{r, k}, {k, n}, {r, n}};
    auto brick = [&](int x, size_t t) {
      return x == 0 ? products[t].readA : x == 1 ? products[t].readB : products[t].blockC;
    };
    for (int x = 0; x < 3; ++x)
      if (brick(x, firstAt[x].try_emplace(places[x], i).first->second) != brick(x, i))
        return false;
  }
  Buffer<T> a(M * Kn), b(Kn * N), c(M * N);
  for (const auto &[place, i] : firstAt[0]) {
    const TileCall<T> &call = calls[i];
    const MatrixWalk<T> w = matrixWalk(call.ops[0], call.g.I, call.g.K, call.labelExtent, Kn);
    copyStrided(a.data() + place.first * Kn + place.second, w.matrixStride,
                static_cast<const T *>(w.tile.corner), w.tile.stride, w.tile.ext);
  }
  for (const auto &[place, i] : firstAt[1]) {
    const TileCall<T> &call = calls[i];
    const MatrixWalk<T> w = matrixWalk(call.ops[1], call.g.K, call.g.J, call.labelExtent, N);
    copyStrided(b.data() + place.first * N + place.second, w.matrixStride,
                static_cast<const T *>(w.tile.corner), w.tile.stride, w.tile.ext);
  }
  const TileCall<T> &first = calls[tasks.front()];
  gemm(Mat<T>{c.data(), false, N}, Mat<T>{a.data(), false, Kn}, Mat<T>{b.data(), false, N}, M, N,
       Kn, first.alpha, T(0));
  for (const auto &[place, i] : firstAt[2]) {
    const TileCall<T> &call = calls[i];
    const MatrixWalk<T> w = matrixWalk(call.ops[2], call.g.I, call.g.J, call.labelExtent, N);
    addScaledStrided(w.tile.corner, w.tile.stride, c.data() + place.first * N + place.second,
                     w.matrixStride, w.tile.ext, T(1));
  }
  for (size_t i : tasks)
    calls[i].count();
  return true;
}

/// The tasks `tasks` in sets joined through shared A, B or C blocks (A and B
/// read alike), each set and its tasks in the order they first appear. A set
/// has one alpha: tasks whose products take other signs (pair symmetries)
/// are not joined.
template <typename T>
std::vector<std::vector<size_t>> joinedByBlocks(const std::vector<BlockProduct<T>> &products,
                                                const std::vector<size_t> &tasks) {
  // (tensor, read or block, alpha) -> node
  std::map<std::tuple<int, int64_t, double>, size_t> nodeOf;
  std::vector<size_t> parent;
  size_t i = 0; // the task whose nodes `node` names
  auto node = [&](int x, int64_t block) {
    auto [it, fresh] = nodeOf.try_emplace({x, block, products[i].desc.alpha}, parent.size());
    if (fresh)
      parent.push_back(parent.size());
    return it->second;
  };
  std::function<size_t(size_t)> root = [&](size_t n) {
    return parent[n] == n ? n : parent[n] = root(parent[n]);
  };
  for (size_t t : tasks) {
    i = t;
    const size_t a = root(node(0, products[i].readA));
    parent[root(node(1, products[i].readB))] = a;
    parent[root(node(2, products[i].blockC))] = a;
  }
  std::map<size_t, size_t> setOf;
  std::vector<std::vector<size_t>> sets;
  for (size_t t : tasks) {
    i = t;
    auto [it, fresh] = setOf.try_emplace(root(node(0, products[i].readA)), sets.size());
    if (fresh)
      sets.emplace_back();
    sets[it->second].push_back(i);
  }
  return sets;
}

/// Whether BLAS could take call `c`'s inputs as they are stored.
template <typename T> bool inputsInPlace(const TileCall<T> &c) {
  return directView(c.ops[0], c.g.I, c.g.K, c.labelExtent) ||
         directView(c.ops[1], c.g.K, c.g.J, c.labelExtent);
}

/// The calls of `products`, made once per list of products (a loop's steps
/// run the same products, BlockArrays.cpp keeps them) with their buffers set
/// on every use; made again when the list holds other products.
template <typename T>
std::vector<TileCall<T>> &callsOf(const std::vector<BlockProduct<T>> &products) {
  static std::map<const std::vector<BlockProduct<T>> *, std::vector<TileCall<T>>> known;
  std::vector<TileCall<T>> &calls = known[&products];
  bool same = calls.size() == products.size();
  for (size_t i = 0; same && i < products.size(); ++i) {
    same = calls[i].alpha == static_cast<T>(products[i].desc.alpha);
    for (int x : {TC_RT_OPERAND_A, TC_RT_OPERAND_B, TC_RT_OPERAND_C})
      same = same && calls[i].ops[x].shape == products[i].desc.operand(x).shape &&
             calls[i].ops[x].labels == products[i].desc.operand(x).labels;
  }
  if (!same) {
    calls.clear();
    calls.reserve(products.size());
    for (const BlockProduct<T> &p : products)
      calls.emplace_back(p.desc, p.a, p.b, p.c);
  }
  for (size_t i = 0; i < products.size(); ++i) {
    calls[i].ops[TC_RT_OPERAND_A].data = products[i].a;
    calls[i].ops[TC_RT_OPERAND_B].data = products[i].b;
    calls[i].ops[TC_RT_OPERAND_C].data = products[i].c;
  }
  return calls;
}

} // namespace

template <typename T> void contractBlocks(const std::vector<BlockProduct<T>> &products) {
  TraceScope trace("tc_rt_tile_contract");
  const int64_t budget = chunkElems(sizeof(T));
  std::vector<TileCall<T>> &calls = callsOf(products);
  // Batched products, products with a scalar and products that would copy
  // more than they save run alone.
  std::vector<size_t> shared;
  for (size_t i = 0; i < calls.size(); ++i) {
    TileCall<T> &c = calls[i];
    if (c.g.batched() || c.volumeOf(c.g.K) == 1 || !worthSharing(c, c.largerInput()))
      c.run(budget);
    else
      shared.push_back(i);
  }
  // Sets whose inputs BLAS would pack anyway are assembled; blocks it can
  // read in place are not copied, and run on grids.
  for (const std::vector<size_t> &set : joinedByBlocks(products, shared))
    if (inputsInPlace(calls[set.front()]) || !contractAssembled(products, calls, set, budget))
      contractSummedGroups(products, calls, set, budget);
}

template void contractBlocks<double>(const std::vector<BlockProduct<double>> &);
template void contractBlocks<float>(const std::vector<BlockProduct<float>> &);

namespace {

/// One product of kGemmBlock x kGemmBlock x 256 in each type: OpenBLAS maps
/// and touches the packing memory such products use.
template <typename T> void warmUp() {
  const int64_t n = kGemmBlock, k = 256;
  std::vector<T> x(n * k, T(0)), y(k * n, T(0)), z(n * n, T(0));
  matrixProduct(Mat<T>{z.data(), false, n}, Mat<T>{x.data(), false, k}, Mat<T>{y.data(), false, n},
                n, n, k, T(1), T(1));
}

} // namespace

void warmUpBlas() {
  warmUp<double>();
  warmUp<float>();
  startSmallKernels();
}

} // namespace tc_rt

extern "C" void tc_rt_tile_contract(const int64_t *desc, void *a, void *b, void *c,
                                    const int64_t *offsets) {
  tc_rt::TraceScope trace("tc_rt_tile_contract");
  using namespace tc_rt;
  TileContractDescView view(desc);
  withElement(view.elem(), [&](auto zero) {
    using T = decltype(zero);
    tileContract(desc, view, static_cast<T *>(a), static_cast<T *>(b), static_cast<T *>(c),
                 offsets);
  });
}
