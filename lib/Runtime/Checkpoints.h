//===- Checkpoints.h - a loop's state in an HDF5 file, and back -----------===//
//
// --checkpoint FILE writes, after an iteration, what the next needs: the
// carried tensors (in tc's HDF5 layouts, whatever the process count), the
// DIIS history and the loop's count and last scalar; --restart FILE loads it
// in the loop's first iteration, on any process count (docs/Derivations.md
// D42).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_CHECKPOINTS_H
#define TC_LIB_RUNTIME_CHECKPOINTS_H

#include "Context.h"

#include <string>

namespace tc_rt {

/// Writes `state` of loop `loop` to `path`: to a temporary file first,
/// renamed over `path` when complete, so that a run killed while writing
/// leaves the previous checkpoint whole. Collective.
void writeCheckpoint(const std::string &path, const std::string &loop,
                     const Context::OpenLoop &state);

/// If the checkpoint at `path` is of the loop of `state` (the run's
/// `state.index`-th; else false, nothing done):
/// stores its carried tensors under their names, and sets the iteration
/// count, last scalar and DIIS history of `state`. A checkpoint whose tensors
/// do not fit the program's fails. Collective.
bool restoreCheckpoint(const std::string &path, const std::string &loop, Context::OpenLoop &state);

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_CHECKPOINTS_H
