#!/usr/bin/env bash
# Out of core at 1/8 of the data: 4096^3 on 2 processes with 24 MB each, against
# the model's prediction and against the same product in core.
#   1. Calibrate: write and read rates of the scratch directory (dd, 1 GiB) and the
#      point-to-point network rate (tc-net-bench).
#   2. Plan and compile with disk_bw = the harmonic mean of the two disk rates
#      (the model has one disk rate; reads and writes are balanced here) and the
#      measured net_bw, so the plan picks and predicts for this machine.
#   3. Run in core (bench/programs/matmul-4096-np2.mlir) and out of core; report
#      compute times, measured and predicted bytes, and the predicted time:
#      in-core time + the model's overhead D/Bd + V/Bc ([G] section 2).
# Usage: bench/out-of-core.sh [scratch-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
scratch="${1:-${TMPDIR:-/tmp}}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp="$(mktemp -d "$scratch/tc-ooc.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
rate() { sed -n 's/.* copied, \([0-9.]*\) s.*/\1/p'; }
wsec=$(dd if=/dev/zero of="$tmp/dd" bs=4M count=256 2>&1 | rate)
rsec=$(dd if="$tmp/dd" of=/dev/null bs=4M 2>&1 | rate)
rm -f "$tmp/dd"
net=$(mpirun -np 2 "$build/bin/tc-net-bench" 64 5 | awk '{print $2}')
disk=$(/usr/bin/python3 -c "w=2**30/$wsec; r=2**30/$rsec; print(int(2/(1/w+1/r)))")
echo "calibration: disk write $(/usr/bin/python3 -c "print(int(2**30/$wsec))") B/s, read $(/usr/bin/python3 -c "print(int(2**30/$rsec))") B/s -> disk_bw $disk B/s; net_bw $net B/s"
"$build/bin/tcc" "$root/bench/programs/matmul-4096-np2.mlir" -o "$tmp/incore"
"$build/bin/tcc" "$root/bench/programs/matmul-4096-np2-ooc.mlir" -o "$tmp/ooc" \
  --procs 2 --mem 24MB --disk-bw "$disk" --net-bw "$net" --plan-table "$tmp/plan.txt" 2>/dev/null
grep '^\*' "$tmp/plan.txt" | sed 's/^/chosen plan: /'
grep '^  bound' "$tmp/plan.txt" | sed 's/^  /disk lower bound per process (D23): /'
# The same product with Gao et al.'s per-array tiles only (memory = per_array),
# the yardstick for COSMA's sequential schedule (docs/Derivations.md D29).
sed 's/\(%B\[k, j\]\)$/\1 {tc.plan = #tc.plan<memory = per_array>}/' \
  "$root/bench/programs/matmul-4096-np2-ooc.mlir" > "$tmp/gao.mlir"
"$build/bin/tcc" "$tmp/gao.mlir" -o "$tmp/gao" --procs 2 --mem 24MB --disk-bw "$disk" \
  --net-bw "$net" --plan-table "$tmp/gao.txt" 2>/dev/null
grep '^\*' "$tmp/gao.txt" | sed 's/^/per-array plan: /'
for kind in incore ooc gao incore ooc gao; do
  mpirun -np 2 "$tmp/$kind" --random-inputs 1 --scratch "$tmp" --report "$tmp/$kind.json" --quiet
  cp "$tmp/$kind.json" "$tmp/$kind.$RANDOM.json"
done
/usr/bin/python3 - "$tmp" "$disk" "$net" <<'PY'
import glob, json, sys
tmp, disk, net = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def best(kind):
    reps = [json.load(open(f)) for f in glob.glob(f"{tmp}/{kind}.*.json")]
    return min(reps, key=lambda r: r["total"]["compute"]["seconds"])
inc, ooc = best("incore"), best("ooc")
ti, to = inc["total"]["compute"]["seconds"], ooc["total"]["compute"]["seconds"]
c = ooc["ranks"][0]["compute"]
pd, pc = c["predicted_disk_bytes"], c["predicted_comm_bytes"]
predicted = ti + pd / disk + pc / net
print(f"in core:     {ti:.3f} s compute")
print(f"out of core: {to:.3f} s compute; rank 0 disk {c['bytes_read'] + c['bytes_written']:.4g} B "
      f"(predicted {pd:.4g}), sent {c['bytes_sent']:.4g} B (predicted {pc:.4g}); "
      f"peak RSS {c['peak_rss_bytes'] / 1e6:.0f} MB (baseline {ooc['ranks'][0]['baseline_rss_bytes'] / 1e6:.0f} MB)")
print(f"model:       {predicted:.3f} s = in-core {ti:.3f} + disk {pd / disk:.3f} + network {pc / net:.3f}; "
      f"measured / predicted = {to / predicted:.2f}; out of core / in core = {to / ti:.2f}")
gao = best("gao")
g = gao["ranks"][0]["compute"]
print(f"per-array:   {gao['total']['compute']['seconds']:.3f} s compute; rank 0 disk "
      f"{g['bytes_read'] + g['bytes_written']:.4g} B (predicted {g['predicted_disk_bytes']:.4g}), "
      f"sent {g['bytes_sent']:.4g} B")
PY
