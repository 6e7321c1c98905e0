#!/usr/bin/env bash
# Idempotent installer for everything tc needs on Debian 12 (bookworm).
# Installs only what is missing; does nothing (and needs no network) when all is present.
# Uses sudo when not root.
set -euo pipefail

PACKAGES=(
  # build
  cmake ninja-build g++ pkg-config
  # MLIR / LLVM 22 (bookworm-security); lit, FileCheck, llc-22, clang-22
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22
  # distributed runtime
  libopenmpi-dev openmpi-bin
  # local kernels: BLAS, and small products' kernels
  libopenblas-dev libxsmm-dev
  # user-facing tensors (parallel HDF5 built against OpenMPI)
  libhdf5-openmpi-dev
  # hypergraph-partitioned I/O schedules, distributed GEMM yardstick
  libtrilinos-zoltan-dev libscalapack-openmpi-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-numpy python3-h5py
  # the Python package (python/, docs/Python.md) and its tests
  pybind11-dev python3-dev python3-pytest python3-mpi4py
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
