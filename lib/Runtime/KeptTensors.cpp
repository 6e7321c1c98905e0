//===- KeptTensors.cpp - intermediates left where they were computed ------===//
//
// A statement whose result the plan keeps in memory used to write its part
// into a zero-filled whole copy on every rank and all-reduce it: every rank
// sent and received twice the tensor per store, and held all of it. Here the
// rank keeps a copy of its own part, in the layout the statement computed it
// in, and the reader redistributes from it what its own layout needs
// (docs/Derivations.md D44).
//
//===----------------------------------------------------------------------===//
#include "KeptTensors.h"
#include "KeptBlocks.h"
#include "MappedInputs.h"
#include "StoredTensors.h"

#include "TC/Layout/RedistributionTraffic.h"
#include "TC/Runtime/Descriptors.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tc_rt {
namespace {

/// A kept tensor: this rank's part in the layout it was stored or first
/// loaded in; for an input (which no statement changes), also its parts in
/// the layouts later statements loaded it in, each handed over once.
struct Kept {
  std::unique_ptr<DistArray> part;
  bool input = false;
  std::vector<std::unique_ptr<DistArray>> otherLayouts;
};

std::unordered_map<std::string, Kept> &keptTensors() {
  static std::unordered_map<std::string, Kept> kept;
  return kept;
}

/// The elements this rank holds of `a`, from storage to a packed buffer.
Selection heldPacked(const DistArray &a) {
  Selection held = a.runsOf(ctx().rank, /*loading=*/false);
  for (Runs &r : held)
    r = packed(r, /*fromSide=*/true);
  return held;
}

/// X = 1 / (...): every element this rank holds inverted (its padding stays
/// zero).
template <typename T> void invertHeld(DistArray &a) {
  const Selection held = heldPacked(a);
  PooledVector<T> values(elements(held));
  if (values.empty())
    return;
  transferRuns(a, true, held, values.data(), lengths(held), "a kept block");
  invertEach(values.data(), static_cast<int64_t>(values.size()));
  transferRuns(a, false, held, values.data(), lengths(held), "a kept block");
}

/// What handing a tensor over from `from` to `to` moves, as
/// redistributionTraffic predicts it, worked out once per pair of layouts: a
/// loop hands the same ones over in every iteration.
const tc_layout::RedistributionTraffic &predictedTraffic(const DistArray &from, const DistArray &to,
                                                         int procs) {
  static std::map<std::pair<int64_t, int64_t>, tc_layout::RedistributionTraffic> known;
  const std::pair<int64_t, int64_t> key{from.layoutId, to.layoutId};
  auto it = known.find(key);
  if (it == known.end())
    it = known.emplace(key, tc_layout::redistributionTraffic(from, to, procs)).first;
  return it->second;
}

/// `a`, a gathered array, as a load fills it: a slab of its first dimension
/// per rank (its layout only), made once per layout.
const DistArray &slabOf(const DistArray &a) {
  static std::map<int64_t, DistArray> slabs;
  auto it = slabs.find(a.layoutId);
  if (it == slabs.end()) {
    DistArray slab;
    static_cast<tc_layout::ArrayLayout &>(slab) = a;
    slab.kind = Holding::Slab;
    setLayoutKey(slab);
    it = slabs.emplace(a.layoutId, std::move(slab)).first;
  }
  return it->second;
}

/// True if an array of layout number `layout` (DistArray::layoutId) and
/// image `image` (DistArray::image) may use `part`'s storage as its own: the
/// same layout, or the same image.
bool holdsAs(const DistArray &part, int64_t image, int64_t layout) {
  return (layout >= 0 && part.layoutId == layout) || (image >= 0 && part.image == image);
}

/// The part `kept` holds in the layout numbered `layout` or with image
/// `image` (its first, or one of an input's other layouts), if any.
DistArray *partIn(const Kept &kept, int64_t image, int64_t layout) {
  if (holdsAs(*kept.part, image, layout))
    return kept.part.get();
  for (const std::unique_ptr<DistArray> &other : kept.otherLayouts)
    if (holdsAs(*other, image, layout))
      return other.get();
  return nullptr;
}

/// True if `a`'s storage is the buffer of `part`, a kept part in a's layout.
bool inPlace(const DistArray &a, const DistArray *part) {
  return part && a.external && part->memory.data() == a.external;
}

/// True if `a` is a whole tensor of its name: not a slice of a fused
/// program's, nothing summed at load.
bool wholeTensor(const DistArray &a) { return a.sliceFull.empty() && a.summedExtent.empty(); }

/// True if `a` is a whole tensor in memory, held as a redistribution can take
/// it from: blocks, or whole copies (a gathered array is whole once its
/// result is stored). A slab's ranks hold disjoint rows that Redistribute.cpp
/// does not send.
bool keepable(const DistArray &a) { return wholeTensor(a) && !a.onDisk && a.kind != Holding::Slab; }

/// True if `a`'s storage on this rank is its block unpadded, its dimensions
/// in the dataset's order.
bool storedInDatasetOrder(const DistArray &a) {
  if (a.storeShape != a.extents)
    return false;
  for (int64_t d = 0; d < a.rank(); ++d)
    if (a.fileDim[d] != d)
      return false;
  return true;
}

/// True if every rank's storage of `a` is the whole tensor in the dataset's
/// order, unpadded: a replicated copy's, or any layout's on one process.
/// Worked out once per layout.
bool wholeInOrderEverywhere(const DistArray &a) {
  if (a.onDisk || a.layoutId < 0 || !wholeTensor(a) || !storedInDatasetOrder(a))
    return false;
  for (size_t g = 0; g < a.shifts.size(); ++g)
    if (a.shifts[g] % a.grid[g] != 0)
      return false;
  static std::unordered_map<int64_t, bool> known;
  auto [it, fresh] = known.try_emplace(a.layoutId, true);
  if (!fresh)
    return it->second;
  for (int r = 0; r < ctx().size && it->second; ++r) {
    const Selection held = a.runsOf(r, /*loading=*/false);
    for (int64_t d = 0; d < a.rank(); ++d)
      it->second = it->second && held[d].size() == 1 && held[d][0] == Run{0, 0, a.extents[d]};
  }
  return it->second;
}

/// A copy of this rank's part of `a` (inverted when `invert`). A `stored`
/// array's storage is done with (a statement writes its result's storage no
/// more once it stores it, tc.store): the copy takes that buffer over where
/// the pool can share it, instead of copying a block of every statement's
/// result (a CCSD iteration's Wabef, four times 8 MB per rank). Into `reuse`,
/// an earlier copyOf's, if given: its layout's vectors keep their capacity (a
/// loop keeps the same tensors in the same layouts every iteration, and
/// allocating them anew was a quarter of a small CCSD iteration's mallocs).
std::unique_ptr<DistArray> copyOf(DistArray &a, bool invert, bool stored,
                                  std::unique_ptr<DistArray> reuse = nullptr) {
  std::unique_ptr<DistArray> kept = reuse ? std::move(reuse) : std::make_unique<DistArray>();
  if (kept->layoutId < 0 || kept->layoutId != a.layoutId || kept->name != a.name) {
    // The earlier value's object has these already when its layout is a's.
    static_cast<tc_layout::ArrayLayout &>(*kept) = a;
    kept->layoutKey = a.layoutKey;
    kept->layoutId = a.layoutId;
    kept->name = a.name;
    kept->comm = a.comm;
    kept->idle = a.idle;
    kept->coords = a.coords;
    kept->storeShape = a.storeShape;
  }
  kept->elem = a.elem;
  kept->shifts = a.shifts;
  // Shifted by other than whole turns of its grid, it holds other blocks.
  bool turned = true;
  for (size_t g = 0; g < a.shifts.size(); ++g)
    turned &= a.shifts[g] % a.grid[g] == 0;
  kept->image = turned ? a.image : heldImage(a, a.layoutKey, a.shifts);
  const int64_t bytes = product(a.storeShape) * a.elemBytes();
  // An input mapped from its file (MappedInputs.h) is read-only: shared too.
  if (!(stored || isMapping(a.mem<void>())) || !kept->memory.share(a.mem<void>(), bytes)) {
    kept->memory.resize(bytes);
    if (bytes > 0)
      std::memcpy(kept->memory.data(), a.mem<void>(), bytes);
  }
  if (invert)
    withElement(kept->elem, [&](auto zero) { invertHeld<decltype(zero)>(*kept); });
  return kept;
}

/// Keeps a copy of this rank's part of `a` under its name (inverted when
/// `invert`), dropping the earlier value in any form; with `share`, a's
/// buffer itself where the pool can share it (nothing writes it after).
void keepCopy(DistArray &a, bool invert, bool input, bool share = false) {
  forgetKeptBlocks(a.name);
  forgetStoredIntermediate(a.name);
  // The earlier value's entry takes the new one (a loop keeps the same
  // tensors in every iteration), in the earlier value's object.
  Kept &kept = keptTensors()[a.name];
  std::unique_ptr<DistArray> earlier = kept.part.get() == &a ? nullptr : std::move(kept.part);
  kept.part = copyOf(a, invert, /*stored=*/share || !input, std::move(earlier));
  kept.input = input;
  kept.otherLayouts.clear();
}

/// Keeps `a`, an input just handed over, in its layout too, when every
/// rank's parts of the input in all its layouts then hold no more elements
/// than the whole tensor, what the plan counts for a kept input (D44). A
/// loop's later loads in that layout then copy it locally instead of
/// redistributing again. Every rank decides alike (from the layouts alone),
/// as the next hand-over, collective, needs.
void keepLayout(Kept &kept, DistArray &a) {
  const int64_t whole = product(a.datasetExtents());
  for (int r = 0; r < ctx().size; ++r) {
    int64_t held = elements(kept.part->runsOf(r, false)) + elements(a.runsOf(r, false));
    for (const std::unique_ptr<DistArray> &other : kept.otherLayouts)
      held += elements(other->runsOf(r, false));
    if (held > whole)
      return;
  }
  kept.otherLayouts.push_back(copyOf(a, /*invert=*/false, /*stored=*/false));
}

/// The description of `name`'s rows layout: dataset order, dimension 0 split
/// over all ranks (StoredTensor::shareOf's blocks), f64.
ArrayDesc rowsLayout(const Shape &dims, tc_rt_init init) {
  ArrayDesc desc;
  desc.layout = tc_layout::ArrayLayout::whole(Holding::Distributed, dims, {ctx().size});
  desc.layout.gridDim[0] = 0;
  desc.init = init;
  desc.elem = TC_RT_F64;
  return desc;
}

/// The description of a layout holding all of a tensor of extents `dims` on
/// every rank, in the dataset's order.
ArrayDesc wholeLayout(const Shape &dims, tc_rt_init init, tc_rt_elem elem) {
  ArrayDesc desc;
  desc.layout = tc_layout::ArrayLayout::whole(Holding::Replicated, dims, {ctx().size});
  desc.init = init;
  desc.elem = elem;
  return desc;
}

/// The array `desc` describes, created as a statement creates it (its load
/// included) in `storage` if any (tc_rt_array's), in the caller's phase. The
/// words are kept at one address per description, as a program's constant
/// descriptors are: tc_rt_array decodes them once, where DIIS's arrays of
/// every iteration took a fresh decode each (a tenth of a small CCSD
/// iteration with DIIS).
DistArray &createInPhase(const ArrayDesc &desc, const std::string &name, void *storage = nullptr) {
  static std::set<std::vector<int64_t>> descriptors;
  const std::vector<int64_t> &words = *descriptors.insert(desc.encode()).first;
  const Phase phase = ctx().phase;
  auto *a = static_cast<DistArray *>(tc_rt_array(words.data(), name.c_str(), storage));
  setPhase(phase, /*sampleRss=*/false);
  return *a;
}

} // namespace

