#!/usr/bin/python3
"""Water's CCSD per iteration: one run with a loop against a relaunch per iteration.

  bench/ccsd-iterations.py [--integrals FILE.h5 [--blocks [--spin [--restricted]] [--pairs]]] [--np 2] [--mem 1GB]
                           [--iterations 8] [--ooc-mem 4MB --scratch DIR] [--machine-file FILE]

examples/ccsd.tce, retargeted to the molecule of an integrals file
(scripts/molecule.py; default: the bundled water STO-3G), is compiled twice by
tcc: with its loop at a fixed count (`iterate N`, no DIIS: the relaunch below
cannot carry a DIIS history) and as one iteration whose amplitudes are inputs
and outputs (what a driver without loops relaunches, reading every integral
again each time). Both start from the same MP2 amplitudes; their final
amplitudes must agree within 1e-10. A third run of the loop as written (DIIS,
until converged) gives the iterations to convergence and its energy against
psi4's; with --ooc-mem the same loop compiled for that memory per process
(out of core: scratch in --scratch) runs too, in the same invocation. Prints
per iteration the loop's wall seconds, its phases (load, compute, store:
slowest rank, summed over statements) and the relaunch's wall seconds.

The programs are planned for this machine's measured speed, as tcc's warning
asks of a user: --machine-file, else the file tc-calibrate wrote to tcc's
default place ($TC_MACHINE_FILE, else ~/.config/tc/machine.json), else a
quick tc-calibrate run on --np processes made here (said on the first line).
With its flop rate and message latency, statements whose work is smaller than
their messages run whole on every process (docs/Derivations.md D58).
"""
import argparse, json, os, re, subprocess, sys, time

import h5py
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "scripts"))
import molecule  # noqa: E402
import tc_blocks  # noqa: E402
import tc_run  # noqa: E402

INPUTS = ["foo", "fov", "fvv", "eo", "ev", "Voooo", "Vooov", "Voovv", "Vovov", "Vovvv", "Vvvvv"]
LOOP = re.compile(r"iterate max \d+ until E converges to \S+ diis \d+ \{")


def variants(text, iterations, blocks=False, spin=False, restricted=False, pairs=False):
    """(fixed-count loop, one relaunched iteration) of examples/ccsd.tce; with
    `blocks` the relaunch's amplitude inputs are block-sparse like T1 and T2
    (with `spin`, conserving it as they do; with `restricted`, restricted;
    with `pairs`, T2's pair symmetries)."""
    t2pairs = " antisymmetric [a, b] [i, j]" if pairs else ""
    looped = LOOP.sub(f"iterate {iterations} {{", text)
    step = LOOP.sub("iterate 1 {", text)
    step = step.replace("T1[a,i] = fov[i,a] * d1[a,i];", "T1[a,i] = T1in[a,i];")
    step = step.replace("T2[a,b,i,j] = Voovv[i,j,a,b] * d2[a,b,i,j];",
                        "T2[a,b,i,j] = T2in[a,b,i,j];")
    if spin:
        r = " restricted" if restricted else ""
        declare = (f"input T1in[a,i] : symmetry 0 charge 0 signs [+, -]{r};\n"
                   f"input T2in[a,b,i,j] : symmetry 0 charge 0 signs [+, +, -, -]{r}{t2pairs};")
    elif pairs:
        declare = ("input T1in[a,i] : symmetry 0;\n"
                   f"input T2in[a,b,i,j] : symmetry 0{t2pairs};")
    else:
        declare = "input T1in[a,i], T2in[a,b,i,j]" + (" : symmetry 0" if blocks else "") + ";"
    step = re.sub(r"^(input eo\[i\], ev\[a\])", declare + r"\n\1", step, flags=re.M)
    assert looped != text and "T1in" in step and "input T1in" in step
    return looped, step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--integrals", default=os.path.join(root, "test", "Integration", "Inputs",
                                                        "water-sto3g.h5"))
    ap.add_argument("--blocks", action="store_true", help="the integrals file is block-sparse")
    ap.add_argument("--spin", action="store_true",
                    help="with --blocks: the program conserves spin (molecule.py --spin); the "
                         "integrals file is then the dense one, cut here into its blocks")
    ap.add_argument("--restricted", action="store_true",
                    help="with --spin: every tensor spin-restricted (molecule.py --restricted)")
    ap.add_argument("--pairs", action="store_true",
                    help="with --blocks: the integrals and T2 with their pair symmetries "
                         "(molecule.py --pairs)")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mem", default="1GB")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--ooc-mem", help="also run the loop with this memory per process")
    ap.add_argument("--scratch", default=".")
    ap.add_argument("--machine-file", help="tc-calibrate's file for the planner's measured "
                                           "quantities (default: tcc's, else calibrated here)")
    a = ap.parse_args()
    sys.exit(0 if tc_run.in_work_dir("tc-ccsd-bench-", run, a) else 1)


