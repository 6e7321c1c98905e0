//===- TCEProgram.h - the tensor-expression language, parsed ----*- C++ -*-===//
//
// A program in tc's input language, in the spirit of the Tensor Contraction
// Engine's (Cociorva et al. section 1; docs/TCELanguage.md): index ranges,
// indices bound to ranges, input and output tensors, and statements that are
// sums of products with coefficients. Plain C++ with no MLIR: parseTCE turns
// text into a Program, with antisymmetrizers P(ij) already expanded and every
// name checked; ImportTCE.cpp turns a Program into tc IR.
//
//===----------------------------------------------------------------------===//
#ifndef TC_FRONTEND_TCEPROGRAM_H
#define TC_FRONTEND_TCEPROGRAM_H

#include "TC/Analysis/BlockSparse.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::tc::tce {

/// 1-based line and column of a token in the source text.
struct SourceLoc {
  int line = 0, column = 0;
};

/// `range O = 40;` or, cut into segments (irreps) for block-sparse tensors,
/// `range O = 40 : segments [12, 12, 8, 8];`, whose symmetry labels are their
/// positions unless given: `... segments [3, 1, 3] labels [0, 2, 3];` (a
/// molecule's irreducible representations, some with no orbital of the range),
/// and which may carry an additive charge each: `... charges [1, 1, -1];` (a
/// conserved quantity such as twice the spin projection).
struct IndexRange {
  std::string name;
  int64_t extent = 0;
  std::vector<int64_t> segments; ///< lengths summing to extent; empty: not segmented
  std::vector<int64_t> labels;   ///< per segment its symmetry label; empty: its position
  std::vector<int64_t> charges;  ///< per segment its charge; empty: all 0
  std::vector<int64_t> flip;     ///< per segment its spin partner; empty: found (partners)
  SourceLoc loc;

  int64_t label(int64_t segment) const { return labels.empty() ? segment : labels[segment]; }
  int64_t charge(int64_t segment) const { return charges.empty() ? 0 : charges[segment]; }
  /// The spin flip of the segments (a `restricted` tensor's): `flip` where
  /// given, else each segment's partner is the one of equal length (and
  /// label, where labels are given) with the opposite charge, a charge-0
  /// segment its own. Why there is none ("" if there is): a segment with no
  /// such partner or several; a given flip that maps a segment out of range,
  /// is not its own inverse, or pairs segments of other lengths or of charges
  /// that do not cancel.
  std::string partners(std::vector<int64_t> &out) const;
};

/// `charge Q signs [+, +, -, -]` in a block-sparse declaration: a block is
/// present only when its segments' charges, each with its dimension's sign,
/// sum to `total` (a conserved charge: what flows in equals what flows out).
struct ChargeRule {
  int64_t total = 0;
  std::vector<int64_t> signs; ///< +1 or -1 per dimension
};

/// `index i, j, k : O;` declares one Index per name.
struct Index {
  std::string name;
  std::string range; ///< the name of its IndexRange
  int64_t extent = 0; ///< the range's extent
  SourceLoc loc;
};

enum class TensorRole { Input, Output, Intermediate };
enum class ElementType { F64, F32 };

/// `input V[a,b,c,d];`, `output R[a,b,i,j] : f32 symmetry 0;`, or an
/// intermediate, which is declared by the first statement assigning it
/// (`X[k,l] = ...`) and is block-sparse when its terms are, with the blocks
/// they can make non-zero.
struct Tensor {
  std::string name;
  std::vector<std::string> indices; ///< as declared: fixes the rank and extents
  TensorRole role = TensorRole::Input;
  ElementType element = ElementType::F64;
  SourceLoc loc;
  bool blockSparse = false;
  /// blockSparse only: which blocks are present and stored (with `restricted`,
  /// or for an intermediate whose terms' factors all are, presence.flip)
  BlockPresence presence;
};

/// One tensor reference in a statement, `T[c,d,i,j]`.
struct Factor {
  std::string tensor;
  std::vector<std::string> indices;
  SourceLoc loc;
};

/// coefficient * factors[0] * factors[1] * ..., summed over every index absent
/// from the statement's target. After P(ij) expansion: no antisymmetrizer.
struct Term {
  double coefficient = 1.0;
  std::vector<Factor> factors; ///< at least one
  SourceLoc loc;               ///< of the term's first token
};

