#!/usr/bin/env bash
# tc against COSMA v2.8.4's miniapp and ScaLAPACK pdgemm, C += A * B at np = 2 on
# three shapes, in one run: square 4096^3, tall-and-skinny (large k: m = n = 1024,
# k = 65536) and flat (small k: m = n = 8192, k = 256). Each round runs, for every
# shape, tc (the planner's own plan), tc with COSMA forced (tc.plan algorithm =
# cosma), COSMA's miniapp and pdgemm (grids 1x2 and 2x1), each as one mpirun with
# REPS repetitions in the process; the order of the programs rotates per round.
#
# What each time covers (all: one OpenBLAS thread per rank, data already
# distributed, a repetition lasts as long as its slowest rank):
#   tc      the compute phase of the report (compute_seconds_per_run): from the
#           barrier after the inputs are loaded in the plan's layout to the store;
#           all the plan's communication and local dgemms
#   COSMA   the miniapp's own clock around multiply() between two MPI_Barriers
#           (whole ms), COSMA's native layout, its default strategy
#   pdgemm  the pdgemm call between two MPI_Barriers (tc-pdgemm-bench), block-
#           cyclic NB x NB blocks on the given grid
# The first repetition of each process is its warm-up (COSMA's includes its
# one-time setup; the miniapp prints its times sorted, so there the slowest one is
# dropped): "best" is over all repetitions, "median" over the others.
#
# Usage: bench/matmul-shapes-np2.sh [rounds (3)] [reps (5)]
# Environment: TC_BUILD_DIR (tcc; default ./build), PDGEMM_BENCH (a
# tc-pdgemm-bench that takes --shape; default $TC_BUILD_DIR/bin/tc-pdgemm-bench),
# COSMA_PEER_DIR (run.sh of the COSMA build; default /work/peers/cosma),
# SHAPES (default "square tall flat"), PDGEMM_GRIDS (default "1x2 2x1"), NB (128),
# OUT (directory that keeps times.tsv, the reports and plan tables; default a
# temporary one), BUSY_MAX (before each mpirun, wait until the other processes
# used at most this fraction of the 2 cores over one second; default 0.15),
# OTHERS_MAX (repeat a run during which other processes used more than this
# fraction of the 2 cores; default 0.05).
# OPENBLAS_CORETYPE and the rest of the environment are left as they are.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
pdgemm="${PDGEMM_BENCH:-$build/bin/tc-pdgemm-bench}"
cosma="${COSMA_PEER_DIR:-/work/peers/cosma}"
rounds="${1:-3}" reps="${2:-5}"
shapes="${SHAPES:-square tall flat}"
grids="${PDGEMM_GRIDS:-1x2 2x1}"
nb="${NB:-128}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="${OUT:-$tmp}"
mkdir -p "$out"
log="$out/times.tsv"
printf 'shape\tprogram\tround\trep\tseconds\twarmup\tload1\tbusy\tothers\n' >"$log"

dims() { # shape -> m n k
  case "$1" in
    square) echo 4096 4096 4096 ;;
    tall) echo 1024 1024 65536 ;;
    flat) echo 8192 8192 256 ;;
    *) echo "unknown shape $1" >&2; exit 2 ;;
  esac
}

program() { # m n k plan-attribute -> the tc program on stdout
  local m=$1 n=$2 k=$3 attr=$4
  cat <<EOF
module attributes {tc.machine = #tc.machine<procs = 2, mem = "2GB", net_bw = "2GB/s", disk_bw = "1GB/s">} {
  func.func @matmul(%A: tensor<${m}x${k}xf64>, %B: tensor<${k}x${n}xf64>, %C: tensor<${m}x${n}xf64>) -> tensor<${m}x${n}xf64> {
    %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] ${attr}
           : tensor<${m}x${k}xf64>, tensor<${k}x${n}xf64> -> tensor<${m}x${n}xf64>
    return %r : tensor<${m}x${n}xf64>
  }
}
EOF
}

. "$(dirname "$0")/measure.sh" # busy, quiet_machine, load1, measured

