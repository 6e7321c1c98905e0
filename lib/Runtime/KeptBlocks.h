//===- KeptBlocks.h - block-sparse intermediates left at their homes -*- C++ -*-===//
//
// A block-sparse intermediate the plan keeps in memory stays where the
// statement that computed it left it: each rank keeps the bricks it is home
// of. A later statement's array of the name gets its bricks from their homes,
// brick by brick, each moving only where its home changes; the bytes every
// rank sends and receives are predicted from the two home maps and counted as
// a hand-over. A reader that takes a whole copy (a file, DIIS, checkpoints, a
// loop's convergence test, an out-of-core array) has it written whole into
// every rank's memory first, as a stored intermediate (docs/Derivations.md
// D49).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_KEPTBLOCKS_H
#define TC_LIB_RUNTIME_KEPTBLOCKS_H

#include "BlockArray.h"

#include <string>

namespace tc_rt {

/// Keeps this rank's bricks of `a`, the result of the current statement, if
/// the statement keeps its result in memory; false otherwise (the caller
/// writes it to a file). The tensor's earlier value, in any form, is dropped.
bool keepBlocksWhereComputed(BlockArray &a);

/// Keeps a copy of this rank's bricks of `a`, an input just loaded into
/// memory from the user's file, when the current statement keeps its inputs
/// (TC_RT_KEEP_INPUTS) and none of the name is kept: later loads of it take
/// the kept bricks (D44).
void keepLoadedBlocks(const BlockArray &a);

/// Collective. Fills the bricks `a` (in memory, an input) is home of from the
/// kept tensor of its name and returns true; false when no tensor of the name
/// is kept or `a` is out of core or has other segments or blocks (the kept
/// tensor is then made whole, makeKeptBlocksWhole, for a's load to read).
bool handOverKeptBlocks(BlockArray &a);

/// Collective. Writes the kept tensor `name`, if any, whole into every rank's
/// memory as a stored intermediate, and keeps it no more.
void makeKeptBlocksWhole(const std::string &name);

/// Drops the kept tensor `name` (a new value is stored), or every one.
void forgetKeptBlocks(const std::string &name);
void releaseKeptBlocks();

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_KEPTBLOCKS_H
