//===- TCAttrs.cpp - tc attributes ----------------------------------------===//
#include "TC/Dialect/TCAttrs.h"
#include "TC/Dialect/TCDialect.h"

#include "TC/Analysis/IndexSpace.h"
#include "TC/Analysis/Units.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <numeric>
#include <cstdio>

using namespace mlir;
using namespace mlir::tc;

#include "TC/Dialect/TCEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TC/Dialect/TCAttrs.cpp.inc"

void TCDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TC/Dialect/TCAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// GridAttr
//===----------------------------------------------------------------------===//

LogicalResult GridAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape) {
  if (shape.empty())
    return emitError() << "#tc.grid needs at least one dimension";
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (extent < 1)
      return emitError() << "#tc.grid dimension " << dim << " has extent "
                         << extent << "; extents must be >= 1";
  return success();
}

int64_t GridAttr::getNumProcs() const {
  int64_t n = 1;
  for (int64_t e : getShape())
    n *= e;
  return n;
}

//===----------------------------------------------------------------------===//
// DistAttr
//===----------------------------------------------------------------------===//

static bool isLabelEntry(StringRef entry) {
  return entry != DistAttr::kReplicated && entry != DistAttr::kFirstSlice;
}

LogicalResult DistAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> dims,
                               ArrayRef<int64_t> virtualFactors,
                               ArrayRef<int64_t> cyclicBlocks) {
  if (dims.empty())
    return emitError() << "#tc.dist needs one entry per grid dimension; got none";
  llvm::StringSet<> labels;
  for (auto [dim, entry] : llvm::enumerate(dims)) {
    StringRef s = entry.getValue();
    if (!isLabelEntry(s))
      continue;
    if (!isValidLabel(s.str()))
      return emitError() << "#tc.dist entry " << dim << " is '" << s
                         << "'; expected an index label, '*' or '1'";
    if (!labels.insert(s).second)
      return emitError() << "#tc.dist distributes index '" << s
                         << "' over two grid dimensions";
  }
  if (!cyclicBlocks.empty()) {
    if (cyclicBlocks.size() != dims.size())
      return emitError() << "#tc.dist has " << dims.size() << " entries but "
                         << cyclicBlocks.size() << " block-cyclic block sizes";
    for (auto [dim, block] : llvm::enumerate(cyclicBlocks)) {
      if (block < 0)
        return emitError() << "#tc.dist block-cyclic block size " << block
                           << " of grid dimension " << dim << " must be >= 0";
      if (block > 0 && !isLabelEntry(dims[dim].getValue()))
        return emitError() << "#tc.dist grid dimension " << dim << " is '"
                           << dims[dim].getValue() << "' but has block-cyclic block size "
                           << block << "; only distributed indices are dealt in blocks";
    }
    if (llvm::any_of(virtualFactors, [](int64_t f) { return f > 1; }))
      return emitError() << "#tc.dist cannot be both block-cyclic and virtually partitioned";
  }
  if (virtualFactors.empty())
    return success();
  if (virtualFactors.size() != dims.size())
    return emitError() << "#tc.dist has " << dims.size()
                       << " entries but " << virtualFactors.size()
                       << " virtual-partitioning factors";
  for (auto [dim, factor] : llvm::enumerate(virtualFactors)) {
    if (factor < 1)
      return emitError() << "#tc.dist virtual-partitioning factor " << factor
                         << " of grid dimension " << dim << " must be >= 1";
    if (factor > 1 && !isLabelEntry(dims[dim].getValue()))
      return emitError() << "#tc.dist grid dimension " << dim << " is '"
                         << dims[dim].getValue()
                         << "' but has virtual-partitioning factor " << factor
                         << "; only distributed indices can be partitioned";
  }
  return success();
}

StringRef DistAttr::getDistributedLabel(unsigned dim) const {
  StringRef s = getDims()[dim].getValue();
  return isLabelEntry(s) ? s : StringRef();
}

int64_t DistAttr::getVirtualFactor(unsigned dim) const {
  return getVirtualFactors().empty() ? 1 : getVirtualFactors()[dim];
}

int64_t DistAttr::getCyclicBlock(unsigned dim) const {
  return getCyclicBlocks().empty() ? 0 : getCyclicBlocks()[dim];
}

