//===- Passes.h - tc conversion passes --------------------------*- C++ -*-===//
//
// Every tc conversion pass and registerTCConversionPasses(). Code that only needs
// one conversion's patterns includes its own header, TC/Conversion/<Name>/<Name>.h.
//
//===----------------------------------------------------------------------===//
#ifndef TC_CONVERSION_PASSES_H
#define TC_CONVERSION_PASSES_H

#include "TC/Conversion/LinalgToTC/LinalgToTC.h"
#include "TC/Conversion/TCToLinalg/TCToLinalg.h"
#include "TC/Conversion/TCToRuntime/TCToRuntime.h"

namespace mlir::tc {

#define GEN_PASS_REGISTRATION
#include "TC/Conversion/Passes.h.inc"

} // namespace mlir::tc

#endif // TC_CONVERSION_PASSES_H
