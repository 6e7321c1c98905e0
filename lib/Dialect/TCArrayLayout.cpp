//===- TCArrayLayout.cpp - #tc.layout, the layout library as an attribute -===//
//
// `#tc.layout` is tc_layout::ArrayLayout (include/TC/Layout/ArrayLayout.h)
// written in IR: the attribute leaves out the entries at their defaults, the
// struct has them all, and the rules are the library's, so the dialect and
// the runtime refuse the same layouts with the same words.
//
//===----------------------------------------------------------------------===//
#include "TC/Dialect/TCAttrs.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tc;

static_assert(int(ArrayKind::Distributed) == int(tc_layout::Holding::Distributed) &&
                  int(ArrayKind::Replicated) == int(tc_layout::Holding::Replicated) &&
                  int(ArrayKind::Slab) == int(tc_layout::Holding::Slab) &&
                  int(ArrayKind::Gathered) == int(tc_layout::Holding::Gathered),
              "#tc.array_kind and the layout library's holdings agree");

FailureOr<SmallVector<int64_t>> mlir::tc::parseIntList(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

void mlir::tc::printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[' << values << ']';
}

static tc_layout::ArrayLayout
layoutOf(ArrayKind kind, ArrayRef<int64_t> extents, ArrayRef<int64_t> grid, ArrayRef<int64_t> dims,
         ArrayRef<int64_t> skew, ArrayRef<int64_t> split, ArrayRef<int64_t> cyclic,
         ArrayRef<int64_t> fileDims, ArrayRef<int64_t> summedFileDims,
         ArrayRef<int64_t> summedExtents, ArrayRef<int64_t> firstSlice) {
  tc_layout::ArrayLayout l = tc_layout::ArrayLayout::whole(static_cast<tc_layout::Holding>(kind),
                                                           extents.vec(), grid.vec());
  l.gridDim = dims.vec();
  l.skewDim = skew.vec();
  // An optional list left out is every entry at its default; one given is
  // taken as it is (the library's verify checks its length).
  if (!split.empty())
    l.splitDim = split.vec();
  if (!cyclic.empty())
    l.cyclic = cyclic.vec();
  if (!fileDims.empty())
    l.fileDim = fileDims.vec();
  l.summedFileDim = summedFileDims.vec();
  l.summedExtent = summedExtents.vec();
  for (int64_t g : firstSlice)
    l.firstSlice |= g >= 0 && g < 63 ? int64_t(1) << g : int64_t(-1);
  return l;
}

LogicalResult ArrayLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, ArrayKind kind,
                                      ArrayRef<int64_t> extents, ArrayRef<int64_t> grid,
                                      ArrayRef<int64_t> dims, ArrayRef<int64_t> skew,
                                      ArrayRef<int64_t> split, ArrayRef<int64_t> cyclic,
                                      ArrayRef<int64_t> fileDims, ArrayRef<int64_t> summedFileDims,
                                      ArrayRef<int64_t> summedExtents,
                                      ArrayRef<int64_t> firstSlice) {
  for (int64_t g : firstSlice)
    if (g < 0 || g >= static_cast<int64_t>(grid.size()))
      return emitError() << "#tc.layout holds the array on the first slice of grid dimension " << g
                         << " of a " << grid.size() << "-d grid";
  std::string why = layoutOf(kind, extents, grid, dims, skew, split, cyclic, fileDims,
                             summedFileDims, summedExtents, firstSlice)
                        .verify();
  if (!why.empty())
    return emitError() << "#tc.layout: " << why;
  return success();
}

tc_layout::ArrayLayout ArrayLayoutAttr::getLayout() const {
  return layoutOf(getKind(), getExtents(), getGrid(), getDims(), getSkew(), getSplit(), getCyclic(),
                  getFileDims(), getSummedFileDims(), getSummedExtents(), getFirstSlice());
}

ArrayLayoutAttr ArrayLayoutAttr::get(MLIRContext *context, const tc_layout::ArrayLayout &l) {
  // Only the lists with an entry off its default are written.
  auto unless = [](const std::vector<int64_t> &v, auto isDefault) {
    return llvm::all_of(llvm::enumerate(v), isDefault) ? ArrayRef<int64_t>() : ArrayRef(v);
  };
  auto minusOne = [](auto e) { return e.value() == -1; };
  SmallVector<int64_t> firstSlice;
  for (int64_t g = 0; g < l.gridRank(); ++g)
    if (l.heldOnFirstSlice(g))
      firstSlice.push_back(g);
  return get(context, static_cast<ArrayKind>(l.kind), ArrayRef(l.extents), ArrayRef(l.grid),
             ArrayRef(l.gridDim), ArrayRef(l.skewDim), unless(l.splitDim, minusOne),
             unless(l.cyclic, [](auto e) { return e.value() == 0; }),
             unless(l.fileDim, [](auto e) { return e.value() == static_cast<int64_t>(e.index()); }),
             ArrayRef(l.summedFileDim), ArrayRef(l.summedExtent), ArrayRef(firstSlice));
}
