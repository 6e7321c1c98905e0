#!/usr/bin/python3
"""Runs a block-sparse program built by tcc on random inputs and checks it.

  run-block-sparse.py PROG --np 4 --spec "C[a,b,c,d] = A[a,b,i] * B[i,c,d]" \\
      --segments a=8:4:2:2,b=8:4:2:2,c=8:4:2:2,d=8:4:2:2,i=16:8:4:4 \\
      [--symmetry 0] [--scratch DIR] [--check-bytes] [--save-report FILE]

Every tensor has the blocks whose segment ids XOR to --symmetry (as the
program's #tc.blocks encodings must). The inputs are written in tc's
block-sparse HDF5 layout (scripts/tc_blocks.py, blocks in shuffled order), the
program runs under mpirun, and its result must equal numpy's einsum of the same
blocks (absent blocks zero) within 1e-12 on C's present blocks, with exactly
those blocks stored. With --check-bytes every rank's measured compute-phase
disk bytes (read + written), bytes sent and bytes received must equal the
plan's predictions. Prints OK; the working directory is removed at the end.
"""
import argparse, json, os, re, subprocess, sys, time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_blocks  # noqa: E402
import tc_run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--segments", required=True)
    ap.add_argument("--symmetry", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scratch")
    ap.add_argument("--check-bytes", action="store_true")
    ap.add_argument("--save-report")
    a = ap.parse_args()
    tc_run.in_work_dir("tc-block-sparse-", run, a)


def run(a, work):
    m = re.fullmatch(r"\s*(\w+)\[([\w, ]*)\]\s*(\+?=)\s*(\w+)\[([\w, ]*)\]\s*\*\s*(\w+)\[([\w, ]*)\]\s*",
                     a.spec)
    if not m:
        sys.exit(f"bad --spec {a.spec!r}")
    labels = lambda s: [x.strip() for x in s.split(",") if x.strip()]
    (cn, cl, op, an, al, bn, bl) = (m[1], labels(m[2]), m[3], m[4], labels(m[5]), m[6], labels(m[7]))
    seg = {k: [int(x) for x in v.split(":")] for k, v in (kv.split("=") for kv in a.segments.split(","))}
    rng = np.random.default_rng(a.seed)
    tensors = {an: al, bn: bl} | ({cn: cl} if op == "+=" else {})
    data, args = {}, []
    for name, ls in tensors.items():
        segments = [seg[l] for l in ls]
        blocks = tc_blocks.symmetric(segments, a.symmetry)
        dense = tc_blocks.mask(rng.standard_normal([sum(s) for s in segments]), segments, blocks)
        data[name] = dense
        path = os.path.join(work, name + ".h5")
        tc_blocks.write(path, name, dense, segments, blocks, mode="w",
                        order=list(rng.permutation(len(blocks))))
        args += ["--input", f"{name}={path}"]
    out, report = os.path.join(work, "out.h5"), os.path.join(work, "report.json")
    args += ["--output", out, "--report", report, "--quiet"]
    if a.scratch:
        args += ["--scratch", a.scratch]
    env = tc_run.mpirun_env()
    cmd = ["mpirun", "-np", str(a.np), a.prog] + args
    start = time.time()
    r = subprocess.run(cmd, env=env)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {r.returncode}")
    elapsed = time.time() - start

    sub = {l: chr(ord("a") + i) for i, l in enumerate(sorted(seg))}
    s = lambda ls: "".join(sub[l] for l in ls)
    csegs = [seg[l] for l in cl]
    cblocks = tc_blocks.symmetric(csegs, a.symmetry)
    expect = np.einsum(f"{s(al)},{s(bl)}->{s(cl)}", data[an], data[bn], optimize=True)
    if op == "+=":
        expect = expect + data[cn]
    expect = tc_blocks.mask(expect, csegs, cblocks)
    got, got_segments, got_blocks = tc_blocks.read(out, cn)
    ok = True
    if got_segments != csegs or sorted(got_blocks) != sorted(cblocks):
        print(f"FAIL: the output stores segments {got_segments} and {len(got_blocks)} blocks; "
              f"expected {csegs} and {len(cblocks)}")
        ok = False
    err = np.abs(got - expect).max() / max(np.abs(expect).max(), 1e-300)
    print(f"ran in {elapsed:.1f} s (mpirun -np {a.np}); relative error {err:.3e} against numpy einsum")
    ok = ok and err <= 1e-12
    rep = json.load(open(report))
    ok = tc_run.report_bytes(rep, a.check_bytes, require_received=True) and ok
    if a.save_report:
        with open(a.save_report, "w") as f:
            json.dump(rep, f)
    if not ok:
        sys.exit("FAIL")
    print("OK")


if __name__ == "__main__":
    main()
