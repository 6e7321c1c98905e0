#!/usr/bin/env bash
# Compiles a tc program and reports the compute phase of N runs on random inputs
# (best and median, seconds, slowest rank), with the plan's predictions.
# Usage: bench/time-program.sh PROG.mlir NP [runs] [tcc options...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
prog="$1" np="$2" runs="${3:-5}"
shift $(( $# < 3 ? $# : 3 ))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$build/bin/tcc" "$prog" -o "$tmp/prog" "$@" 2>/dev/null
for run in $(seq "$runs"); do
  mpirun -np "$np" "$tmp/prog" --random-inputs "$run" --scratch "$tmp" --report "$tmp/r$run.json" --quiet
done
/usr/bin/python3 - "$tmp" "$runs" "$(basename "$prog")" <<'PY'
import json, statistics, sys
tmp, runs, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
reps = [json.load(open(f"{tmp}/r{r}.json")) for r in range(1, runs + 1)]
secs = sorted(r["total"]["compute"]["seconds"] for r in reps)
c = reps[0]["ranks"][0]["compute"]
print(f"{name}: compute best {secs[0]:.4f} s, median {statistics.median(secs):.4f} s over {runs} runs; "
      f"rank 0 disk {c['bytes_read'] + c['bytes_written']:.0f} B (predicted {c['predicted_disk_bytes']:.0f}), "
      f"sent {c['bytes_sent']:.0f} B (predicted {c['predicted_comm_bytes']:.0f})")
PY
