//===- Decisions.cpp - the planners' decisions: keywords ------------------===//
#include "TC/Analysis/Decisions.h"

#include "llvm/ADT/StringSwitch.h"

#include "TC/Analysis/Decisions.cpp.inc"
