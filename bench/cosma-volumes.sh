#!/usr/bin/env bash
# Issue 13: communication volume per rank of tc's COSMA plans against COSMA
# v2.8.4 (its cosma_statistics tool) and the lower bound.
#
# Usage: bench/cosma-volumes.sh [BUILD_DIR]     (default: build)
# Env:   COSMA_PEER_DIR  COSMA v2.8.4 build with stats.sh (default /work/peers/cosma);
#                        when absent the COSMA columns read "absent".
#        OUT             output directory (default bench/results)
# Writes $OUT/cosma-stats.csv (COSMA's numbers), $OUT/cosma-volumes.csv (both
# joined, with the bound and the ratios), $OUT/cosma-volumes.md (the Markdown
# table) and, when gnuplot is installed, $OUT/cosma-volumes.svg.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
tool=$build/bin/tc-cosma-volumes
peer=${COSMA_PEER_DIR:-/work/peers/cosma}
out=${OUT:-$root/bench/results}
[ -x "$tool" ] || { echo "missing $tool: cmake --build $build --target tc-cosma-volumes" >&2; exit 1; }
mkdir -p "$out"

cosma_args=()
if [ -x "$peer/stats.sh" ]; then
  csv=$out/cosma-stats.csv
  log=$out/cosma-stats.log
  echo "shape,m,n,k,P,status,P_used,strategy,expanded_avg_B,received_avg_B,received_max_B" >"$csv"
  : >"$log"
  while read -r shape m n k P; do
    echo "== $shape $m $n $k $P" >>"$log"
    if res=$(timeout 600 "$peer/stats.sh" "$m" "$n" "$k" "$P" 2>&1); then
      echo "$res" | grep -v '^Local [mnk] = ' >>"$log"
      # SUMMARY m n k P_req P_used [strategy] GB expanded_avg received_avg received_max ...
      line=$(grep '^SUMMARY ' <<<"$res")
      strategy=$(sed 's/.*\[\(.*\)\].*/\1/' <<<"$line")
      read -r used exp ravg rmax < <(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /\]$/) break;
                                            print $6, $(i+2), $(i+3), $(i+4) }' <<<"$line")
      echo "$shape,$m,$n,$k,$P,ok,$used,$strategy,$exp,$ravg,$rmax" >>"$csv"
    else
      # COSMA's own Strategy check throws for some shapes (e.g. largeK/largeM at
      # P = 4096): recorded as a crash, no number.
      echo "$res" | tail -n 3 >>"$log"
      echo "$shape,$m,$n,$k,$P,crash,0,,0,0,0" >>"$csv"
    fi
  done < <("$tool" --list-cases)
  cosma_args=(--cosma "$csv")
else
  echo "COSMA peer not found at $peer (set COSMA_PEER_DIR): tc and the bound only" >&2
fi

"$tool" "${cosma_args[@]}" --csv "$out/cosma-volumes.csv" | tee "$out/cosma-volumes.md"

if ! command -v gnuplot >/dev/null; then
  echo "gnuplot not found (apt-get install -y gnuplot-nox): no plot" >&2
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One file per shape, sorted by P: P tc_recv_max tc_recv_avg cosma_recv_max bound (MB).
for shape in square largeK largeM flat; do
  awk -F, -v s="$shape" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 == s {
      cosma = $c["cosma_status"] == "ok" ? $c["cosma_recv_max_B"] / 1e6 : "NaN";
      print $c["P"], $c["tc_recv_max_B"] / 1e6, $c["tc_recv_avg_B"] / 1e6, cosma,
            $c["bound_recv_B"] / 1e6 }' "$out/cosma-volumes.csv" |
    sort -n >"$tmp/$shape.dat"
done
gnuplot <<EOF
set terminal svg size 1100,850 dynamic font "sans,11"
set output "$out/cosma-volumes.svg"
set multiplot layout 2,2 title "MB received by the busiest rank vs P (memory unlimited; where tc's line is hidden it equals COSMA's)"
set logscale xy
set xlabel "P (ranks)"
set ylabel "MB received per rank"
set key top right
set grid
do for [s in "square largeK largeM flat"] {
  set title s
  f = "$tmp/".s.".dat"
  plot f using 1:4 with linespoints lw 5 lc rgb "#9ecae1" pt 6 ps 1.5 title "COSMA v2.8.4", \
       f using 1:2 with linespoints lw 1.5 lc rgb "#d62728" pt 7 ps 0.6 title "tc (COSMA plan)", \
       f using 1:5 with lines dt 2 lw 2 lc rgb "black" title "lower bound"
}
unset multiplot
EOF
echo "wrote $out/cosma-volumes.svg"
