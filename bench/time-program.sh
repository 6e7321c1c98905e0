#!/usr/bin/env bash
# Compiles a tc program and reports the compute phase (seconds, slowest rank) of N
# runs on random inputs, all in one process (--repeat N, as CTF's figures are the
# best of repeated calls in one process): best and median, with the plan's
# predictions next to the measured bytes of the last run.
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
mpirun -np "$np" "$tmp/prog" --random-inputs 1 --repeat "$runs" --scratch "$tmp" \
  --report "$tmp/r.json" --quiet
/usr/bin/python3 - "$tmp" "$runs" "$(basename "$prog")" <<'PY'
import json, statistics, sys
tmp, runs, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rep = json.load(open(f"{tmp}/r.json"))
per_rank = [r.get("compute_seconds_per_run", [r["compute"]["seconds"]]) for r in rep["ranks"]]
secs = sorted(max(col) for col in zip(*per_rank))  # a run lasts as long as its slowest rank
c = rep["ranks"][0]["compute"]
print(f"{name}: compute best {secs[0]:.4f} s, median {statistics.median(secs):.4f} s over {runs} runs in one process; "
      f"rank 0 disk {c['bytes_read'] + c['bytes_written']:.0f} B (predicted {c['predicted_disk_bytes']:.0f}), "
      f"sent {c['bytes_sent']:.0f} B (predicted {c['predicted_comm_bytes']:.0f})")
PY
