//===- BlockSparse.cpp - block-sparse tensors and their task pools --------===//
#include "TC/Analysis/BlockSparse.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

using namespace mlir::tc;

bool BlockPresence::present(const std::vector<int64_t> &segmentIds) const {
  switch (kind) {
  case Kind::All:
    return true;
  case Kind::Symmetry: {
    int64_t x = 0;
    for (int64_t s : segmentIds)
      x ^= s;
    return x == symmetry;
  }
  case Kind::List:
    return std::find(blocks.begin(), blocks.end(), segmentIds) != blocks.end();
  }
  return false;
}

std::vector<int64_t> BlockPresence::flipped(const std::vector<int64_t> &segmentIds) const {
  if (!restricted())
    return segmentIds;
  std::vector<int64_t> out(segmentIds.size());
  for (size_t d = 0; d < segmentIds.size(); ++d)
    out[d] = flip[d][segmentIds[d]];
  return out;
}

StoredBlock BlockPresence::storedFor(const std::vector<int64_t> &segmentIds) const {
  // Every combination of exchanged pairs (subsets in increasing order, so
  // fewer exchanges first among equal candidates), with and without the
  // flip; the first candidate of the least segment ids wins.
  if (pairs.empty()) // the common case, read for every task of a pool: no exchanges
    return {std::min(segmentIds, flipped(segmentIds)), {}, 1};
  StoredBlock best{segmentIds, {}, 1};
  const size_t n = segmentIds.size();
  for (uint64_t subset = 0; subset < (uint64_t{1} << pairs.size()); ++subset) {
    std::vector<int64_t> ids = segmentIds, dims(n);
    std::iota(dims.begin(), dims.end(), int64_t{0});
    double sign = 1;
    for (size_t k = 0; k < pairs.size(); ++k)
      if (subset >> k & 1) {
        std::swap(ids[pairs[k].first], ids[pairs[k].second]);
        std::swap(dims[pairs[k].first], dims[pairs[k].second]);
        sign *= pairs[k].antisymmetric ? -1 : 1;
      }
    for (bool flipIt : {false, true}) {
      if (flipIt && !restricted())
        break;
      const std::vector<int64_t> candidate = flipIt ? flipped(ids) : ids;
      if (candidate < best.ids)
        best = {candidate, subset ? dims : std::vector<int64_t>{}, sign};
    }
  }
  return best;
}

bool BlockPresence::stored(const std::vector<int64_t> &segmentIds) const {
  return present(segmentIds) && storedAs(segmentIds) == segmentIds;
}

int64_t BlockSparseShape::extent(int64_t dim) const {
  return std::accumulate(segments[dim].begin(), segments[dim].end(), int64_t{0});
}

int64_t BlockSparseShape::blockElements(const std::vector<int64_t> &segmentIds) const {
  int64_t n = 1;
  for (size_t d = 0; d < segmentIds.size(); ++d)
    n *= segments[d][segmentIds[d]];
  return n;
}

namespace {

/// Calls `f` with every tuple of segment ids over `counts`, row-major.
template <typename F> void forEachBlock(const std::vector<int64_t> &counts, F f) {
  std::vector<int64_t> ids(counts.size(), 0);
  for (int64_t c : counts)
    if (c == 0)
      return;
  while (true) {
    f(ids);
    int64_t d = static_cast<int64_t>(ids.size()) - 1;
    while (d >= 0 && ++ids[d] == counts[d])
      ids[d--] = 0;
    if (d < 0)
      return;
  }
}

std::string idsText(const std::vector<int64_t> &ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + std::to_string(ids[i]);
  return s + "]";
}

std::vector<int64_t> segmentCounts(const std::vector<std::vector<int64_t>> &segments) {
  std::vector<int64_t> counts;
  for (const auto &s : segments)
    counts.push_back(static_cast<int64_t>(s.size()));
  return counts;
}

/// The blocks over `segments` that `keep` admits, row-major.
template <typename F>
std::vector<std::vector<int64_t>> blocksWhere(const std::vector<std::vector<int64_t>> &segments,
                                              F keep) {
  std::vector<std::vector<int64_t>> out;
  forEachBlock(segmentCounts(segments), [&](const std::vector<int64_t> &ids) {
    if (keep(ids))
      out.push_back(ids);
  });
  return out;
}

} // namespace

