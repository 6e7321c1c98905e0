#!/usr/bin/python3
"""The block-sparse CCD program against the dense one, on the same tensors.

  bench/program-blocks.py [--o 16] [--v 64] [--np 2] [--mem 512MB] [--runs 3]

examples/ccd.tce and examples/ccd-blocks.tce with O and V orbitals, each range
cut into four near-equal irreps for the block-sparse program; the inputs are
random with every block the symmetry forbids zero (the same tensors for both).
Both are compiled by tcc for --np processes and --mem per process and run on
those inputs; their outputs must agree (1e-10 of the largest magnitude). Prints
per program the compute phase (seconds of the slowest rank, best of --runs),
the load and store phases of that run (reading inputs, handing intermediates
on, writing outputs; slowest rank), the flops counted and the compute phase's
bytes moved; the yardstick is the dense program.
"""
import argparse, json, os, re, subprocess, sys, time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "scripts"))
import tc_blocks  # noqa: E402
import tc_run  # noqa: E402
from tce_numpy import Program  # noqa: E402


def quarters(n):
    return [n // 4 + (k < n % 4) for k in range(4)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--o", type=int, default=16)
    ap.add_argument("--v", type=int, default=64)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mem", default="512MB")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    sys.exit(0 if tc_run.in_work_dir("tc-program-blocks-", run, a) else 1)


def run(a, work):
    import h5py
    tcc = os.environ.get("TCC", os.path.join(root, "build", "bin", "tcc"))
    texts = {}
    for kind, src in (("dense", "ccd.tce"), ("blocks", "ccd-blocks.tce")):
        text = open(os.path.join(root, "examples", src)).read()
        for r, n in (("O", a.o), ("V", a.v)):
            decl = f"range {r} = {n}" + (f" : segments {quarters(n)}" if kind == "blocks" else "")
            text = re.sub(rf"^range {r} = .*;$", decl + ";", text, flags=re.M)
        texts[kind] = text
        open(os.path.join(work, f"{kind}.tce"), "w").write(text)
    blocks = Program(texts["blocks"])
    rng = np.random.default_rng(1)
    dense_in, blocks_in = os.path.join(work, "dense.h5"), os.path.join(work, "blocks.h5")
    for name, (idx, dtype) in blocks.inputs().items():
        x = blocks.mask(name, rng.uniform(-1, 1, blocks.shape(idx)).astype(dtype))
        with h5py.File(dense_in, "a") as f:
            f[name] = x
        tc_blocks.write(blocks_in, name, x, blocks.tensor_segments(name), blocks.blocks(name))
    outputs, ok = {}, True
    print(f"CCD residual and energy, O = {a.o}, V = {a.v} (irreps {quarters(a.o)} and "
          f"{quarters(a.v)}), {a.np} processes, {a.mem} each, best of {a.runs}")
    print(f"{'program':8} {'compile s':>10} {'compute s':>10} {'load+store s':>12} {'flops':>12} "
          f"{'disk B':>12} {'sent B':>12}")
    for kind, inputs in (("dense", dense_in), ("blocks", blocks_in)):
        exe = os.path.join(work, kind)
        t0 = time.time()
        subprocess.run([tcc, os.path.join(work, f"{kind}.tce"), "-o", exe, "--procs", str(a.np),
                        "--mem", a.mem, "--net-bw", "1GB/s", "--disk-bw", "200MB/s"],
                       check=True, capture_output=True)
        compile_s = time.time() - t0
        best = None
        for _ in range(a.runs):
            out, report = os.path.join(work, f"{kind}-out.h5"), os.path.join(work, "r.json")
            cmd = ["mpirun", "-np", str(a.np), exe, "--output", out, "--report", report,
                   "--quiet", "--scratch", work]
            for name in blocks.inputs():
                cmd += ["--input", f"{name}={inputs}"]
            subprocess.run(cmd, env=tc_run.mpirun_env(), check=True)
            rep = json.load(open(report))
            secs = max(r["compute"]["seconds"] for r in rep["ranks"])
            io = max(r["load"]["seconds"] + r["store"]["seconds"] for r in rep["ranks"])
            if best is None or secs < best[0]:
                best = (secs, rep["total"]["compute"], io)
        c = best[1]
        print(f"{kind:8} {compile_s:10.2f} {best[0]:10.4f} {best[2]:12.4f} {c['flops']:12.4g} "
              f"{c['bytes_read'] + c['bytes_written']:12.4g} {c['bytes_sent']:12.4g}")
        outputs[kind] = {}
        for name in blocks.outputs():
            if kind == "dense":
                with h5py.File(out) as f:
                    outputs[kind][name] = f[name][...]
            else:
                outputs[kind][name] = tc_blocks.read(out, name)[0]
    for name in blocks.outputs():
        d, b = outputs["dense"][name], outputs["blocks"][name]
        scale = max(1.0, float(np.max(np.abs(d))))
        err = float(np.max(np.abs(d - b)))
        print(f"{name}: dense and block-sparse differ by {err:.2e} (scale {scale:.2e})")
        ok &= err <= 1e-10 * scale
    return ok


if __name__ == "__main__":
    main()
