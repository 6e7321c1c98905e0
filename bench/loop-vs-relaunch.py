#!/usr/bin/python3
"""An iterative method in one run against relaunching an executable per iteration.

  bench/loop-vs-relaunch.py [--o 40] [--v 400] [--np 2] [--mem 1GB] [--iterations 10]

The program is test/Integration/Inputs/iterate.tce's first loop at O and V
orbitals (T = V + X + c W T - c' T U until E converges, X computed once): the
same statements are compiled twice by tcc, once with the loop (`iterate
--iterations`: one launch, the intermediates store carries T, the report times
every iteration) and once as one iteration whose T is an input and an output
(the driver of a user without loops: it relaunches the executable, which reads
every input again and writes T for the next launch). Both run on the same
random inputs, the second --iterations times; their final T must agree (1e-10
of its largest magnitude). Prints per iteration: the loop's wall seconds and
its compute phase (slowest rank, from the report) against the relaunch's wall
seconds (mpirun to exit), and their ratio.
"""
import argparse, json, os, subprocess, sys, time

import h5py
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "scripts"))
import tc_run  # noqa: E402

BODY = """
  Y[a,j] = 0.005 * T[a,i] * U[i,j];
  T[a,i] = V[a,i] + X[a,i] + 0.0005 * W[a,b] * T[b,i] - Y[a,i];
  E[] = T[a,i] * V[a,i];
"""


def source(o, v, looped, iterations):
    head = (f"program {'looped' if looped else 'step'};\nrange O = {o};\nrange V = {v};\n"
            "index i, j : O;\nindex a, b : V;\n")
    if looped:
        return (head + "input V[a,i], W[a,b], U[i,j];\noutput T[a,i], E[];\n"
                "X[a,i] = 0.0005 * W[a,b] * V[b,i];\nT[a,i] = V[a,i];\n"
                f"iterate {iterations} {{{BODY}}}\n")
    # One iteration: T comes in and goes out (X recomputed, as a relaunch must).
    return (head + "input V[a,i], W[a,b], U[i,j], T0[a,i];\noutput T[a,i], E[];\n"
            "X[a,i] = 0.0005 * W[a,b] * V[b,i];\nT[a,i] = T0[a,i];\n"
            "iterate 1 {" + BODY + "}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--o", type=int, default=40)
    ap.add_argument("--v", type=int, default=400)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mem", default="1GB")
    ap.add_argument("--iterations", type=int, default=10)
    a = ap.parse_args()
    sys.exit(0 if tc_run.in_work_dir("tc-loop-bench-", run, a) else 1)


def run(a, work):
    tcc = os.environ.get("TCC", os.path.join(root, "build", "bin", "tcc"))
    env = tc_run.mpirun_env()
    exes = {}
    for looped in (True, False):
        path = os.path.join(work, f"{looped}.tce")
        open(path, "w").write(source(a.o, a.v, looped, a.iterations))
        exes[looped] = os.path.join(work, "looped" if looped else "step")
        subprocess.run([tcc, path, "-o", exes[looped], "--procs", str(a.np), "--mem", a.mem],
                       check=True, capture_output=True)
    rng = np.random.default_rng(1)
    inputs = os.path.join(work, "in.h5")
    with h5py.File(inputs, "w") as f:
        f["V"] = rng.uniform(-1, 1, (a.v, a.o))
        f["W"] = rng.uniform(-1, 1, (a.v, a.v))
        f["U"] = rng.uniform(-1, 1, (a.o, a.o))
        f["T0"] = f["V"][...]  # the first guess, as the looped program's T = V
    common = ["--input", f"V={inputs}", "--input", f"W={inputs}", "--input", f"U={inputs}",
              "--quiet"]
    report = os.path.join(work, "looped.json")
    out = os.path.join(work, "looped.h5")
    subprocess.run(["mpirun", "-np", str(a.np), exes[True], *common, "--output", out,
                    "--report", report], env=env, check=True)
    rep = json.load(open(report))
    iterations = rep["loops"][0]["per_iteration"]
    relaunch = []
    t_in = inputs
    for k in range(a.iterations):
        t_out = os.path.join(work, f"step{k}.h5")
        start = time.perf_counter()
        subprocess.run(["mpirun", "-np", str(a.np), exes[False], *common, "--input",
                        f"T0={t_in}", "--output", t_out], env=env, check=True)
        relaunch.append(time.perf_counter() - start)
        with h5py.File(t_out, "a") as f:  # the next launch's T0
            f["T0"] = f["T"][...]
        t_in = t_out
    with h5py.File(out) as f, h5py.File(t_in) as g:
        looped_t, relaunched_t = f["T"][...], g["T"][...]
    err = float(np.max(np.abs(looped_t - relaunched_t)))
    scale = float(np.max(np.abs(looped_t)))
    print(f"O = {a.o}, V = {a.v}, np {a.np}, mem {a.mem}, {a.iterations} iterations; "
          f"final T agrees to {err:.1e} (largest {scale:.1e})")
    print("iteration  loop wall s  loop compute s  relaunch wall s  relaunch / loop")
    for it, r in zip(iterations, relaunch):
        print(f"{it['iteration']:9d}  {it['seconds']:11.4f}  {it['compute']['seconds']:14.4f}  "
              f"{r:15.3f}  {r / it['seconds']:15.1f}")
    loop_mean = sum(it["seconds"] for it in iterations) / len(iterations)
    compute_mean = sum(it["compute"]["seconds"] for it in iterations) / len(iterations)
    relaunch_mean = sum(relaunch) / len(relaunch)
    print(f"mean: loop {loop_mean:.4f} s (compute {compute_mean:.4f} s, "
          f"{loop_mean / compute_mean:.1f}x it), relaunch {relaunch_mean:.3f} s, "
          f"{relaunch_mean / loop_mean:.1f}x the loop")
    return err <= 1e-10 * max(1.0, scale)


if __name__ == "__main__":
    main()
