//===- Partitioners.h - hypergraph partitioners by name ---------*- C++ -*-===//
//
// The planners take a partitioner by name so that the compiler's libraries
// need no MPI: "builtin" (RefinementPartitioner, always there) and whatever
// a tool that links one registers (tc-opt and tcc register Zoltan's PHG,
// include/TC/Partition/ZoltanPartitioner.h; the mlir-opt plugin does not).
//
//===----------------------------------------------------------------------===//
#ifndef TC_ANALYSIS_PARTITIONERS_H
#define TC_ANALYSIS_PARTITIONERS_H

#include "TC/Analysis/TaskHypergraph.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tc {

using PartitionerFactory = std::function<std::unique_ptr<HypergraphPartitioner>()>;

/// Makes `name` available (a second registration of a name replaces it). The
/// last one registered becomes the default.
void registerHypergraphPartitioner(const std::string &name, PartitionerFactory factory);

/// A new partitioner `name` ("default": the last registered, else
/// "builtin"), or null if none has that name.
std::unique_ptr<HypergraphPartitioner> createHypergraphPartitioner(const std::string &name);

/// The registered names, "builtin" first.
std::vector<std::string> hypergraphPartitionerNames();

} // namespace mlir::tc

#endif // TC_ANALYSIS_PARTITIONERS_H
