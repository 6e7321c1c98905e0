#!/usr/bin/env bash
# tc against ScaLAPACK pdgemm on C += A * B, 4096^3, 2 processes, in the same run.
# tc's time is the compute phase of its report (inputs already distributed, as
# pdgemm's time excludes its data setup); both use one OpenBLAS thread per rank.
# Usage: bench/matmul-vs-pdgemm.sh [runs]   (after scripts/build.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
runs="${1:-3}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$build/bin/tcc" "$root/bench/programs/matmul-4096-np2.mlir" -o "$tmp/matmul"
for run in $(seq "$runs"); do
  mpirun -np 2 "$tmp/matmul" --random-inputs "$run" --report "$tmp/r.json" --quiet
  /usr/bin/python3 -c "
import json; t = json.load(open('$tmp/r.json'))['total']['compute']
print('tc     N=4096 P=2: %.3f s, %.1f GFLOP/s' % (t['seconds'], t['flops'] / t['seconds'] / 1e9))"
  mpirun -np 2 "$build/bin/tc-pdgemm-bench" 4096 128 1
done
