# Sourced by the wall-time benchmarks (matmul-shapes-np2.sh, pumma-vs-pdgemm.sh):
# running a program only when the machine is quiet, and measuring how much of the
# 2 cores other processes took meanwhile: at most BUSY_MAX (default 0.15) before
# a run and OTHERS_MAX (default 0.05) during one.
busy_max="${BUSY_MAX:-0.15}"
others_max="${OTHERS_MAX:-0.05}"

# Fraction of the 2 cores busy over one second while this script runs nothing.
busy() {
  local a b
  a=($(head -1 /proc/stat)); sleep 1; b=($(head -1 /proc/stat))
  awk -v u=$(( (b[1]+b[2]+b[3]+b[6]+b[7]) - (a[1]+a[2]+a[3]+a[6]+a[7]) )) \
      -v t=$(( (b[1]+b[2]+b[3]+b[4]+b[5]+b[6]+b[7]) - (a[1]+a[2]+a[3]+a[4]+a[5]+a[6]+a[7]) )) \
      'BEGIN { printf "%.3f", (t > 0 ? u / t : 0) }'
}
quiet_machine() { # waits (up to 30 min) for the other processes to leave the cores
  local b waited=0
  while :; do
    b=$(busy)
    if awk -v b="$b" -v m="$busy_max" 'BEGIN { exit !(b <= m) }'; then break; fi
    if [ "$waited" -ge 1800 ]; then echo "# machine still busy ($b), measuring anyway" >&2; break; fi
    sleep 20; waited=$((waited + 21))
  done
  echo "$b"
}
load1() { cut -d' ' -f1 /proc/loadavg; }

# measured OUT cmd...: runs cmd (stdout to the file OUT, or left alone if OUT is
# -) once the machine is quiet and
# sets $busy_before, $load_before and $others: the fraction of the 2 cores that
# processes other than this script's used meanwhile (all CPU time minus that of
# this shell's children). A run with others > others_max is repeated, up to 4
# times; the log keeps the last attempt's figure.
ticks() { sed 's/.*) //' "/proc/$$/stat" | awk '{ print $14 + $15 }'; }
cpu() { head -1 /proc/stat | awk '{ print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8 }'; }
measured() {
  local mout=$1 attempt t0 t1 b0 b1 a0 a1
  shift
  for attempt in 1 2 3 4; do
    busy_before=$(quiet_machine); load_before=$(load1)
    read -r b0 a0 <<<"$(cpu)"; t0=$(ticks)
    if [ "$mout" = - ]; then "$@"; else "$@" >"$mout"; fi
    read -r b1 a1 <<<"$(cpu)"; t1=$(ticks)
    others=$(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) -v t=$((t1 - t0)) \
      'BEGIN { x = a > 0 ? (b - t) / a : 0; printf "%.3f", (x < 0 ? 0 : x) }')
    if awk -v o="$others" -v m="$others_max" 'BEGIN { exit !(o <= m) }'; then return; fi
    [ "$attempt" = 4 ] && { echo "# other processes used $others of the cores during the run: keeping it" >&2; return; }
    echo "# other processes used $others of the cores during the run: repeating it" >&2
  done
}