# shape program round first|slowest seconds... : appends one process's repetitions
# to the log, marking its warm-up one, with the figures of `measured`.
record() {
  local shape=$1 prog=$2 round=$3 warm=$4; shift 4
  local i=0
  for s in "$@"; do
    local w=0
    [ "$warm" = first ] && [ $i -eq 0 ] && w=1
    printf '%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s\n' "$shape" "$prog" "$round" "$i" "$s" "$w" \
      "$load_before" "$busy_before" "$others" >>"$log"
    i=$((i + 1))
  done
  if [ "$warm" = slowest ]; then # mark the slowest repetition of this process
    /usr/bin/python3 - "$log" "$shape" "$prog" "$round" <<'PY'
import sys
path, shape, prog, rnd = sys.argv[1:]
lines = open(path).read().splitlines()
rows = [i for i, l in enumerate(lines[1:], 1) if l.split("\t")[:3] == [shape, prog, rnd]]
slow = max(rows, key=lambda i: float(lines[i].split("\t")[4]))
f = lines[slow].split("\t"); f[5] = "1"; lines[slow] = "\t".join(f)
open(path, "w").write("\n".join(lines) + "\n")
PY
  fi
}


run_tc() { # shape variant round
  local shape=$1 v=$2 round=$3
  measured - mpirun -np 2 "$tmp/$v-$shape" --random-inputs "$round" --repeat "$reps" \
    --report "$out/report-$v-$shape.json" --quiet
  cp "$out/report-$v-$shape.json" "$out/report-$v-$shape-r$round.json"
  record "$shape" "$v" "$round" first $(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['ranks']
per = [x.get('compute_seconds_per_run', [x['compute']['seconds']]) for x in r]
print(' '.join('%.6f' % max(c) for c in zip(*per)))" "$out/report-$v-$shape.json")
}
run_cosma() { # shape round
  local shape=$1 round=$2 ms m n k
  read -r m n k <<<"$(dims "$shape")"
  measured "$tmp/cosma.out" env NP=2 "$cosma/run.sh" "$m" "$n" "$k" "$reps"
  cat "$tmp/cosma.out" >>"$out/cosma.log"
  ms=$(sed -n 's/^RESULT .*all_ms=\[\(.*\)\]$/\1/p' "$tmp/cosma.out")
  [ -n "$ms" ] || { echo "COSMA run failed: $(cat "$tmp/cosma.out")" >&2; exit 1; }
  record "$shape" cosma "$round" slowest $(awk '{for (i = 1; i <= NF; i++) printf "%.3f ", $i / 1000}' <<<"$ms")
}
run_pdgemm() { # shape grid round
  local shape=$1 g=$2 round=$3 m n k
  read -r m n k <<<"$(dims "$shape")"
  measured "$tmp/pdgemm.out" mpirun -np 2 "$pdgemm" --shape "${m}x${n}x${k}" --nb "$nb" \
    --reps "$reps" --grid "$g"
  cat "$tmp/pdgemm.out" >>"$out/pdgemm.log"
  record "$shape" "pdgemm-$g" "$round" first $(sed -n 's/.*; times //p' "$tmp/pdgemm.out")
}

echo "# $(date -u +%FT%TZ) $(uname -n): OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE-<unset>}" \
     "OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS-<unset>} OMP_NUM_THREADS=${OMP_NUM_THREADS-<unset>} (COSMA's run.sh: 1)," \
     "rounds $rounds, reps $reps, NB $nb, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/header.txt"
for shape in $shapes; do
  read -r m n k <<<"$(dims "$shape")"
  program "$m" "$n" "$k" "" >"$tmp/tc-$shape.mlir"
  program "$m" "$n" "$k" "{tc.plan = #tc.plan<algorithm = cosma>}" >"$tmp/tc-cosma-$shape.mlir"
  for v in tc tc-cosma; do
    "$build/bin/tcc" "$tmp/$v-$shape.mlir" -o "$tmp/$v-$shape" \
      --plan-table "$out/plan-$v-$shape.txt" 2>/dev/null
    cp "$tmp/$v-$shape.mlir" "$out/"
  done
done
progs=(tc tc-cosma cosma)
for g in $grids; do progs+=("pdgemm-$g"); done
for round in $(seq "$rounds"); do
  for shape in $shapes; do
    # Rotate the order of the programs by one every round.
    nprogs=${#progs[@]}
    for ((i = 0; i < nprogs; i++)); do
      p=${progs[$(( (i + round - 1) % nprogs ))]}
      case "$p" in
        tc | tc-cosma) run_tc "$shape" "$p" "$round" ;;
        cosma) run_cosma "$shape" "$round" ;;
        pdgemm-*) run_pdgemm "$shape" "${p#pdgemm-}" "$round" ;;
      esac
      echo "# round $round $shape $p: $(awk -F'\t' -v s="$shape" -v p="$p" -v r="$round" \
        '$1 == s && $2 == p && $3 == r { printf "%s ", $5 }' "$log")(load before $load_before," \
        "others before $busy_before, during $others)" >&2
    done
  done
