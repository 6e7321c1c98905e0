//===- TCTileOps.cpp - verifiers of the tile-level tc ops -----------------===//
#include "TC/Dialect/TCOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tc;

/// The runtime receives a buffer as its aligned pointer and its static shape:
/// no dynamic sizes, no offset, no strides.
static LogicalResult verifyTileBuffer(Operation *op, MemRefType buffer, StringRef what) {
  if (buffer.hasStaticShape() && buffer.getLayout().isIdentity())
    return success();
  return op->emitOpError() << what << " must be a statically shaped memref with the "
                           << "identity layout, got " << buffer;
}

LogicalResult ArrayOp::verify() {
  // #tc.layout verifies itself when parsed; a pass builds it from a struct
  // (ArrayLayoutAttr::get), so the rules are checked here again.
  tc_layout::ArrayLayout layout = getLayout().getLayout();
  if (std::string why = layout.verify(); !why.empty())
    return emitOpError() << "array '" << getName() << "': " << why;
  if (!layout.summedFileDim.empty() && getInit() == ArrayInitKind::Zero)
    return emitOpError() << "array '" << getName() << "' sums dimensions of its input "
                         << "but is not loaded from one (init zero)";
  Value storage = getStorage();
  if (!storage)
    return success();
  if (getOnDisk())
    return emitOpError() << "an array on disk cannot live in a memory buffer";
  auto type = cast<MemRefType>(storage.getType());
  if (type.getElementType() != getType().getElementType())
    return emitOpError() << "storage buffer holds " << type.getElementType()
                         << " but the array holds " << getType().getElementType();
  if (failed(verifyTileBuffer(*this, type, "the storage buffer")))
    return failure();
  std::vector<int64_t> block = layout.paddedBlock();
  if (type.getShape() != ArrayRef<int64_t>(block))
    return emitOpError() << "storage buffer " << type << " does not have the shape of the "
                         << "padded block [" << ArrayRef<int64_t>(block) << "]";
  return success();
}

LogicalResult AllocStorageOp::verify() {
  auto array = cast<ArrayType>(getArray());
  MemRefType type = getBuffer().getType();
  if (type.getElementType() != array.getElementType())
    return emitOpError() << "buffer holds " << type.getElementType() << " but array '" << getName()
                         << "' holds " << array.getElementType();
  std::vector<int64_t> block = array.getLayout().getLayout().paddedBlock();
  if (type.getShape() != ArrayRef<int64_t>(block))
    return emitOpError() << "buffer " << type << " does not have the shape of array '" << getName()
                         << "''s padded block [" << ArrayRef<int64_t>(block) << "]";
  return success();
}

/// Offsets must index every dimension of the buffer.
static LogicalResult verifyOffsets(Operation *op, MemRefType buffer, size_t numOffsets,
                                   StringRef what) {
  if (failed(verifyTileBuffer(op, buffer, what)))
    return failure();
  if (static_cast<int64_t>(numOffsets) != buffer.getRank())
    return op->emitOpError() << "has " << numOffsets << " offsets for " << what
                             << " of rank " << buffer.getRank();
  return success();
}

/// `count` offsets (or extents) index every dimension of the array operand.
static LogicalResult verifyArrayRank(Operation *op, ArrayType array, size_t count,
                                     StringRef what) {
  if (static_cast<int64_t>(count) == array.getRank())
    return success();
  return op->emitOpError() << "has " << count << " " << what << " but operand 'array' "
                           << array << " has rank " << array.getRank();
}

/// `dim` is a dimension of the array operand's processor grid.
static LogicalResult verifyGridDim(Operation *op, ArrayType array, int64_t dim) {
  if (dim >= 0 && dim < array.getGridRank())
    return success();
  return op->emitOpError() << "grid dimension " << dim << " is outside the "
                           << array.getGridRank() << "-d grid of operand 'array' " << array;
}

