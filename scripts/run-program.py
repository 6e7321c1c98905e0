#!/usr/bin/python3
"""Runs a program tcc built from a .tce file on random inputs and checks it.

  run-program.py PROG --tce FILE.tce --np 4 [--seed 7] [--scratch DIR]
      [--check-bytes] [--save-report FILE] [--statements] [--expect-out-of-core]
      [--max-rss-over REPORT:BYTES] [--restart-from NP]

The inputs are random (seeded, f64 or f32 as declared; in -1..1, and in
0.5..1.5 in magnitude for an input a reciprocal `X = 1 / (...)` reads, so
that the reciprocal stays within a few times the other values: a random
denominator near zero would leave the other elements of every tensor it
reaches unchecked, below the tolerance its magnitude sets) in one HDF5 file, or
those of --inputs FILE.h5 (a dataset or block-sparse group per input); the
program runs under mpirun; every output must equal scripts/tce_numpy.py's
evaluation of the same program within 1e-12 (1e-5 for f32 outputs) relative
to the largest magnitude of the terms it sums (the program evaluated on the
inputs' magnitudes with every sign positive; an f32 element whose terms exceed
f32's range is not compared: it may overflow on the way, where numpy sums in
f64), and every loop must run as many
iterations as numpy's. With --check-bytes every rank's measured
compute-phase disk bytes, bytes sent (and received, where predicted) must equal
the plan's predictions, in total, for every statement of the report and every
iteration of a loop. With
--statements it prints the report's statements. With --max-rss-over
REPORT:BYTES every rank's peak RSS must stay within BYTES of the largest in
REPORT (a tiny run's: the fixed overhead). With --expect NAME=ATTR:TOL the
scalar output NAME must equal the attribute ATTR of the --inputs file within
TOL (a quantum-chemistry package's energy). With --restart-from NP the
program first runs on NP processes writing a checkpoint after each
iteration (--checkpoint; a finished run leaves its last one, the state
before its last iteration), and the checked run continues from it
(--restart) on --np processes: its outputs and iteration count must be
those of an uninterrupted run, and it must say it restarted (a program whose
loops the outputs do not depend on, which tcc removes, runs as without it). Prints OK; the
working directory is removed at the end.
"""
import argparse, json, os, subprocess, sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_blocks  # noqa: E402
import tc_run  # noqa: E402
from tce_numpy import Program  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--tce", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--inputs", help="an HDF5 file holding every input (default: random)")
    ap.add_argument("--expect", action="append", default=[], metavar="NAME=ATTR:TOL",
                    help="scalar output NAME within TOL of the --inputs file's attribute ATTR")
    ap.add_argument("--scratch")
    ap.add_argument("--check-bytes", action="store_true")
    ap.add_argument("--diis-rounding", action="store_true",
                    help="widen the tolerance by how much the reference's DIIS steps can "
                         "magnify rounding (random loops, whose DIIS is ill-conditioned)")
    ap.add_argument("--statements", action="store_true")
    ap.add_argument("--expect-out-of-core", action="store_true",
                    help="fail unless the plan reads or writes scratch (a memory cap's run)")
    ap.add_argument("--save-report")
    ap.add_argument("--restart-from", type=int, metavar="NP",
                    help="run first on NP processes with a checkpoint, then restart from it")
    ap.add_argument("--max-rss-over", metavar="REPORT:BYTES",
                    help="fail if a rank's peak RSS exceeds the largest in REPORT by more than BYTES")
    a = ap.parse_args()
    sys.exit(0 if tc_run.in_work_dir("tc-program-", run, a) else 1)


def run(a, work):
    program = Program(open(a.tce).read())
    rng = np.random.default_rng(a.seed)
    inputs = {}
    if a.inputs:
        return run_on(a, work, program, os.path.abspath(a.inputs), given_inputs(program, a.inputs))
    path = os.path.join(work, "inputs.h5")
    denominators = program.reciprocal_operands()
    for name, (idx, dtype) in program.inputs().items():
        x = rng.uniform(-1, 1, program.shape(idx))
        if name in denominators:
            x = np.where(x < 0, x - 0.5, x + 0.5)
        x = program.mask(name, x.astype(dtype))
        blocks = program.blocks(name)
        if blocks is None:
            with h5py.File(path, "a") as f:
                f[name] = x
        else:  # a group in tc's block-sparse layout
            tc_blocks.write(path, name, x, program.tensor_segments(name), blocks,
                            flip=program.flip(name), pairs=program.pairs(name))
        inputs[name] = x
    return run_on(a, work, program, path, inputs)