bool keepWhereComputed(DistArray &a) {
  Context &c = ctx();
  if (c.storing != TC_RT_RESULT_MEMORY || !keepable(a))
    return false;
  keepCopy(a, c.storingReciprocal, /*input=*/false);
  return true;
}

bool keepsLoadedInput(const DistArray &a) {
  return ctx().keepingInputs && keepable(a) && !isKept(a.name);
}

namespace {
/// True while keepInputWhole loads an input's whole copy, which nothing but
/// the kept value uses: its buffer becomes the kept value's.
bool loadingWholeCopy = false;
} // namespace

void keepLoadedInput(DistArray &a) {
  if (!keepsLoadedInput(a))
    return;
  if (loadingWholeCopy) {
    keepCopy(a, /*invert=*/false, /*input=*/true, /*share=*/true);
    return;
  }
  // A gathered array just loaded holds only this rank's slab: its layout
  // says whole (the all-gather comes later, in the plan), and a copy kept
  // now would hand zeros over for the other ranks' rows. On a grid of one
  // process the slab is all of it (and no all-gather comes).
  if (a.kind == Holding::Gathered && a.procs() > 1) {
    a.keepOnceGathered = true;
    return;
  }
  if (keepsInputWhole(a))
    keepInputWhole(a);
  else
    keepCopy(a, /*invert=*/false, /*input=*/true);
}