std::vector<std::vector<int64_t>> BlockSparseShape::presentBlocks() const {
  return blocksWhere(segments,
                     [&](const std::vector<int64_t> &ids) { return presence.present(ids); });
}

std::vector<std::vector<int64_t>> BlockSparseShape::storedBlocks() const {
  return blocksWhere(segments,
                     [&](const std::vector<int64_t> &ids) { return presence.stored(ids); });
}

int64_t BlockSparseShape::allBlocks() const {
  int64_t n = 1;
  for (const std::vector<int64_t> &dim : segments)
    n *= static_cast<int64_t>(dim.size());
  return n;
}

BlockStorage mlir::tc::storageOf(const BlockSparseShape &shape) {
  BlockStorage s;
  s.allBlocks = shape.allBlocks();
  s.denseElements = 1;
  for (int64_t d = 0; d < shape.rank(); ++d)
    s.denseElements *= shape.extent(d);
  for (const std::vector<int64_t> &ids : shape.storedBlocks()) {
    ++s.blocks;
    s.elements += shape.blockElements(ids);
  }
  return s;
}

std::string BlockSparseShape::verify(const std::vector<int64_t> &extents) const {
  if (extents.size() != segments.size())
    return "has " + std::to_string(segments.size()) + " segmented dimensions for a tensor of rank " +
           std::to_string(extents.size());
  for (size_t d = 0; d < segments.size(); ++d) {
    if (segments[d].empty())
      return "dimension " + std::to_string(d) + " has no segments";
    for (int64_t s : segments[d])
      if (s < 1)
        return "dimension " + std::to_string(d) + " has a segment of length " + std::to_string(s);
    if (extent(static_cast<int64_t>(d)) != extents[d])
      return "the segments of dimension " + std::to_string(d) + " sum to " +
             std::to_string(extent(static_cast<int64_t>(d))) + ", not its extent " +
             std::to_string(extents[d]);
  }
  if (presence.kind == BlockPresence::Kind::Symmetry && presence.symmetry < 0)
    return "symmetry " + std::to_string(presence.symmetry) + " is negative";
  if (presence.kind == BlockPresence::Kind::List) {
    std::set<std::vector<int64_t>> seen;
    for (const auto &b : presence.blocks) {
      if (b.size() != segments.size())
        return "a listed block has " + std::to_string(b.size()) + " segment ids for rank " +
               std::to_string(segments.size());
      for (size_t d = 0; d < b.size(); ++d)
        if (b[d] < 0 || b[d] >= static_cast<int64_t>(segments[d].size()))
          return "a listed block names segment " + std::to_string(b[d]) + " of dimension " +
                 std::to_string(d) + ", which has " + std::to_string(segments[d].size());
      if (!seen.insert(b).second)
        return "a block is listed twice";
    }
  }
  if (std::string why = verifyFlip(); !why.empty())
    return why;
  return verifyPairs();
}

std::string BlockSparseShape::verifyFlip() const {
  const std::vector<std::vector<int64_t>> &flip = presence.flip;
  if (flip.empty())
    return "";
  if (flip.size() != segments.size())
    return "the spin flip has " + std::to_string(flip.size()) +
           " dimensions for a tensor of rank " + std::to_string(segments.size());
  for (size_t d = 0; d < segments.size(); ++d) {
    const int64_t n = static_cast<int64_t>(segments[d].size());
    if (static_cast<int64_t>(flip[d].size()) != n)
      return "the spin flip of dimension " + std::to_string(d) + " maps " +
             std::to_string(flip[d].size()) + " segments, not its " + std::to_string(n);
    for (int64_t s = 0; s < n; ++s)
      if (flip[d][s] < 0 || flip[d][s] >= n)
        return "the spin flip maps segment " + std::to_string(s) + " of dimension " +
               std::to_string(d) + " to segment " + std::to_string(flip[d][s]) +
               ", which it does not have";
    for (int64_t s = 0; s < n; ++s) {
      const int64_t t = flip[d][s];
      if (flip[d][t] != s)
        return "the spin flip of dimension " + std::to_string(d) + " maps segment " +
               std::to_string(s) + " to " + std::to_string(t) + " but " + std::to_string(t) +
               " to " + std::to_string(flip[d][t]) + " (flipping twice must give it back)";
      if (segments[d][t] != segments[d][s])
        return "the spin flip maps segment " + std::to_string(s) + " of dimension " +
               std::to_string(d) + " (length " + std::to_string(segments[d][s]) +
               ") to one of length " + std::to_string(segments[d][t]);
    }
  }
  std::string error;
  forEachBlock(segmentCounts(segments), [&](const std::vector<int64_t> &ids) {
    if (error.empty() && presence.present(ids) && !presence.present(presence.flipped(ids)))
      error = "block " + idsText(ids) + " is present but its spin flip " +
              idsText(presence.flipped(ids)) + " is not";
  });
  return error;
}

