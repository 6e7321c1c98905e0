#!/usr/bin/env bash
# tc's PUMMA plan against ScaLAPACK pdgemm on the same block-cyclic data, np = 2:
# C = A * B with A, B and C given NB x NB block-cyclic on a 1 x 2 grid (pdgemm's
# default grid for 2 processes, ScaLAPACK's layout with source process 0), the
# PUMMA plan forced (tc.plan algorithm = pumma), so tc computes in the given
# layouts with no redistribution. Both programs use the same input values: tc's
# --random-inputs SEED, which tc-pdgemm-bench reproduces (--tc-inputs SEED, the
# formula of lib/Runtime/Hdf5IO.cpp's randomValue). tc writes C to HDF5 and
# tc-pdgemm-bench compares its own C with it block by block (--check): the
# largest absolute difference is printed.
#
# Timed: tc's compute phase (inputs loaded in the given layout; the plan's
# communication and local dgemms), pdgemm's call between barriers; one OpenBLAS
# thread per rank, REPS repetitions in one process, "best" over all, "median"
# over all but the first (warm-up) one; rounds alternate the two programs.
#
# Usage: bench/pumma-vs-pdgemm.sh [rounds (3)] [reps (5)]
# Environment: TC_BUILD_DIR, PDGEMM_BENCH (as for matmul-shapes-np2.sh),
# SHAPES (default "square flat"; also "tall", and "odd" 1000 x 700 x 900 for a quick
# check), NB (128), GRID (1x2 or 2x1),
# OUT (keeps the programs, reports, plan tables and logs), BUSY_MAX (0.15) and
# OTHERS_MAX (0.05): as for matmul-shapes-np2.sh, wait for the other processes
# to leave the cores before a run, and repeat a run they shared.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
pdgemm="${PDGEMM_BENCH:-$build/bin/tc-pdgemm-bench}"
rounds="${1:-3}" reps="${2:-5}"
shapes="${SHAPES:-square flat}"
nb="${NB:-128}"
grid="${GRID:-1x2}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="${OUT:-$tmp}"
mkdir -p "$out"
log="$out/pumma-times.tsv"
printf 'shape\tprogram\tround\trep\tseconds\twarmup\tload1\tbusy\tothers\tmaxdiff\n' >"$log"

dims() {
  case "$1" in
    square) echo 4096 4096 4096 ;;
    tall) echo 1024 1024 65536 ;;
    flat) echo 8192 8192 256 ;;
    odd) echo 1000 700 900 ;; # extents no block divides: a quick check
    *) echo "unknown shape $1" >&2; exit 2 ;;
  esac
}