bool keepsInputWhole(const DistArray &a) {
  return keepsLoadedInput(a) && !loadingWholeCopy && a.kind == Holding::Distributed &&
         a.rank() > 0 && ctx().size > 1;
}

void keepInputWhole(const DistArray &a) {
  // Kept whole on every rank, as the plan counts a kept input (D44): every
  // later load of it, in any layout, is then a local copy, where from a's
  // blocks it was a redistribution. This load of the whole tensor keeps it
  // (keepLoadedInput, on a replicated array).
  const ArrayDesc whole = wholeLayout(a.datasetExtents(), TC_RT_INIT_INPUT, a.elem);
  const int64_t bytes = product(a.datasetExtents()) * a.elemBytes();
  void *mapped = mapInputBlock(a.name, a.elem, a.datasetExtents(), 0, bytes);
  loadingWholeCopy = true;
  createInPhase(whole, a.name, mapped);
  loadingWholeCopy = false;
  if (mapped)
    releaseBuffer(mapped); // the kept copy holds it now
}

void keepGatheredInput(DistArray &a) {
  if (!a.keepOnceGathered)
    return;
  a.keepOnceGathered = false;
  if (isKept(a.name))
    return;
  // Whole on every rank now, so kept as replicated: a gathered layout's
  // store and redistribution take each rank's slab alone.
  keepCopy(a, /*invert=*/false, /*input=*/true);
  DistArray &kept = *keptTensors().at(a.name).part;
  kept.kind = Holding::Replicated;
  setLayoutKey(kept);
  kept.image = heldImage(kept, kept.layoutKey, kept.shifts);
}

