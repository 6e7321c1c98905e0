//===- DecisionConversion.h - IR enums <-> analysis enums -------*- C++ -*-===//
//
// The planners decide in plain C++ enums (lib/Analysis, no IR dependency); the
// IR records the decisions as the dialect's ODS enums (TCEnums.td). These are
// the only mappings between the two, one each way.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_TRANSFORMS_DECISIONCONVERSION_H
#define TC_LIB_TRANSFORMS_DECISIONCONVERSION_H

#include "TC/Analysis/FusionCost.h"
#include "TC/Analysis/OutOfCoreCostModel.h"
#include "TC/Dialect/TCEnums.h"

#include <optional>

namespace mlir::tc {

CommMethod toAnalysis(CommMethodKind method);
CommMethodKind toIR(CommMethod method);

ParallelAlgorithm toAnalysis(AlgorithmKind algorithm);
AlgorithmKind toIR(ParallelAlgorithm algorithm);

ReadOrder toAnalysis(ReadOrderKind order);
ReadOrderKind toIR(ReadOrder order);

TileMemory toAnalysis(TileMemoryKind memory);
TileMemoryKind toIR(TileMemory memory);

/// #tc.fusion's optional `partial_sums`: absent is SumVariant::None.
SumVariant toAnalysis(std::optional<PartialSumsKind> partialSums);
std::optional<PartialSumsKind> toIR(SumVariant variant);

/// #tc.machine's `volumes` as MachineModel::runtimeVolumes.
bool toRuntimeVolumes(VolumesKind volumes);

} // namespace mlir::tc

#endif // TC_LIB_TRANSFORMS_DECISIONCONVERSION_H
