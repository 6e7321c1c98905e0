#!/usr/bin/python3
"""Water's CCSD over a long loop: what an iteration costs beyond its work, per plan.

  bench/ccsd-long-loop.py [--np 2] [--iterations 2000] [--diis 6] [--runs 3]
                          [--variant NAME="TCC OPTIONS" ...] [--tcc NAME=PATH ...]

examples/ccsd.tce with its loop at a fixed count (`iterate N`, with `diis D`
when --diis is given) on the bundled water STO-3G integrals, compiled once per
variant (tcc options, e.g. `split="--latency 0"` or
`calibrated="--flop-rate 3.15e10"`; default: tcc's defaults) and run
--runs times in turn, variants alternating. Prints per run and variant the
wall seconds per iteration, the load and compute phases (slowest rank, summed
over statements) and wall / compute, all summed over iterations 2-N, and
whether every rank's bytes were as predicted. --tcc NAME=PATH compiles variant
NAME with another tcc (an earlier build, for a before/after comparison).
"""
import argparse, json, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "scripts"))
import tc_run  # noqa: E402

INPUTS = ["foo", "fov", "fvv", "eo", "ev", "Voooo", "Vooov", "Voovv", "Vovov", "Vovvv", "Vvvvv"]
LOOP = re.compile(r"iterate max \d+ until E converges to \S+ diis \d+ \{")


def run(a, work):
    text = open(os.path.join(root, "examples", "ccsd.tce")).read()
    loop = f"iterate {a.iterations}" + (f" diis {a.diis}" if a.diis else "") + " {"
    program = os.path.join(work, "loop.tce")
    open(program, "w").write(LOOP.sub(loop, text, count=1))
    variants = dict(v.split("=", 1) for v in a.variant) or {"defaults": ""}
    compilers = dict(t.split("=", 1) for t in a.tcc)
    default_tcc = os.environ.get("TCC", os.path.join(root, "build", "bin", "tcc"))
    exes = {}
    for name, options in variants.items():
        exes[name] = os.path.join(work, name)
        subprocess.run([compilers.get(name, default_tcc), program, "-o", exes[name],
                        "--procs", str(a.np), "--mem", "1GB", *options.split()],
                       check=True, capture_output=True)
    ints = os.path.join(root, "test", "Integration", "Inputs", "water-sto3g.h5")
    inputs = sum([["--input", f"{n}={ints}"] for n in INPUTS], [])
    env = tc_run.mpirun_env()
    print(f"water STO-3G, {loop[:-2]}, np {a.np}; sums over iterations 2-{a.iterations}")
    all_ok = True
    for r in range(a.runs):
        for name, exe in exes.items():
            report = os.path.join(work, name + ".json")
            subprocess.run(["mpirun", "-np", str(a.np), exe, *inputs, "--quiet", "--output",
                            os.path.join(work, name + ".h5"), "--report", report],
                           env=env, check=True)
            rep = json.load(open(report))
            its = rep["loops"][0]["per_iteration"][1:]
            wall = sum(i["seconds"] for i in its)
            load = sum(i["load"]["seconds"] for i in its)
            compute = sum(i["compute"]["seconds"] for i in its)
            ok = all(tc_run.bytes_as_predicted(k["compute"]) and
                     tc_run.hand_over_as_predicted(k["hand_over"])
                     for i in rep["loops"][0]["per_iteration"] for k in i["ranks"])
            all_ok &= ok
            n = len(its)
            print(f"run {r + 1} {name:>12}: {wall / n * 1e6:7.0f} us per iteration, load "
                  f"{load / n * 1e6:5.0f} us, compute {compute / n * 1e6:5.0f} us, "
                  f"wall / compute {wall / compute:.2f}x, bytes "
                  f"{'as predicted' if ok else 'NOT as predicted'}", flush=True)
    return all_ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--diis", type=int, help="DIIS over this many iterations")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variant", action="append", default=[],
                    help='NAME="tcc options" (repeatable)')
    ap.add_argument("--tcc", action="append", default=[],
                    help="NAME=PATH: compile variant NAME with this tcc")
    a = ap.parse_args()
    sys.exit(0 if tc_run.in_work_dir("tc-ccsd-long-", run, a) else 1)


if __name__ == "__main__":
    main()