bool isKept(const std::string &name) { return keptTensors().count(name) > 0; }

namespace {

/// Views of kept inputs lent as read-only arrays' storage (keptStorage), not
/// yet claimed by their array (takeKeptView).
std::unordered_set<const void *> &unclaimedViews() {
  static std::unordered_set<const void *> views;
  return views;
}

/// The `bytes` from element `firstElement` on of `kept`'s whole copy on this
/// rank (its dataset in row-major order, `elem` elements), shared; null if
/// `kept` holds no such copy.
void *viewOfWhole(const Kept &kept, tc_rt_elem elem, int64_t firstElement, int64_t bytes) {
  const DistArray &whole = *kept.part;
  if (!kept.input || whole.elem != elem || firstElement < 0 || bytes <= 0 ||
      !wholeInOrderEverywhere(whole))
    return nullptr;
  void *buffer = const_cast<DistArray &>(whole).mem<void>();
  const int64_t at = firstElement * whole.elemBytes();
  if (!buffer || at + bytes > product(whole.storeShape) * whole.elemBytes())
    return nullptr;
  return shareRange(buffer, static_cast<size_t>(at), static_cast<size_t>(bytes));
}

} // namespace

void *keptStorage(const std::string &name, int64_t image, int64_t layout, tc_rt_elem elem,
                  int64_t bytes, bool readOnly, int64_t contiguousFrom) {
  auto it = keptTensors().find(name);
  // An input's kept value outlives the statement (every iteration loads it):
  // only an array that never writes may share it. A result replaces an
  // intermediate's with what it stores.
  if (it != keptTensors().end() && (readOnly || !it->second.input)) {
    DistArray *kept = partIn(it->second, image, layout);
    void *buffer = kept ? kept->memory.data() : nullptr;
    if (buffer && kept->elem == elem && product(kept->storeShape) * kept->elemBytes() == bytes &&
        retainBuffer(buffer, bytes))
      return buffer;
    // A block that is one range of the dataset, read from an input kept
    // whole: that range, where a copy cost a page fault per page (D54).
    if (readOnly)
      if (void *view = viewOfWhole(it->second, elem, contiguousFrom, bytes)) {
        unclaimedViews().insert(view);
        return view;
      }
  }
  return acquireBuffer(bytes > 0 ? bytes : 1);
}

