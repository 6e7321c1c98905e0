#!/usr/bin/env bash
# Configure (once) and build tc into ./build (or $TC_BUILD_DIR). Incremental: a second
# run with nothing changed does no work.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE="${TC_BUILD_TYPE:-Release}" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
fi
# Two cores, ~1.5 GB per MLIR compile job: -j2 fits comfortably.
cmake --build "$build" -j "${TC_JOBS:-2}"