/// A tile of the array moves through the buffer at the given offsets: one per
/// dimension of both, and the same element type.
static LogicalResult verifyTileAccess(Operation *op, ArrayType array, MemRefType buffer,
                                      size_t numOffsets) {
  if (failed(verifyOffsets(op, buffer, numOffsets, "the buffer")) ||
      failed(verifyArrayRank(op, array, numOffsets, "offsets")))
    return failure();
  if (buffer.getElementType() != array.getElementType())
    return op->emitOpError() << "operand 'buffer' holds " << buffer.getElementType()
                             << " but operand 'array' " << array << " holds "
                             << array.getElementType();
  return success();
}

LogicalResult BeginStatementOp::verify() {
  if (getInMemory() && !getIntermediate())
    return emitOpError() << "keeps in memory only an intermediate: 'in_memory' needs "
                            "'intermediate'";
  return success();
}

LogicalResult StoreOp::verify() {
  auto array = getArray().getDefiningOp<ArrayOp>();
  if (!array || !array.getStorage())
    return success();
  Value storage = array.getStorage();
  for (Operation *op = (*this)->getNextNode(); op; op = op->getNextNode()) {
    if (hasSingleEffect<MemoryEffects::Free>(op, storage))
      continue; // memref.dealloc
    bool uses = false;
    op->walk([&](Operation *inner) { uses |= llvm::is_contained(inner->getOperands(), storage); });
    if (uses)
      return emitOpError() << "ends the use of array '" << array.getName()
                           << "' and its storage, but '" << op->getName()
                           << "' uses the storage after it (only memref.dealloc may)";
  }
  return success();
}

LogicalResult AllReduceTileOp::verify() {
  return verifyTileBuffer(*this, getBuffer().getType(), "the buffer");
}

LogicalResult ReadTileOp::verify() {
  return verifyTileAccess(*this, getArray().getType(), getBuffer().getType(),
                          getOffsets().size());
}
LogicalResult WriteTileOp::verify() {
  return verifyTileAccess(*this, getArray().getType(), getBuffer().getType(),
                          getOffsets().size());
}
LogicalResult BroadcastTileOp::verify() {
  return verifyTileAccess(*this, getArray().getType(), getBuffer().getType(),
                          getOffsets().size());
}

LogicalResult GatherTileOp::verify() {
  return verifyTileAccess(*this, getArray().getType(), getBuffer().getType(),
                          getOffsets().size());
}
LogicalResult GatherTileStartOp::verify() {
  return verifyTileAccess(*this, getArray().getType(), getBuffer().getType(),
                          getOffsets().size());
}
LogicalResult ReduceScatterTileOp::verify() {
  ArrayType array = getArray().getType();
  if (failed(verifyTileAccess(*this, array, getBuffer().getType(), getOffsets().size())))
    return failure();
  // The parts the sums go to: the sub-blocks of a split dimension (COSMA), or
  // the slabs of a slab array on a one-dimensional grid (D53).
  tc_layout::ArrayLayout layout = array.getLayout().getLayout();
  if (layout.splitDimension() < 0 && !layout.slabsOnLine())
    return emitOpError() << "operand 'array' " << array
                         << " has no split dimension and is no slab array on a 1-d grid: "
                            "its tiles have no parts to reduce onto";
  return success();
}

LogicalResult ShiftTileOp::verify() {
  MemRefType type = getBuffer().getType();
  if (failed(verifyTileAccess(*this, getArray().getType(), type, getOffsets().size())))
    return failure();
  ArrayRef<int64_t> sizes = getSizes();
  if (static_cast<int64_t>(sizes.size()) != type.getRank())
    return emitOpError() << "has " << sizes.size() << " sizes for a buffer of rank "
                         << type.getRank();
  for (auto [d, s] : llvm::enumerate(sizes))
    if (s < 1 || s > type.getDimSize(d))
      return emitOpError() << "sub-tile size " << s << " of dimension " << d
                           << " is outside 1.." << type.getDimSize(d);
  return verifyGridDim(*this, getArray().getType(), getGridDim());
}

LogicalResult GridCoordOp::verify() {
  return verifyGridDim(*this, getArray().getType(), getGridDim());
}

