#!/usr/bin/python3
"""Runs a program built by tcc on random HDF5 inputs under mpirun and checks it.

  run-contraction.py PROG --np P --spec "C[i,j] += A[i,k] * B[j,k]" \
      --extents i=8,j=8,k=8 [--dtype f32] [--scratch DIR] [--check-bytes]
      [-- extra program args]

The spec may have more operands ("S[i,l] = A[i,k] * B[k,j] * C[j,l]": the whole
expression of an operator tree). The result must equal numpy's einsum (the
serial reference, in f64 on the same inputs) within 1e-12 relative
(max-norm), or 1e-5 with --dtype f32 (f32 inputs and result; the output dataset
must be f32 too). With --check-bytes, every rank's measured compute-phase
volumes must equal the plan's predictions: bytes_read + bytes_written ==
predicted_disk_bytes and bytes_sent == predicted_comm_bytes (and, when the report
predicts it per rank, bytes_received == predicted_received_bytes).
--save-report FILE keeps the run's JSON report; --max-rss-over REPORT:BYTES
requires every rank's peak RSS to stay within BYTES of the largest peak RSS in
REPORT (the same program's fixed overhead, measured on tiny inputs). The
working directory (inputs, output, report) is removed when the run ends.
Needs Debian's numpy and h5py (/usr/bin/python3).
"""
import argparse, json, os, re, subprocess, sys, time

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--extents", required=True)
    ap.add_argument("--scratch")
    ap.add_argument("--check-bytes", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dtype", choices=["f64", "f32"], default="f64",
                    help="element type of the program's tensors (its HDF5 datasets)")
    ap.add_argument("--save-report")
    ap.add_argument("--progress", action="store_true", help="let the program show its progress line")
    ap.add_argument("--max-rss-over")
    argv = sys.argv[1:]
    rest = argv[argv.index("--") + 1:] if "--" in argv else []  # the program's own options
    a = ap.parse_args(argv[:len(argv) - len(rest) - (1 if rest or "--" in argv else 0)])
    a.rest = rest
    tc_run.in_work_dir("tc-run-", run, a)


def run(a, work):

    # OUT[labels] (+)= X[labels] * Y[labels] (* Z[labels] ...): a contraction, or
    # the whole expression an operator tree computes.
    term = r"\s*(\w+)\[([\w, ]*)\]\s*"
    m = re.fullmatch(term + r"(\+?=)(.*)", a.spec)
    operands = re.findall(r"(\w+)\[([\w, ]*)\]", m[4]) if m else []
    if not m or len(operands) < 2 or \
            not re.fullmatch(r"\s*\w+\[[\w, ]*\](\s*\*\s*\w+\[[\w, ]*\])+\s*", m[4]):
        sys.exit(f"bad --spec {a.spec!r}")
    labels = lambda s: [x.strip() for x in s.split(",") if x.strip()]
    (cn, cl, op) = (m[1], labels(m[2]), m[3])
    inputs = [(n, labels(ls)) for n, ls in operands]
    ext = {k: int(v) for k, v in (kv.split("=") for kv in a.extents.split(","))}
    rng = np.random.default_rng(a.seed)
    dtype, tolerance = (np.float32, 1e-5) if a.dtype == "f32" else (np.float64, 1e-12)
    arrays = dict(inputs) | ({cn: cl} if op == "+=" else {})
    data, args = {}, []
    for name, ls in arrays.items():
        data[name] = rng.standard_normal([ext[l] for l in ls]).astype(dtype)
        path = os.path.join(work, name + ".h5")
        with h5py.File(path, "w") as f:
            f[name] = data[name]
        args += ["--input", f"{name}={path}"]
    out, report = os.path.join(work, "out.h5"), os.path.join(work, "report.json")
    args += ["--output", out, "--report", report] + ([] if a.progress else ["--quiet"])
    if a.scratch:
        args += ["--scratch", a.scratch]
    env = tc_run.mpirun_env()
    cmd = ["mpirun", "-np", str(a.np), a.prog] + args + a.rest
    start = time.time()
    r = subprocess.run(cmd, env=env)
    elapsed = time.time() - start
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {r.returncode}")

    sub = {l: chr(ord("a") + i) for i, l in enumerate(sorted(ext))}
    s = lambda ls: "".join(sub[l] for l in ls)
    expect = np.einsum(",".join(s(ls) for _, ls in inputs) + "->" + s(cl),
                       *[data[n].astype(np.float64) for n, _ in inputs],
                       optimize=("optimal" if len(inputs) <= 6 else "greedy", 1e12))
    if op == "+=":
        expect = expect + data[cn]
    with h5py.File(out) as f:
        got = f[cn][()]  # [()] reads scalar datasets too
        stored = f[cn].dtype
    err = np.abs(got - expect).max() / max(np.abs(expect).max(), 1e-300)
    print(f"ran in {elapsed:.1f} s (mpirun -np {a.np}); relative error {err:.3e} against numpy einsum")
    ok = err <= tolerance
    if stored != dtype:
        print(f"FAIL: the output dataset '{cn}' is {stored}, not {np.dtype(dtype)}")
        ok = False
    rep = json.load(open(report))
    ok = tc_run.report_bytes(rep, a.check_bytes) and ok
    if a.max_rss_over:
        ok = tc_run.peak_rss_within(rep, a.max_rss_over) and ok
    if a.save_report:
        with open(a.save_report, "w") as f:
            json.dump(rep, f)
    if not ok:
        sys.exit("FAIL" if err <= tolerance else f"FAIL: relative error {err:.3e} > {tolerance:g}")
    print("OK")


if __name__ == "__main__":
    main()