/// dist ::= `<` `[` entry (`,` entry)* `]` (`virtual` `[` int (`,` int)* `]`)?
///           (`cyclic` `[` int (`,` int)* `]`)? `>`
/// entry ::= bare-id | `*` | `1`
Attribute DistAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<StringAttr> dims;
  SmallVector<int64_t> factors, blocks;
  MLIRContext *ctx = parser.getContext();
  auto parseEntry = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalStar())) {
      dims.push_back(StringAttr::get(ctx, kReplicated));
      return success();
    }
    int64_t one;
    OptionalParseResult intResult = parser.parseOptionalInteger(one);
    if (intResult.has_value()) {
      if (failed(*intResult))
        return failure();
      if (one != 1)
        return parser.emitError(parser.getCurrentLocation())
               << "#tc.dist entry " << one
               << " is not valid; expected an index label, '*' or '1'";
      dims.push_back(StringAttr::get(ctx, kFirstSlice));
      return success();
    }
    StringRef label;
    if (parser.parseKeyword(&label))
      return failure();
    dims.push_back(StringAttr::get(ctx, label));
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseEntry))
    return {};
  if (succeeded(parser.parseOptionalKeyword("virtual"))) {
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(factors.emplace_back());
        }))
      return {};
  }
  if (succeeded(parser.parseOptionalKeyword("cyclic"))) {
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(blocks.emplace_back());
        }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, ctx, dims, factors, blocks);
}

void DistAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getDims(), printer,
                        [&](StringAttr d) { printer << d.getValue(); });
  printer << "]";
  if (!getVirtualFactors().empty()) {
    printer << " virtual [";
    llvm::interleaveComma(getVirtualFactors(), printer);
    printer << "]";
  }
  if (llvm::any_of(getCyclicBlocks(), [](int64_t b) { return b > 0; })) {
    printer << " cyclic [";
    llvm::interleaveComma(getCyclicBlocks(), printer);
    printer << "]";
  }
  printer << ">";
}

LogicalResult tc::verifyDistribution(function_ref<InFlightDiagnostic()> emitError,
                                     DistAttr dist, GridAttr grid,
                                     ArrayRef<StringRef> arrayLabels,
                                     StringRef what) {
  if (dist.getRank() != grid.getRank())
    return emitError() << what << " " << dist << " has " << dist.getRank()
                       << " entries but the grid " << grid << " has rank "
                       << grid.getRank();
  for (unsigned dim = 0; dim < dist.getRank(); ++dim) {
    StringRef label = dist.getDistributedLabel(dim);
    if (!label.empty() && !llvm::is_contained(arrayLabels, label))
      return emitError() << what << " " << dist << " distributes index '" << label
                         << "', which the array [" << llvm::join(arrayLabels, ", ")
                         << "] does not have";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MachineAttr
//===----------------------------------------------------------------------===//

/// A number as a user would write it in a message ("2.5", "-1", "2e+08").
static std::string formatNumber(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", v);
  return buffer;
}

LogicalResult MachineAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t procs,
                                  int64_t memBytes, APFloat netBandwidth, APFloat diskBandwidth,
                                  int64_t elemBytes, APFloat bcastFactor, APFloat reduceFactor,
                                  APFloat flopRate, APFloat latency, VolumesKind volumes) {
  if (procs < 1)
    return emitError() << "#tc.machine procs = " << procs << "; need >= 1";
  if (memBytes < 1)
    return emitError() << "#tc.machine mem = " << memBytes << "; need >= 1 byte";
  if (elemBytes != 4 && elemBytes != 8)
    return emitError() << "#tc.machine elem_bytes = " << elemBytes
                       << "; tc supports 4 (f32) and 8 (f64)";
  std::pair<StringRef, APFloat> positive[] = {{"net_bw", netBandwidth},
                                              {"disk_bw", diskBandwidth},
                                              {"bcast_factor", bcastFactor},
                                              {"reduce_factor", reduceFactor},
                                              {"flop_rate", flopRate}};
  for (auto &[name, value] : positive) {
    double v = value.convertToDouble();
    if (!(v > 0) || !std::isfinite(v))
      return emitError() << "#tc.machine " << name << " = " << formatNumber(v)
                         << "; need a positive finite number";
  }
  const double seconds = latency.convertToDouble();
  if (!(seconds >= 0) || !std::isfinite(seconds))
    return emitError() << "#tc.machine latency = " << formatNumber(seconds)
                       << "; need a finite number of seconds >= 0";
  return success();
}

double MachineAttr::getDefaultFlopRate() { return 1e9; }

LogicalResult LoopAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef label,
                               int64_t max, StringRef converge, FloatAttr tolerance,
                               ArrayAttr carried, int64_t diis) {
  if (max < 1)
    return emitError() << "#tc.loop max = " << max << "; a loop runs at least one iteration";
  if (converge.empty() != !tolerance)
    return emitError() << "#tc.loop takes 'converge' and 'tolerance' together (or neither, "
                          "for a fixed number of iterations)";
  if (tolerance && !(tolerance.getValueAsDouble() > 0))
    return emitError() << "#tc.loop tolerance = " << formatNumber(tolerance.getValueAsDouble())
                       << "; need a positive number";
  if (carried)
    for (Attribute name : carried)
      if (auto s = dyn_cast<StringAttr>(name);
          !s || s.getValue().empty() || s.getValue().contains(','))
        return emitError() << "#tc.loop carried = " << carried
                           << "; need tensor names (non-empty strings without ',')";
  if (diis != 0 && diis < 2)
    return emitError() << "#tc.loop diis = " << diis
                       << "; extrapolation needs at least 2 iterations' values";
  if (diis != 0 && (!carried || carried.empty()))
    return emitError() << "#tc.loop diis = " << diis << " needs the carried tensors";
  return success();
}