def given_inputs(program, path):
    """Every input of the program from the file at path, as arrays."""
    inputs = {}
    for name in program.inputs():
        if program.blocks(name) is None:
            with h5py.File(path) as f:
                inputs[name] = f[name][...]
        else:
            inputs[name] = tc_blocks.read(path, name)[0]
    return inputs


def expected_attributes(a, out):
    """--expect: each scalar output against an attribute of the inputs file."""
    ok = True
    for e in a.expect:
        name, rest = e.split("=", 1)
        attr, tol = rest.rsplit(":", 1)
        with h5py.File(a.inputs) as f:
            want = float(f.attrs[attr])
        with h5py.File(out) as f:
            node = f[name]
            got = float(np.sum(node["values"][...] if isinstance(node, h5py.Group) else node[...]))
        print(f"{name}: {got:.12f}, {attr} {want:.12f}, difference {got - want:.2e}")
        if not abs(got - want) <= float(tol):
            print(f"FAIL: {name} differs from {attr} by more than {tol}")
            ok = False
    return ok


def output_value(program, path, name):
    """Output `name` of the file at path, whole (a block-sparse one's absent
    blocks zero)."""
    if program.blocks(name) is not None:
        return tc_blocks.read(path, name)[0]
    with h5py.File(path) as f:
        return f[name][...]


