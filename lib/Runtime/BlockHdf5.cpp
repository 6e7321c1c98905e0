//===- BlockHdf5.cpp - block-sparse tensors in HDF5 files -----------------===//
//
// The layout (docs/BlockSparse.md): a tensor NAME is a group /NAME with
//   segment_counts  int64 [rank]          segments per dimension
//   segments        int64 [sum of counts] their lengths, dimension 0's first
//   blocks          int64 [n, rank]       each stored block's segment ids
//   offsets         int64 [n]             where its elements start in values
//   values          f64|f32 [total]       the blocks, each row-major
//   flip            int64 [sum of counts] spin-restricted only: each segment's
//                                         partner when every spin flips
//   pairs           int64 [p, 3]          with pair symmetries only: per pair
//                                         its two dimensions and 1 if
//                                         antisymmetric (0: symmetric)
// An input may list its blocks in any order; it must hold every block the
// program's tensor stores and no other, and be restricted and paired alike. Every rank checks the
// input alike, so rank 0 alone reports what is wrong with it. Outputs list them in the program's
// order (row-major in the segment ids).
//
//===----------------------------------------------------------------------===//
#include "BlockArray.h"
#include "DistArray.h"

#include <map>
#include <set>

namespace tc_rt {

std::vector<int64_t> readInts(hid_t group, const char *name, const std::string &where,
                              std::vector<hsize_t> *dimsOut) {
  hid_t ds = H5Dopen2(group, name, H5P_DEFAULT);
  if (ds < 0)
    failOnRoot(where + " has no dataset '" + name + "' (block-sparse layout, docs/BlockSparse.md)");
  const Shape extents = extentsOf(ds);
  std::vector<hsize_t> dims(extents.begin(), extents.end());
  std::vector<int64_t> values(product(extents));
  if (!values.empty() &&
      H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    fail("reading '" + std::string(name) + "' of " + where + " failed");
  H5Dclose(ds);
  if (dimsOut)
    *dimsOut = dims;
  return values;
}

void writeInts(hid_t group, const char *name, const std::vector<hsize_t> &dims,
               const std::vector<int64_t> &values, const std::string &where, bool everyRank) {
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t ds = H5Dcreate2(group, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT);
  if (ds < 0)
    fail("cannot create '" + std::string(name) + "' in " + where);
  // Collective metadata, the same data from every rank: rank 0 writes it.
  if ((everyRank || ctx().rank == 0) && !values.empty() &&
      H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    fail("writing '" + std::string(name) + "' of " + where + " failed");
  H5Dclose(ds);
  H5Sclose(space);
}

namespace {

hid_t memType(tc_rt_elem e) { return e == TC_RT_F32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE; }

/// Selects elements [offset, offset + n) of a 1-D dataspace.
void selectRange(hid_t space, int64_t offset, int64_t n) {
  hsize_t start = offset, count = n;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &count, nullptr);
}

/// Lists of integers one after the other, as the group's datasets hold them
/// (segment lengths, blocks' ids, the flip, the pairs).
std::vector<int64_t> flattened(const std::vector<Shape> &lists) {
  std::vector<int64_t> out;
  for (const Shape &l : lists)
    out.insert(out.end(), l.begin(), l.end());
  return out;
}

/// An input is spin-restricted (one of each flipped pair of blocks, and the
/// `flip` dataset saying how) exactly when the program's tensor is, with the
/// same partners: otherwise its blocks mean other elements.
void checkFlip(const BlockArray &a, hid_t group, const std::string &where,
               const std::vector<int64_t> &lengths) {
  const bool fileRestricted = H5Lexists(group, "flip", H5P_DEFAULT) > 0;
  if (!a.flip.empty() && !fileRestricted)
    failOnRoot(where + " is not spin-restricted (no dataset 'flip') but the program's tensor is: "
                       "write one block of each spin-flipped pair and the flip "
                       "(docs/BlockSparse.md)");
  if (a.flip.empty() && fileRestricted)
    failOnRoot(where + " is spin-restricted (it has a dataset 'flip') but the program's tensor "
                       "is not: it needs every present block");
  if (!fileRestricted)
    return;
  std::vector<int64_t> partners = readInts(group, "flip", where);
  if (partners.size() != lengths.size() || partners != flattened(a.flip))
    failOnRoot(where + " flips its segments as " + str(partners) + " but the program's tensor as " +
               str(flattened(a.flip)));
}

/// An input stores one block of each set its pair symmetries relate (and
/// has the `pairs` dataset saying which) exactly when the program's tensor
/// does, with the same pairs: otherwise its blocks mean other elements.
void checkPairs(const BlockArray &a, hid_t group, const std::string &where) {
  const bool filePaired = H5Lexists(group, "pairs", H5P_DEFAULT) > 0;
  const std::vector<int64_t> file =
      filePaired ? readInts(group, "pairs", where) : std::vector<int64_t>();
  if (file != flattened(a.pairs))
    failOnRoot(where + " has the pair symmetries " + str(file) +
               " (dimension, dimension, antisymmetric; dataset 'pairs') but the program's "
               "tensor " +
               str(flattened(a.pairs)) +
               ": write the blocks and pairs the program's tensor stores "
               "(docs/BlockSparse.md)");
}

} // namespace

int64_t blockMultiplicity(const Shape &ids, const std::vector<Shape> &flip,
                          const std::vector<Shape> &pairs) {
  std::set<Shape> seen;
  for (int flips = 0; flips < (flip.empty() ? 1 : 2); ++flips)
    for (uint64_t subset = 0; subset < (uint64_t{1} << pairs.size()); ++subset) {
      Shape b = ids;
      if (flips)
        for (size_t d = 0; d < b.size(); ++d)
          b[d] = flip[d][b[d]];
      for (size_t k = 0; k < pairs.size(); ++k)
        if (subset >> k & 1)
          std::swap(b[pairs[k][0]], b[pairs[k][1]]);
      seen.insert(b);
    }
  return static_cast<int64_t>(seen.size());
}

std::vector<double> elementMultiplicities(hid_t group, const std::string &where) {
  const bool restricted = H5Lexists(group, "flip", H5P_DEFAULT) > 0;
  const bool paired = H5Lexists(group, "pairs", H5P_DEFAULT) > 0;
  if (!restricted && !paired)
    return {};
  const std::vector<int64_t> counts = readInts(group, "segment_counts", where);
  const std::vector<int64_t> lengths = readInts(group, "segments", where);
  const std::vector<int64_t> ids = readInts(group, "blocks", where);
  const std::vector<int64_t> offsets = readInts(group, "offsets", where);
  std::vector<Shape> flip, pairs;
  if (restricted) {
    const std::vector<int64_t> partners = readInts(group, "flip", where);
    size_t at = 0;
    for (int64_t c : counts) {
      flip.emplace_back(partners.begin() + at, partners.begin() + at + c);
      at += c;
    }
  }
  if (paired) {
    const std::vector<int64_t> flat = readInts(group, "pairs", where);
    for (size_t i = 0; i + 3 <= flat.size(); i += 3)
      pairs.push_back({flat[i], flat[i + 1], flat[i + 2]});
  }
  hid_t values = H5Dopen2(group, "values", H5P_DEFAULT);
  const int64_t total = product(extentsOf(values));
  H5Dclose(values);
  const size_t rank = counts.size(), n = offsets.size();
  std::vector<double> weights(total, 1.0);
  for (size_t i = 0; i < n; ++i) {
    const Shape block(ids.begin() + i * rank, ids.begin() + (i + 1) * rank);
    const auto w = static_cast<double>(blockMultiplicity(block, flip, pairs));
    int64_t elements = 1, first = 0; // the block's: its segments' lengths
    for (size_t d = 0; d < rank; ++d) {
      elements *= lengths.at(first + block[d]);
      first += counts[d];
    }
    if (offsets[i] < 0 || offsets[i] + elements > total)
      fail(where + ": block " + str(block) + " lies outside its values");
    std::fill(weights.begin() + offsets[i], weights.begin() + offsets[i] + elements, w);
  }
  return weights;
}

namespace {

/// The layout of the block-sparse group of each name this run wrote last
/// (writeBlockResult), and the file it went to. A later load of that group
/// uses it instead of opening and reading the group's small datasets again
/// (four HDF5 opens and reads per load: a fifth of a block-sparse CCSD
/// iteration with DIIS, whose statements read the whole copies DIIS needs).
struct WrittenGroup {
  hid_t file = -1;
  std::vector<Shape> segments, blocks, flip, pairs;
  tc_rt_elem elem = TC_RT_F64;
  std::vector<int64_t> offsets;
  int64_t total = 0;
};

std::map<std::string, WrittenGroup> &writtenGroups() {
  static std::map<std::string, WrittenGroup> written;
  return written;
}

/// Opens the values of a group this run wrote, as `a` reads it, when it is
/// the one written last of the name, in the same file, with `a`'s blocks.
bool openWrittenGroup(BlockArray &a) {
  auto it = writtenGroups().find(a.name);
  if (it == writtenGroups().end())
    return false;
  const WrittenGroup &w = it->second;
  if (w.file != a.file || w.blocks != a.blocks || w.segments != a.segments || w.flip != a.flip ||
      w.pairs != a.pairs || w.elem != a.elem)
    return false;
  a.values = H5Dopen2(a.file, (a.name + "/values").c_str(), H5P_DEFAULT);
  if (a.values < 0)
    return false; // another kind of dataset of the name since
  hid_t space = H5Dget_space(a.values);
  hsize_t total = 0;
  const bool same = H5Sget_simple_extent_ndims(space) == 1 &&
                    H5Sget_simple_extent_dims(space, &total, nullptr) == 1 &&
                    static_cast<int64_t>(total) == w.total;
  H5Sclose(space);
  if (!same) {
    H5Dclose(a.values);
    a.values = -1;
    return false;
  }
  a.fileOffset = w.offsets;
  return true;
}

} // namespace

void openBlockInput(BlockArray &a) {
  Context &c = ctx();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t kept = storedIntermediateFile(a.name, a.source);
  if (kept >= 0) {
    // An earlier statement's result: the array holds a reference of the file,
    // which stays open for the statements after it.
    a.file = kept;
    H5Iinc_ref(a.file);
    if (openWrittenGroup(a))
      return;
  } else {
    auto it = c.options.inputs.find(a.name);
    if (it == c.options.inputs.end())
      failOnRoot("no input for block-sparse tensor '" + a.name + "': pass --input " + a.name +
                 "=file.h5 (block-sparse inputs come from files, docs/BlockSparse.md)");
    a.source = it->second;
    a.userInput = true;
    a.file = openInputFile(a.source);
    if (a.file < 0)
      failOnRoot("cannot open input file " + a.source + " for block-sparse tensor '" + a.name +
                 "'");
  }
  const std::string where = "group '" + a.name + "' of " + a.source;
  hid_t group = H5Gopen2(a.file, a.name.c_str(), H5P_DEFAULT);
  if (group < 0)
    failOnRoot((kept >= 0 ? a.source : "input file " + a.source) + " has no group '" + a.name +
               "' (a block-sparse tensor is a group, docs/BlockSparse.md)");
  std::vector<int64_t> counts = readInts(group, "segment_counts", where);
  std::vector<int64_t> lengths = readInts(group, "segments", where);
  const std::vector<int64_t> program = flattened(a.segments);
  Shape programCounts;
  for (const Shape &s : a.segments)
    programCounts.push_back(static_cast<int64_t>(s.size()));
  if (counts != programCounts || lengths != program)
    failOnRoot(where + " has segments " + str(lengths) + " (counts " + str(counts) +
         ") but the program's tensor has " + str(program) + " (counts " + str(programCounts) +
         ")");
  checkFlip(a, group, where, program);
  checkPairs(a, group, where);
  std::vector<hsize_t> blockDims;
  std::vector<int64_t> ids = readInts(group, "blocks", where, &blockDims);
  std::vector<int64_t> offsets = readInts(group, "offsets", where);
  const int64_t r = a.rank();
  const size_t stored = offsets.size();
  if (blockDims.size() != 2 || static_cast<int64_t>(blockDims[1]) != r ||
      blockDims[0] != stored)
    failOnRoot(where + ": 'blocks' must be [" + std::to_string(stored) + ", " + std::to_string(r) +
         "] (one row of segment ids per entry of 'offsets')");
  std::map<Shape, int64_t> atOf;
  for (size_t i = 0; i < stored; ++i)
    atOf[Shape(ids.begin() + i * r, ids.begin() + (i + 1) * r)] = offsets[i];
  a.values = H5Dopen2(group, "values", H5P_DEFAULT);
  H5Gclose(group);
  if (a.values < 0)
    failOnRoot(where + " has no dataset 'values'");
  hid_t space = H5Dget_space(a.values);
  hsize_t total = 0;
  if (H5Sget_simple_extent_ndims(space) != 1 ||
      H5Sget_simple_extent_dims(space, &total, nullptr) < 0)
    failOnRoot(where + ": 'values' must be one-dimensional");
  H5Sclose(space);
  hid_t type = H5Dget_type(a.values);
  const bool isFloat = H5Tget_class(type) == H5T_FLOAT;
  const size_t size = H5Tget_size(type);
  H5Tclose(type);
  if (!isFloat || static_cast<int64_t>(size) != a.elemBytes())
    failOnRoot(where + ": 'values' must hold " + elementName(a.elem) +
         " elements, as the program declares '" + a.name + "'");
  a.fileOffset.assign(a.blocks.size(), -1);
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    auto found = atOf.find(a.blocks[i]);
    if (found == atOf.end())
      failOnRoot(where + " lacks block " + str(a.blocks[i]) +
           ", which the program's tensor has present");
    if (found->second < 0 ||
        found->second + a.blockElements(static_cast<int64_t>(i)) > static_cast<int64_t>(total))
      failOnRoot(where + ": block " + str(a.blocks[i]) + " at offset " +
           std::to_string(found->second) + " runs past the end of 'values' (" +
           std::to_string(total) + " elements)");
    a.fileOffset[i] = found->second;
  }
  if (stored != a.blocks.size())
    failOnRoot(where + " stores " + std::to_string(stored) + " blocks but the program's tensor has " +
         std::to_string(a.blocks.size()) + " present: it holds blocks the program does not");
}

void readBlockValues(BlockArray &a, int64_t offset, int64_t elements, char *out) {
  hid_t space = H5Dget_space(a.values);
  selectRange(space, offset, elements);
  hsize_t n = elements;
  hid_t mem = H5Screate_simple(1, &n, nullptr);
  if (H5Dread(a.values, memType(a.elem), mem, space, H5P_DEFAULT, out) < 0)
    fail("reading elements " + std::to_string(offset) + ".." + std::to_string(offset + elements) +
         " of block-sparse tensor '" + a.name + "' from " + a.source + " failed");
  H5Sclose(mem);
  H5Sclose(space);
  counters().bytesRead += static_cast<double>(elements) * a.elemBytes();
}

void writeBlockResult(BlockArray &a) {
  Context &c = ctx();
  if (c.options.output.empty() && !c.storingIntermediate())
    return;
  // The output file; the intermediates file, where an earlier value of the
  // name is overwritten in place (same blocks); or a zero-filled file in each
  // rank's memory, completed below.
  const ResultFile result = openResultFile(a.name);
  const std::string where = "group '" + a.name + "' of " + result.path;
  std::vector<int64_t> offsets;
  int64_t total = 0;
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    offsets.push_back(total);
    total += a.blockElements(static_cast<int64_t>(i));
  }
  hid_t group = -1, values = -1;
  bool earlier = result.earlier;
  if (earlier) {
    group = H5Gopen2(result.file, a.name.c_str(), H5P_DEFAULT);
    values = group < 0 ? -1 : H5Dopen2(group, "values", H5P_DEFAULT);
    hsize_t stored = 0;
    hid_t space = values < 0 ? -1 : H5Dget_space(values);
    earlier = space >= 0 && H5Sget_simple_extent_dims(space, &stored, nullptr) == 1 &&
              static_cast<int64_t>(stored) == total;
    if (space >= 0)
      H5Sclose(space);
    if (!earlier) { // another tensor of the name (a temporary of another part): replaced
      if (values >= 0)
        H5Dclose(values);
      if (group >= 0)
        H5Gclose(group);
      if (H5Ldelete(result.file, a.name.c_str(), H5P_DEFAULT) < 0)
        fail("cannot replace " + where);
    }
  }
  if (!earlier) {
    group = H5Gcreate2(result.file, a.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (group < 0)
      fail("cannot create " + where);
    std::vector<int64_t> counts;
    for (const Shape &s : a.segments)
      counts.push_back(static_cast<int64_t>(s.size()));
    const std::vector<int64_t> lengths = flattened(a.segments), ids = flattened(a.blocks);
    const hsize_t r = a.rank(), n = a.blocks.size();
    writeInts(group, "segment_counts", {r}, counts, where, result.inMemory);
    writeInts(group, "segments", {lengths.size()}, lengths, where, result.inMemory);
    writeInts(group, "blocks", {n, r}, ids, where, result.inMemory);
    writeInts(group, "offsets", {n}, offsets, where, result.inMemory);
    if (!a.flip.empty())
      writeInts(group, "flip", {lengths.size()}, flattened(a.flip), where, result.inMemory);
    if (!a.pairs.empty())
      writeInts(group, "pairs", {a.pairs.size(), 3}, flattened(a.pairs), where, result.inMemory);
    hsize_t all = total;
    hid_t space = H5Screate_simple(1, &all, nullptr);
    values = createResultDataset(result, group, "values",
                                 a.elem == TC_RT_F32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space);
    H5Sclose(space);
  }
  if (values < 0)
    fail("cannot create 'values' in " + where);
  // Each home writes its blocks (independent writes of parallel HDF5).
  hid_t space = H5Dget_space(values);
  std::vector<char> buf;
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    if (a.home[i] != c.rank)
      continue;
    const int64_t block = static_cast<int64_t>(i);
    buf.resize(a.blockBytes(block));
    a.readHome(block, buf.data());
    hsize_t count = a.blockElements(block);
    if (c.storingReciprocal) // X = 1 / (...): the stored blocks' values inverted
      withElement(a.elem, [&](auto zero) {
        invertEach(reinterpret_cast<decltype(zero) *>(buf.data()), static_cast<int64_t>(count));
      });
    selectRange(space, offsets[i], count);
    hid_t mem = H5Screate_simple(1, &count, nullptr);
    if (H5Dwrite(values, memType(a.elem), mem, space, H5P_DEFAULT, buf.data()) < 0)
      fail("writing block " + str(a.blocks[i]) + " of '" + a.name + "' to " + result.path +
           " failed");
    H5Sclose(mem);
  }
  H5Sclose(space);
  if (result.inMemory)
    completeInMemory(values, a.elem, total, a.name);
  H5Dclose(values);
  H5Gclose(group);
  writtenGroups()[a.name] = {result.file, a.segments, a.blocks, a.flip,
                             a.pairs,     a.elem,     offsets,  total};
  resultStored(a.name, result);
}

} // namespace tc_rt