namespace {
} // namespace

/// machine ::= `<` key `=` value (`,` key `=` value)* `>`
/// value   ::= integer | float | string-with-units
Attribute MachineAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::optional<double> values[machine_field::Count];
  auto parseValue = [&](machine_field::Field key, double &out) -> ParseResult {
    SMLoc valueLoc = parser.getCurrentLocation();
    std::string text;
    if (succeeded(parser.parseOptionalString(&text))) {
      bool isRate = key == machine_field::NetBw || key == machine_field::DiskBw;
      std::optional<double> v = isRate ? parseByteRate(text) : parseByteSize(text);
      if (!v || (key != machine_field::Mem && !isRate))
        return parser.emitError(valueLoc)
               << "#tc.machine " << machine_field::kKeys[static_cast<int>(key)]
               << " = \"" << text << "\" is not "
               << (isRate ? "a rate such as \"200MB/s\""
                   : key == machine_field::Mem ? "a size such as \"64MiB\""
                                            : "a number");
      out = *v;
      return success();
    }
    // A plain number: integer or float literal, possibly negative (the verifier
    // then rejects it with a message).
    double sign = succeeded(parser.parseOptionalMinus()) ? -1.0 : 1.0;
    int64_t integer;
    OptionalParseResult intResult = parser.parseOptionalInteger(integer);
    if (intResult.has_value()) {
      out = sign * static_cast<double>(integer);
      return *intResult;
    }
    if (parser.parseFloat(out))
      return failure();
    out *= sign;
    return success();
  };
  std::optional<VolumesKind> volumes;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "volumes") {
      if (volumes)
        return parser.emitError(keyLoc) << "#tc.machine parameter 'volumes' given twice";
      FailureOr<VolumesKind> v = FieldParser<VolumesKind>::parse(parser);
      if (failed(v))
        return failure();
      volumes = *v;
      return success();
    }
    const auto *it = llvm::find(machine_field::kKeys, key);
    if (it == std::end(machine_field::kKeys))
      return parser.emitError(keyLoc)
             << "unknown #tc.machine parameter '" << key << "'; expected one of "
             << llvm::join(ArrayRef<StringLiteral>(machine_field::kKeys), ", ") << ", volumes";
    size_t index = it - std::begin(machine_field::kKeys);
    if (values[index])
      return parser.emitError(keyLoc)
             << "#tc.machine parameter '" << key << "' given twice";
    double v;
    if (parseValue(static_cast<machine_field::Field>(index), v))
      return failure();
    values[index] = v;
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater, parseEntry))
    return {};
  for (machine_field::Field required : {machine_field::Procs, machine_field::Mem, machine_field::NetBw,
                              machine_field::DiskBw})
    if (!values[static_cast<int>(required)])
      return parser.emitError(loc) << "#tc.machine is missing '"
                                   << machine_field::kKeys[static_cast<int>(required)] << "'",
             Attribute();
  auto get = [&](machine_field::Field key, double dflt) {
    return values[static_cast<int>(key)].value_or(dflt);
  };
  // Counts must be whole numbers.
  for (machine_field::Field key : {machine_field::Procs, machine_field::Mem, machine_field::ElemBytes}) {
    double v = get(key, 8);
    if (v != std::floor(v) || std::fabs(v) > 9.2e18)
      return parser.emitError(loc) << "#tc.machine " << machine_field::kKeys[static_cast<int>(key)]
                                   << " = " << formatNumber(v) << " is not a whole number",
             Attribute();
  }
  return getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(),
      static_cast<int64_t>(get(machine_field::Procs, 0)),
      static_cast<int64_t>(get(machine_field::Mem, 0)), APFloat(get(machine_field::NetBw, 0)),
      APFloat(get(machine_field::DiskBw, 0)),
      static_cast<int64_t>(get(machine_field::ElemBytes, 8)),
      APFloat(get(machine_field::BcastFactor, 1.0)), APFloat(get(machine_field::ReduceFactor, 1.0)),
      APFloat(get(machine_field::FlopRate, getDefaultFlopRate())),
      APFloat(get(machine_field::Latency, 0.0)), volumes.value_or(VolumesKind::Paper));
}

