#!/usr/bin/env bash
# Block-sparse out of core (Krishnamoorthy et al. 6.4, issue 16): the CCD
# sub-computation's second statement
#   i0[p3,p4,h1,h2] += t[p3,p5,h1,h6] * i1[h6,p4,h2,p5]
# with O and V in four symmetry segments each and every tensor totally
# symmetric, on NP processes with MEM each (below the bricks: out of core),
# three ways in the same run:
#   - hypergraph: tc's schedule (tc-plan-block-sparse, one- or two-level stages);
#   - next-task:  the locality-oblivious baseline (tasks in pool order to the
#                 least-loaded process, bricks' homes round-robin, stages of
#                 consecutive tasks; --assignment next-task);
#   - dense:      the same contraction on dense tensors (all blocks stored),
#                 Gao et al.'s out-of-core plan.
# Each is checked against numpy (run-block-sparse.py / run-contraction.py) and
# every rank's bytes against the prediction; the table gives the best of REPS
# runs' compute-phase seconds (slowest rank) and the bytes summed over ranks.
# Usage: bench/block-sparse.sh [NP] [MEM] [O segments] [V segments] [REPS]
#   e.g. bench/block-sparse.sh 2 2MB 8:8:4:4 20:20:12:12 3
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
np="${1:-2}" mem="${2:-2MB}" osegs="${3:-8:8:4:4}" vsegs="${4:-20:20:12:12}" reps="${5:-3}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d "${TMPDIR:-/tmp}/tc-block-bench.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
$py - "$tmp" "$osegs" "$vsegs" <<'PY'
import sys
tmp, o, v = sys.argv[1], [int(x) for x in sys.argv[2].split(":")], [int(x) for x in sys.argv[3].split(":")]
O, V = sum(o), sum(v)
def ty(dims, segs, blocks=True):
    shape = "x".join(str(d) for d in dims)
    if not blocks:
        return f"tensor<{shape}xf64>"
    return f"tensor<{shape}xf64, #tc.blocks<{[s for s in segs]}, symmetry = 0>>"
for blocks, name in [(True, "blocks"), (False, "dense")]:
    T = ty([V, V, O, O], [v, v, o, o], blocks)
    I1 = ty([O, V, O, V], [o, v, o, v], blocks)
    open(f"{tmp}/{name}.mlir", "w").write(f"""module {{
  func.func @ccd_i0(%i0: {T} {{tc.name = "i0"}}, %t: {T} {{tc.name = "t"}}, %i1: {I1} {{tc.name = "i1"}}) -> {T} {{
    %r = tc.contract %i0[p3, p4, h1, h2] += %t[p3, p5, h1, h6] * %i1[h6, p4, h2, p5] : {T}, {I1} -> {T}
    return %r : {T}
  }}
}}
""")
PY
common=(--procs "$np" --mem "$mem" --net-bw 1GB/s --disk-bw 200MB/s)
"$build/bin/tcc" "$tmp/blocks.mlir" -o "$tmp/hypergraph" "${common[@]}" --plan-table "$tmp/hypergraph.txt" 2>/dev/null
"$build/bin/tcc" "$tmp/blocks.mlir" -o "$tmp/next-task" "${common[@]}" --assignment next-task --plan-table "$tmp/next-task.txt" 2>/dev/null
"$build/bin/tcc" "$tmp/dense.mlir" -o "$tmp/dense" "${common[@]}" --plan-table "$tmp/dense.txt" 2>/dev/null
grep -h "^block-sparse contraction" "$tmp/hypergraph.txt" "$tmp/next-task.txt" | sed 's/^/plan: /'
grep -h '^\*' "$tmp/dense.txt" | sed 's/^/dense plan: /'
segs="p3=$vsegs,p4=$vsegs,p5=$vsegs,h1=$osegs,h2=$osegs,h6=$osegs"
spec="i0[p3,p4,h1,h2] += t[p3,p5,h1,h6] * i1[h6,p4,h2,p5]"
extents=$($py -c "o=sum(map(int,'$osegs'.split(':'))); v=sum(map(int,'$vsegs'.split(':'))); print(f'p3={v},p4={v},p5={v},h1={o},h2={o},h6={o}')")
for r in $(seq "$reps"); do
  for kind in hypergraph next-task; do
    $py "$root/scripts/run-block-sparse.py" "$tmp/$kind" --np "$np" --spec "$spec" --segments "$segs" \
      --scratch "$tmp" --check-bytes --save-report "$tmp/$kind.$r.json" | grep -q "^OK" \
      || { echo "$kind: FAILED" >&2; exit 1; }
  done
  $py "$root/scripts/run-contraction.py" "$tmp/dense" --np "$np" --spec "$spec" --extents "$extents" \
    --scratch "$tmp" --check-bytes --save-report "$tmp/dense.$r.json" | grep -q "^OK" \
    || { echo "dense: FAILED" >&2; exit 1; }
done
$py - "$tmp" "$reps" <<'PY'
import json, sys
tmp, reps = sys.argv[1], int(sys.argv[2])
print("| scheme | compute s (best of %d) | disk bytes | bytes sent | flops |" % reps)
print("|---|---|---|---|---|")
for kind in ["hypergraph", "next-task", "dense"]:
    runs = [json.load(open(f"{tmp}/{kind}.{r}.json")) for r in range(1, reps + 1)]
    secs = min(max(x["compute"]["seconds"] for x in run["ranks"]) for run in runs)
    last = runs[-1]["ranks"]
    disk = sum(x["compute"]["bytes_read"] + x["compute"]["bytes_written"] for x in last)
    sent = sum(x["compute"]["bytes_sent"] for x in last)
    flops = sum(x["compute"]["flops"] for x in last)
    print(f"| {kind} | {secs:.3f} | {disk:.4g} | {sent:.4g} | {flops:.4g} |")
PY