bool takeKeptView(const void *storage) { return unclaimedViews().erase(storage) > 0; }

bool storesKeptValue(const DistArray &a) {
  auto it = keptTensors().find(a.name);
  return it != keptTensors().end() && a.external &&
         inPlace(a, partIn(it->second, a.image, a.layoutId));
}

namespace {

/// Fills this rank's slab of `a`, a gathered array as a load fills it (rows
/// of dimension 0 at their place), from `whole`, which holds the tensor in
/// the same storage on every rank: no rank sends anything, as the
/// redistribution's prediction says, so the rows are copied directly.
bool copySlabFromWhole(const DistArray &whole, DistArray &a) {
  if (a.onDisk || a.rank() == 0 || !storedInDatasetOrder(a) || !wholeInOrderEverywhere(whole))
    return false;
  const auto [lo, hi] = a.slabRange(ctx().rank);
  const int64_t row = product(a.extents) / std::max<int64_t>(1, a.extents[0]) * a.elemBytes();
  if (hi > lo && row > 0)
    std::memcpy(a.mem<char>() + lo * row, const_cast<DistArray &>(whole).mem<char>() + lo * row,
                (hi - lo) * row);
  return true;
}

/// The number of `a`'s dataset extents (the tensor's, in its file's order):
/// equal numbers, equal extents. Worked out once per layout.
int64_t datasetExtentsNumber(const DistArray &a) {
  static std::map<Shape, int64_t> numbers;
  static std::vector<int64_t> byLayout; // by layoutId; -1: not yet
  auto numberOf = [&] {
    return numbers.emplace(a.datasetExtents(), static_cast<int64_t>(numbers.size())).first->second;
  };
  if (a.layoutId < 0)
    return numberOf();
  if (static_cast<size_t>(a.layoutId) >= byLayout.size())
    byLayout.resize(a.layoutId + 1, -1);
  if (byLayout[a.layoutId] < 0)
    byLayout[a.layoutId] = numberOf();
  return byLayout[a.layoutId];
}

/// a.datasetExtents() == b.datasetExtents(), without building either (every
/// load of a kept tensor asks).
bool sameDatasetExtents(const DistArray &a, const DistArray &b) {
  return a.rank() == b.rank() && datasetExtentsNumber(a) == datasetExtentsNumber(b);
}

} // namespace

bool handOverKept(DistArray &a) {
  auto it = keptTensors().find(a.name);
  if (it == keptTensors().end())
    return false;
  Kept &entry = it->second;
  if (!wholeTensor(a) || a.elem != entry.part->elem || !sameDatasetExtents(a, *entry.part)) {
    makeKeptWhole(a.name);
    return false;
  }
  // A part kept in a's layout already, or holding alike (an input's, or on
  // one process), is copied locally, or is a's storage itself
  // (tc_rt_alloc_storage): every rank holds what it needs where a holds it,
  // so nothing moves and the prediction of the redistribution is zero.
  if (DistArray *alike = partIn(entry, a.image, a.layoutId)) {
    const int64_t bytes = product(a.storeShape) * a.elemBytes();
    if (a.onDisk) // written to a's scratch file
      redistributeArray(*alike, a);
    else if (!inPlace(a, alike) && bytes > 0)
      std::memcpy(a.mem<void>(), alike->mem<void>(), bytes);
    return true;
  }
  // What moves is a redistribution's: predicted from the two layouts by the
  // analysis the planners use, counted as the messages go.
  Context &c = ctx();
  // A gathered array (a replication algorithm's whole operand) is filled as
  // a load fills it, each rank its slab, and the algorithm's all-gather
  // completes it: handed over whole, every element would move twice.
  const bool slab = a.kind == Holding::Gathered && a.rank() > 0;
  DistArray &kept = *entry.part;
  if (slab && copySlabFromWhole(kept, a))
    return true;
  const tc_layout::RedistributionTraffic &t =
      slab ? predictedTraffic(kept, slabOf(a), c.size) : predictedTraffic(kept, a, c.size);
  c.handOver.predictedSent += static_cast<double>(t.sent[c.rank]) * a.elemBytes();
  c.handOver.predictedReceived += static_cast<double>(t.received[c.rank]) * a.elemBytes();
  const Counters before = counters();
  redistributeArray(kept, a, /*loading=*/slab);
  c.handOver.sent += counters().bytesSent - before.bytesSent;
  c.handOver.received += counters().bytesReceived - before.bytesReceived;
  if (entry.input && !slab && keepable(a))
    keepLayout(entry, a);
  return true;
}