void MachineAttr::print(AsmPrinter &printer) const {
  printer << "<procs = " << getProcs() << ", mem = " << getMemBytes() << ", net_bw = ";
  printer.printFloat(getNetBandwidth());
  printer << ", disk_bw = ";
  printer.printFloat(getDiskBandwidth());
  printer << ", elem_bytes = " << getElemBytes() << ", bcast_factor = ";
  printer.printFloat(getBcastFactor());
  printer << ", reduce_factor = ";
  printer.printFloat(getReduceFactor());
  if (getFlopRate().convertToDouble() != getDefaultFlopRate()) {
    printer << ", flop_rate = ";
    printer.printFloat(getFlopRate());
  }
  if (!getLatency().isZero()) {
    printer << ", latency = ";
    printer.printFloat(getLatency());
  }
  if (getVolumes() != VolumesKind::Paper)
    printer << ", volumes = " << stringifyVolumesKind(getVolumes());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// PlanAttr
//===----------------------------------------------------------------------===//

/// A distribution of `attr`'s `field` has one entry per dimension of its grid.
static LogicalResult verifyDistRank(function_ref<InFlightDiagnostic()> emitError,
                                    StringRef attr, StringRef field, DistAttr dist,
                                    GridAttr grid) {
  if (!dist || dist.getRank() == grid.getRank())
    return success();
  return emitError() << attr << " " << field << " has " << dist.getRank()
                     << " entries but the grid has " << grid.getRank() << " dimensions";
}

/// Volumes, costs and memory sizes are finite and non-negative (absent: fine).
static LogicalResult
verifyNonNegative(function_ref<InFlightDiagnostic()> emitError, StringRef attr,
                  ArrayRef<std::pair<StringRef, FloatAttr>> fields) {
  for (auto [name, value] : fields) {
    if (!value)
      continue;
    double v = value.getValueAsDouble();
    if (!(v >= 0) || !std::isfinite(v))
      return emitError() << attr << " " << name << " = " << formatNumber(v)
                         << "; need a finite number >= 0";
  }
  return success();
}

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError, BoolAttr inCore,
                               std::optional<CommMethod> method, AlgorithmAttrInterface algorithm,
                               GridAttr grid, DistAttr distA, DistAttr distB, DistAttr distC,
                               std::optional<ReadOrder> order, ArrayAttr loops,
                               std::optional<TileMemory> memory, FloatAttr diskBytes,
                               FloatAttr commBytes, FloatAttr seconds, BoolAttr iContiguous) {
  for (auto [name, dist] : {std::pair{"dist_a", distA}, {"dist_b", distB}, {"dist_c", distC}}) {
    if (dist && !grid)
      return emitError() << "#tc.plan " << name << " needs a grid";
    if (failed(verifyDistRank(emitError, "#tc.plan", name, dist, grid)))
      return failure();
  }
  const bool isInCore = inCore && inCore.getValue();
  if (loops) {
    if (isInCore && !loops.empty())
      return emitError() << "#tc.plan of an in-core contraction has no tiling loops";
    if (loops.size() != 4)
      return emitError() << "#tc.plan loops must list 4 groups (D1..D4), got "
                         << loops.size();
    if (!order)
      return emitError() << "#tc.plan loops need the read order that places them";
    for (auto [g, group] : llvm::enumerate(loops)) {
      auto dict = dyn_cast<DictionaryAttr>(group);
      if (!dict)
        return emitError() << "#tc.plan loop group " << g
                           << " must be a dictionary from label to tile count";
      for (NamedAttribute loop : dict) {
        auto count = dyn_cast<IntegerAttr>(loop.getValue());
        if (!count || count.getInt() < 2)
          return emitError() << "#tc.plan loop over '" << loop.getName().getValue()
                             << "' in group " << g
                             << " must have an integer tile count >= 2";
      }
    }
  }
  // In core nothing is communicated disk to disk or read from disk: the
  // planners ignore a method or order there, so a hand-written one is a mistake.
  if (isInCore && method)
    return emitError() << "#tc.plan of an in-core contraction has no communication "
                          "method, got method = "
                       << stringifyCommMethod(*method);
  if (isInCore && order)
    return emitError() << "#tc.plan of an in-core contraction has no read order, got "
                          "order = "
                       << stringifyReadOrder(*order);
  if (isInCore && memory)
    return emitError() << "#tc.plan of an in-core contraction has no tiles to share "
                          "memory, got memory = "
                       << stringifyTileMemory(*memory);
  // What the algorithm computes on is the algorithm's to check
  // (lib/Dialect/TCAlgorithms.cpp).
  if (algorithm &&
      failed(algorithm.verifyPlan(emitError, PlanView{inCore, grid, distA, distB, distC,
                                                      method || order || loops || memory})))
    return failure();
  return verifyNonNegative(
      emitError, "#tc.plan",
      {{"disk_bytes", diskBytes}, {"comm_bytes", commBytes}, {"seconds", seconds}});
}

