//===- KeptBlocks.cpp - block-sparse intermediates left at their homes ----===//
//
// Before, an in-memory block-sparse intermediate was written into a
// zero-filled copy of the whole tensor on every rank and completed by an
// all-reduce: every rank held the whole tensor, and the store moved about
// twice its bytes per rank, whatever the next statement needed. Now each home
// keeps its bricks and the reader's homes fetch theirs (D49).
//
//===----------------------------------------------------------------------===//
#include "KeptBlocks.h"
#include "DistArray.h"
#include "KeptTensors.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <memory>

namespace tc_rt {
namespace {

std::map<std::string, std::unique_ptr<BlockArray>> &keptBlocks() {
  static std::map<std::string, std::unique_ptr<BlockArray>> kept;
  return kept;
}

/// The same message tag for every brick: a pair of ranks posts its sends and
/// receives in the order of the reader's bricks, and MPI matches them in
/// posting order.
constexpr int TagBrick = 7;

int messageBytes(const BlockArray &a, int64_t block) {
  const int64_t bytes = a.blockBytes(block);
  if (bytes > INT_MAX)
    fail("brick " + str(a.blocks[block]) + " of '" + a.name + "' has " + std::to_string(bytes) +
         " bytes, more than one message carries");
  return static_cast<int>(bytes);
}

/// Per brick of `a`, the brick of `kept` with its segment ids (-1: none),
/// worked out once per pair of block lists: a loop hands the same tensors
/// over in every iteration.
const std::vector<int64_t> &bricksFrom(const BlockArray &kept, const BlockArray &a) {
  struct Known {
    std::vector<Shape> keptBlocks, blocks;
    std::vector<int64_t> from;
  };
  static std::map<std::string, Known> known;
  Known &k = known[a.name];
  if (k.keptBlocks == kept.blocks && k.blocks == a.blocks)
    return k.from;
  std::map<Shape, int64_t> keptIndex;
  for (size_t j = 0; j < kept.blocks.size(); ++j)
    keptIndex[kept.blocks[j]] = static_cast<int64_t>(j);
  k.keptBlocks = kept.blocks;
  k.blocks = a.blocks;
  k.from.clear();
  for (const Shape &block : a.blocks) {
    auto found = keptIndex.find(block);
    k.from.push_back(found != keptIndex.end() ? found->second : -1);
  }
  return k.from;
}

/// A kept tensor of `a`'s name and shape, holding no bricks yet.
std::unique_ptr<BlockArray> emptyLike(const BlockArray &a) {
  auto kept = std::make_unique<BlockArray>();
  kept->name = a.name;
  kept->elem = a.elem;
  kept->segments = a.segments;
  kept->blocks = a.blocks;
  kept->home = a.home;
  kept->flip = a.flip;
  kept->pairs = a.pairs;
  return kept;
}

} // namespace

bool keepBlocksWhereComputed(BlockArray &a) {
  Context &c = ctx();
  if (c.storing != TC_RT_RESULT_MEMORY)
    return false;
  forgetKept(a.name);
  forgetStoredIntermediate(a.name);
  std::unique_ptr<BlockArray> kept = emptyLike(a);
  kept->data.resize(a.blocks.size());
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    if (a.home[i] != c.rank)
      continue;
    const int64_t block = static_cast<int64_t>(i);
    if (a.onDisk) {
      kept->allocate(block);
      a.readHome(block, kept->data[i]->data());
    } else {
      kept->data[i] = std::move(a.data[i]); // the statement is done with its result's bricks
    }
    if (c.storingReciprocal) // X = 1 / (...): the kept bricks' values inverted
      withElement(a.elem, [&](auto zero) {
        invertEach(reinterpret_cast<decltype(zero) *>(kept->writeable(block, true)),
                   a.blockElements(block));
      });
  }
  keptBlocks()[a.name] = std::move(kept);
  return true;
}

void keepLoadedBlocks(const BlockArray &a) {
  if (!ctx().keepingInputs || keptBlocks().count(a.name))
    return;
  std::unique_ptr<BlockArray> kept = emptyLike(a);
  kept->data = a.data; // shared: the statement only reads an input
  kept->sharesInput = true;
  keptBlocks()[a.name] = std::move(kept);
}

bool handOverKeptBlocks(BlockArray &a) {
  auto it = keptBlocks().find(a.name);
  if (it == keptBlocks().end())
    return false;
  const BlockArray &kept = *it->second;
  const bool same = !a.onDisk && a.elem == kept.elem && a.segments == kept.segments &&
                    a.flip == kept.flip && a.pairs == kept.pairs &&
                    a.blocks.size() == kept.blocks.size();
  const std::vector<int64_t> &from = bricksFrom(kept, a); // per brick of `a`, the kept one
  if (!same || std::count(from.begin(), from.end(), -1) > 0) {
    // every rank decides alike, from the tensors' shapes alone
    makeKeptBlocksWhole(a.name);
    return false;
  }
  Context &c = ctx();
  const int me = c.rank;
  const MPI_Comm comm = blockComm(); // collective: every rank, bricks to move or not
  // The prediction, from the two home maps alone: a brick moves when its
  // home changes.
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const int source = kept.home[from[i]], target = a.home[i];
    const double bytes = static_cast<double>(a.blockBytes(static_cast<int64_t>(i)));
    if (source == me && target != me)
      c.handOver.predictedSent += bytes;
    if (target == me && source != me)
      c.handOver.predictedReceived += bytes;
  }
  std::vector<MPI_Request> sends, receives;
  double sent = 0;
  a.data.assign(a.blocks.size(), nullptr);
  a.sharesInput = kept.sharesInput;
  std::vector<int64_t> arriving;
  for (size_t i = 0; i < a.blocks.size(); ++i)
    if (a.home[i] == me && kept.home[from[i]] != me)
      arriving.push_back(static_cast<int64_t>(i));
  a.allocateTogether(arriving);
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const int64_t block = static_cast<int64_t>(i);
    const int source = kept.home[from[i]], target = a.home[i];
    if (source == me && target == me) {
      a.data[i] = kept.data[from[i]]; // shared where it is (BlockArray::writeable)
    } else if (target == me) {
      receives.emplace_back();
      MPI_Irecv(a.data[i]->data(), messageBytes(a, block), MPI_BYTE, source, TagBrick, comm,
                &receives.back());
    } else if (source == me) {
      sends.emplace_back();
      MPI_Isend(kept.data[from[i]]->data(), messageBytes(a, block), MPI_BYTE, target, TagBrick,
                comm, &sends.back());
      sent += static_cast<double>(a.blockBytes(block));
    }
  }
  std::vector<MPI_Status> statuses(receives.size());
  MPI_Waitall(static_cast<int>(receives.size()), receives.data(), statuses.data());
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  double received = 0;
  for (MPI_Status &s : statuses) {
    int n = 0;
    MPI_Get_count(&s, MPI_BYTE, &n);
    received += n;
  }
  counters().bytesSent += sent;
  counters().bytesReceived += received;
  c.handOver.sent += sent;
  c.handOver.received += received;
  return true;
}

void makeKeptBlocksWhole(const std::string &name) {
  auto it = keptBlocks().find(name);
  if (it == keptBlocks().end())
    return;
  std::unique_ptr<BlockArray> kept = std::move(it->second);
  keptBlocks().erase(it);
  storeKeptInMemory([&] { writeBlockResult(*kept); });
}

void forgetKeptBlocks(const std::string &name) { keptBlocks().erase(name); }

void releaseKeptBlocks() { keptBlocks().clear(); }

} // namespace tc_rt
