//===- BlockArrays.cpp - block-sparse arrays and their schedule's stages -===//
//
// Krishnamoorthy et al. ([K]) sections 5-6 as a run executes them
// (docs/BlockSparse.md, docs/Derivations.md D33): each brick has a home rank;
// a stage's tasks run where the schedule put them. Per stage, each home reads
// its bricks the stage touches once, sends each remote A and B brick once to
// every rank whose tasks read it, the tasks run as grids of blocks (D46), a rank
// sends its partial sum of a remote C brick once to the brick's home, and the
// homes write their C bricks back. These are exactly the bytes the planner
// predicts per rank (tc-plan-block-sparse), and the counters check them.
//
//===----------------------------------------------------------------------===//
#include "BlockArray.h"
#include "DistArray.h"
#include "KeptBlocks.h"
#include "TileContract.h"

#include <algorithm>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include <unistd.h>

namespace tc_rt {
namespace {
void openScratchBricks(BlockArray &a);
} // namespace

Shape BlockArray::blockShape(int64_t block) const {
  Shape s;
  for (int64_t d = 0; d < rank(); ++d)
    s.push_back(segments[d][blocks[block][d]]);
  return s;
}

int64_t BlockArray::blockElements(int64_t block) const {
  int64_t n = 1; // blockShape's product, without a vector: stages ask for every brick's
  for (int64_t d = 0; d < rank(); ++d)
    n *= segments[d][blocks[block][d]];
  return n;
}

void BlockArray::readInitial(int64_t block, char *out) {
  if (init == TC_RT_INIT_INPUT)
    readBlockValues(*this, fileOffset[block], blockElements(block), out);
  else if (init == TC_RT_INIT_ONES)
    withElement(elem, [&](auto zero) {
      using T = decltype(zero);
      std::fill_n(reinterpret_cast<T *>(out), blockElements(block), T(1));
    });
  else
    std::memset(out, 0, blockBytes(block));
}

Brick::Brick(size_t bytes)
    : bytes_(static_cast<char *>(acquireBuffer(bytes)), releaseBuffer), size_(bytes) {}

Brick::Brick(const Brick &other) : Brick(other.size_) { std::memcpy(data(), other.data(), size_); }

void BlockArray::allocate(int64_t block) {
  data[block] = std::make_shared<Brick>(static_cast<size_t>(blockBytes(block)));
}

std::vector<std::shared_ptr<Brick>> bricksTogether(const std::vector<size_t> &bytes) {
  constexpr size_t kAlign = 64; // each brick on a cache line
  auto padded = [](size_t b) { return (b + kAlign - 1) / kAlign * kAlign; };
  size_t total = 0;
  for (size_t b : bytes)
    total += padded(b);
  std::vector<std::shared_ptr<Brick>> bricks;
  if (total == 0)
    return bricks;
  const std::shared_ptr<char> shared(static_cast<char *>(acquireBuffer(total)), releaseBuffer);
  size_t at = 0;
  for (size_t b : bytes) {
    bricks.push_back(std::make_shared<Brick>(shared, at, b));
    at += padded(b);
  }
  return bricks;
}

void BlockArray::allocateTogether(const std::vector<int64_t> &blocks) {
  std::vector<size_t> bytes;
  for (int64_t block : blocks)
    bytes.push_back(static_cast<size_t>(blockBytes(block)));
  std::vector<std::shared_ptr<Brick>> bricks = bricksTogether(bytes);
  for (size_t i = 0; i < blocks.size(); ++i)
    data[blocks[i]] = std::move(bricks[i]);
}

char *BlockArray::writeable(int64_t block, bool copyShared) {
  if (copyShared && data[block].use_count() > 1)
    data[block] = std::make_shared<Brick>(*data[block]);
  return data[block]->data();
}

void BlockArray::readHome(int64_t block, char *out) {
  if (!onDisk)
    std::memcpy(out, data[block]->data(), blockBytes(block));
  else if (fd >= 0 && written[block])
    fileIO(fd, true, out, blockBytes(block), scratchOffset[block],
           "brick " + std::to_string(block) + " of '" + name + "'", path);
  else
    readInitial(block, out);
}

void BlockArray::writeHome(int64_t block, const char *in) {
  if (!onDisk) {
    std::memcpy(writeable(block, true), in, blockBytes(block));
    return;
  }
  if (fd < 0)
    openScratchBricks(*this);
  fileIO(fd, false, const_cast<char *>(in), blockBytes(block), scratchOffset[block],
         "brick " + std::to_string(block) + " of '" + name + "'", path);
  written[block] = 1;
}

MPI_Comm blockComm() {
  static MPI_Comm comm = MPI_COMM_NULL;
  if (comm == MPI_COMM_NULL)
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  return comm;
}

namespace {

/// Out of core, the bricks a rank is home of and writes live in a scratch file
/// with no name (sparse: a brick costs no I/O until a stage writes it).
void openScratchBricks(BlockArray &a) {
  Context &c = ctx();
  a.path = c.options.scratch + "/tc-" + std::to_string(c.jobId) + "-blocks-" + a.name + "-r" +
           std::to_string(c.rank) + ".bin";
  a.fd = openScratch(c.options.scratch, a.path);
  if (a.fd < 0)
    fail("cannot create scratch file " + a.path + " for block-sparse array '" + a.name +
         "': " + std::strerror(errno) + " (choose a writable --scratch directory)");
  const size_t n = a.blocks.size();
  a.scratchOffset.assign(n, -1);
  a.written.assign(n, 0);
  int64_t at = 0;
  for (size_t i = 0; i < n; ++i)
    if (a.home[i] == c.rank) {
      a.scratchOffset[i] = at;
      at += a.blockBytes(i);
    }
}

std::vector<BlockArray *> &allBlockArrays() {
  static std::vector<BlockArray *> arrays;
  return arrays;
}

void checkBlocks(const BlockArray &a) {
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    for (int64_t d = 0; d < a.rank(); ++d)
      if (a.blocks[i][d] < 0 || a.blocks[i][d] >= static_cast<int64_t>(a.segments[d].size()))
        fail("block-sparse array '" + a.name + "': block " + std::to_string(i) + " " +
             str(a.blocks[i]) + " has no segment " + std::to_string(a.blocks[i][d]) +
             " in dimension " + std::to_string(d));
    if (a.home[i] < 0 || a.home[i] >= ctx().size)
      fail("block-sparse array '" + a.name + "': block " + std::to_string(i) +
           " has home rank " + std::to_string(a.home[i]) + " but the run has " +
           std::to_string(ctx().size) + " processes");
  }
}

/// The stage's bricks on this rank: those it is home of and those it
/// receives, by block index.
struct StageBricks {
  std::map<int64_t, std::shared_ptr<Brick>> held[3];
  /// In memory, a home's own bricks are used where they are (no copy).
  std::map<int64_t, char *> inPlace[3];
  char *at(int x, int64_t block) {
    auto it = inPlace[x].find(block);
    return it != inPlace[x].end() ? it->second : held[x].at(block)->data();
  }
};

/// Per tensor, the ranks whose tasks of the stage touch each block.
using Touches = std::map<int64_t, std::set<int>>;

enum { TagA = 1, TagB = 2, TagC = 3 };

/// What the stages need to know about a schedule, built once per schedule:
/// each stage's tasks, the reads of remote bricks a rank's cache serves and
/// where each rank reads each remote brick ([K] 6).
struct StagePhases;

struct ScheduleIndex {
  std::map<int64_t, std::vector<int64_t>> tasksOf; ///< stage -> its tasks, in order
  /// stage -> its phases on this rank (phasesOf), worked out at its first run:
  /// a loop runs the same stages in every iteration.
  mutable std::map<int64_t, std::shared_ptr<const StagePhases>> phases;
  std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> cached; ///< stage, x, block, rank
  /// (x, block, rank) -> the stages, ascending, in which the rank's tasks read it.
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<int64_t>> readsAt;
  /// task -> how it reads A's and B's stored blocks, for the tasks that read
  /// one permuted or signed (pair symmetries).
  std::map<int64_t, tc_rt::BlockRead> readOf;

