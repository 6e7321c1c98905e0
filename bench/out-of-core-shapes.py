#!/usr/bin/python3
"""Out-of-core disk traffic against its bounds, for every shape class and P = 2..8.

  bench/out-of-core-shapes.py [--procs 2,3,...,8] [--fraction 8] [--run P,...]
                              [--disk-bw 1GB/s] [--net-bw 3GB/s] [--accumulate]

For each shape class (square, tall, wide, flat: small k, large k) and process
count, plans C = A * B (or C += A * B with --accumulate) with `tcc --procs P
--mem M`, M a 1/FRACTION share of each process's part of A, B and C, and
prints the chosen plan's disk bytes per process (reads and writes, the most
any rank moves) against two bounds per process (docs/Derivations.md D51):

  theorem 1   2 m n k / (P sqrt(S)) + m n / P (+ m n / P more with
              --accumulate: C's old value is read): COSMA's Theorem 1 for one
              process's share of the work (S = M / 8 words), the yardstick of
              the out-of-core issue. It bounds what a process brings into its
              memory from anywhere, not its disk bytes alone: a plan that
              receives operands over the network instead of reading them goes
              below it.
  inputs      (m k + k n + m n) / P (+ m n / P): every input read from disk
              once and C written once, the mean over the P disks. Where it
              exceeds Theorem 1 (large k: the inputs are more than the work
              needs to re-read) it is the yardstick instead.

The issue's two examples are added as rows of their own (10000 x 10000 x
1000 on 5 processes with 30 MB, 2048 x 16384 x 2048 on 4 with 16 MB). With
--run P,... the cells of those process counts also run (random inputs,
mpirun, run-contraction.py --check-bytes: every rank's bytes equal the
prediction) at the same plan.
"""
import argparse, math, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

SHAPES = [("square", 4096, 4096, 4096), ("tall", 16384, 2048, 2048),
          ("wide", 2048, 16384, 2048), ("flat", 10000, 10000, 1000),
          ("large k", 2048, 2048, 65536)]
EXAMPLES = [("flat (issue)", 10000, 10000, 1000, 5, 30e6),
            ("wide (issue)", 2048, 16384, 2048, 4, 16e6)]


def module(m, n, k, accumulate):
    ta, tb, tc = f"tensor<{m}x{k}xf64>", f"tensor<{k}x{n}xf64>", f"tensor<{m}x{n}xf64>"
    if accumulate:
        return (f"func.func @f(%A: {ta}, %B: {tb}, %C: {tc}) -> {tc} {{\n"
                f"  %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] : {ta}, {tb} -> {tc}\n"
                f"  return %r : {tc}\n}}\n")
    return (f"func.func @f(%A: {ta}, %B: {tb}) -> {tc} {{\n"
            f"  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : {ta}, {tb} -> {tc}\n"
            f"  return %r : {tc}\n}}\n")


def bounds(m, n, k, P, mem, accumulate):
    S = mem / 8
    outputs = (2 if accumulate else 1) * m * n
    theorem1 = 8 * (2 * m * n * k / (P * math.sqrt(S)) + outputs / P)
    inputs = 8 * (m * k + k * n + outputs) / P
    return theorem1, inputs


def plan(tcc, work, m, n, k, P, mem, a):
    src = os.path.join(work, "c.mlir")
    open(src, "w").write(module(m, n, k, a.accumulate))
    table, exe = os.path.join(work, "c.txt"), os.path.join(work, "c")
    subprocess.run([tcc, src, "-o", exe, "--procs", str(P), "--mem", f"{int(mem)}B",
                    "--disk-bw", a.disk_bw, "--net-bw", a.net_bw, "--plan-table", table],
                   check=True, capture_output=True)
    chosen = next(line for line in open(table) if line.startswith("*"))
    fields = chosen.split()
    return exe, " ".join(fields[1:-3]), float(fields[-3]), float(fields[-2])


def run(exe, m, n, k, P, a):
    spec = "C[i,j] += A[i,k] * B[k,j]" if a.accumulate else "C[i,j] = A[i,k] * B[k,j]"
    r = subprocess.run([sys.executable, os.path.join(root, "scripts", "run-contraction.py"), exe,
                        "--np", str(P), "--spec", spec, "--extents", f"i={m},j={n},k={k}",
                        "--check-bytes"], capture_output=True, text=True)
    return "bytes as predicted" if r.returncode == 0 else "FAILED: " + r.stdout[-300:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", default="2,3,4,5,6,7,8")
    ap.add_argument("--fraction", type=float, default=8)
    ap.add_argument("--run", default="")
    ap.add_argument("--disk-bw", default="1GB/s")
    ap.add_argument("--net-bw", default="3GB/s")
    ap.add_argument("--accumulate", action="store_true")
    a = ap.parse_args()
    tcc = os.environ.get("TCC", os.path.join(root, "build", "bin", "tcc"))
    runs = {int(p) for p in a.run.split(",") if p}
    cells = []
    for name, m, n, k in SHAPES:
        share = 8 * (m * k + k * n + m * n)
        for P in (int(p) for p in a.procs.split(",")):
            cells.append((name, m, n, k, P, share / P / a.fraction))
    cells += [(name, m, n, k, P, mem) for name, m, n, k, P, mem in EXAMPLES]
    print(f"{'C += A * B' if a.accumulate else 'C = A * B'}, disk_bw {a.disk_bw}, "
          f"net_bw {a.net_bw}; memory 1/{a.fraction:g} of a process's share")
    print("| shape | m x n x k | P | memory | plan | disk B / process | sent B | "
          "x theorem 1 | x inputs once | x max of both |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="tc-ooc-shapes-") as work:
        for name, m, n, k, P, mem in cells:
            exe, chosen, disk, sent = plan(tcc, work, m, n, k, P, mem, a)
            theorem1, inputs = bounds(m, n, k, P, mem, a.accumulate)
            yardstick = max(theorem1, inputs)
            worst = max(worst, disk / yardstick)
            note = f" ({run(exe, m, n, k, P, a)})" if P in runs else ""
            print(f"| {name} | {m} x {n} x {k} | {P} | {mem / 1e6:.1f} MB | {chosen} | "
                  f"{disk:.4g}{note} | {sent:.4g} | {disk / theorem1:.3f} | {disk / inputs:.3f} | "
                  f"{disk / yardstick:.3f} |")
    print(f"worst against the larger of the two: {worst:.3f}")


if __name__ == "__main__":
    main()
