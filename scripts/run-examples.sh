#!/usr/bin/env bash
# The main command: install what is missing, build, plan every bundled example, then
# compile examples/matmul.mlir (4000^3 on 4 processes with 64 MB each: out of core)
# with tcc, run it under mpirun on random HDF5 inputs, check the result against
# numpy and print the plan's predicted volumes next to the measured ones.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
TC_BUILD_DIR="$build" "$root/scripts/build.sh"

examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  examples=("$root"/examples/*.mlir)
fi
for example in "${examples[@]}"; do
  echo "== $(basename "$example"): parse, verify, plan (tc-plan on its tc.machine) =="
  "$build/bin/tc-opt" "$example" --tc-plan="table=-" -o /dev/null
done
echo "== all ${#examples[@]} examples verified and planned =="

if [ $# -eq 0 ]; then
  run_dir="$(mktemp -d "${TMPDIR:-/tmp}/tc-example.XXXXXX")"
  trap 'rm -rf "$run_dir"' EXIT
  echo "== examples/matmul.mlir: compile with tcc, run out of core under mpirun -np 4 =="
  "$build/bin/tcc" "$root/examples/matmul.mlir" -o "$run_dir/matmul"
  /usr/bin/python3 "$root/scripts/run-contraction.py" "$run_dir/matmul" --np 4 \
    --spec "C[i,j] += A[i,k] * B[j,k]" --extents i=4000,j=4000,k=4000 \
    --scratch "$run_dir" --check-bytes --progress
fi