std::string BlockSparseShape::verifyPairs() const {
  std::set<int64_t> used;
  const int64_t rank = static_cast<int64_t>(segments.size());
  for (const PairSymmetry &p : presence.pairs) {
    const std::string pair = "the pair symmetry of dimensions " + std::to_string(p.first) + ", " +
                             std::to_string(p.second);
    if (p.first < 0 || p.second < 0 || p.first >= rank || p.second >= rank || p.first == p.second)
      return pair + " names two distinct dimensions of a tensor of rank " + std::to_string(rank) +
             " it does not";
    if (!used.insert(p.first).second || !used.insert(p.second).second)
      return pair + " shares a dimension with another pair";
    if (segments[p.first] != segments[p.second])
      return pair + ": they have other segments";
    if (presence.restricted() && presence.flip[p.first] != presence.flip[p.second])
      return pair + ": they flip their segments differently";
  }
  std::string error;
  forEachBlock(segmentCounts(segments), [&](const std::vector<int64_t> &ids) {
    for (const PairSymmetry &p : presence.pairs) {
      std::vector<int64_t> swapped = ids;
      std::swap(swapped[p.first], swapped[p.second]);
      if (error.empty() && presence.present(ids) && !presence.present(swapped))
        error = "block " + idsText(ids) + " is present but its exchange " + idsText(swapped) +
                " (dimensions " + std::to_string(p.first) + ", " + std::to_string(p.second) +
                ") is not";
    }
  });
  return error;
}

BlockSparseShape BlockContraction::shapeOf(const std::vector<int> &labels,
                                           const BlockPresence &p) const {
  BlockSparseShape shape;
  for (int l : labels)
    shape.segments.push_back(labelSegments[l]);
  shape.presence = p;
  return shape;
}

double BlockTaskPool::totalFlops() const {
  double f = 0;
  for (const BlockTask &t : tasks)
    f += t.flops;
  return f;
}

double BlockTaskPool::totalBytes() const {
  double b = 0;
  for (const Brick &k : bricks)
    b += k.bytes;
  return b;
}

