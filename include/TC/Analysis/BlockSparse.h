//===- BlockSparse.h - block-sparse tensors and their task pools -*- C++ -*-===//
//
// Krishnamoorthy et al. section 2 ([K] 2): a block-sparse tensor splits each
// index range into segments (in coupled-cluster codes, the irreducible
// representations of the molecule's point group) and stores only the blocks a
// predicate on their segment ids admits; a contraction over such tensors is a
// pool of independent tasks, one per present output block and contributing
// pair of input blocks, each a dense product on its blocks (a dgemm), and the
// blocks ("bricks") are the unit of disk I/O and communication.
// docs/Derivations.md D33.
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_BLOCKSPARSE_H
#define TC_ANALYSIS_BLOCKSPARSE_H

#include "TC/Analysis/Decisions.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tc {

/// Permutational symmetry of two dimensions with the same segments: the
/// tensor is unchanged (symmetric) or changes sign (antisymmetric) when their
/// indices are exchanged, T[..p..q..] = +-T[..q..p..] (<pq||rs> in p, q and
/// in r, s; the amplitudes t_ij^ab in a, b and in i, j).
struct PairSymmetry {
  int64_t first = 0, second = 0; ///< the two dimensions
  bool antisymmetric = true;
};

/// How a present block is read from the block stored for it: element x of
/// the block (per dimension, an index within that dimension's segment) is
/// `sign` times the stored block's element y with y[d] = x[dims[d]] (`dims`
/// empty: the identity, y = x). The stored block's dimension d therefore
/// carries the block's dimension dims[d].
struct StoredBlock {
  std::vector<int64_t> ids; ///< the stored block's segment ids
  std::vector<int64_t> dims;
  double sign = 1;
};

/// Which blocks of a tensor are present (possibly non-zero) and which of them
/// are stored.
struct BlockPresence {
  enum class Kind {
    All,      ///< every block (a dense tensor cut into blocks)
    Symmetry, ///< the XOR of the block's segment ids equals `symmetry`
    List,     ///< exactly the blocks of `blocks`
  };
  Kind kind = Kind::All;
  int64_t symmetry = 0;
  std::vector<std::vector<int64_t>> blocks; ///< segment ids per dimension
  /// Spin restriction (a closed-shell reference, as NWChem's TCE uses it):
  /// per dimension, the segment each segment becomes when every spin flips
  /// (the same orbitals with the other spin); empty when the tensor is not
  /// restricted. A restricted tensor's block equals its flipped block, and of
  /// each such pair only the one whose segment ids come first is stored.
  std::vector<std::vector<int64_t>> flip;
  /// Permutational symmetries, of disjoint pairs of dimensions: of the
  /// blocks they relate (with the spin flip) the one whose segment ids come
  /// first is stored, and the others are read from it, permuted and signed.
  std::vector<PairSymmetry> pairs;

  /// Whether the block may be non-zero (stored, or equal to a stored block).
  bool present(const std::vector<int64_t> &segmentIds) const;
  bool restricted() const { return !flip.empty(); }
  /// The block with every spin flipped (`segmentIds` if not restricted).
  std::vector<int64_t> flipped(const std::vector<int64_t> &segmentIds) const;
  /// The stored block holding a present block's elements: of the blocks the
  /// spin flip and the pairs' exchanges relate it to, the one whose segment
  /// ids come first (reached by the fewest exchanges, in the pairs' order).
  StoredBlock storedFor(const std::vector<int64_t> &segmentIds) const;
  std::vector<int64_t> storedAs(const std::vector<int64_t> &segmentIds) const {
    return storedFor(segmentIds).ids;
  }
  /// Whether the block is present and stored.
  bool stored(const std::vector<int64_t> &segmentIds) const;
};

/// A tensor's block structure: the segment lengths of each dimension and the
/// blocks present.
struct BlockSparseShape {
  std::vector<std::vector<int64_t>> segments; ///< per dimension, lengths summing to its extent
  BlockPresence presence;

  int64_t rank() const { return static_cast<int64_t>(segments.size()); }
  int64_t extent(int64_t dim) const;
  /// Elements of the block with these segment ids.
  int64_t blockElements(const std::vector<int64_t> &segmentIds) const;
  /// The present blocks, in row-major order of their segment ids.
  std::vector<std::vector<int64_t>> presentBlocks() const;
  /// The stored blocks (the present ones, one of each spin-flipped pair), in
  /// row-major order: a block-sparse array's bricks and its HDF5 blocks.
  std::vector<std::vector<int64_t>> storedBlocks() const;
  /// Every block, present or not (the product of the segment counts).
  int64_t allBlocks() const;
  /// Why the shape is malformed ("" if it is not), against the tensor's
  /// extents: a dimension without segments, a segment of length < 1, lengths
  /// not summing to the extent, a listed block of the wrong rank, out of range
  /// or listed twice, a negative symmetry; a spin flip that is not an
  /// involution of each dimension's segments onto segments of equal length,
  /// or present blocks whose flip is not present; a pair symmetry of
  /// dimensions out of range, equal, shared with another pair or with other
  /// segments (or spin flips), or present blocks whose exchange is not.
  std::string verify(const std::vector<int64_t> &extents) const;

private:
  std::string verifyFlip() const;
  std::string verifyPairs() const;
};

