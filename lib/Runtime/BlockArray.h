//===- BlockArray.h - block-sparse tensors in the runtime -------*- C++ -*-===//
//
// A block-sparse tensor (Krishnamoorthy et al. section 2, docs/BlockSparse.md)
// as a run holds it: its present blocks ("bricks"), each held by its home
// rank, in memory or, for out-of-core schedules ([K] 6), in the input file
// (inputs) or in a scratch file with no name (results). BlockArrays.cpp runs
// the schedule's stages; BlockHdf5.cpp reads and writes the HDF5 layout.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_BLOCKARRAY_H
#define TC_LIB_RUNTIME_BLOCKARRAY_H

#include "BufferPool.h"
#include "Runs.h"
#include "TC/Runtime/Descriptors.h"

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tc_rt {

/// A brick's bytes, not zeroed when allocated (every brick is read,
/// received, copied or zero-filled before it is used): a buffer of its own,
/// or its range of one buffer the bricks allocated together share
/// (BlockArray::allocateTogether).
class Brick {
public:
  /// A brick in a buffer of its own.
  explicit Brick(size_t bytes);
  /// The `bytes` at offset `at` of the buffer `shared`, which this brick
  /// keeps alive with the others in it.
  Brick(const std::shared_ptr<char> &shared, size_t at, size_t bytes)
      : bytes_(shared, shared.get() + at), size_(bytes) {}
  /// A copy in a buffer of its own.
  Brick(const Brick &other);
  Brick &operator=(const Brick &) = delete;
  char *data() const { return bytes_.get(); }
  size_t size() const { return size_; }

private:
  std::shared_ptr<char> bytes_;
  size_t size_;
};

/// Fresh bricks of `bytes` each, in one buffer (BlockArray::allocateTogether).
std::vector<std::shared_ptr<Brick>> bricksTogether(const std::vector<size_t> &bytes);

struct BlockArray {
  std::string name;
  tc_rt_init init = TC_RT_INIT_INPUT;
  bool onDisk = false;
  tc_rt_elem elem = TC_RT_F64;
  std::vector<Shape> segments; ///< per dimension, the segment lengths
  std::vector<Shape> blocks;   ///< per stored block, its segment ids
  std::vector<int> home;       ///< per stored block, the rank holding it
  /// Spin-restricted only: per dimension, the segment each segment becomes
  /// when every spin flips (the blocks are one of each flipped pair).
  std::vector<Shape> flip;
  /// Per pair symmetry: its two dimensions and 1 if antisymmetric (0:
  /// symmetric); the blocks are one of each set the exchanges relate.
  std::vector<Shape> pairs;

  /// In memory: the bricks this rank is home of (others null). A brick may
  /// be shared with a kept tensor (KeptBlocks.cpp) that a later statement
  /// reads where it is; writeable() gives the array its own copy first
  /// where the shared one must stay as it was.
  std::vector<std::shared_ptr<Brick>> data;
  /// Some bricks are shared with a kept input (which no statement changes).
  bool sharesInput = false;
  /// On disk, an input: its HDF5 file stays open and each brick is read from
  /// its place (element offset) in the values dataset when a stage needs it.
  hid_t file = -1, values = -1;
  std::vector<int64_t> fileOffset;
  std::string source; ///< where the input comes from, for messages
  bool userInput = false; ///< loaded from the user's file (--input), not a stored result
  /// On disk, a result: this rank's bricks in a scratch file (byte offsets),
  /// and which have been written (a brick not yet written is zero, or the
  /// input's value when accumulating).
  int fd = -1;
  std::string path;
  std::vector<int64_t> scratchOffset;
  std::vector<char> written;
  /// Out of core: remote bricks this rank received and keeps for a later
  /// stage whose read of them the schedule marks cached ([K] 6).
  std::map<int64_t, std::shared_ptr<Brick>> cachedRemote;

  int64_t rank() const { return static_cast<int64_t>(segments.size()); }
  int64_t elemBytes() const { return elem == TC_RT_F32 ? 4 : 8; }
  Shape blockShape(int64_t block) const;
  int64_t blockElements(int64_t block) const;
  int64_t blockBytes(int64_t block) const { return blockElements(block) * elemBytes(); }
  /// A fresh brick of this rank's, of the block's size (contents unset).
  void allocate(int64_t block);
  /// Fresh bricks for `blocks`, in one buffer: the first touch of a fresh
  /// page is the cost of a brick's first write (about 0.5 ms per MB in 4 KiB
  /// pages on these VMs), and a buffer of 2 MiB or more is mapped in huge
  /// pages, five times cheaper to touch (BufferPool.h).
  void allocateTogether(const std::vector<int64_t> &blocks);
  /// Brick `block`'s bytes, to write: its own copy when it is shared and
  /// `copyShared` (a kept input, or another operand of the stage reads it).
  char *writeable(int64_t block, bool copyShared);
  /// The block's initial value (from the input or intermediate, zeros or
  /// ones) into `out`, counted as bytes read when it comes from a file.
  void readInitial(int64_t block, char *out);
  /// This rank's current value of a brick it is home of, into `out` (from
  /// memory, scratch or its initial value).
  void readHome(int64_t block, char *out);
  /// Stores this rank's new value of a brick it is home of.
  void writeHome(int64_t block, const char *in);
};

/// Opens the input of `a` (--input NAME=file.h5, or the intermediate NAME an
/// earlier statement stored, in memory or in the intermediates file): checks
/// the group against the program's blocks and records where each block is
/// (fileOffset); keeps the file open.
void openBlockInput(BlockArray &a);
/// Reads `elements` elements at element `offset` of the open input's values.
void readBlockValues(BlockArray &a, int64_t offset, int64_t elements, char *out);
/// The int64 dataset `name` of a block-sparse group (segment_counts,
/// segments, blocks, offsets), its extents into `dimsOut`; a missing one
/// fails, naming `where`.
std::vector<int64_t> readInts(hid_t group, const char *name, const std::string &where,
                              std::vector<hsize_t> *dimsOut = nullptr);
/// Creates the int64 dataset `name` of `dims` in `group` and writes `values`:
/// every rank into a rank-local file (in memory, `everyRank`), else rank 0
/// into the shared file (creation is collective).
void writeInts(hid_t group, const char *name, const std::vector<hsize_t> &dims,
               const std::vector<int64_t> &values, const std::string &where, bool everyRank);
/// How many blocks the stored block `ids` stands for: the distinct blocks
/// the spin flip (`flip`, per dimension each segment's partner; empty: none)
/// and the pair exchanges (`pairs`: first, second, antisymmetric each)
/// relate it to, itself included. Each holds its elements up to sign and
/// order, so a sum over the whole tensor is a sum over the stored blocks
/// with these weights.
int64_t blockMultiplicity(const Shape &ids, const std::vector<Shape> &flip,
                          const std::vector<Shape> &pairs);
/// Per element of a block-sparse group's values, its block's multiplicity
/// (blockMultiplicity); empty when every one is 1.
std::vector<double> elementMultiplicities(hid_t group, const std::string &where);
/// Frees every block-sparse array (the end of one run of the program).
void releaseBlockArrays();
/// A communicator of the block transfers alone, so that their messages
/// (matched in posting order per pair of ranks) meet no other. Collective on
/// its first call: every rank calls it as a stage starts or a brick moves.
MPI_Comm blockComm();
/// Writes `a` as the group NAME of the output file or, when the statement's
/// result is an intermediate, of the intermediates file or of every rank's
/// memory, completed by an all-reduce (collective; tc_rt_begin_statement says
/// which). An intermediate kept in memory stays at its homes instead
/// (KeptBlocks.h).
void writeBlockResult(BlockArray &a);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_BLOCKARRAY_H