//===----------------------------------------------------------------------===//
// FusionAttr, FusionPlanAttr
//===----------------------------------------------------------------------===//

LogicalResult FusionAttr::verify(function_ref<InFlightDiagnostic()> emitError, GridAttr grid,
                                 DistAttr compute, DistAttr initial, DistAttr final,
                                 ArrayAttr fused, SumVariant partialSums, FloatAttr memory,
                                 FloatAttr comm, FloatAttr calc) {
  for (auto [name, dist] :
       {std::pair{"compute", compute}, {"initial", initial}, {"final", final}})
    if (failed(verifyDistRank(emitError, "#tc.fusion", name, dist, grid)))
      return failure();
  if (fused) {
    llvm::StringSet<> seen;
    for (auto [i, entry] : llvm::enumerate(fused)) {
      auto label = dyn_cast<StringAttr>(entry);
      if (!label || !isValidLabel(label.getValue().str()))
        return emitError() << "#tc.fusion fused entry " << i
                           << " must be an index label, got " << entry;
      if (!seen.insert(label.getValue()).second)
        return emitError() << "#tc.fusion fuses loop '" << label.getValue() << "' twice";
    }
  }
  // Inputs (no compute distribution) are read, not computed.
  if (!compute && partialSums != SumVariant::None)
    return emitError() << "#tc.fusion partial_sums = " << stringifySumVariant(partialSums)
                       << " needs the compute distribution that splits the sum";
  if (!compute && calc)
    return emitError() << "#tc.fusion calc (computation seconds) needs a compute "
                          "distribution; an input is not computed";
  return verifyNonNegative(emitError, "#tc.fusion",
                           {{"memory", memory}, {"comm", comm}, {"calc", calc}});
}

LogicalResult FusionPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                     GridAttr grid, FloatAttr memory, FloatAttr limit,
                                     FloatAttr comm, FloatAttr calc) {
  if (failed(verifyNonNegative(
          emitError, "#tc.fusion_plan",
          {{"memory", memory}, {"limit", limit}, {"comm", comm}, {"calc", calc}})))
    return failure();
  if (memory.getValueAsDouble() > limit.getValueAsDouble())
    return emitError() << "#tc.fusion_plan memory = "
                       << formatNumber(memory.getValueAsDouble()) << " exceeds limit = "
                       << formatNumber(limit.getValueAsDouble());
  return success();
}

MachineAttr mlir::tc::getEnclosingMachine(Operation *scope) {
  for (Operation *op = scope; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<MachineAttr>(TCDialect::getMachineAttrName()))
      return attr;
  return {};
}

//===----------------------------------------------------------------------===//
// #tc.blocks
//===----------------------------------------------------------------------===//

namespace {
/// The analyses' shape of an encoding's parameters (not yet verified).
BlockSparseShape shapeOfParameters(ArrayRef<int64_t> counts, ArrayRef<int64_t> lengths,
                                   std::optional<int64_t> symmetry, DenseI64ArrayAttr present,
                                   DenseI64ArrayAttr flip, DenseI64ArrayAttr antisymmetric,
                                   DenseI64ArrayAttr symmetric) {
  BlockSparseShape shape;
  size_t at = 0;
  for (int64_t c : counts) {
    shape.segments.emplace_back(lengths.begin() + at, lengths.begin() + at + c);
    at += c;
  }
  const size_t rank = counts.size();
  if (symmetry) {
    shape.presence.kind = BlockPresence::Kind::Symmetry;
    shape.presence.symmetry = *symmetry;
  } else if (present) {
    shape.presence.kind = BlockPresence::Kind::List;
    ArrayRef<int64_t> ids = present.asArrayRef();
    for (size_t i = 0; rank && i + rank <= ids.size(); i += rank)
      shape.presence.blocks.emplace_back(ids.begin() + i, ids.begin() + i + rank);
  }
  if (flip) {
    ArrayRef<int64_t> partners = flip.asArrayRef();
    at = 0;
    for (int64_t c : counts) {
      const size_t end = std::min(partners.size(), at + static_cast<size_t>(c));
      shape.presence.flip.emplace_back(partners.begin() + std::min(at, end),
                                       partners.begin() + end);
      at += c;
    }
  }
  // Pairs by their first dimension: one shape, one stored block per orbit,
  // whichever key named them.
  for (auto [dims, anti] : {std::pair{antisymmetric, true}, std::pair{symmetric, false}})
    if (dims)
      for (size_t i = 0; i + 2 <= dims.size(); i += 2)
        shape.presence.pairs.push_back({dims[i], dims[i + 1], anti});
  llvm::stable_sort(shape.presence.pairs,
                    [](const PairSymmetry &x, const PairSymmetry &y) { return x.first < y.first; });
  return shape;
}
} // namespace

