#!/usr/bin/python3
"""memory_cap_cases.py TEST_FILE --work DIR --scripts DIR

Runs every case of TEST_FILE's table, one line per case:

  CASE: NAME | P | MEM | SPEC | EXTENTS | PLAN

(PLAN: the fields of a hand-written #tc.plan, or empty for the planner's own
choice). Each case becomes a module of the one contraction SPEC with those
extents, run by run-contraction.py, or, when SPEC is a .tce program (a path
relative to TEST_FILE's directory; EXTENTS and PLAN are `-`), that program,
run by run-program.py. It is compiled with `tcc --procs P --mem MEM` (tcc
from PATH) and run on random inputs: the result against numpy, every rank's
bytes against the prediction (--check-bytes) and every rank's peak RSS within
MEM + 4 MiB (one staging chunk) of the fixed overhead, measured as the largest
peak RSS of a 64 x 64 x 64 product on P processes, or of the program at tiny
extents (--max-rss-over; README, "Memory"). Prints the plan chosen and run-contraction.py's lines, each after
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


def tiny_program(text):
    """The program `text` at tiny extents (README, "Memory": its fixed
    overhead): every range of extent 2, or of one element per segment."""
    def shrink(m):
        segments = m[2]
        if segments is None:
            return f"{m[1]} = 2;"
        n = len(segments.split(","))
        return f"{m[1]} = {n} : segments [{', '.join(['1'] * n)}];"
    return re.sub(r"(range\s+\w+)\s*=\s*\d+\s*(?::\s*segments\s*\[([\d,\s]*)\]\s*)?;",
                  shrink, text)


def chosen_plan(table, program):
    """The plan of a --plan-table: the chosen candidate's first fields (a
    contraction), or the kinds of plan of a program's statements."""
    lines = open(table).read().splitlines()
    if not program:
        chosen = [l for l in lines if l.startswith("*")]
        return " ".join(chosen[0][1:].split()[:5]) if chosen else "?"
    kinds = []
    for l in lines:
        block = re.match(r"block-sparse contraction .*\((\w+),", l)
        if block:
            kinds.append(block[1].replace("_", "-"))
        elif l.startswith("operator tree"):
            kinds.append("fused")
        elif l.startswith("*"):
            kinds.append(" ".join(l[1:].split()[:2]))
    return ", ".join(sorted(set(kinds))) or "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test_file")
    ap.add_argument("--work", required=True)
    ap.add_argument("--scripts", required=True, help="tc's scripts/ directory")
    a = ap.parse_args()
    cases = []
    for line in open(a.test_file):
        m = re.match(r"\s*#\s*CASE:\s*(.*)", line)
        if m:
            cases.append([f.strip() for f in m[1].split("|")])
    os.makedirs(a.work, exist_ok=True)
    run = lambda cmd: subprocess.run(cmd, capture_output=True, text=True)
    run_contraction = os.path.join(a.scripts, "run-contraction.py")
    run_program = os.path.join(a.scripts, "run-program.py")
    failed = False
    baselines = {}
    for name, procs, mem, spec, extents, plan in cases:
        m = re.fullmatch(r"(\d+)([KMG]i?B)", mem)
        allowed = int(int(m[1]) * UNITS[m[2]]) + STAGING
        program = spec.endswith(".tce")
        source = os.path.join(os.path.dirname(os.path.abspath(a.test_file)), spec)
        # The fixed overhead on this process count: a 64 x 64 x 64 product
        # (test/Integration/memory-cap.mlir), or the program at tiny extents.
        key = (spec if program else "", procs)
        if key not in baselines:
            tiny = os.path.join(a.work, f"tiny-{len(baselines)}")
            if program:
                open(tiny + ".tce", "w").write(tiny_program(open(source).read()))
                r = run(["tcc", tiny + ".tce", "-o", tiny, "--procs", procs, "--mem", "64MB"])
                r = r if r.returncode else run(
                    [sys.executable, run_program, tiny, "--tce", tiny + ".tce", "--np", procs,
                     "--save-report", tiny + ".json"])
            else:
                spec64, ext64 = "C[i,j] += A[i,k] * B[k,j]", {"i": 64, "j": 64, "k": 64}
                open(tiny + ".mlir", "w").write(module(spec64, ext64, ""))
                r = run(["tcc", tiny + ".mlir", "-o", tiny, "--procs", procs, "--mem", "64MB"])
                r = r if r.returncode else run(
                    [sys.executable, run_contraction, tiny, "--np", procs, "--spec", spec64,
                     "--extents", "i=64,j=64,k=64", "--save-report", tiny + ".json"])
            if r.returncode:
                sys.exit(f"baseline {tiny} on {procs} processes failed:\n{r.stdout}{r.stderr}")
            baselines[key] = tiny + ".json"
        prog = os.path.join(a.work, name)
        if not program:
            source = prog + ".mlir"
            ext = {k: int(v) for k, v in (kv.split("=") for kv in extents.split(","))}
            open(source, "w").write(module(spec, ext, plan))
        r = run(["tcc", source, "-o", prog, "--procs", procs, "--mem", mem,
                 "--plan-table", prog + ".plan"])
        if r.returncode == 0:
            print(f"case {name}: plan {chosen_plan(prog + '.plan', program)}")
            checks = ["--np", procs, "--scratch", os.path.join(a.work, "scratch"),
                      "--check-bytes", "--max-rss-over", f"{baselines[key]}:{allowed}"]
            r = run([sys.executable, run_program, prog, "--tce", source] + checks if program
                    else [sys.executable, run_contraction, prog, "--spec", spec,
                          "--extents", extents] + checks)
        for out in (r.stdout + r.stderr).splitlines():
            print(f"case {name}: {out}")
        ok = r.returncode == 0 and r.stdout.rstrip().endswith("OK")
        failed |= not ok
        print(f"case {name}: {'PASSED' if ok else 'FAILED'}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