bool keptAsRows(const std::string &name, Shape &dims) {
  auto it = keptTensors().find(name);
  if (it == keptTensors().end() || it->second.part->elem != TC_RT_F64)
    return false;
  dims = it->second.part->datasetExtents();
  return !dims.empty();
}

bool keptWholeEverywhere(const std::string &name, Shape &dims) {
  return keptAsRows(name, dims) && wholeInOrderEverywhere(*keptTensors().at(name).part);
}

void readKeptWhole(const std::string &name, double *out) {
  Shape dims;
  if (!keptWholeEverywhere(name, dims))
    fail("tensor '" + name + "' is not kept whole on every rank as a dense f64 tensor");
  const double *values = keptTensors().at(name).part->mem<double>();
  std::copy(values, values + product(dims), out);
}

void keepWhole(const std::string &name, const Shape &dims, const double *values) {
  DistArray &whole = createInPhase(wholeLayout(dims, TC_RT_INIT_ZERO, TC_RT_F64), name);
  std::copy(values, values + product(dims), whole.mem<double>());
  keepCopy(whole, /*invert=*/false, /*input=*/false);
}

void readKeptShare(const std::string &name, double *out) {
  Shape dims;
  if (!keptAsRows(name, dims))
    fail("tensor '" + name + "' is not kept in memory as a dense f64 tensor");
  DistArray &rows = createInPhase(rowsLayout(dims, TC_RT_INIT_INPUT), name);
  auto [begin, end] = StoredTensor::shareOf(dims, ctx().rank, ctx().size);
  // The share's rows lead the padded block (rows of the same length).
  std::copy(rows.mem<double>(), rows.mem<double>() + (end - begin), out);
}

bool readKeptScalar(const std::string &name, double &value) {
  auto it = keptTensors().find(name);
  if (it == keptTensors().end())
    return false;
  DistArray &part = *it->second.part;
  // Every rank decides alike, from the layout alone.
  if (part.rank() != 0 || !part.inGrid(0))
    return false;
  if (ctx().rank == 0)
    withElement(part.elem, [&](auto zero) { value = *part.mem<decltype(zero)>(); });
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return true;
}

void keepShares(const std::string &name, const Shape &dims, const double *share) {
  DistArray &rows = createInPhase(rowsLayout(dims, TC_RT_INIT_ZERO), name);
  auto [begin, end] = StoredTensor::shareOf(dims, ctx().rank, ctx().size);
  std::copy(share, share + (end - begin), rows.mem<double>());
  keepCopy(rows, /*invert=*/false, /*input=*/false);
}

void makeKeptWhole(const std::string &name) {
  auto it = keptTensors().find(name);
  if (it == keptTensors().end())
    return;
  std::unique_ptr<DistArray> kept = std::move(it->second.part);
  keptTensors().erase(it);
  // Each rank its part into a zero-filled whole copy, all-reduced (Hdf5IO.cpp).
  storeKeptInMemory([&] { storeOutput(*kept); });
}

void storeKeptInMemory(const std::function<void()> &store) {
  // Stored as the statement would have stored it, already inverted.
  Context &c = ctx();
  const Phase phase = c.phase;
  const int64_t storing = c.storing;
  const bool reciprocal = c.storingReciprocal;
  c.storing = TC_RT_RESULT_MEMORY;
  c.storingReciprocal = false;
  setPhase(Store, /*sampleRss=*/false);
  store();
  setPhase(phase, /*sampleRss=*/false);
  c.storing = storing;
  c.storingReciprocal = reciprocal;
}

void forgetKept(const std::string &name) { keptTensors().erase(name); }

void releaseKept() { keptTensors().clear(); }

} // namespace tc_rt