  bool isCached(int64_t stage, int x, int64_t block, int rank) const {
    return cached.count({stage, x, block, rank}) != 0;
  }
  /// Whether the rank's next read of the brick after `stage` is a cached one.
  bool keepAfter(int64_t stage, int x, int64_t block, int rank) const {
    auto it = readsAt.find({x, block, rank});
    if (it == readsAt.end())
      return false;
    auto next = std::upper_bound(it->second.begin(), it->second.end(), stage);
    return next != it->second.end() && isCached(*next, x, block, rank);
  }
};

/// The index of the schedule `desc`, checking once that its tasks name blocks
/// the arrays have.
const ScheduleIndex &scheduleIndexOf(const int64_t *desc, const BlockPlanDescView &plan,
                                     BlockArray *arrays[3]) {
  static std::map<const int64_t *, ScheduleIndex> indexes;
  auto [it, fresh] = indexes.try_emplace(desc);
  if (!fresh)
    return it->second;
  ScheduleIndex &index = it->second;
  for (int64_t i = 0; i < plan.numCached(); ++i) {
    tc_rt::BlockCachedRead c = plan.cachedRead(i);
    index.cached.insert({c.stage, c.tensor, c.block, c.rank});
  }
  for (int64_t t = 0; t < plan.numTasks(); ++t) {
    tc_rt::BlockTaskEntry task = plan.task(t);
    const int64_t blocks[3] = {task.a, task.b, task.c};
    for (int x = 0; x < 3; ++x)
      if (blocks[x] < 0 || blocks[x] >= static_cast<int64_t>(arrays[x]->blocks.size()))
        fail("block-sparse schedule: task " + std::to_string(t) + " names block " +
             std::to_string(blocks[x]) + " of '" + arrays[x]->name + "', which has " +
             std::to_string(arrays[x]->blocks.size()));
    index.tasksOf[task.stage].push_back(t);
    index.readsAt[{0, task.a, task.rank}].push_back(task.stage);
    index.readsAt[{1, task.b, task.rank}].push_back(task.stage);
  }
  for (auto &[key, stages] : index.readsAt) {
    std::sort(stages.begin(), stages.end());
    stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  }
  for (int64_t i = 0; i < plan.numReads(); ++i) {
    tc_rt::BlockRead read = plan.read(i);
    if (read.task < 0 || read.task >= plan.numTasks() || read.factor == 0)
      fail("block-sparse schedule: read " + std::to_string(i) + " names task " +
           std::to_string(read.task) + " of " + std::to_string(plan.numTasks()) + " with sign " +
           std::to_string(read.factor));
    index.readOf[read.task] = std::move(read);
  }
  return index;
}

/// [K] 5: the homes send each remote A and B brick once to every rank reading
/// it, unless the rank's cache holds it ([K] 6); bytes counted on both sides.
void exchangeInputs(BlockArray *arrays[3], const Touches touch[3], StageBricks &bricks,
                    const ScheduleIndex &cache, int64_t stage) {
  const int me = ctx().rank;
  std::vector<MPI_Request> requests;
  for (int x = 0; x < 2; ++x) {
    BlockArray &a = *arrays[x];
    for (const auto &[block, ranks] : touch[x]) {
      const int home = a.home[block];
      const int bytes = static_cast<int>(a.blockBytes(block));
      if (home == me) {
        for (int r : ranks)
          if (r != me && !cache.isCached(stage, x, block, r)) {
            requests.emplace_back();
            MPI_Isend(bricks.at(x, block), bytes, MPI_BYTE, r, TagA + x, blockComm(),
                      &requests.back());
            counters().bytesSent += bytes;
          }
      } else if (ranks.count(me) && cache.isCached(stage, x, block, me)) {
        auto held = a.cachedRemote.find(block);
        if (held == a.cachedRemote.end())
          fail("block-sparse schedule: stage " + std::to_string(stage) + " reads block " +
               std::to_string(block) + " of '" + a.name +
               "' from this rank's cache, which does not hold it");
        bricks.held[x][block] = std::move(held->second);
        a.cachedRemote.erase(held);
      } else if (ranks.count(me)) {
        requests.emplace_back();
        MPI_Irecv(bricks.at(x, block), bytes, MPI_BYTE, home, TagA + x, blockComm(),
                  &requests.back());
        counters().bytesReceived += bytes;
      }
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

/// [K] 5: partial sums of remote C bricks go once to their homes, which add
/// them in rank order (the same sum on every run). They travel in pieces of
/// one staging chunk, so a home holds one piece beside its bricks, not a copy
/// of every partial sum it receives (the plan counts the bricks only).
template <typename T>
void reduceOutputs(BlockArray &c, const Touches &touch, StageBricks &bricks) {
  const int me = ctx().rank;
  const int64_t piece = chunkElems(sizeof(T), 1);
  std::vector<MPI_Request> sends;
  std::vector<std::pair<int64_t, int>> incoming; ///< (block, sender), in order
  for (const auto &[block, ranks] : touch) {
    const int home = c.home[block];
    const int64_t n = c.blockElements(block);
    for (int r : ranks) {
      if (r == home)
        continue;
      if (home == me) {
        incoming.emplace_back(block, r);
        counters().bytesReceived += n * sizeof(T);
      } else if (r == me) {
        const T *part = reinterpret_cast<const T *>(bricks.at(2, block));
        for (int64_t at = 0; at < n; at += piece) {
          sends.emplace_back();
          MPI_Isend(part + at, static_cast<int>(std::min(piece, n - at) * sizeof(T)), MPI_BYTE,
                    home, TagC, blockComm(), &sends.back());
        }
        counters().bytesSent += n * sizeof(T);
      }
    }
  }
  // Messages from one sender arrive in the order sent (MPI's non-overtaking
  // rule), which is this order of blocks.
  std::vector<T> buf;
  for (auto [block, r] : incoming) {
    T *sum = reinterpret_cast<T *>(bricks.at(2, block));
    const int64_t n = c.blockElements(block);
    for (int64_t at = 0; at < n; at += piece) {
      const int64_t len = std::min(piece, n - at);
      buf.resize(len);
      MPI_Recv(buf.data(), static_cast<int>(len * sizeof(T)), MPI_BYTE, r, TagC, blockComm(),
               MPI_STATUS_IGNORE);
      for (int64_t i = 0; i < len; ++i)
        sum[at + i] += buf[i];
    }
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}

bool contains(const Shape &labels, int64_t l) {
  return std::find(labels.begin(), labels.end(), l) != labels.end();
}

/// The key of a read of `block` through `dims` (BlockProduct::readA): the
/// block and the permutation, as digits of base `rank`.
int64_t readKey(int64_t block, const Shape &dims) {
  const auto rank = static_cast<int64_t>(dims.size());
  int64_t code = 0, span = 1;
  for (int64_t d : dims)
    code = code * rank + d, span *= rank;
  return block * std::max<int64_t>(span, 1) + code;
}

/// One task: C's block += A's block * B's block, with the blocks' shapes. A
/// task reading a block of a tensor with pair symmetries (`read`, else
/// null) reads its stored block, whose dimension d carries the operand's
/// dimension read->aDims[d] (the operand's label there), times the sign.
template <typename T>
BlockProduct<T> productOf(const BlockPlanDescView &plan, BlockArray *arrays[3],
                          const int64_t blocks[3], char *buffers[3], const tc_rt::BlockRead *read) {
  tc_rt::TileContractDesc desc;
  Shape labelExtent;
  tc_rt::TileContractDesc::Operand *ops[3] = {&desc.a, &desc.b, &desc.c};
  Shape readDims[2];
  for (int x = 0; x < 3; ++x) {
    ops[x]->shape = arrays[x]->blockShape(blocks[x]);
    ops[x]->labels = plan.labels(x);
    if (x < 2) {
      Shape &dims = readDims[x];
      if (read)
        dims = x == 0 ? read->aDims : read->bDims;
      else
        for (size_t d = 0; d < ops[x]->labels.size(); ++d)
          dims.push_back(static_cast<int64_t>(d));
      Shape permuted;
      for (int64_t d : dims)
        permuted.push_back(ops[x]->labels.at(d));
      ops[x]->labels = std::move(permuted);
    }
    for (size_t d = 0; d < ops[x]->labels.size(); ++d) {
      const int64_t l = ops[x]->labels[d];
      if (static_cast<int64_t>(labelExtent.size()) <= l)
        labelExtent.resize(l + 1, 1);
      labelExtent[l] = ops[x]->shape[d];
    }
  }
  desc.labelExtents = labelExtent;
  desc.elem = arrays[2]->elem;
  desc.alpha = plan.alpha() * (read ? static_cast<double>(read->factor) : 1.0);
  // Rows and columns by C's segments (a stored C block is the one the task
  // computes); the summed labels by A's and B's blocks, each of which may be
  // a spin-restricted tensor's stored block for its flipped one: equal keys,
  // equal bricks (TileContract.cpp checks that an assembled set agrees).
  std::vector<int64_t> summed, rows, columns;
  auto segmentOf = [&](int x, int64_t l) {
    const Shape &labels = ops[x]->labels;
    const size_t d = std::find(labels.begin(), labels.end(), l) - labels.begin();
    return arrays[x]->blocks[blocks[x]][d];
  };
  for (const int64_t l : desc.a.labels) {
    if (contains(desc.c.labels, l))
      rows.push_back(segmentOf(2, l));
    else if (contains(desc.b.labels, l))
      summed.push_back(segmentOf(0, l));
  }
  for (const int64_t l : desc.a.labels)
    if (!contains(desc.c.labels, l) && contains(desc.b.labels, l))
      summed.push_back(segmentOf(1, l));
  for (const int64_t l : desc.b.labels)
    if (contains(desc.c.labels, l))
      columns.push_back(segmentOf(2, l));
  return {std::move(desc),
          reinterpret_cast<T *>(buffers[0]),
          reinterpret_cast<T *>(buffers[1]),
          reinterpret_cast<T *>(buffers[2]),
          blocks[0],
          blocks[1],
          blocks[2],
          readKey(blocks[0], readDims[0]),
          readKey(blocks[1], readDims[1]),
          std::move(summed),
          std::move(rows),
          std::move(columns)};
}

/// The bricks a group of tasks touches, per tensor, with the ranks running
/// those tasks.
struct Phase {
  Touches touch[3];
  std::vector<int64_t> tasks; ///< this rank's
};

/// [K] 6.2-6.3: a stage's steps. A brick touched by tasks of several steps
/// (shared) is read, exchanged and held for the whole stage; one touched by a
/// single step only for that step. Every brick still moves once per stage.
struct StagePhases {
  Phase shared;
  std::map<int64_t, Phase> steps;
};

StagePhases phasesOf(const BlockPlanDescView &plan, const ScheduleIndex &index,
                     int64_t stage) {
  const int me = ctx().rank;
  auto found = index.tasksOf.find(stage);
  if (found == index.tasksOf.end())
    return {};
  std::vector<tc_rt::BlockTaskEntry> tasks;
  std::map<std::pair<int, int64_t>, std::set<int64_t>> stepsOf;
  for (int64_t t : found->second) {
    tasks.push_back(plan.task(t));
    const tc_rt::BlockTaskEntry &task = tasks.back();
    for (auto [x, block] : {std::pair<int, int64_t>{0, task.a}, {1, task.b}, {2, task.c}})
      stepsOf[{x, block}].insert(task.step);
  }
  StagePhases out;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const tc_rt::BlockTaskEntry &task = tasks[i];
    Phase &step = out.steps[task.step]; // every rank walks every step
    if (task.rank == me)
      step.tasks.push_back(found->second[i]);
    for (auto [x, block] : {std::pair<int, int64_t>{0, task.a}, {1, task.b}, {2, task.c}}) {
      Phase &p = stepsOf[{x, block}].size() > 1 ? out.shared : step;
      p.touch[x][block].insert(static_cast<int>(task.rank));
    }
  }
  return out;
}

/// A phase begins: the homes read their bricks (each once per stage, [K] 6.1),
/// the remote A and B bricks reach the ranks reading them, and partial sums of
/// remote C bricks start at zero.
void beginPhase(BlockArray *arrays[3], const Phase &p, StageBricks &bricks,
                const ScheduleIndex &cache, int64_t stage) {
  const int me = ctx().rank;
  // The phase's bricks apart from homes in memory (homes read from a file,
  // remote bricks received, partial sums), in one buffer; one the cache
  // keeps after the stage in its own, so that the cache holds its bricks
  // alone ([K] 6 counts them).
  std::vector<std::pair<int, int64_t>> together;
  std::vector<size_t> bytes;
  for (int x = 0; x < 3; ++x)
    for (const auto &[block, ranks] : p.touch[x]) {
      BlockArray &a = *arrays[x];
      if (a.home[block] == me && !a.onDisk) {
        // C's bricks are written where they are: its own, unless shared with
        // a kept input or with what A or B read (a value accumulated into
        // itself); a kept intermediate it replaces may change with it.
        const bool copy = a.sharesInput || arrays[0]->name == a.name || arrays[1]->name == a.name;
        bricks.inPlace[x][block] = x == 2 ? a.writeable(block, copy) : a.data[block]->data();
        continue;
      }
      const bool remote = a.home[block] != me;
      if (remote && (!ranks.count(me) || (x < 2 && cache.isCached(stage, x, block, me))))
        continue; // not read here, or served by the cache (exchangeInputs)
      if (remote && x < 2 && cache.keepAfter(stage, x, block, me)) {
        bricks.held[x][block] = std::make_shared<Brick>(static_cast<size_t>(a.blockBytes(block)));
        continue;
      }
      together.emplace_back(x, block);
      bytes.push_back(static_cast<size_t>(a.blockBytes(block)));
    }
  std::vector<std::shared_ptr<Brick>> fresh = bricksTogether(bytes);
  for (size_t i = 0; i < together.size(); ++i)
    bricks.held[together[i].first][together[i].second] = std::move(fresh[i]);
  for (int x = 0; x < 3; ++x)
    for (const auto &[block, ranks] : p.touch[x])
      if (arrays[x]->home[block] == me && arrays[x]->onDisk)
        arrays[x]->readHome(block, bricks.at(x, block));
  exchangeInputs(arrays, p.touch, bricks, cache, stage);
  for (const auto &[block, ranks] : p.touch[2])
    if (arrays[2]->home[block] != me && ranks.count(me))
      std::memset(bricks.at(2, block), 0, arrays[2]->blockBytes(block));
}

/// A phase ends: partial sums reach their homes, which write their C bricks,
/// remote bricks read again later from the cache stay in it, and the phase's
/// bricks are freed.
template <typename T>
void endPhase(BlockArray *arrays[3], const Phase &p, StageBricks &bricks,
              const ScheduleIndex &cache, int64_t stage) {
  const int me = ctx().rank;
  reduceOutputs<T>(*arrays[2], p.touch[2], bricks);
  for (const auto &[block, ranks] : p.touch[2])
    if (arrays[2]->home[block] == me && !bricks.inPlace[2].count(block))
      arrays[2]->writeHome(block, bricks.at(2, block));
  for (int x = 0; x < 3; ++x)
    for (const auto &[block, ranks] : p.touch[x]) {
      bricks.inPlace[x].erase(block);
      auto held = bricks.held[x].find(block);
      if (held == bricks.held[x].end())
        continue;
      if (x < 2 && arrays[x]->home[block] != me && cache.keepAfter(stage, x, block, me))
        arrays[x]->cachedRemote[block] = std::move(held->second);
      bricks.held[x].erase(held);
    }
}

/// The products of a step's tasks on this rank (their buffers to set), made
/// once per schedule, stage and step: a loop runs the same tasks in every
/// iteration, and a product's shapes and labels are a dozen vectors (at
/// water's cc-pVDZ, tasks of a few hundred flops each spent more on them
/// than on the arithmetic).
template <typename T>
std::vector<BlockProduct<T>> &productsOf(const int64_t *desc, int64_t stage, int64_t step,
                                         const BlockPlanDescView &plan, BlockArray *arrays[3],
                                         const Phase &phase, const ScheduleIndex &index) {
  // Equal schedules of several statements may be one constant: the same
  // tasks over blocks of other shapes. Each keeps its own list (at an
  // address that stays, where contractBlocks keeps its calls), instead of
  // one list remade whenever the statements alternate (a loop's every
  // iteration).
  static std::map<std::tuple<const int64_t *, int64_t, int64_t>,
                  std::list<std::vector<BlockProduct<T>>>>
      known;
  std::list<std::vector<BlockProduct<T>>> &alternatives = known[{desc, stage, step}];
  auto sameShape = [&](const tc_rt::TileContractDesc::Operand &op, const BlockArray &a,
                       int64_t block) {
    if (static_cast<int64_t>(op.shape.size()) != a.rank())
      return false;
    for (int64_t d = 0; d < a.rank(); ++d)
      if (op.shape[d] != a.segments[d][a.blocks[block][d]])
        return false;
    return true;
  };
  auto fits = [&](const std::vector<BlockProduct<T>> &products) {
    if (products.size() != phase.tasks.size())
      return false;
    for (size_t i = 0; i < products.size(); ++i) {
      const tc_rt::BlockTaskEntry task = plan.task(phase.tasks[i]);
      const BlockProduct<T> &p = products[i];
      if (p.blockA != task.a || p.blockB != task.b || p.blockC != task.c ||
          !sameShape(p.desc.a, *arrays[0], task.a) || !sameShape(p.desc.b, *arrays[1], task.b) ||
          !sameShape(p.desc.c, *arrays[2], task.c))
        return false;
    }
    return true;
  };
  for (std::vector<BlockProduct<T>> &products : alternatives)
    if (fits(products))
      return products;
  std::vector<BlockProduct<T>> &products = alternatives.emplace_back();
  for (int64_t t : phase.tasks) {
    const tc_rt::BlockTaskEntry task = plan.task(t);
    const int64_t blocks[3] = {task.a, task.b, task.c};
    char *none[3] = {nullptr, nullptr, nullptr};
    auto read = index.readOf.find(t);
    products.push_back(productOf<T>(plan, arrays, blocks, none,
                                    read == index.readOf.end() ? nullptr : &read->second));
  }
  return products;
}

template <typename T>
void runStage(const int64_t *desc, const BlockPlanDescView &plan, BlockArray *arrays[3],
              int64_t stage) {
  blockComm();
  const ScheduleIndex &cache = scheduleIndexOf(desc, plan, arrays);
  std::shared_ptr<const StagePhases> &known = cache.phases[stage];
  if (!known)
    known = std::make_shared<const StagePhases>(phasesOf(plan, cache, stage));
  const StagePhases &phases = *known;
  StageBricks bricks;
  beginPhase(arrays, phases.shared, bricks, cache, stage);
  for (const auto &[step, phase] : phases.steps) {
    beginPhase(arrays, phase, bricks, cache, stage);
    std::vector<BlockProduct<T>> &products =
        productsOf<T>(desc, stage, step, plan, arrays, phase, cache);
    for (BlockProduct<T> &product : products) {
      product.a = reinterpret_cast<T *>(bricks.at(0, product.blockA));
      product.b = reinterpret_cast<T *>(bricks.at(1, product.blockB));
      product.c = reinterpret_cast<T *>(bricks.at(2, product.blockC));
    }
    contractBlocks(products);
    endPhase<T>(arrays, phase, bricks, cache, stage);
  }
  endPhase<T>(arrays, phases.shared, bricks, cache, stage);
}

} // namespace

void releaseBlockArrays() {
  for (BlockArray *a : allBlockArrays()) {
    if (a->fd >= 0)
      ::close(a->fd); // unnamed since it was opened: closing frees it
    if (a->values >= 0)
      H5Dclose(a->values);
    if (a->file >= 0)
      H5Fclose(a->file);
    delete a;
  }
  allBlockArrays().clear();
}

} // namespace tc_rt

using namespace tc_rt;

extern "C" void *tc_rt_block_array(const int64_t *desc, const char *name) {
  TraceScope trace("tc_rt_block_array");
  setPhase(Load);
  auto *a = new BlockArray;
  allBlockArrays().push_back(a);
  tc_rt::BlockArrayDescView view(desc);
  a->name = name;
  a->init = view.init();
  a->onDisk = view.onDisk();
  a->elem = view.elem();
  if (a->elem != TC_RT_F64 && a->elem != TC_RT_F32)
    fail("block-sparse array '" + a->name + "': unknown element type " +
         std::to_string(a->elem));
  if (a->init != TC_RT_INIT_INPUT && a->init != TC_RT_INIT_ZERO && a->init != TC_RT_INIT_ONES)
    fail("block-sparse array '" + a->name + "': initial value " + std::to_string(a->init) +
         " (an input, zeros or ones)");
  for (int64_t d = 0; d < view.rank(); ++d)
    a->segments.push_back(view.segments(d));
  for (int64_t i = 0; i < view.numBlocks(); ++i) {
    a->blocks.push_back(view.block(i));
    a->home.push_back(static_cast<int>(view.home(i)));
  }
  for (int64_t d = 0; view.restricted() && d < view.rank(); ++d)
    a->flip.push_back(view.flip(d));
  for (int64_t i = 0; i < view.numPairs(); ++i)
    a->pairs.push_back(view.pairs(i));
  checkBlocks(*a);
  const int me = ctx().rank;
  const size_t n = a->blocks.size();
  if (a->init == TC_RT_INIT_INPUT && handOverKeptBlocks(*a)) {
    setPhase(Idle);
    return a;
  }
  if (a->init == TC_RT_INIT_INPUT)
    openBlockInput(*a);
  if (!a->onDisk) {
    a->data.resize(n);
    std::vector<int64_t> mine;
    for (size_t i = 0; i < n; ++i)
      if (a->home[i] == me)
        mine.push_back(static_cast<int64_t>(i));
    a->allocateTogether(mine);
    for (int64_t block : mine)
      a->readInitial(block, a->data[block]->data());
    if (a->values >= 0) { // all read: the file is not needed again
      H5Dclose(a->values);
      H5Fclose(a->file);
      a->values = a->file = -1;
    }
    if (a->userInput)
      keepLoadedBlocks(*a);
  }
  setPhase(Idle);
  return a;
}

extern "C" void tc_rt_block_stage(const int64_t *desc, void *a, void *b, void *c,
                                  int64_t stage) {
  TraceScope trace("tc_rt_block_stage");
  setPhase(Compute);
  tc_rt::BlockPlanDescView plan(desc);
  BlockArray *arrays[3] = {static_cast<BlockArray *>(a), static_cast<BlockArray *>(b),
                           static_cast<BlockArray *>(c)};
  for (int x = 0; x < 3; ++x)
    if (plan.rank(x) != arrays[x]->rank())
      fail("block-sparse schedule: operand " + std::to_string(x) + " has " +
           std::to_string(plan.rank(x)) + " labels but array '" + arrays[x]->name + "' has " +
           std::to_string(arrays[x]->rank()) + " dimensions");
  withElement(arrays[2]->elem,
              [&](auto zero) { runStage<decltype(zero)>(desc, plan, arrays, stage); });
  setPhase(Idle);
}

extern "C" void tc_rt_block_store(void *array) {
  TraceScope trace("tc_rt_block_store");
  setPhase(Store);
  BlockArray &a = *static_cast<BlockArray *>(array);
  if (!keepBlocksWhereComputed(a))
    writeBlockResult(a);
  setPhase(Idle);
}