BlockSparseShape BlocksAttr::toShape() const {
  return shapeOfParameters(getCounts(), getLengths(), getSymmetry(), getPresent(), getFlip(),
                           getAntisymmetric(), getSymmetric());
}

BlocksAttr BlocksAttr::fromShape(MLIRContext *context, const BlockSparseShape &shape) {
  SmallVector<int64_t> counts, lengths, present;
  for (const std::vector<int64_t> &s : shape.segments) {
    counts.push_back(static_cast<int64_t>(s.size()));
    lengths.append(s.begin(), s.end());
  }
  std::optional<int64_t> symmetry;
  DenseI64ArrayAttr listed, flip;
  if (shape.presence.restricted()) {
    SmallVector<int64_t> partners;
    for (const std::vector<int64_t> &f : shape.presence.flip)
      partners.append(f.begin(), f.end());
    flip = DenseI64ArrayAttr::get(context, partners);
  }
  DenseI64ArrayAttr pairs[2]; // antisymmetric, symmetric
  for (int anti : {1, 0}) {
    SmallVector<int64_t> dims;
    for (const PairSymmetry &p : shape.presence.pairs)
      if (p.antisymmetric == static_cast<bool>(anti))
        dims.append({p.first, p.second});
    if (!dims.empty())
      pairs[1 - anti] = DenseI64ArrayAttr::get(context, dims);
  }
  if (shape.segments.empty()) {
    // A scalar lists no ids: its one block is there (every block) or not
    // (a symmetry no empty tuple has).
    if (!shape.presence.present({}))
      symmetry = 1;
  } else if (shape.presence.kind == BlockPresence::Kind::Symmetry) {
    symmetry = shape.presence.symmetry;
  } else if (shape.presence.kind == BlockPresence::Kind::List) {
    for (const std::vector<int64_t> &b : shape.presence.blocks)
      present.append(b.begin(), b.end());
    listed = DenseI64ArrayAttr::get(context, present);
  }
  return BlocksAttr::get(context, counts, lengths, symmetry, listed, flip, pairs[0], pairs[1]);
}

SmallVector<int64_t> BlocksAttr::getSegments(unsigned dim) const {
  int64_t start = 0;
  for (unsigned d = 0; d < dim; ++d)
    start += getCounts()[d];
  ArrayRef<int64_t> lengths = getLengths();
  return SmallVector<int64_t>(lengths.begin() + start, lengths.begin() + start + getCounts()[dim]);
}

LogicalResult BlocksAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> counts, ArrayRef<int64_t> lengths,
                                 std::optional<int64_t> symmetry, DenseI64ArrayAttr present,
                                 DenseI64ArrayAttr flip, DenseI64ArrayAttr antisymmetric,
                                 DenseI64ArrayAttr symmetric) {
  // A scalar (rank 0, `#tc.blocks<[]>`) has one block, the empty tuple of
  // segment ids: the sum of a block-sparse product over every label, or the
  // ones of a one-tensor term.
  if (counts.empty() && present)
    return emitError() << "#tc.blocks: a scalar lists no segment ids (omit present; "
                          "symmetry = 1 leaves its one block out)";
  if (counts.empty() && flip)
    return emitError() << "#tc.blocks: a scalar has no segments to flip (omit flip)";
  int64_t total = 0;
  for (int64_t c : counts) {
    if (c < 1)
      return emitError() << "#tc.blocks: a dimension has no segments";
    total += c;
  }
  if (total != static_cast<int64_t>(lengths.size()))
    return emitError() << "#tc.blocks: " << lengths.size() << " segment lengths for "
                       << total << " segments";
  if (symmetry && present)
    return emitError() << "#tc.blocks takes symmetry or present, not both";
  if (present && !counts.empty() && present.size() % counts.size() != 0)
    return emitError() << "#tc.blocks: present lists " << present.size()
                       << " segment ids, not a multiple of the rank " << counts.size();
  if (flip && static_cast<int64_t>(flip.size()) != total)
    return emitError() << "#tc.blocks: flip lists " << flip.size() << " partners for " << total
                       << " segments";
  for (auto [dims, key] :
       {std::pair{antisymmetric, "antisymmetric"}, std::pair{symmetric, "symmetric"}})
    if (dims && dims.size() % 2 != 0)
      return emitError() << "#tc.blocks: " << key << " lists " << dims.size()
                         << " dimensions, not pairs";
  // The rest as the analyses check it, against the extents the lengths give.
  BlockSparseShape shape =
      shapeOfParameters(counts, lengths, symmetry, present, flip, antisymmetric, symmetric);
  std::vector<int64_t> extents;
  for (int64_t d = 0; d < shape.rank(); ++d)
    extents.push_back(shape.extent(d));
  std::string why = shape.verify(extents);
  if (!why.empty())
    return emitError() << "#tc.blocks: " << why;
  return success();
}