def read_output(path, name, blocks):
    if blocks:
        return tc_blocks.read(path, name)[0]
    with h5py.File(path) as f:
        return f[name][...]


def write_amplitudes(path, ints, blocks, t1, t2, spin=False, restricted=False, pairs=False):
    """T1in, T2in as the step program reads them (block-sparse: symmetry 0
    over the molecule's labelled segments, with `spin` conserving it, with
    `restricted` one of each spin-flipped pair)."""
    with h5py.File(path, "w") as f:
        if not blocks:
            f["T1in"], f["T2in"] = t1, t2
            return
    ranges = molecule.block_ranges(ints)
    for name, t, dims in (("T1in", t1, "VO"), ("T2in", t2, "VVOO")):
        segments, labels = [ranges[d][0] for d in dims], [ranges[d][1] for d in dims]
        flip = [molecule.spin_flip(x) for x in labels] if restricted else None
        tc_blocks.write(path, name, t, segments, molecule.present_blocks(segments, labels, spin),
                        flip=flip, pairs=molecule.PAIRS.get("T2") if pairs and name == "T2in"
                        else None)


def mean(xs):
    return sum(xs) / len(xs)


def phase(it, name):
    return it[name]["seconds"]


def machine_file(a, work, env):
    """The calibrated machine the programs are planned for."""
    if a.machine_file:
        print(f"machine: {a.machine_file}")
        return a.machine_file
    config = os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config"))
    for path in (os.environ.get("TC_MACHINE_FILE"), os.path.join(config, "tc", "machine.json")):
        if path and os.path.exists(path):
            print(f"machine: {path} (tc-calibrate's)")
            return path
    path = os.path.join(work, "machine.json")
    calibrate = os.path.join(root, "build", "bin", "tc-calibrate")
    subprocess.run(["mpirun", "-np", str(a.np), calibrate, "--quick", "--output", path],
                   env=env, check=True, capture_output=True)
    m = json.load(open(path))
    latency = (f"latency {m['latency'] * 1e6:.2f} us" if "latency" in m else
               "no latency (one process sends no message)")
    print(f"machine: calibrated here (tc-calibrate --quick on {a.np} processes): "
          f"{m['flop_rate'] / 1e9:.1f} Gflop/s, {latency}")
    return path