/// The panel of tc.gather_cyclic / tc.reduce_cyclic: `dim` a block-cyclic
/// dimension of the array's layout, modulus >= 1, a buffer of the array's rank
/// holding the panel's rows.
static LogicalResult verifyCyclicPanel(Operation *op, Value array, int64_t dim,
                                       int64_t modulus, MemRefType buffer) {
  auto type = cast<ArrayType>(array.getType());
  if (dim < 0 || dim >= type.getRank())
    return op->emitOpError() << "dim " << dim << " is not a dimension of the rank-"
                             << type.getRank() << " array";
  if (modulus < 1)
    return op->emitOpError() << "modulo " << modulus << " must be >= 1";
  if (failed(verifyTileBuffer(op, buffer, "the panel buffer")))
    return failure();
  if (buffer.getRank() != type.getRank())
    return op->emitOpError() << "the panel buffer " << buffer << " must have the array's rank "
                             << type.getRank();
  tc_layout::ArrayLayout layout = type.getLayout().getLayout();
  if (!layout.isCyclic(dim))
    return op->emitOpError() << "dim " << dim << " of the array is not block-cyclic";
  int64_t rows = tc_layout::cyclicRows(layout.extents[dim], layout.cyclic[dim], modulus);
  if (buffer.getShape()[dim] < rows)
    return op->emitOpError() << "the panel buffer " << buffer << " holds " << buffer.getShape()[dim]
                             << " rows of dim " << dim << ", the panel has " << rows;
  return success();
}

LogicalResult GatherCyclicOp::verify() {
  return verifyCyclicPanel(*this, getArray(), getDim(), getModulus(), getBuffer().getType());
}

LogicalResult ReduceCyclicOp::verify() {
  return verifyCyclicPanel(*this, getArray(), getDim(), getModulus(), getBuffer().getType());
}

LogicalResult ShiftArrayOp::verify() {
  return verifyGridDim(*this, getArray().getType(), getGridDim());
}

LogicalResult RedistributeArrayOp::verify() {
  // One tensor, held two ways by the same processes ([G] 2.3's stages 1 and 3).
  ArrayType from = getSource().getType(), to = getDestination().getType();
  if (from.getElementType() == to.getElementType() &&
      from.getLayout().getExtents() == to.getLayout().getExtents() &&
      from.getLayout().getLayout().procs() == to.getLayout().getLayout().procs())
    return success();
  return emitOpError() << "operand 'source' " << from << " and operand 'destination' " << to
                       << " must hold one tensor (element type and extents) on grids of as "
                       << "many processes";
}