LogicalResult BlocksAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                                         function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "#tc.blocks of rank " << getRank() << " on a tensor of rank "
                       << shape.size();
  for (unsigned d = 0; d < getRank(); ++d) {
    if (ShapedType::isDynamic(shape[d]))
      return emitError() << "#tc.blocks needs static extents (dimension " << d
                         << " is dynamic)";
    SmallVector<int64_t> s = getSegments(d);
    int64_t sum = std::accumulate(s.begin(), s.end(), int64_t{0});
    if (sum != shape[d])
      return emitError() << "#tc.blocks: the segments of dimension " << d << " sum to " << sum
                         << ", not its extent " << shape[d];
  }
  return success();
}

/// blocks ::= `<` `[` segments (`,` segments)* `]` (`,` `symmetry` `=` int
///            | `,` `present` `=` `[` ids (`,` ids)* `]`)?
///            (`,` `flip` `=` `[` partners (`,` partners)* `]`)?
///            (`,` (`antisymmetric` | `symmetric`) `=` `[` `[` d `,` d `]` ... `]`)* `>`
Attribute BlocksAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> counts, lengths, present, partners, pairDims[2];
  std::optional<int64_t> symmetry;
  bool listed = false, flipped = false, paired[2] = {false, false};
  auto parseInts = [&](SmallVectorImpl<int64_t> &out, int64_t *count) -> ParseResult {
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
      int64_t v;
      if (parser.parseInteger(v))
        return failure();
      out.push_back(v);
      if (count)
        ++*count;
      return success();
    });
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        counts.push_back(0);
        return parseInts(lengths, &counts.back());
      }))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "symmetry" && !symmetry) {
      int64_t s;
      if (parser.parseInteger(s))
        return {};
      symmetry = s;
    } else if (key == "present" && !listed) {
      listed = true;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parseInts(present, nullptr);
          }))
        return {};
    } else if (key == "flip" && !flipped) {
      flipped = true;
      size_t dim = 0;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t n = 0;
            SMLoc at = parser.getCurrentLocation();
            if (parseInts(partners, &n))
              return failure();
            if (dim < counts.size() && n != counts[dim])
              return parser.emitError(at)
                     << "#tc.blocks: flip of dimension " << dim << " lists " << n
                     << " partners for its " << counts[dim] << " segments";
            ++dim;
            return success();
          }))
        return {};
      if (dim != counts.size())
        return parser.emitError(keyLoc) << "#tc.blocks: flip lists " << dim
                                        << " dimensions for a tensor of rank " << counts.size(),
               Attribute();
    } else if ((key == "antisymmetric" || key == "symmetric") &&
               !paired[key == "antisymmetric" ? 0 : 1]) {
      const int which = key == "antisymmetric" ? 0 : 1;
      paired[which] = true;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t n = 0;
            SMLoc at = parser.getCurrentLocation();
            if (parseInts(pairDims[which], &n))
              return failure();
            if (n != 2)
              return parser.emitError(at)
                     << "#tc.blocks: " << key << " lists pairs of dimensions, got " << n;
            return success();
          }))
        return {};
    } else {
      return parser.emitError(keyLoc)
                 << "#tc.blocks: unexpected '" << key
                 << "' (expected symmetry = N, present = [[ids], ...], flip = [[partners], "
                    "...], antisymmetric = [[d1, d2], ...] or symmetric = [[d1, d2], ...], "
                    "each at most once)",
             Attribute();
    }
  }
  if (parser.parseGreater())
    return {};
  auto listOf = [&](bool given, ArrayRef<int64_t> values) {
    return given ? DenseI64ArrayAttr::get(parser.getContext(), values) : DenseI64ArrayAttr();
  };
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), counts, lengths,
                    symmetry, listOf(listed, present), listOf(flipped, partners),
                    listOf(paired[0], pairDims[0]), listOf(paired[1], pairDims[1]));
}

void BlocksAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  for (unsigned d = 0; d < getRank(); ++d)
  {
    printer << (d ? ", [" : "[");
    llvm::interleaveComma(getSegments(d), printer);
    printer << "]";
  }
  printer << "]";
  if (std::optional<int64_t> s = getSymmetry())
    printer << ", symmetry = " << *s;
  if (DenseI64ArrayAttr present = getPresent()) {
    printer << ", present = [";
    ArrayRef<int64_t> ids = present.asArrayRef();
    for (size_t i = 0; i < ids.size(); i += getRank())
    {
      printer << (i ? ", [" : "[");
      llvm::interleaveComma(ids.slice(i, getRank()), printer);
      printer << "]";
    }
    printer << "]";
  }
  if (getFlip()) {
    BlockSparseShape shape = toShape();
    printer << ", flip = [";
    for (unsigned d = 0; d < getRank(); ++d) {
      printer << (d ? ", [" : "[");
      llvm::interleaveComma(shape.presence.flip[d], printer);
      printer << "]";
    }
    printer << "]";
  }
  for (auto [dims, key] :
       {std::pair{getAntisymmetric(), "antisymmetric"}, std::pair{getSymmetric(), "symmetric"}}) {
    if (!dims)
      continue;
    printer << ", " << key << " = [";
    for (size_t i = 0; i + 2 <= dims.size(); i += 2)
      printer << (i ? ", [" : "[") << dims[i] << ", " << dims[i + 1] << "]";
    printer << "]";
  }
  printer << ">";
}

LogicalResult BlockPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    BlockSchedule schedule, DenseI64ArrayAttr taskRankAttr,
                                    DenseI64ArrayAttr brickOwnerAttr,
                                    DenseI64ArrayAttr taskStageAttr, DenseI64ArrayAttr taskStepAttr,
                                    FloatAttr ioBytes, FloatAttr commBytes,
                                    DenseF64ArrayAttr ioPerRank, DenseF64ArrayAttr receivedPerRank,
                                    DenseF64ArrayAttr sentPerRank, DenseF64ArrayAttr cachePerRank) {
  auto values = [](DenseI64ArrayAttr a) { return a ? a.asArrayRef() : ArrayRef<int64_t>(); };
  ArrayRef<int64_t> taskRank = values(taskRankAttr), brickOwner = values(brickOwnerAttr),
                    taskStage = values(taskStageAttr), taskStep = values(taskStepAttr);
  const bool outOfCore = schedule != BlockSchedule::InMemory;
  if (outOfCore != static_cast<bool>(taskStageAttr) ||
      outOfCore != static_cast<bool>(taskStepAttr))
    return emitError() << "#tc.block_plan: task_stage and task_step belong to "
                          "out-of-core schedules (one_level, two_level, in_order) and they "
                          "need both";
  for (ArrayRef<int64_t> a : {taskRank, brickOwner, taskStage, taskStep})
    if (llvm::any_of(a, [](int64_t v) { return v < 0; }))
      return emitError() << "#tc.block_plan: a negative process, stage or step";
  for (ArrayRef<int64_t> a : {taskStage, taskStep})
    if (!a.empty() && a.size() != taskRank.size())
      return emitError() << "#tc.block_plan: " << a.size() << " stages or steps for "
                         << taskRank.size() << " tasks";
  for (FloatAttr f : {ioBytes, commBytes})
    if (!std::isfinite(f.getValueAsDouble()) || f.getValueAsDouble() < 0)
      return emitError() << "#tc.block_plan: byte counts are finite and non-negative";
  if (ioPerRank.size() != receivedPerRank.size() || ioPerRank.size() != sentPerRank.size())
    return emitError() << "#tc.block_plan: io_per_rank, received_per_rank and sent_per_rank "
                          "have one entry per process each";
  if (cachePerRank && (!outOfCore || cachePerRank.size() != ioPerRank.size()))
    return emitError() << "#tc.block_plan: cache_per_rank belongs to out-of-core schedules, "
                          "one entry per process";
  for (DenseF64ArrayAttr a : {ioPerRank, receivedPerRank, sentPerRank, cachePerRank})
    if (a && llvm::any_of(a.asArrayRef(), [](double v) { return !std::isfinite(v) || v < 0; }))
      return emitError() << "#tc.block_plan: byte counts are finite and non-negative";
  return success();
}
