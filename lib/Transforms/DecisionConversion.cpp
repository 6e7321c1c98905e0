//===- DecisionConversion.cpp - IR enums <-> analysis enums ---------------===//
//
// Exhaustive switches, so that a value added to either side is a compile-time
// warning here rather than a silent misreading.
//
//===----------------------------------------------------------------------===//
#include "DecisionConversion.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::tc;

CommMethod mlir::tc::toAnalysis(CommMethodKind method) {
  switch (method) {
  case CommMethodKind::Inside:
    return CommMethod::Inside;
  case CommMethodKind::Outside:
    return CommMethod::Outside;
  }
  llvm_unreachable("unknown CommMethodKind");
}

CommMethodKind mlir::tc::toIR(CommMethod method) {
  switch (method) {
  case CommMethod::Inside:
    return CommMethodKind::Inside;
  case CommMethod::Outside:
    return CommMethodKind::Outside;
  }
  llvm_unreachable("unknown CommMethod");
}

ParallelAlgorithm mlir::tc::toAnalysis(AlgorithmKind algorithm) {
  switch (algorithm) {
  case AlgorithmKind::Rotation:
    return ParallelAlgorithm::Rotation;
  case AlgorithmKind::ReplicationA:
    return ParallelAlgorithm::ReplicationA;
  case AlgorithmKind::ReplicationB:
    return ParallelAlgorithm::ReplicationB;
  case AlgorithmKind::Accumulation:
    return ParallelAlgorithm::Accumulation;
  case AlgorithmKind::Cosma:
    return ParallelAlgorithm::Cosma;
  case AlgorithmKind::Pumma:
    return ParallelAlgorithm::Pumma;
  case AlgorithmKind::Batch:
    return ParallelAlgorithm::Batch;
  }
  llvm_unreachable("unknown AlgorithmKind");
}

AlgorithmKind mlir::tc::toIR(ParallelAlgorithm algorithm) {
  switch (algorithm) {
  case ParallelAlgorithm::Rotation:
    return AlgorithmKind::Rotation;
  case ParallelAlgorithm::ReplicationA:
    return AlgorithmKind::ReplicationA;
  case ParallelAlgorithm::ReplicationB:
    return AlgorithmKind::ReplicationB;
  case ParallelAlgorithm::Accumulation:
    return AlgorithmKind::Accumulation;
  case ParallelAlgorithm::Cosma:
    return AlgorithmKind::Cosma;
  case ParallelAlgorithm::Pumma:
    return AlgorithmKind::Pumma;
  case ParallelAlgorithm::Batch:
    return AlgorithmKind::Batch;
  }
  llvm_unreachable("unknown ParallelAlgorithm");
}

ReadOrder mlir::tc::toAnalysis(ReadOrderKind order) {
  switch (order) {
  case ReadOrderKind::ABC:
    return ReadOrder::ABC;
  case ReadOrderKind::ACB:
    return ReadOrder::ACB;
  case ReadOrderKind::BAC:
    return ReadOrder::BAC;
  case ReadOrderKind::BCA:
    return ReadOrder::BCA;
  case ReadOrderKind::CAB:
    return ReadOrder::CAB;
  case ReadOrderKind::CBA:
    return ReadOrder::CBA;
  }
  llvm_unreachable("unknown ReadOrderKind");
}

ReadOrderKind mlir::tc::toIR(ReadOrder order) {
  switch (order) {
  case ReadOrder::ABC:
    return ReadOrderKind::ABC;
  case ReadOrder::ACB:
    return ReadOrderKind::ACB;
  case ReadOrder::BAC:
    return ReadOrderKind::BAC;
  case ReadOrder::BCA:
    return ReadOrderKind::BCA;
  case ReadOrder::CAB:
    return ReadOrderKind::CAB;
  case ReadOrder::CBA:
    return ReadOrderKind::CBA;
  }
  llvm_unreachable("unknown ReadOrder");
}

TileMemory mlir::tc::toAnalysis(TileMemoryKind memory) {
  return memory == TileMemoryKind::Shared ? TileMemory::Shared : TileMemory::PerArray;
}

TileMemoryKind mlir::tc::toIR(TileMemory memory) {
  return memory == TileMemory::Shared ? TileMemoryKind::Shared : TileMemoryKind::PerArray;
}

SumVariant mlir::tc::toAnalysis(std::optional<PartialSumsKind> partialSums) {
  if (!partialSums)
    return SumVariant::None;
  switch (*partialSums) {
  case PartialSumsKind::ToOne:
    return SumVariant::ToOne;
  case PartialSumsKind::ToAll:
    return SumVariant::ToAll;
  }
  llvm_unreachable("unknown PartialSumsKind");
}

std::optional<PartialSumsKind> mlir::tc::toIR(SumVariant variant) {
  switch (variant) {
  case SumVariant::None:
    return std::nullopt;
  case SumVariant::ToOne:
    return PartialSumsKind::ToOne;
  case SumVariant::ToAll:
    return PartialSumsKind::ToAll;
  }
  llvm_unreachable("unknown SumVariant");
}

bool mlir::tc::toRuntimeVolumes(VolumesKind volumes) {
  switch (volumes) {
  case VolumesKind::Paper:
    return false;
  case VolumesKind::Runtime:
    return true;
  }
  llvm_unreachable("unknown VolumesKind");
}
