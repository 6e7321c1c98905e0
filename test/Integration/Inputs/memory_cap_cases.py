#!/usr/bin/python3
"""memory_cap_cases.py TEST_FILE --work DIR --run-contraction SCRIPT

Runs every case of TEST_FILE's table, one line per case:

  CASE: NAME | P | MEM | SPEC | EXTENTS | PLAN

(PLAN: the fields of a hand-written #tc.plan, or empty for the planner's own
choice). Each case becomes a module of the one contraction SPEC with those
extents, compiled with `tcc --procs P --mem MEM` (tcc from PATH) and run by
run-contraction.py on random inputs: the result against numpy, every rank's
bytes against the prediction (--check-bytes) and every rank's peak RSS within
MEM + 4 MiB (one staging chunk) of the fixed overhead, measured as the largest
peak RSS of a 64 x 64 x 64 product on P processes (--max-rss-over; README,
"Memory"). Prints the plan chosen and run-contraction.py's lines, each after
"case NAME: ", then "case NAME: PASSED" or "case NAME: FAILED"; exits non-zero
if any case failed.
"""
import argparse, os, re, subprocess, sys

UNITS = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}
STAGING = 4 << 20


def module(spec, extents, plan):
    ops = re.findall(r"(\w+)\[([\w, ]*)\]", spec)
    ty = {n: "tensor<" + "x".join(str(extents[l.strip()]) for l in ls.split(",")) + "xf64>"
          for n, ls in ops}
    (cn, cl), (an, al), (bn, bl) = ops
    attr = f" {{tc.plan = #tc.plan<{plan}>}}" if plan else ""
    return f"""module {{
  func.func @f(%A: {ty[an]}, %B: {ty[bn]}, %C: {ty[cn]}) -> {ty[cn]} {{
    %r = tc.contract %{cn}[{cl}] += %{an}[{al}] * %{bn}[{bl}]{attr}
           : {ty[an]}, {ty[bn]} -> {ty[cn]}
    return %r : {ty[cn]}
  }}
}}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test_file")
    ap.add_argument("--work", required=True)
    ap.add_argument("--run-contraction", required=True)
    a = ap.parse_args()
    cases = []
    for line in open(a.test_file):
        m = re.match(r"\s*#\s*CASE:\s*(.*)", line)
        if m:
            cases.append([f.strip() for f in m[1].split("|")])
    os.makedirs(a.work, exist_ok=True)
    run = lambda cmd: subprocess.run(cmd, capture_output=True, text=True)
    failed = False
    baselines = {}
    for name, procs, mem, spec, extents, plan in cases:
        ext = {k: int(v) for k, v in (kv.split("=") for kv in extents.split(","))}
        m = re.fullmatch(r"(\d+)([KMG]i?B)", mem)
        allowed = int(int(m[1]) * UNITS[m[2]]) + STAGING
        # The fixed overhead on this process count (test/Integration/memory-cap.mlir):
        # a 64 x 64 x 64 product.
        if procs not in baselines:
            tiny = os.path.join(a.work, f"tiny-{procs}")
            spec64, ext64 = "C[i,j] += A[i,k] * B[k,j]", {"i": 64, "j": 64, "k": 64}
            open(tiny + ".mlir", "w").write(module(spec64, ext64, ""))
            r = run(["tcc", tiny + ".mlir", "-o", tiny, "--procs", procs, "--mem", "64MB"])
            r = r if r.returncode else run(
                [sys.executable, a.run_contraction, tiny, "--np", procs, "--spec", spec64,
                 "--extents", "i=64,j=64,k=64", "--save-report", tiny + ".json"])
            if r.returncode:
                sys.exit(f"baseline on {procs} processes failed:\n{r.stdout}{r.stderr}")
            baselines[procs] = tiny + ".json"
        prog = os.path.join(a.work, name)
        open(prog + ".mlir", "w").write(module(spec, ext, plan))
        r = run(["tcc", prog + ".mlir", "-o", prog, "--procs", procs, "--mem", mem,
                 "--plan-table", prog + ".plan"])
        if r.returncode == 0:
            chosen = [l for l in open(prog + ".plan") if l.startswith("*")]
            print(f"case {name}: plan {' '.join(chosen[0][1:].split()[:5]) if chosen else '?'}")
            r = run([sys.executable, a.run_contraction, prog, "--np", procs, "--spec", spec,
                     "--extents", extents, "--scratch", os.path.join(a.work, "scratch"),
                     "--check-bytes", "--max-rss-over", f"{baselines[procs]}:{allowed}"])
        for out in (r.stdout + r.stderr).splitlines():
            print(f"case {name}: {out}")
        ok = r.returncode == 0 and r.stdout.rstrip().endswith("OK")
        failed |= not ok
        print(f"case {name}: {'PASSED' if ok else 'FAILED'}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