BlockTaskPool mlir::tc::buildTaskPool(const BlockContraction &problem, int64_t elemBytes) {
  BlockTaskPool pool;
  const int numLabels = static_cast<int>(problem.labelSegments.size());
  // The labels a task enumerates besides C's: those of A or B only.
  std::vector<int> summed;
  for (int l = 0; l < numLabels; ++l)
    if (std::find(problem.cLabels.begin(), problem.cLabels.end(), l) == problem.cLabels.end() &&
        (std::find(problem.aLabels.begin(), problem.aLabels.end(), l) != problem.aLabels.end() ||
         std::find(problem.bLabels.begin(), problem.bLabels.end(), l) != problem.bLabels.end()))
      summed.push_back(l);
  const BlockSparseShape cShape = problem.shapeOf(problem.cLabels, problem.cPresence);
  std::vector<std::vector<int64_t>> summedSegments;
  for (int l : summed)
    summedSegments.push_back(problem.labelSegments[l]);

  std::map<std::pair<Operand, std::vector<int64_t>>, int> brickIds;
  auto brickOf = [&](Operand t, const std::vector<int64_t> &block, int64_t elements) {
    auto [it, added] = brickIds.try_emplace({t, block}, static_cast<int>(pool.bricks.size()));
    if (added)
      pool.bricks.push_back({t, block, static_cast<double>(elements * elemBytes)});
    return it->second;
  };
  auto idsOf = [](const std::vector<int> &labels, const std::vector<int64_t> &segOfLabel) {
    std::vector<int64_t> ids;
    for (int l : labels)
      ids.push_back(segOfLabel[l]);
    return ids;
  };
  auto elementsOf = [&](const std::vector<int> &labels, const std::vector<int64_t> &ids) {
    int64_t n = 1;
    for (size_t d = 0; d < labels.size(); ++d)
      n *= problem.labelSegments[labels[d]][ids[d]];
    return n;
  };

  // Summed pairs both operands exchange alike: (positions in `summed`).
  std::vector<std::pair<size_t, size_t>> summedPairs;
  {
    auto pairOf = [](const std::vector<int> &labels, const BlockPresence &p, int x, int y) {
      for (const PairSymmetry &q : p.pairs) {
        const int l1 = labels[q.first], l2 = labels[q.second];
        if ((l1 == x && l2 == y) || (l1 == y && l2 == x))
          return q.antisymmetric ? -1 : 1;
      }
      return 0;
    };
    std::set<size_t> used;
    for (size_t i = 0; i < summed.size(); ++i)
      for (size_t j = i + 1; j < summed.size(); ++j) {
        const int a = pairOf(problem.aLabels, problem.aPresence, summed[i], summed[j]);
        const int b = pairOf(problem.bLabels, problem.bPresence, summed[i], summed[j]);
        if (a != 0 && a == b && !used.count(i) && !used.count(j)) {
          used.insert(i);
          used.insert(j);
          summedPairs.push_back({i, j});
        }
      }
  }

  std::vector<int64_t> segOfLabel(numLabels, 0);
  for (const std::vector<int64_t> &cBlock : cShape.storedBlocks()) {
    for (size_t d = 0; d < problem.cLabels.size(); ++d)
      segOfLabel[problem.cLabels[d]] = cBlock[d];
    forEachBlock(segmentCounts(summedSegments), [&](const std::vector<int64_t> &ids) {
      double twice = 1;
      for (auto [i, j] : summedPairs) {
        if (ids[i] > ids[j])
          return; // counted with its exchange
        if (ids[i] < ids[j])
          twice *= 2;
      }
      for (size_t d = 0; d < summed.size(); ++d)
        segOfLabel[summed[d]] = ids[d];
      std::vector<int64_t> aBlock = idsOf(problem.aLabels, segOfLabel);
      std::vector<int64_t> bBlock = idsOf(problem.bLabels, segOfLabel);
      if (!problem.aPresence.present(aBlock) || !problem.bPresence.present(bBlock))
        return;
      // A flipped block has the same elements (partners have equal lengths);
      // an exchanged one the same, permuted and signed.
      const StoredBlock aStored = problem.aPresence.storedFor(aBlock);
      const StoredBlock bStored = problem.bPresence.storedFor(bBlock);
      BlockTask task;
      task.a = brickOf(Operand::A, aStored.ids, elementsOf(problem.aLabels, aBlock));
      task.b = brickOf(Operand::B, bStored.ids, elementsOf(problem.bLabels, bBlock));
      task.aDims = aStored.dims;
      task.bDims = bStored.dims;
      task.factor = aStored.sign * bStored.sign * twice;
      task.c = brickOf(Operand::C, cBlock, elementsOf(problem.cLabels, cBlock));
      double products = 1;
      for (int l = 0; l < numLabels; ++l)
        if (std::find(summed.begin(), summed.end(), l) != summed.end() ||
            std::find(problem.cLabels.begin(), problem.cLabels.end(), l) !=
                problem.cLabels.end())
          products *= static_cast<double>(problem.labelSegments[l][segOfLabel[l]]);
      task.flops = 2 * products;
      pool.tasks.push_back(task);
    });
  }
  return pool;
}