program() { # m n k -> C = A * B, everything NB x NB block-cyclic on the grid, PUMMA forced
  local m=$1 n=$2 k=$3 g="[${grid/x/, }]"
  cat <<EOF
module attributes {tc.machine = #tc.machine<procs = 2, mem = "2GB", net_bw = "2GB/s", disk_bw = "1GB/s">} {
  func.func @matmul(%A: tensor<${m}x${k}xf64>, %B: tensor<${k}x${n}xf64>) -> tensor<${m}x${n}xf64> {
    %a = tc.redistribute %A [x, y] on <${g}> from <[*, *]> to <[x, y] cyclic [${nb}, ${nb}]> : tensor<${m}x${k}xf64>
    %b = tc.redistribute %B [x, y] on <${g}> from <[*, *]> to <[x, y] cyclic [${nb}, ${nb}]> : tensor<${k}x${n}xf64>
    %r = tc.contract [i, j] = %a[i, k] * %b[k, j]
           {tc.plan = #tc.plan<algorithm = pumma>}
           : tensor<${m}x${k}xf64>, tensor<${k}x${n}xf64> -> tensor<${m}x${n}xf64>
    %c = tc.redistribute %r [x, y] on <${g}> from <[x, y] cyclic [${nb}, ${nb}]> to <[*, *]> : tensor<${m}x${n}xf64>
    return %c : tensor<${m}x${n}xf64>
  }
}
EOF
}

. "$(dirname "$0")/measure.sh" # busy, quiet_machine, load1, measured
record() { # shape program round maxdiff seconds... (the first is the warm-up)
  local shape=$1 prog=$2 round=$3 d=$4 i=0; shift 4
  for s in "$@"; do
    printf '%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s\t%s\n' "$shape" "$prog" "$round" "$i" "$s" \
      $(( i == 0 ? 1 : 0 )) "$load_before" "$busy_before" "$others" "$d" >>"$log"
    i=$((i + 1))
  done
}

echo "# $(date -u +%FT%TZ) $(uname -n): OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE-<unset>}" \
     "OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS-<unset>}, grid $grid, NB $nb, rounds $rounds," \
     "reps $reps, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/pumma-header.txt"
for shape in $shapes; do
  read -r m n k <<<"$(dims "$shape")"
  program "$m" "$n" "$k" >"$out/pumma-$shape.mlir"
  "$build/bin/tcc" "$out/pumma-$shape.mlir" -o "$tmp/pumma-$shape" \
    --plan-table "$out/plan-pumma-$shape.txt" 2>/dev/null
done
for round in $(seq "$rounds"); do
  for shape in $shapes; do
    read -r m n k <<<"$(dims "$shape")"
    for p in $( ((round % 2)) && echo "tc pdgemm" || echo "pdgemm tc"); do
      if [ "$p" = tc ]; then
        rm -f "$tmp/C-$shape.h5"
        measured - mpirun -np 2 "$tmp/pumma-$shape" --random-inputs "$round" --repeat "$reps" \
          --output "$tmp/C-$shape.h5" --report "$out/report-pumma-$shape.json" --quiet
        cp "$out/report-pumma-$shape.json" "$out/report-pumma-$shape-r$round.json"
        record "$shape" tc-pumma "$round" - $(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['ranks']
per = [x.get('compute_seconds_per_run', [x['compute']['seconds']]) for x in r]
print(' '.join('%.6f' % max(c) for c in zip(*per)))" "$out/report-pumma-$shape.json")
      else
        # pdgemm checks against tc's output of this round: run tc first if needed.
        [ -f "$tmp/C-$shape.h5" ] && [ "$(cat "$tmp/C-$shape.seed" 2>/dev/null)" = "$round" ] || {
          rm -f "$tmp/C-$shape.h5"
          mpirun -np 2 "$tmp/pumma-$shape" --random-inputs "$round" --output "$tmp/C-$shape.h5" --quiet
        }
        measured "$tmp/pdgemm.out" mpirun -np 2 "$pdgemm" --shape "${m}x${n}x${k}" --nb "$nb" \
          --grid "$grid" --reps "$reps" --beta 0 --tc-inputs "$round" --check "$tmp/C-$shape.h5"
        o=$(cat "$tmp/pdgemm.out")
        echo "$o" >>"$out/pumma-pdgemm.log"
        d=$(sed -n 's/.*max |pdgemm - tc| = \([^ ]*\) .*/\1/p' <<<"$o")
        [ -n "$d" ] || { echo "pdgemm check failed: $o" >&2; exit 1; }
        record "$shape" pdgemm "$round" "$d" $(sed -n 's/.*; times //p' <<<"$o")
      fi
      echo "$round" >"$tmp/C-$shape.seed"
      echo "# round $round $shape $p: $(awk -F'\t' -v s="$shape" -v p="$p" -v r="$round" \
        '$1 == s && ($2 == p || $2 == p "-pumma") && $3 == r { printf "%s ", $5; d = $10 } END { printf "(max diff %s) ", d }' "$log")(load before $load_before," \
        "others before $busy_before, during $others)" >&2
    done
  done
done
echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/pumma-header.txt"

/usr/bin/python3 - "$log" "$out" "$shapes" <<'PY'
import json, statistics, sys
from collections import defaultdict
log, out, shapes = sys.argv[1], sys.argv[2], sys.argv[3].split()
rows = [l.split("\t") for l in open(log).read().splitlines()[1:]]
t = defaultdict(list)
for s, p, r, i, sec, w, l, b, o, d in rows:
    t[s, p].append((int(r), float(sec), w == "1", float(l), float(b), d, float(o)))
dims = {"square": (4096, 4096, 4096), "tall": (1024, 1024, 65536), "flat": (8192, 8192, 256),
        "odd": (1000, 700, 900)}
def stats(s, p):
    v = t[s, p]
    return (min(x[1] for x in v), statistics.median([x[1] for x in v if not x[2]]), len(v),
            min(x[3] for x in v), max(x[3] for x in v), max(x[4] for x in v), max(x[6] for x in v))
print("\n| shape | m x n x k | program | best s | median s | GFLOP/s at best | reps | load (1 min) | others before / during | max abs diff pdgemm - tc, per round |")
print("|---|---|---|---|---|---|---|---|---|---|")
for s in shapes:
    m, n, k = dims[s]
    diffs = ", ".join(sorted({f"{x[5]}" for x in t[s, "pdgemm"]}, key=float))
    for p in ("tc-pumma", "pdgemm"):
        best, med, cnt, l0, l1, b, o = stats(s, p)
        print(f"| {s} | {m} x {n} x {k} | {p} | {best:.3f} | {med:.3f} | {2*m*n*k/best/1e9:.1f} | {cnt} | "
              f"{l0:.2f}-{l1:.2f} | {b:.2f} / {o:.2f} | {diffs if p == 'pdgemm' else ''} |")
print("\n| shape | tc / pdgemm best | tc / pdgemm median | per round (bests) |")
print("|---|---|---|---|")
for s in shapes:
    rb = lambda p: {r: min(x[1] for x in t[s, p] if x[0] == r) for r in {x[0] for x in t[s, p]}}
    a, b = rb("tc-pumma"), rb("pdgemm")
    print(f"| {s} | {stats(s, 'tc-pumma')[0] / stats(s, 'pdgemm')[0]:.3f} | "
          f"{stats(s, 'tc-pumma')[1] / stats(s, 'pdgemm')[1]:.3f} | "
          + ", ".join(f"{a[r] / b[r]:.2f}" for r in sorted(a)) + " |")
for s in shapes:
    rep = json.load(open(f"{out}/report-pumma-{s}.json"))
    print(f"- {s}: tc compute bytes sent / received per rank: " + "; ".join(
        f"rank {x['rank']} {x['compute']['bytes_sent']:.4g} / {x['compute']['bytes_received']:.4g} "
        f"(predicted {x['compute']['predicted_comm_bytes']:.4g})" for x in rep["ranks"]))
PY
