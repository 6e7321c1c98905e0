//===- TCAlgorithms.cpp - each parallel algorithm's plan attribute --------===//
//
// What each algorithm requires of the #tc.plan it is the `algorithm` of:
// its grid's rank, which arrays it holds whole, block-cyclic layouts or not.
// A new algorithm adds its attribute (TCAlgorithms.td) and its rules here;
// #tc.plan's own verifier checks only what every plan shares.
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::tc;

#include "TC/Dialect/TCAlgorithmInterface.cpp.inc"

namespace {

/// The plan's three distributions with their field names.
struct NamedDist {
  StringRef field;
  DistAttr dist;
};
std::array<NamedDist, 3> dists(const PlanView &plan) {
  return {NamedDist{"dist_a", plan.distA}, {"dist_b", plan.distB}, {"dist_c", plan.distC}};
}

/// Block-cyclic distributions are PUMMA's: the other algorithms compute on
/// contiguous blocks (their lowerings and tc.redistribute take cyclic inputs
/// and results through stages 1 and 3).
LogicalResult verifyContiguous(function_ref<InFlightDiagnostic()> emitError,
                               const PlanView &plan) {
  for (auto [field, dist] : dists(plan))
    if (dist && llvm::any_of(dist.getCyclicBlocks(), [](int64_t b) { return b > 0; }))
      return emitError() << "#tc.plan " << field << " is block-cyclic, which only algorithm "
                            "= pumma computes in; got "
                         << dist;
  return success();
}

/// Whether every entry of `dist` is `*` (the array is whole on every process).
bool isFullyReplicated(DistAttr dist) {
  return llvm::all_of(dist.getDims(),
                      [](StringAttr d) { return d.getValue() == DistAttr::kReplicated; });
}

} // namespace

//===----------------------------------------------------------------------===//
// #tc.plan's algorithm field
//===----------------------------------------------------------------------===//

AlgorithmAttrInterface mlir::tc::getAlgorithmAttr(MLIRContext *ctx, ParallelAlgorithm kind) {
  switch (kind) {
  case ParallelAlgorithm::Cosma:
    return CosmaAttr::get(ctx, DictionaryAttr());
  case ParallelAlgorithm::Pumma:
    return PummaAttr::get(ctx, std::nullopt);
  case ParallelAlgorithm::Batch:
    return BatchAttr::get(ctx);
  case ParallelAlgorithm::Rotation:
  case ParallelAlgorithm::ReplicationA:
  case ParallelAlgorithm::ReplicationB:
  case ParallelAlgorithm::Accumulation:
    return GaoAttr::get(ctx, kind);
  }
  llvm_unreachable("unknown algorithm");
}

FailureOr<AlgorithmAttrInterface> mlir::tc::parseAlgorithm(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string keyword;
  if (succeeded(parser.parseOptionalKeywordOrString(&keyword))) {
    if (std::optional<ParallelAlgorithm> kind = symbolizeParallelAlgorithm(keyword))
      return getAlgorithmAttr(parser.getContext(), *kind);
    return parser.emitError(loc) << "expected one of " << decisionKeywords<ParallelAlgorithm>()
                                 << " for parallel algorithm, got: " << keyword;
  }
  Attribute attr;
  if (parser.parseAttribute(attr))
    return failure();
  if (auto algorithm = dyn_cast<AlgorithmAttrInterface>(attr))
    return algorithm;
  return parser.emitError(loc) << "expected a parallel algorithm (a keyword such as "
                                  "'rotation' or an attribute such as #tc.cosma<...>), got "
                               << attr;
}

void mlir::tc::printAlgorithm(AsmPrinter &printer, AlgorithmAttrInterface algorithm) {
  if (algorithm.hasParameters())
    printer.printAttribute(algorithm);
  else
    printer << stringifyParallelAlgorithm(algorithm.getKind());
}

//===----------------------------------------------------------------------===//
// #tc.gao: Gao et al. Table 1
//===----------------------------------------------------------------------===//

LogicalResult GaoAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              ParallelAlgorithm kind) {
  if (kind == ParallelAlgorithm::Rotation || kind == ParallelAlgorithm::ReplicationA ||
      kind == ParallelAlgorithm::ReplicationB || kind == ParallelAlgorithm::Accumulation)
    return success();
  return emitError() << "#tc.gao takes one of Gao et al.'s Table 1 algorithms (rotation, "
                        "replication_a, replication_b, accumulation), got "
                     << stringifyParallelAlgorithm(kind);
}

ParallelAlgorithm GaoAttr::getKind() const { return getAlgorithm(); }
bool GaoAttr::hasParameters() const { return false; }

