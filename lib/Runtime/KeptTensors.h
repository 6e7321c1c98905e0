//===- KeptTensors.h - intermediates left where they were computed -*- C++ -*-===//
//
// An intermediate the plan keeps in memory stays where the statement that
// computed it left it: each rank keeps its own part, in the layout of that
// statement. A statement that reads it gets it redistributed into its own
// layout (Redistribute.cpp); a reader that takes a whole copy (the slices of
// a fused program, DIIS, checkpoints, a loop's convergence test) has it made
// whole on every rank first (docs/Derivations.md D44).
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_KEPTTENSORS_H
#define TC_LIB_RUNTIME_KEPTTENSORS_H

#include "DistArray.h"

#include <functional>
#include <string>

namespace tc_rt {

/// Keeps this rank's part of `a`, the result of the current statement, if the
/// statement keeps its result in memory and `a` is a whole tensor in memory;
/// false otherwise (the caller stores it in a file). The tensor's earlier
/// value, in any form, is dropped.
bool keepWhereComputed(DistArray &a);

/// Keeps `a`, just loaded from the user's input, when the current statement
/// keeps its inputs (TC_RT_KEEP_INPUTS) and `a` is a whole tensor in memory:
/// whole on every rank (keepInputWhole), else this rank's part. Later loads
/// of it redistribute from there.
void keepLoadedInput(DistArray &a);

/// True when keepLoadedInput(a) would keep the tensor whole on every rank:
/// more than one process, `a` split over them (a replicated or gathered
/// array keeps its own copy), not a scalar.
bool keepsInputWhole(const DistArray &a);
/// Loads `a`'s input whole on every rank (mapped from its file where it can
/// be, MappedInputs.h) and keeps it; collective. A load of `a` is then a
/// local copy from it (docs/Derivations.md D54).
void keepInputWhole(const DistArray &a);

/// True when keepLoadedInput(a) would keep `a` (its input loaded by every rank).
bool keepsLoadedInput(const DistArray &a);

/// Keeps a gathered input that keepLoadedInput left for later, now that the
/// all-gather has made it whole on every rank.
void keepGatheredInput(DistArray &a);

/// True if tensor `name` is kept where it was computed (the same on every
/// rank: every rank keeps a part, maybe an empty one).
bool isKept(const std::string &name);

/// Collective. Fills `a` with the kept tensor of its name, redistributed into
/// a's layout (for an input: from its part in a's layout where it keeps one,
/// and keeping a's part when memory allows, D44), and returns true; when `a` is not the whole
/// tensor in the same element type (a slice, a dimension summed at load), makes the kept tensor
/// whole instead (makeKeptWhole) and returns false.
bool handOverKept(DistArray &a);

/// The storage of array `name` in the layout numbered `layout` and image
/// `image` (DistArray::layoutId and DistArray::image; element type `elem`, padded
/// block of `bytes`) that a statement loads from the tensor's value and then
/// stores as its result, or never writes (`readOnly`; tc_rt_alloc_storage):
/// the kept value's own buffer, shared, where the tensor is kept in that
/// layout, or in one whose part on this rank is stored alike (a result: an
/// intermediate; a read-only array: any kept tensor, in any of the layouts
/// it is kept in); else, for a read-only array whose block is one range of
/// the dataset from element `contiguousFrom` on (-1: it is not), that range
/// of an input kept whole on every rank, shared; else a fresh one. Released
/// with releaseBuffer.
void *keptStorage(const std::string &name, int64_t image, int64_t layout, tc_rt_elem elem,
                  int64_t bytes, bool readOnly, int64_t contiguousFrom = -1);

/// True, once, for a range of a kept input keptStorage lent: the array whose
/// storage it is holds its values already and loads nothing (nothing moves,
/// as a hand-over from a whole copy predicts).
bool takeKeptView(const void *storage);

/// True if `a`'s storage is its kept value's own buffer in `a`'s layout
/// (keptStorage lent it): loading `a` moves nothing.
bool storesKeptValue(const DistArray &a);

/// DIIS (Diis.cpp) works on each rank's share of a carried tensor's values:
/// whole rows of dimension 0 in the dataset's order (StoredTensor::shareOf).
/// A dense f64 tensor kept in memory is read and replaced as such shares
/// without a whole copy on every rank.
///
/// True, with its dataset's extents, if `name` is kept so (a dense f64 tensor
/// of at least one dimension).
bool keptAsRows(const std::string &name, Shape &dims);

/// Collective. This rank's share of the kept tensor `name` (keptAsRows), into
/// `out`: a hand-over into the layout distributed along dimension 0 (bytes
/// counted and predicted as every hand-over's).
void readKeptShare(const std::string &name, double *out);

/// True, with its dataset's extents, if `name` is kept as keptAsRows says
/// and every rank holds all of it in the dataset's order (a statement
/// computed it whole on every process, D58, or there is one process): DIIS
/// then works on the whole values on every rank, with no message.
bool keptWholeEverywhere(const std::string &name, Shape &dims);

/// The values of `name` (keptWholeEverywhere) into `out`, all of them.
void readKeptWhole(const std::string &name, double *out);

/// Collective. `values`, all of the tensor, the same on every rank, become
/// the kept value of `name` of dataset extents `dims`, whole on every rank:
/// no bytes move now or when later statements hand over from it.
void keepWhole(const std::string &name, const Shape &dims, const double *values);

/// Collective. Rank 0's value of `name`, a scalar kept in memory, into
/// `value` on every rank, and true; false (nothing moved) if it is not kept
/// so or rank 0 holds none of it. Rank 0 holds the value its store would
/// write (storeOutput), so a loop's convergence test reads it here instead of
/// making the scalar whole in the store of in-memory intermediates.
bool readKeptScalar(const std::string &name, double &value);

/// Collective. `share` (this rank's, every rank calling) becomes the kept
/// value of `name` of dataset extents `dims`, kept in that layout: no bytes
/// move now, and later statements hand over from it.
void keepShares(const std::string &name, const Shape &dims, const double *share);

/// Collective. The kept tensor `name` becomes a whole copy on every rank, in
/// the store of in-memory intermediates (what storedIntermediateFile finds);
/// nothing if it is not kept.
void makeKeptWhole(const std::string &name);

/// Collective. Runs `store` (a kept tensor's store) as a statement keeping its
/// result in memory does, in the store phase, the caller's statement
/// unchanged: what makeKeptWhole and makeKeptBlocksWhole do.
void storeKeptInMemory(const std::function<void()> &store);

/// Drops the kept tensor `name` (a statement stores a new value of it), if any.
void forgetKept(const std::string &name);

/// Drops every kept tensor (the end of a run).
void releaseKept();

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_KEPTTENSORS_H