/// What a block-sparse tensor stores against the same tensor without its
/// symmetries (every block, dense): the plan report's per-tensor lines.
struct BlockStorage {
  int64_t blocks = 0, allBlocks = 0;
  int64_t elements = 0, denseElements = 0;
};
BlockStorage storageOf(const BlockSparseShape &shape);

/// A binary contraction over block-sparse tensors: C[c] (+)= A[a] * B[b], labels
/// as indices into `labelSegments` (a label has the same segments in every
/// tensor it appears in). A restricted C has restricted (or scalar) operands:
/// a product of tensors unchanged by flipping every spin is unchanged too.
struct BlockContraction {
  std::vector<std::vector<int64_t>> labelSegments;
  std::vector<int> aLabels, bLabels, cLabels;
  BlockPresence aPresence, bPresence, cPresence;

  BlockSparseShape shapeOf(const std::vector<int> &labels, const BlockPresence &p) const;
};

/// A brick: one present block of A, B or C.
struct Brick {
  Operand tensor = Operand::A;
  std::vector<int64_t> block; ///< segment ids per dimension
  double bytes = 0;
};

/// C's block += A's block * B's block, one dense product.
struct BlockTask {
  int a = -1, b = -1, c = -1; ///< bricks
  double flops = 0;           ///< 2 x the product of every label's segment length
  /// How the task reads A's and B's blocks from their bricks (StoredBlock:
  /// the brick's dimension d carries the operand's dimension aDims[d];
  /// empty: as they are), and what its product is multiplied by: the two
  /// reads' signs, times 2 per summed pair it stands for twice.
  std::vector<int64_t> aDims, bDims;
  double factor = 1;
};

/// [K] 2: the tasks of a contraction and the bricks they touch. A task exists
/// for every stored C block and every assignment of segment ids to the labels
/// not in C for which the A and B blocks are present too; bricks no task
/// touches are left out. A restricted operand's block is read from the
/// stored block equal to it (its brick), so a restricted result is computed
/// once per pair of flipped blocks. A block of an operand with permutational
/// symmetry (`pairs`) is read from its stored block permuted and signed (the
/// task's aDims, bDims and factor), and a result with it is computed once per
/// stored block. Summed labels x, y that both A and B exchange alike (both
/// pairs antisymmetric, or both symmetric) give equal sums over the blocks
/// (x in E, y in F) and (x in F, y in E): only E <= F is a task, E < F
/// counted twice (NWChem TCE's restricted summation).
struct BlockTaskPool {
  std::vector<Brick> bricks;
  std::vector<BlockTask> tasks;

  double totalFlops() const;
  double totalBytes() const;
};

BlockTaskPool buildTaskPool(const BlockContraction &problem, int64_t elemBytes);

/// One factor of a product of block-sparse tensors: its labels (indices into
/// the caller's label segments) and which of its blocks are present.
struct BlockFactor {
  std::vector<int> labels;
  BlockPresence presence;
};

/// The blocks of `resultLabels` that a product of `factors`, summed over the
/// labels not in the result, can make non-zero: those onto which some
/// assignment of segment ids to every label with every factor's block present
/// projects ([K] 2: a C block with no task is structurally zero). Row-major
/// in the segment ids. A program's intermediates get their blocks this way.
std::vector<std::vector<int64_t>>
productBlocks(const std::vector<std::vector<int64_t>> &labelSegments,
              const std::vector<BlockFactor> &factors, const std::vector<int> &resultLabels);

/// The spin flip of a product of `factors` over `resultLabels` (per result
/// label, its segments' partners), when the product is restricted: every
/// factor with labels is, and each result label is some factor's. Empty
/// otherwise: the product need not equal its flip.
std::vector<std::vector<int64_t>> productFlip(const std::vector<BlockFactor> &factors,
                                              const std::vector<int> &resultLabels);

/// The pair symmetries of a product of `factors` over `resultLabels` that a
/// single factor gives it: a factor's pair whose two labels are both result
/// labels and in no other factor (exchanging them exchanges them in that
/// factor alone), and under whose exchange the blocks of `product` (the
/// product's segments, blocks and spin flip) are closed. Disjoint, in the
/// factors' order, each as positions in `resultLabels` (first < second).
std::vector<PairSymmetry> productPairs(const std::vector<BlockFactor> &factors,
                                       const std::vector<int> &resultLabels,
                                       const BlockSparseShape &product);

/// The simplest presence naming exactly `blocks` (each in range, none twice)
/// of a tensor with these segments: every block, a symmetry, else the list.
BlockPresence simplestPresence(const std::vector<std::vector<int64_t>> &segments,
                               std::vector<std::vector<int64_t>> blocks);

/// Where each stored block of a contraction's operand `tensor` lives when it
/// runs with brick owners `owner` (per brick of `pool`): its brick's owner,
/// and for a block no task touches the processes in turn. Per block of
/// `stored` (the operand's storedBlocks()).
std::vector<int64_t> blockHomes(const BlockTaskPool &pool, Operand tensor,
                                const std::vector<std::vector<int64_t>> &stored,
                                const std::vector<int64_t> &owner, int64_t procs);

/// The pool of `tasks` (indices into `pool.tasks`) and the bricks they touch,
/// renumbered in order of first use; `brickOf[j]` is new brick j's index in
/// `pool`.
BlockTaskPool subPool(const BlockTaskPool &pool, const std::vector<int> &tasks,
                      std::vector<int> &brickOf);

} // namespace mlir::tc

#endif // TC_ANALYSIS_BLOCKSPARSE_H