LogicalResult GaoAttr::verifyPlan(function_ref<InFlightDiagnostic()> emitError,
                                  const PlanView &plan) const {
  const ParallelAlgorithm kind = getKind();
  if (kind == ParallelAlgorithm::Rotation && plan.grid &&
      (plan.grid.getRank() != 2 || plan.grid.getShape()[0] != plan.grid.getShape()[1]))
    return emitError() << "#tc.plan algorithm = rotation (Cannon) needs a square 2-d "
                          "grid, got "
                       << plan.grid;
  if (failed(verifyContiguous(emitError, plan)))
    return failure();
  // Table 1: replication and accumulation hold one array whole on every
  // process; the lowering ignores any other distribution given for it.
  NamedDist whole = kind == ParallelAlgorithm::ReplicationA   ? dists(plan)[0]
                    : kind == ParallelAlgorithm::ReplicationB ? dists(plan)[1]
                    : kind == ParallelAlgorithm::Accumulation ? dists(plan)[2]
                                                              : NamedDist{};
  if (whole.dist && !isFullyReplicated(whole.dist))
    return emitError() << "#tc.plan algorithm = " << stringifyParallelAlgorithm(kind) << " holds "
                       << whole.field.drop_front(5).upper() << " whole on every process, so "
                       << whole.field << " must be '*' in every grid dimension, got " << whole.dist;
  return success();
}

//===----------------------------------------------------------------------===//
// #tc.cosma: Kwasniewski et al.
//===----------------------------------------------------------------------===//

LogicalResult CosmaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                DictionaryAttr rounds) {
  if (!rounds)
    return success();
  for (NamedAttribute round : rounds) {
    auto count = dyn_cast<IntegerAttr>(round.getValue());
    if (!count || count.getInt() < 2)
      return emitError() << "#tc.cosma rounds over '" << round.getName().getValue()
                         << "' must be an integer count >= 2";
  }
  return success();
}

ParallelAlgorithm CosmaAttr::getKind() const { return ParallelAlgorithm::Cosma; }
bool CosmaAttr::hasParameters() const { return static_cast<bool>(getRounds()); }

LogicalResult CosmaAttr::verifyPlan(function_ref<InFlightDiagnostic()> emitError,
                                    const PlanView &plan) const {
  if (plan.grid && plan.grid.getRank() != 3)
    return emitError() << "#tc.plan algorithm = cosma needs a 3-d grid [pm, pn, pk], got "
                       << plan.grid;
  // Out of core COSMA runs its rounds with the stored sub-blocks on disk
  // (docs/Derivations.md D56), not Gao et al.'s tiling loops.
  if (plan.isOutOfCore() && plan.gaoTiling)
    return emitError() << "#tc.plan algorithm = cosma out of core runs rounds, not tiling "
                          "loops: it takes no method, order, loops or memory";
  if (failed(verifyContiguous(emitError, plan)))
    return failure();
  // Each array is replicated (in its compute view) along the grid dimension
  // its sub-blocks are gathered or reduced along.
  const unsigned along[3] = {1, 0, 2};
  for (auto [x, named] : llvm::enumerate(dists(plan)))
    if (named.dist && plan.grid && plan.grid.getRank() == 3 &&
        !named.dist.getDistributedLabel(along[x]).empty())
      return emitError() << "#tc.plan algorithm = cosma gathers or reduces " << named.field
                         << " along grid dimension " << along[x] << ", so its entry there "
                         << "must be '*', got " << named.dist;
  return success();
}

//===----------------------------------------------------------------------===//
// #tc.pumma: Choi, Dongarra and Walker
//===----------------------------------------------------------------------===//

LogicalResult PummaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                std::optional<Operand> roll) {
  if (roll == Operand::C)
    return emitError() << "#tc.pumma rolls an input, a or b; got roll = c";
  return success();
}

ParallelAlgorithm PummaAttr::getKind() const { return ParallelAlgorithm::Pumma; }
bool PummaAttr::hasParameters() const { return getRoll().has_value(); }

LogicalResult PummaAttr::verifyPlan(function_ref<InFlightDiagnostic()> emitError,
                                    const PlanView &plan) const {
  if (plan.grid && plan.grid.getRank() != 2)
    return emitError() << "#tc.plan algorithm = pumma needs a 2-d grid, got " << plan.grid;
  if (plan.isOutOfCore())
    return emitError() << "#tc.plan algorithm = pumma runs in core (out-of-core PUMMA "
                          "is not implemented)";
  return success();
}

//===----------------------------------------------------------------------===//
// #tc.batch: docs/Derivations.md D30
//===----------------------------------------------------------------------===//

ParallelAlgorithm BatchAttr::getKind() const { return ParallelAlgorithm::Batch; }
bool BatchAttr::hasParameters() const { return false; }

LogicalResult BatchAttr::verifyPlan(function_ref<InFlightDiagnostic()> emitError,
                                    const PlanView &plan) const {
  if (failed(verifyContiguous(emitError, plan)))
    return failure();
  if (plan.distA && plan.distB && plan.distC &&
      (plan.distA != plan.distB || plan.distA != plan.distC))
    return emitError() << "#tc.plan algorithm = batch splits A, B and C along the same "
                       << "batch label (or none), so dist_a, dist_b and dist_c must be "
                       << "equal, got " << plan.distA << ", " << plan.distB << ", "
                       << plan.distC;
  return success();
}