def same_as_uninterrupted(a, program, cmd, out, work):
    """A run restarted on the process count of the checkpoint's run repeats
    its last iterations on the same plans: its outputs must equal, bit for
    bit, those of the same run uninterrupted (random loops' values grow too
    fast for numpy's tolerance to notice a carried value lost)."""
    plain = cmd[:cmd.index("--restart")]
    uninterrupted = os.path.join(work, "uninterrupted.h5")
    plain[plain.index(out)] = uninterrupted
    # Its own report: the checks after this one read the restarted run's.
    plain[plain.index("--report") + 1] = os.path.join(work, "uninterrupted.json")
    r = subprocess.run(plain, env=tc_run.mpirun_env(), capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        print(f"FAIL: the uninterrupted run exited with {r.returncode}")
        return False
    for name in program.outputs():
        got, want = output_value(program, out, name), output_value(program, uninterrupted, name)
        if got.shape != want.shape or not np.array_equal(got, want, equal_nan=True):
            print(f"FAIL: output {name} after the restart differs from the uninterrupted run's")
            return False
    print(f"restarted on {a.np} processes: outputs equal to the uninterrupted run's")
    return True


def run_on(a, work, program, path, inputs):
    """Runs the program on the inputs (arrays, and the file at path holding
    them) and checks what it gives."""
    out, report = os.path.join(work, "out.h5"), os.path.join(work, "report.json")
    cmd = ["mpirun", "-np", str(a.np), a.prog, "--output", out, "--report", report, "--quiet"]
    for name in inputs:
        cmd += ["--input", f"{name}={path}"]
    if a.scratch:
        cmd += ["--scratch", a.scratch]
    # A loop the outputs do not depend on is compiled away: nothing to
    # continue from (the iteration count check below still holds tc to that).
    restart = a.restart_from and any(program.live_loops())
    if a.restart_from and not restart:
        print("no live loop: nothing to restart")
    if restart:
        checkpoint = os.path.join(work, "checkpoint.h5")
        first = ["mpirun", "-np", str(a.restart_from)] + cmd[3:] + ["--checkpoint", checkpoint]
        first[first.index(out)] = os.path.join(work, "first.h5")
        r = subprocess.run(first, env=tc_run.mpirun_env(), capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(checkpoint):
            print(r.stdout + r.stderr)
            print(f"FAIL: the run on {a.restart_from} processes with --checkpoint exited with "
                  f"{r.returncode}" + ("" if os.path.exists(checkpoint) else ", no checkpoint"))
            return False
        # Not --quiet: the restarted run says where it continues from.
        cmd = [x for x in cmd if x != "--quiet"] + ["--restart", checkpoint]
    r = subprocess.run(cmd, env=tc_run.mpirun_env(), capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        print(f"FAIL: {a.prog} exited with {r.returncode}")
        return False
    if restart:
        said = [line for line in r.stderr.splitlines() if "restarting after iteration" in line]
        print(said[0].split(": ", 1)[-1] if said else "FAIL: the run did not restart")
        if not said:
            return False
        if a.restart_from == a.np and not same_as_uninterrupted(a, program, cmd, out, work):
            return False
    expected = program.evaluate(inputs)
    terms = program.evaluate(inputs, magnitude=True)
    ok = True
    for name, (idx, dtype) in program.outputs().items():
        blocks = program.blocks(name)
        if blocks is None:
            with h5py.File(out) as f:
                got = f[name][...]
        else:
            got, segments, stored = tc_blocks.read(out, name)
            if segments != program.tensor_segments(name) or stored != blocks:
                print(f"FAIL: output {name} stores blocks {stored} of segments "
                      f"{segments}, declared {blocks} of {program.tensor_segments(name)}")
                ok = False
        if got.dtype != dtype:
            print(f"FAIL: output {name} is {got.dtype}, declared {np.dtype(dtype)}")
            ok = False
        want, magnitude = np.asarray(expected[name]), np.asarray(terms[name])
        got = got.astype(np.float64)
        if dtype == np.float32:
            # An element whose terms exceed f32's range may overflow on the
            # way (numpy sums in f64): only the others can be compared.
            fits = magnitude <= np.finfo(np.float32).max
            if not np.all(fits):
                print(f"{name}: {np.count_nonzero(~fits)} of {fits.size} elements sum terms "
                      f"beyond f32's range (up to {float(np.max(magnitude)):.1e}): not compared")
                want, magnitude, got = want[fits], magnitude[fits], got[fits]
        # Rounding is relative to the terms summed, not to a sum that cancels.
        scale = max(1.0, float(np.max(magnitude)) if want.size else 1.0)
        err = float(np.max(np.abs(got - want))) if want.size else 0.0
        tolerance = (1e-5 if dtype == np.float32 else 1e-12) * scale
        # A DIIS step magnifies rounding (tc sums its overlaps in another
        # order) by up to its conditioning times its coefficients' size.
        amplified = max(1.0, program.diis_amplification) if a.diis_rounding else 1.0
        tolerance *= amplified
        print(f"{name}: max error {err:.3e} (tolerance {tolerance:.1e}"
              + (f", DIIS magnifies rounding {amplified:.1e}x" if amplified > 1 else "") + ")")
        if not err <= tolerance:
            ok = False
            print(f"FAIL: output {name} differs from numpy")
    ok &= expected_attributes(a, out)
    rep = json.load(open(report))
    if a.save_report:
        json.dump(rep, open(a.save_report, "w"), indent=1)
    ok &= tc_run.report_bytes(rep, a.check_bytes)
    if a.max_rss_over:
        ok &= tc_run.peak_rss_within(rep, a.max_rss_over)
    if a.expect_out_of_core and rep["total"]["compute"]["predicted_disk_bytes"] <= 0:
        print("FAIL: the plan is in core (--expect-out-of-core)")
        ok = False
    for s in rep.get("statements", []):
        c = s["compute"]
        if a.statements:
            print(f"statement {s['name']} -> {s['result']}: disk {c['bytes_read'] + c['bytes_written']:.0f} "
                  f"(predicted {c['predicted_disk_bytes']:.0f}), sent {c['bytes_sent']:.0f} "
                  f"(predicted {c['predicted_comm_bytes']:.0f}), flops {c['flops']:.0f}")
        if a.check_bytes:
            for rank in s["ranks"]:
                if not tc_run.bytes_as_predicted(rank["compute"]):
                    print(f"FAIL: statement {s['name']} rank {rank['rank']}: measured bytes "
                          "differ from the plan's prediction")
                    ok = False
    # Loops: as many iterations as numpy's, each rank's bytes as predicted
    # in every iteration.
    # (A loop the outputs do not depend on is removed: numpy's live ones.)
    loops = rep.get("loops", [])
    ran = [loop["iterations"] for loop in loops]
    counted = [k for k, live in zip(program.iterations, program.live_loops()) if live]
    print(f"loops: {ran} iterations (numpy {counted})")
    if ran != counted:
        print("FAIL: the loops ran another number of iterations than numpy's")
        ok = False
    for loop in loops:
        for it in loop["per_iteration"]:
            if a.check_bytes and not all(tc_run.bytes_as_predicted(r["compute"]) and
                                         tc_run.hand_over_as_predicted(r.get("hand_over"))
                                         for r in it["ranks"]):
                print(f"FAIL: loop {loop['loop']} iteration {it['iteration']}: measured bytes "
                      "differ from the plan's prediction")
                ok = False
    if ok:
        print("OK")
    return ok


if __name__ == "__main__":
    main()