LogicalResult TileContractOp::verify() {
  struct Side {
    const char *name;
    MemRefType type;
    size_t numOffsets;
    ArrayAttr labels;
    std::optional<ArrayRef<int64_t>> steps;
  } sides[3] = {{"c", getC().getType(), getCOffsets().size(), getCLabels(), getCSteps()},
                {"a", getA().getType(), getAOffsets().size(), getALabels(), getASteps()},
                {"b", getB().getType(), getBOffsets().size(), getBLabels(), getBSteps()}};
  // One element type: the kernel is one BLAS call (dgemm or sgemm).
  for (const Side &s : {sides[1], sides[2]})
    if (s.type.getElementType() != sides[0].type.getElementType())
      return emitOpError() << "operand " << s.name << " holds " << s.type.getElementType()
                           << " but operand c holds " << sides[0].type.getElementType()
                           << "; the three buffers have one element type";
  llvm::StringSet<> inInputs;
  for (const Side &s : {sides[1], sides[2]})
    for (Attribute attr : s.labels)
      inInputs.insert(cast<StringAttr>(attr).getValue());
  for (const Side &s : sides) {
    if (failed(verifyOffsets(*this, s.type, s.numOffsets, std::string("operand ") + s.name)))
      return failure();
    if (static_cast<int64_t>(s.labels.size()) != s.type.getRank())
      return emitOpError() << "operand " << s.name << " has " << s.labels.size()
                           << " labels for rank " << s.type.getRank();
    if (s.steps && static_cast<int64_t>(s.steps->size()) != s.type.getRank())
      return emitOpError() << "operand " << s.name << " has " << s.steps->size()
                           << " steps for rank " << s.type.getRank();
    llvm::StringSet<> seen;
    for (auto [d, attr] : llvm::enumerate(s.labels)) {
      StringRef label = cast<StringAttr>(attr).getValue();
      if (!seen.insert(label).second)
        return emitOpError() << "label '" << label << "' appears twice in operand " << s.name;
      if (!inInputs.contains(label))
        return emitOpError() << "label '" << label << "' of operand c is in neither input";
      auto extent = dyn_cast_or_null<IntegerAttr>(getExtents().get(label));
      if (!extent)
        return emitOpError() << "label '" << label << "' has no integer extent";
      const int64_t step = s.steps ? (*s.steps)[d] : 1;
      if (step < 1)
        return emitOpError() << "operand " << s.name << " has step " << step
                             << " in dimension " << d << "; steps are positive";
      // The sub-tile spans (extent - 1) * step + 1 elements of the dimension.
      if (extent.getInt() < 1 || (extent.getInt() - 1) * step + 1 > s.type.getDimSize(d))
        return emitOpError() << "label '" << label << "' has extent " << extent.getInt()
                             << (step > 1 ? " with step " + std::to_string(step) : "")
                             << " but dimension " << d << " of operand " << s.name
                             << " has size " << s.type.getDimSize(d);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Slices of fused operator trees
//===----------------------------------------------------------------------===//

template <typename SliceOp> static LogicalResult verifySlice(SliceOp op) {
  ArrayRef<int64_t> extents = op.getTensorExtents();
  if (failed(verifyArrayRank(op, op.getArray().getType(), extents.size(), "tensor extents")))
    return failure();
  if (extents.size() != op.getShift().size())
    return op.emitOpError() << "has " << op.getShift().size() << " shifts for a tensor of "
                            << extents.size() << " dimensions";
  for (auto [d, n] : llvm::enumerate(extents))
    if (n < 1)
      return op.emitOpError() << "tensor extent " << n << " of dimension " << d
                              << " is not positive";
  return success();
}

LogicalResult LoadSliceOp::verify() { return verifySlice(*this); }
LogicalResult StoreSliceOp::verify() { return verifySlice(*this); }

LogicalResult CombinePartialOp::verify() {
  if (getGridDims().empty())
    return emitOpError() << "combines over no grid dimension";
  for (int64_t g : getGridDims()) {
    if (failed(verifyGridDim(*this, getArray().getType(), g)))
      return failure();
    if (g >= 62) // the runtime takes the dimensions as a 64-bit mask
      return emitOpError() << "grid dimension " << g << " is out of range";
  }
  if (!llvm::is_sorted(getGridDims()) ||
      std::adjacent_find(getGridDims().begin(), getGridDims().end()) != getGridDims().end())
    return emitOpError() << "grid dimensions must be increasing and distinct";
  return success();
}

//===----------------------------------------------------------------------===//
// Block-sparse contractions
//===----------------------------------------------------------------------===//

LogicalResult BlockArrayOp::verify() {
  const size_t stored = getType().getBlocks().toShape().storedBlocks().size();
  if (getHomes().size() != stored)
    return emitOpError() << "block-sparse array '" << getName() << "' has " << stored
                         << " stored blocks but " << getHomes().size() << " homes";
  for (auto [i, home] : llvm::enumerate(getHomes()))
    if (home < 0)
      return emitOpError() << "block " << i << " of '" << getName() << "' has home " << home
                           << " (a process rank is at least 0)";
  if (getInit() == ArrayInitKind::RootInput)
    return emitOpError() << "a block-sparse array starts as its input, zeros or ones, not "
                         << stringifyArrayInitKind(getInit());
  return success();
}

LogicalResult BlockStageOp::verify() {
  BlockArrayType types[3] = {getA().getType(), getB().getType(), getC().getType()};
  ArrayRef<int64_t> labels[3] = {getLabelsA(), getLabelsB(), getLabelsC()};
  const char *names[3] = {"A", "B", "C"};
  std::vector<size_t> blocks(3);
  std::map<int64_t, SmallVector<int64_t>> segmentsOf;
  for (int x = 0; x < 3; ++x) {
    BlocksAttr encoding = types[x].getBlocks();
    if (labels[x].size() != encoding.getRank())
      return emitOpError() << names[x] << " has " << encoding.getRank() << " dimensions but "
                           << labels[x].size() << " labels";
    blocks[x] = encoding.toShape().storedBlocks().size();
    for (auto [d, l] : llvm::enumerate(labels[x])) {
      if (l < 0)
        return emitOpError() << "label " << l << " of " << names[x] << " is negative";
      SmallVector<int64_t> segments = encoding.getSegments(d);
      auto [it, first] = segmentsOf.try_emplace(l, segments);
      if (!first && it->second != segments)
        return emitOpError() << "label " << l << " has other segments in " << names[x]
                             << " (dimension " << d << ") than where it first appears";
    }
  }
  ArrayRef<int64_t> tasks = getTasks();
  if (tasks.size() % 6 != 0)
    return emitOpError() << "tasks hold six integers each (a, b, c, rank, stage, step), got "
                         << tasks.size();
  if (getStages() < 1)
    return emitOpError() << "a schedule has at least one stage, got " << getStages();
  for (size_t t = 0; t * 6 < tasks.size(); ++t) {
    const int64_t *task = tasks.data() + 6 * t;
    for (int x = 0; x < 3; ++x)
      if (task[x] < 0 || task[x] >= static_cast<int64_t>(blocks[x]))
        return emitOpError() << "task " << t << " names block " << task[x] << " of "
                             << names[x] << ", which has " << blocks[x] << " present";
    if (task[3] < 0)
      return emitOpError() << "task " << t << " runs on rank " << task[3];
    if (task[4] < 0 || task[4] >= getStages())
      return emitOpError() << "task " << t << " is in stage " << task[4] << " of "
                           << getStages();
    if (task[5] < 0)
      return emitOpError() << "task " << t << " is in step " << task[5];
  }
  ArrayRef<int64_t> cached = getCached().value_or(ArrayRef<int64_t>());
  if (cached.size() % 4 != 0)
    return emitOpError() << "cached reads hold four integers each (stage, tensor, block, "
                            "rank), got "
                         << cached.size();
  for (size_t i = 0; i < cached.size(); i += 4) {
    const int64_t stage = cached[i], x = cached[i + 1], block = cached[i + 2];
    if (stage < 0 || stage >= getStages() || (x != 0 && x != 1) || block < 0 ||
        block >= static_cast<int64_t>(blocks[x]) || cached[i + 3] < 0)
      return emitOpError() << "cached read " << i / 4 << " (stage " << stage << ", tensor "
                           << x << ", block " << block << ", rank " << cached[i + 3]
                           << ") names no stage, input block or process";
  }
  // A permuted read: its task, a permutation of A's and of B's dimensions,
  // a factor (a sign, times 2 per summed pair counted once).
  ArrayRef<int64_t> reads = getReads().value_or(ArrayRef<int64_t>());
  const size_t width = 2 + labels[0].size() + labels[1].size();
  if (reads.size() % width != 0)
    return emitOpError() << "reads hold " << width
                         << " integers each (task, A's dimensions, B's dimensions, factor), got "
                         << reads.size();
  std::set<int64_t> readTasks;
  for (size_t i = 0; i < reads.size(); i += width) {
    const int64_t task = reads[i], factor = reads[i + width - 1];
    if (task < 0 || static_cast<size_t>(task) >= tasks.size() / 6 || !readTasks.insert(task).second)
      return emitOpError() << "read " << i / width << " names task " << task
                           << ", which is not a task or has another read";
    for (int x = 0; x < 2; ++x) {
      ArrayRef<int64_t> dims = reads.slice(i + 1 + (x ? labels[0].size() : 0), labels[x].size());
      SmallVector<int64_t> sorted(dims);
      llvm::sort(sorted);
      for (auto [k, d] : llvm::enumerate(sorted))
        if (d != static_cast<int64_t>(k))
          return emitOpError() << "read " << i / width << " of task " << task << " permutes "
                               << names[x] << "'s dimensions as [" << dims
                               << "], not a permutation";
    }
    if (factor == 0 || (std::abs(factor) & (std::abs(factor) - 1)) != 0)
      return emitOpError() << "read " << i / width << " of task " << task << " has factor "
                           << factor << " (a power of 2, or its negative)";
  }
  return success();
}
