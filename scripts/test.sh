#!/usr/bin/env bash
# The test command: install what is missing (apt), build, run every suite.
# Ends with lit's summary and then ctest's (GoogleTest unit tests).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh" || exit 1
TC_BUILD_DIR="$build" "$root/scripts/build.sh" || exit 1

lit="/usr/lib/llvm-22/bin/lit"
echo "== lit (FileCheck suites, plugin, install consumer, integration) =="
"$lit" -sv --time-tests "$build/test"
lit_status=$?
echo "== ctest (unit tests) =="
ctest --test-dir "$build" --output-on-failure -j 2
ctest_status=$?
[ $lit_status -eq 0 ] && [ $ctest_status -eq 0 ]
