#!/usr/bin/env bash
# Issue 17's limits on compile time: operation minimization of a product of 8
# tensors (under 1 s) and compiling the CCD program (examples/ccd.tce, its
# ranges set to O and V) with tcc (under 30 s), dense and block-sparse
# (examples/ccd-blocks.tce, each range cut into four near-equal irreps). Wall time of the whole tool
# process, best of 3; the limits are the yardstick.
# Usage: bench/program-compile.sh [O] [V] [tcc options...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TC_BUILD_DIR:-$root/build}"
O="${1:-40}" V="${2:-160}"
shift $(( $# < 2 ? $# : 2 ))
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

best_of_3() { # prints the best wall time of three runs of "$@", in seconds
  local best=999999 t
  for _ in 1 2 3; do
    t=$(/usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1)
    best=$(echo "$t $best" | awk '{print ($1 < $2) ? $1 : $2}')
  done
  echo "$best"
}

# A product of 8 tensors of rank 4 over 16 labels (each label in two tensors or
# in one tensor and the result), extents 10 to 40.
cat > "$tmp/product8.mlir" <<'MLIR'
func.func @product8(%A: tensor<10x20x30x40xf64>, %B: tensor<40x11x21x31xf64>,
                    %C: tensor<31x12x22x32xf64>, %D: tensor<32x13x23x33xf64>,
                    %E: tensor<33x14x24x34xf64>, %F: tensor<34x15x25x35xf64>,
                    %G: tensor<35x16x26x36xf64>, %H: tensor<36x10x27x20xf64>)
    -> tensor<30x21x22x23xf64> {
  %S = tc.multi_contract [c, f, i, l] = %A[a, b, c, d] * %B[d, e, f, g] * %C[g, h, i, j]
         * %D[j, k, l, m] * %E[m, n, o, p] * %F[p, q, r, s] * %G[s, t, u, v] * %H[v, a, w, b]
       : tensor<10x20x30x40xf64>, tensor<40x11x21x31xf64>, tensor<31x12x22x32xf64>,
         tensor<32x13x23x33xf64>, tensor<33x14x24x34xf64>, tensor<34x15x25x35xf64>,
         tensor<35x16x26x36xf64>, tensor<36x10x27x20xf64> -> tensor<30x21x22x23xf64>
  return %S : tensor<30x21x22x23xf64>
}
MLIR
t=$(best_of_3 "$build/bin/tc-opt" "$tmp/product8.mlir" --tc-minimize-operations -o "$tmp/out.mlir")
"$build/bin/tc-opt" "$tmp/product8.mlir" --tc-minimize-operations | grep -o 'tc.flops = {[^}]*}'
echo "operation minimization of 8 tensors (tc-opt process): $t s (limit 1 s)"

sed -e "s/^range O = [0-9]*;/range O = $O;/" -e "s/^range V = [0-9]*;/range V = $V;/" \
  "$root/examples/ccd.tce" > "$tmp/ccd.tce"
opts=(--procs 4 --mem 64MB --net-bw 1GB/s --disk-bw 200MB/s "$@")
t=$(best_of_3 "$build/bin/tcc" "$tmp/ccd.tce" -o "$tmp/ccd" "${opts[@]}")
n=$("$build/bin/tcc" "$tmp/ccd.tce" -o "$tmp/ccd.mlir" --emit mlir "${opts[@]}" 2>/dev/null &&
    grep -c 'tc.begin_statement' "$tmp/ccd.mlir")
echo "tcc examples/ccd.tce at O = $O, V = $V (${opts[*]}): $n statements, $t s (limit 30 s)"
t=$(best_of_3 "$build/bin/tcc" "$tmp/ccd.tce" -o "$tmp/ccd" --procs 1-4 --mem 64MB --net-bw 1GB/s --disk-bw 200MB/s)
echo "the same for --procs 1-4 (a plan per count, one executable): $t s (limit 30 s)"

# Four near-equal segments of an extent, as "[a, b, c, d]".
quarters() { awk -v n="$1" 'BEGIN { q = int(n / 4); r = n % 4; s = "[";
  for (k = 0; k < 4; ++k) s = s (k ? ", " : "") (q + (k < r)); print s "]" }'; }
sed -e "s/^range O = .*;/range O = $O : segments $(quarters "$O");/" \
    -e "s/^range V = .*;/range V = $V : segments $(quarters "$V");/" \
  "$root/examples/ccd-blocks.tce" > "$tmp/ccd-blocks.tce"
t=$(best_of_3 "$build/bin/tcc" "$tmp/ccd-blocks.tce" -o "$tmp/ccd-blocks" "${opts[@]}")
echo "tcc examples/ccd-blocks.tce at O = $O, V = $V (${opts[*]}): $t s (limit 30 s)"
t=$(best_of_3 "$build/bin/tcc" "$tmp/ccd-blocks.tce" -o "$tmp/ccd-blocks" --procs 4 --mem 4MB \
    --net-bw 1GB/s --disk-bw 200MB/s)
echo "the same out of core (--mem 4MB: staged task pools, hypergraph schedules): $t s (limit 30 s)"