namespace {

/// A relation over labels: the tuples of segment ids that can be non-zero.
struct BlockRelation {
  std::vector<int> labels;
  std::set<std::vector<int64_t>> tuples;
};

/// The join of two relations projected onto `keep` (labels of either).
BlockRelation joinProject(const BlockRelation &x, const BlockRelation &y,
                          const std::vector<int> &keep) {
  auto position = [](const std::vector<int> &labels, int l) {
    auto it = std::find(labels.begin(), labels.end(), l);
    return it == labels.end() ? -1 : static_cast<int>(it - labels.begin());
  };
  std::vector<std::pair<int, int>> shared; // positions in x and y
  for (size_t i = 0; i < x.labels.size(); ++i)
    if (int j = position(y.labels, x.labels[i]); j >= 0)
      shared.push_back({static_cast<int>(i), j});
  // y's tuples by their ids on the shared labels.
  std::map<std::vector<int64_t>, std::vector<const std::vector<int64_t> *>> byShared;
  for (const auto &t : y.tuples) {
    std::vector<int64_t> key;
    for (auto [i, j] : shared)
      key.push_back(t[j]);
    byShared[key].push_back(&t);
  }
  BlockRelation out;
  out.labels = keep;
  for (const auto &t : x.tuples) {
    std::vector<int64_t> key;
    for (auto [i, j] : shared)
      key.push_back(t[i]);
    auto match = byShared.find(key);
    if (match == byShared.end())
      continue;
    for (const std::vector<int64_t> *u : match->second) {
      std::vector<int64_t> ids;
      for (int l : keep) {
        int i = position(x.labels, l);
        ids.push_back(i >= 0 ? t[i] : (*u)[position(y.labels, l)]);
      }
      out.tuples.insert(std::move(ids));
    }
  }
  return out;
}

} // namespace

std::vector<std::vector<int64_t>>
mlir::tc::productBlocks(const std::vector<std::vector<int64_t>> &labelSegments,
                        const std::vector<BlockFactor> &factors,
                        const std::vector<int> &resultLabels) {
  // Fold the factors left to right, keeping only the labels a later factor or
  // the result still needs: the join's projection, one pair at a time.
  BlockRelation acc; // the empty product: one tuple over no labels
  acc.tuples.insert(std::vector<int64_t>{});
  for (size_t f = 0; f < factors.size(); ++f) {
    BlockRelation next;
    next.labels = factors[f].labels;
    BlockSparseShape shape;
    for (int l : factors[f].labels)
      shape.segments.push_back(labelSegments[l]);
    shape.presence = factors[f].presence;
    for (auto &b : shape.presentBlocks())
      next.tuples.insert(b);
    std::vector<int> keep;
    auto needed = [&](int l) {
      if (std::find(resultLabels.begin(), resultLabels.end(), l) != resultLabels.end())
        return true;
      for (size_t g = f + 1; g < factors.size(); ++g)
        if (std::find(factors[g].labels.begin(), factors[g].labels.end(), l) !=
            factors[g].labels.end())
          return true;
      return false;
    };
    for (int l : acc.labels)
      if (needed(l) && std::find(keep.begin(), keep.end(), l) == keep.end())
        keep.push_back(l);
    for (int l : next.labels)
      if (needed(l) && std::find(keep.begin(), keep.end(), l) == keep.end())
        keep.push_back(l);
    acc = joinProject(acc, next, keep);
  }
  // A result label no factor has is broadcast: every one of its segments.
  for (int l : resultLabels) {
    if (std::find(acc.labels.begin(), acc.labels.end(), l) != acc.labels.end())
      continue;
    BlockRelation every;
    every.labels = {l};
    for (int64_t s = 0; s < static_cast<int64_t>(labelSegments[l].size()); ++s)
      every.tuples.insert({s});
    std::vector<int> keep = acc.labels;
    keep.push_back(l);
    acc = joinProject(acc, every, keep);
  }
  // Order the tuples as the result's dimensions.
  std::set<std::vector<int64_t>> ordered;
  for (const auto &t : acc.tuples) {
    std::vector<int64_t> ids;
    for (int l : resultLabels)
      ids.push_back(t[std::find(acc.labels.begin(), acc.labels.end(), l) - acc.labels.begin()]);
    ordered.insert(std::move(ids));
  }
  return {ordered.begin(), ordered.end()};
}

std::vector<std::vector<int64_t>> mlir::tc::productFlip(const std::vector<BlockFactor> &factors,
                                                        const std::vector<int> &resultLabels) {
  std::map<int, std::vector<int64_t>> flipOf;
  for (const BlockFactor &f : factors) {
    if (f.labels.empty())
      continue; // a scalar is its own flip
    if (!f.presence.restricted())
      return {};
    for (size_t d = 0; d < f.labels.size(); ++d)
      flipOf.try_emplace(f.labels[d], f.presence.flip[d]);
  }
  std::vector<std::vector<int64_t>> flip;
  for (int l : resultLabels) {
    auto it = flipOf.find(l);
    if (it == flipOf.end())
      return {};
    flip.push_back(it->second);
  }
  return flip;
}