def run(a, work):
    tcc = os.environ.get("TCC", os.path.join(root, "build", "bin", "tcc"))
    env = tc_run.mpirun_env()
    ints = os.path.abspath(a.integrals)
    molecule_py = [sys.executable, os.path.join(root, "scripts", "molecule.py")]
    if a.pairs and not a.blocks:
        sys.exit("ccsd-iterations.py: --pairs needs --blocks")
    if a.spin or a.pairs:  # the dense integrals cut into blocks (conserving spin)
        if not a.blocks:
            sys.exit("ccsd-iterations.py: --spin needs --blocks")
        if a.restricted and not a.spin:
            sys.exit("ccsd-iterations.py: --restricted needs --spin")
        spin_ints = os.path.join(work, "spin-blocks.h5")
        subprocess.run(molecule_py + ["blocks", ints, "-o", spin_ints] +
                       (["--spin"] if a.spin else []) +
                       (["--restricted"] if a.restricted else []) +
                       (["--pairs"] if a.pairs else []), check=True)
        ints = spin_ints
    program = os.path.join(work, "ccsd.tce")
    cmd = molecule_py + ["program", os.path.join(root, "examples", "ccsd.tce"), "--integrals", ints,
                      "-o", program]
    subprocess.run(cmd + (["--blocks"] if a.blocks else []) + (["--spin"] if a.spin else []) +
                   (["--restricted"] if a.restricted else []) + (["--pairs"] if a.pairs else []),
                   check=True)
    text = open(program).read()
    looped, step = variants(text, a.iterations, a.blocks, a.spin, a.restricted, a.pairs)
    machine = machine_file(a, work, env)
    exes = {}
    builds = [("converged", text, a.mem), ("looped", looped, a.mem), ("step", step, a.mem)]
    if a.ooc_mem:
        builds.append(("ooc", text, a.ooc_mem))
    for name, src, mem in builds:
        path = os.path.join(work, name + ".tce")
        open(path, "w").write(src)
        exes[name] = os.path.join(work, name)
        subprocess.run([tcc, path, "-o", exes[name], "--procs", str(a.np), "--mem", mem,
                        "--default-machine-file", machine], check=True, capture_output=True)
    common = sum([["--input", f"{n}={ints}"] for n in INPUTS], []) + ["--quiet"]
    common += ["--scratch", a.scratch]

    def launch(exe, extra, report=None):
        out = os.path.join(work, os.path.basename(exe) + ".h5")
        args = ["mpirun", "-np", str(a.np), exe, *common, *extra, "--output", out]
        if report:
            args += ["--report", report]
        start = time.perf_counter()
        subprocess.run(args, env=env, check=True)
        return out, time.perf_counter() - start

    conv_report = os.path.join(work, "converged.json")
    conv_out, _ = launch(exes["converged"], [], conv_report)
    with h5py.File(ints) as f:
        psi4 = float(f.attrs["ccsd_correlation_energy"])
        molecule_name, basis = f.attrs["molecule"], f.attrs["basis"]
        stored = sum((f[n]["values"] if isinstance(f[n], h5py.Group) else f[n]).nbytes
                     for n in INPUTS)
    with h5py.File(conv_out) as f:
        e = f["E"]
        energy = float(np.sum(e["values"][...] if isinstance(e, h5py.Group) else e[...]))
    conv = json.load(open(conv_report))["loops"][0]
    if a.ooc_mem:
        ooc_report = os.path.join(work, "ooc.json")
        ooc_out, _ = launch(exes["ooc"], [], ooc_report)
        ooc_rep = json.load(open(ooc_report))
        ooc = ooc_rep["loops"][0]
        ooc_energy = float(np.sum(read_output(ooc_out, "E", a.blocks)))

    loop_report = os.path.join(work, "looped.json")
    loop_out, _ = launch(exes["looped"], [], loop_report)
    iterations = json.load(open(loop_report))["loops"][0]["per_iteration"]
    # The relaunches start from MP2's amplitudes, as the loop does.
    state = os.path.join(work, "state.h5")
    eo, ev, fov, voovv = (read_output(ints, n, a.blocks) for n in ("eo", "ev", "fov", "Voovv"))
    d1 = 1 / (eo[None, :] - ev[:, None])
    d2 = 1 / (eo[None, None, :, None] + eo[None, None, None, :] - ev[:, None, None, None]
              - ev[None, :, None, None])
    t1, t2 = fov.T * d1, voovv.transpose(2, 3, 0, 1) * d2
    relaunch = []
    for k in range(a.iterations):
        write_amplitudes(state, ints, a.blocks, t1, t2, a.spin, a.restricted, a.pairs)
        out, seconds = launch(exes["step"], ["--input", f"T1in={state}", "--input",
                                             f"T2in={state}"])
        relaunch.append(seconds)
        t1, t2 = read_output(out, "T1", a.blocks), read_output(out, "T2", a.blocks)
    err = max(float(np.max(np.abs(read_output(loop_out, "T1", a.blocks) - t1))),
              float(np.max(np.abs(read_output(loop_out, "T2", a.blocks) - t2))))
    print(f"{molecule_name} {basis}: O = {eo.size}, V = {ev.size}, integrals {stored / 1e6:.1f} MB; "
          f"np {a.np}, mem {a.mem}{' (block-sparse)' if a.blocks else ''}"
          f"{' (conserving spin)' if a.spin else ''}{', restricted' if a.restricted else ''}"
          f"{', pair symmetries' if a.pairs else ''}")
    conv_its = conv["per_iteration"]
    conv_wall = mean([i["seconds"] for i in conv_its])
    print(f"converged with DIIS: {conv['iterations']} iterations, E = {energy:.10f} "
          f"(psi4 {psi4:.10f}, difference {energy - psi4:.1e}), {conv_wall:.4f} s per "
          f"iteration = {conv_wall / mean([phase(i, 'compute') for i in conv_its]):.2f}x its "
          "compute phase" + (f" (iterations 2-{len(conv_its)}: "
                             f"{mean([i['seconds'] for i in conv_its[1:]]) / mean([phase(i, 'compute') for i in conv_its[1:]]):.2f}x)"
                             if len(conv_its) > 1 else ""))
    if a.ooc_mem:
        its = ooc["per_iteration"]
        disk = mean([i["compute"]["bytes_read"] + i["compute"]["bytes_written"] for i in its])
        rss = max(r["peak_rss_bytes"] for r in ooc_rep["ranks"])
        print(f"out of core at {a.ooc_mem} per process: {ooc['iterations']} iterations, E "
              f"differs from the in-memory run's by {ooc_energy - energy:.1e}, "
              f"{mean([i['seconds'] for i in its]):.4f} s per iteration (compute "
              f"{mean([i['compute']['seconds'] for i in its]):.4f} s, {disk / 1e6:.1f} MB read "
              f"and written), peak RSS {rss / 1e6:.1f} MB")
    print(f"{a.iterations} plain iterations: the loop's and the relaunches' amplitudes agree "
          f"to {err:.1e}")
    print("iteration  loop wall s  load s  compute s  store s  relaunch wall s  relaunch / loop")
    for it, r in zip(iterations, relaunch):
        print(f"{it['iteration']:9d}  {it['seconds']:11.4f}  {phase(it, 'load'):6.4f}  "
              f"{phase(it, 'compute'):9.4f}  {phase(it, 'store'):7.4f}  {r:15.3f}  "
              f"{r / it['seconds']:15.1f}")
    wall = mean([it["seconds"] for it in iterations])
    compute = mean([phase(it, "compute") for it in iterations])
    print(f"mean: loop {wall:.4f} s per iteration = {wall / compute:.2f}x its compute phase "
          f"({compute:.4f} s); relaunch {mean(relaunch):.3f} s = {mean(relaunch) / wall:.1f}x "
          "the loop")
    # The first iteration also reads every integral (once per run); the
    # others are what each further iteration costs.
    if len(iterations) > 1:
        later = iterations[1:]
        wall = mean([it["seconds"] for it in later])
        compute = mean([phase(it, "compute") for it in later])
        print(f"iterations 2-{len(iterations)}: loop {wall:.4f} s per iteration = "
              f"{wall / compute:.2f}x its compute phase ({compute:.4f} s); relaunch "
              f"{mean(relaunch[1:]) / wall:.1f}x the loop")
    return err <= 1e-10


if __name__ == "__main__":
    main()
