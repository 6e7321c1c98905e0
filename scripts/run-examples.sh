#!/usr/bin/env bash
# The main command: install what is missing, build, then run tc on the bundled examples.
# Today tc parses, verifies and prints each example (with its machine model) through
# tc-opt; later stages plan, compile and run them under MPI.
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