std::vector<PairSymmetry> mlir::tc::productPairs(const std::vector<BlockFactor> &factors,
                                                 const std::vector<int> &resultLabels,
                                                 const BlockSparseShape &product) {
  auto position = [&](int l) {
    auto it = std::find(resultLabels.begin(), resultLabels.end(), l);
    return it == resultLabels.end() ? int64_t{-1} : int64_t(it - resultLabels.begin());
  };
  auto elsewhere = [&](size_t self, int l) {
    for (size_t g = 0; g < factors.size(); ++g)
      if (g != self && std::count(factors[g].labels.begin(), factors[g].labels.end(), l))
        return true;
    return false;
  };
  std::vector<int64_t> extents;
  for (int64_t d = 0; d < product.rank(); ++d)
    extents.push_back(product.extent(d));
  std::vector<PairSymmetry> out;
  std::set<int64_t> used;
  for (size_t f = 0; f < factors.size(); ++f)
    for (const PairSymmetry &p : factors[f].presence.pairs) {
      const int x = factors[f].labels[p.first], y = factors[f].labels[p.second];
      const int64_t px = position(x), py = position(y);
      if (px < 0 || py < 0 || elsewhere(f, x) || elsewhere(f, y) || used.count(px) ||
          used.count(py))
        continue;
      BlockSparseShape exchanged = product;
      exchanged.presence.pairs = {{std::min(px, py), std::max(px, py), p.antisymmetric}};
      if (!exchanged.verify(extents).empty())
        continue; // the product's blocks are not closed under the exchange
      used.insert(px);
      used.insert(py);
      out.push_back({std::min(px, py), std::max(px, py), p.antisymmetric});
    }
  std::sort(out.begin(), out.end(),
            [](const PairSymmetry &a, const PairSymmetry &b) { return a.first < b.first; });
  return out;
}

BlockPresence mlir::tc::simplestPresence(const std::vector<std::vector<int64_t>> &segments,
                                         std::vector<std::vector<int64_t>> blocks) {
  std::sort(blocks.begin(), blocks.end());
  BlockSparseShape all{segments, BlockPresence{}};
  const std::vector<std::vector<int64_t>> every = all.presentBlocks();
  if (blocks == every)
    return BlockPresence{};
  if (!blocks.empty()) {
    BlockPresence symmetric{BlockPresence::Kind::Symmetry, 0, {}};
    for (int64_t id : blocks.front())
      symmetric.symmetry ^= id;
    if (BlockSparseShape{segments, symmetric}.presentBlocks() == blocks)
      return symmetric;
  }
  return BlockPresence{BlockPresence::Kind::List, 0, std::move(blocks)};
}

std::vector<int64_t> mlir::tc::blockHomes(const BlockTaskPool &pool, Operand tensor,
                                          const std::vector<std::vector<int64_t>> &stored,
                                          const std::vector<int64_t> &owner, int64_t procs) {
  std::map<std::vector<int64_t>, size_t> indexOf;
  std::vector<int64_t> homes;
  for (size_t i = 0; i < stored.size(); ++i) {
    indexOf[stored[i]] = i;
    homes.push_back(static_cast<int64_t>(i) % procs);
  }
  for (size_t j = 0; j < pool.bricks.size() && j < owner.size(); ++j)
    if (pool.bricks[j].tensor == tensor)
      if (auto it = indexOf.find(pool.bricks[j].block); it != indexOf.end())
        homes[it->second] = owner[j];
  return homes;
}

BlockTaskPool mlir::tc::subPool(const BlockTaskPool &pool, const std::vector<int> &tasks,
                                std::vector<int> &brickOf) {
  BlockTaskPool sub;
  std::map<int, int> renumbered;
  brickOf.clear();
  auto brick = [&](int old) {
    auto [it, added] = renumbered.try_emplace(old, static_cast<int>(sub.bricks.size()));
    if (added) {
      sub.bricks.push_back(pool.bricks[old]);
      brickOf.push_back(old);
    }
    return it->second;
  };
  for (int t : tasks) {
    BlockTask task = pool.tasks[t];
    task.a = brick(task.a);
    task.b = brick(task.b);
    task.c = brick(task.c);
    sub.tasks.push_back(task);
  }
  return sub;
}