/// `target (= | +=) term (+|- term)* ;`
struct Statement {
  Factor target;
  bool accumulate = false; ///< `+=`
  std::vector<Term> terms; ///< at least one
  SourceLoc loc;           ///< of the target
  int loop = -1;           ///< the Program::loops entry repeating it; -1: none
  /// `X[...] = 1 / (terms);` or `= 1 / Y[...];`: the target is the
  /// element-wise reciprocal of the terms' sum.
  bool reciprocal = false;
};

/// `iterate max 50 until E converges to 1e-10 [diis 6] { ... }` or
/// `iterate 10 [diis 6] { ... }`:
/// statements [first, first + count) run again and again, until the scalar
/// `converge` changes by less than `tolerance` from one iteration to the next
/// or `maxIterations` have run. A tensor the loop assigns and reads before
/// assigning it in an iteration is carried: it starts with its value before
/// the loop (an earlier statement's, or an input's) and each iteration reads
/// the previous one's.
struct Loop {
  int64_t maxIterations = 0;
  std::string converge; ///< a scalar (rank 0) the loop assigns; empty: a fixed count
  double tolerance = 0; ///< > 0 when `converge` is set
  /// `diis N`: the carried tensors extrapolated from the last N iterations'
  /// values (Pulay's DIIS); 0: plain iterations.
  int64_t diis = 0;
  size_t first = 0, count = 0;
  SourceLoc loc; ///< of `iterate`
};

struct Program {
  std::string name = "tce"; ///< `program NAME;`, else "tce"
  std::vector<IndexRange> ranges;
  std::vector<Index> indices;
  std::vector<Tensor> tensors; ///< inputs, outputs, then intermediates in order of assignment
  std::vector<Statement> statements;
  std::vector<Loop> loops; ///< in text order; loops do not nest

  const Index *findIndex(std::string_view name) const;
  const Tensor *findTensor(std::string_view name) const;
  const IndexRange *findRange(std::string_view name) const;
  /// The tensor's extents (its declared indices' ranges).
  std::vector<int64_t> extents(const Tensor &t) const;
  /// Per dimension, its range's segments (block-sparse tensors).
  std::vector<std::vector<int64_t>> segments(const Tensor &t) const;
  /// The spin flip of `t`'s dimensions (IndexRange::partners), into `out`;
  /// why there is none ("" if there is), naming the range.
  std::string flip(const Tensor &t, std::vector<std::vector<int64_t>> &out) const;
  /// The blocks of `t` whose segments' symmetry labels XOR to `symmetry`
  /// (`symmetry S`; none: any) and, with a charge rule, whose signed charges
  /// sum to its total, row-major in the segment ids.
  std::vector<std::vector<int64_t>> symmetricBlocks(const Tensor &t,
                                                    std::optional<int64_t> symmetry,
                                                    const ChargeRule *charge = nullptr) const;
  /// The tensors `loop` carries: those it assigns and reads (a factor, or
  /// the target of `+=`) before assigning them in an iteration, in the order
  /// of their first read.
  std::vector<std::string> carried(const Loop &loop) const;
};

/// A parse or check error: where, and what (one sentence, no location prefix).
struct Diagnostic {
  SourceLoc loc;
  std::string message;
};

/// Parses and checks `text`. On success returns true and fills `program`; on
/// the first error returns false and fills `error`.
bool parseTCE(std::string_view text, Program &program, Diagnostic &error);

/// The blocks of every block-sparse intermediate: those its terms can make
/// non-zero (productBlocks), over every statement assigning it, to a fixed
/// point (a statement may read what a later one accumulates). Fails naming an
/// intermediate that no block of could be non-zero. parseTCE calls it.
bool inferIntermediateBlocks(Program &program, Diagnostic &error);

/// Spin restriction (`restricted`): an intermediate is restricted when every
/// factor of every term assigning it is (its presence.flip from its ranges);
/// fails naming a factor that is not in a term of a tensor declared
/// restricted. inferIntermediateBlocks calls it.
bool inferRestriction(Program &program, Diagnostic &error);

/// Pair symmetries (`antisymmetric [a, b]`, `symmetric [a, b]`): an
/// intermediate has a pair when every statement assigning it does (its terms
/// with the two indices exchanged, each factor ordered by its own pairs, are
/// the same terms times the pair's sign), to the greatest fixed point, its
/// dimensions disjoint (antisymmetric first, then in order); fails naming a
/// statement assigning a declared output whose terms do not keep one of its
/// pairs. parseTCE calls it after inferIntermediateBlocks.
bool inferPairs(Program &program, Diagnostic &error);

} // namespace mlir::tc::tce

#endif // TC_FRONTEND_TCEPROGRAM_H