done
echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/header.txt"

/usr/bin/python3 - "$log" "$out" "$shapes" "$grids" <<'PY'
import json, statistics, sys
from collections import defaultdict
log, out, shapes, grids = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
rows = [l.split("\t") for l in open(log).read().splitlines()[1:]]
t = defaultdict(list)        # (shape, prog) -> [(round, seconds, warmup, load, busy)]
for s, p, r, i, sec, w, l, b, o in rows:
    t[s, p].append((int(r), float(sec), w == "1", float(l), float(b), float(o)))
dims = {"square": (4096, 4096, 4096), "tall": (1024, 1024, 65536), "flat": (8192, 8192, 256)}

def stats(s, p):
    v = t[s, p]
    best = min(x[1] for x in v)
    med = statistics.median([x[1] for x in v if not x[2]])
    return (best, med, len(v), min(x[3] for x in v), max(x[3] for x in v), max(x[4] for x in v),
            max(x[5] for x in v))

def round_best(s, p):
    d = defaultdict(lambda: 1e30)
    for r, sec, *_ in t[s, p]:
        d[r] = min(d[r], sec)
    return d

progs = ["tc", "tc-cosma", "cosma"] + ["pdgemm-" + g for g in grids]
print("\n| shape | m x n x k | program | best s | median s | GFLOP/s at best | reps | load (1 min) | others before / during |")
print("|---|---|---|---|---|---|---|---|---|")
for s in shapes:
    m, n, k = dims[s]
    for p in progs:
        if (s, p) not in t:
            continue
        best, med, cnt, l0, l1, b, o = stats(s, p)
        print(f"| {s} | {m} x {n} x {k} | {p} | {best:.3f} | {med:.3f} | {2*m*n*k/best/1e9:.1f} | {cnt} | "
              f"{l0:.2f}-{l1:.2f} | {b:.2f} / {o:.2f} |")
print("\nRatios (below 1: tc faster). pdgemm = the faster of its grids; per-round = the ratio of the bests of each round.")
print("\n| shape | tc plan | tc / COSMA best | tc / COSMA median | per round | tc / pdgemm best | tc / pdgemm median | per round |")
print("|---|---|---|---|---|---|---|---|")
for s in shapes:
    pd = [p for p in progs if p.startswith("pdgemm") and (s, p) in t]
    pbest = min(pd, key=lambda p: stats(s, p)[0])
    pmed = min(pd, key=lambda p: stats(s, p)[1])
    for v in ("tc", "tc-cosma"):
        tb, tm = stats(s, v)[:2]
        cb, cm = stats(s, "cosma")[:2]
        rv, rc, rp = round_best(s, v), round_best(s, "cosma"), {}
        for p in pd:
            for r, x in round_best(s, p).items():
                rp[r] = min(rp.get(r, 1e30), x)
        pr_c = ", ".join(f"{rv[r] / rc[r]:.2f}" for r in sorted(rv))
        pr_p = ", ".join(f"{rv[r] / rp[r]:.2f}" for r in sorted(rv))
        print(f"| {s} | {v} | {tb / cb:.3f} | {tm / cm:.3f} | {pr_c} | {tb / stats(s, pbest)[0]:.3f} ({pbest}) | "
              f"{tm / stats(s, pmed)[1]:.3f} ({pmed}) | {pr_p} |")
print("\ntc's compute phase, last run of the last round (per rank: bytes sent / received, predicted):")
for s in shapes:
    for v in ("tc", "tc-cosma"):
        try:
            rep = json.load(open(f"{out}/report-{v}-{s}.json"))
        except OSError:
            continue
        plan = open(f"{out}/plan-{v}-{s}.txt").read().splitlines()
        chosen = next((l.strip()[1:].split()[:2] for l in plan if l.strip().startswith("*")), ["?", "?"])
        ranks = "; ".join(f"rank {x['rank']}: {x['compute']['bytes_sent']:.4g} / {x['compute']['bytes_received']:.4g} B "
                          f"(predicted {x['compute']['predicted_comm_bytes']:.4g}), load {x['load']['seconds']:.2f} s"
                          for x in rep["ranks"])
        print(f"- {s} {v}: plan {' '.join(chosen)}; {ranks}")
PY
