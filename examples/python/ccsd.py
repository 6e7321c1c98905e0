#!/usr/bin/python3
"""Water's CCSD correlation energy with tc from Python.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/ccsd.py [--basis BASIS]
        [--np P] [--mem MEM] [--blocks] [--spin]

Integrals: with --basis (psi4 needed: apt-get install psi4), psi4 computes
water's in that basis (scripts/molecule.py integrals); without it, the
STO-3G integrals stored with the tests are used (no psi4). Then
examples/ccsd.tce (spin-orbital CCSD with DIIS, iterated to convergence in
one run) is fitted to the molecule's orbitals, planned, compiled and run, and
its energy compared with psi4's. docs/Python.md explains each call.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import h5py

import tc

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MOLECULE = [sys.executable, os.path.join(ROOT, "scripts", "molecule.py")]


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--basis", help="psi4's basis (e.g. 6-31g, cc-pvdz); needs psi4")
    a.add_argument("--np", type=int, default=2)
    a.add_argument("--mem", default="1GB", help="memory per process")
    a.add_argument("--blocks", action="store_true", help="block-sparse by irreducible "
                   "representation")
    a.add_argument("--spin", action="store_true", help="with --blocks: spin conserved too")
    args = a.parse_args()
    with tempfile.TemporaryDirectory(prefix="tc-ccsd-") as work:
        if args.basis:
            ints = os.path.join(work, "water.h5")
            print(f"psi4: water's integrals in {args.basis} ...", flush=True)
            subprocess.run(MOLECULE + ["integrals", "--basis", args.basis, "-o", ints],
                           check=True)
        else:
            ints = os.path.join(ROOT, "test", "Integration", "Inputs", "water-sto3g.h5")
        if args.blocks and args.spin:  # the dense integrals cut into the blocks of spin
            dense, ints = ints, os.path.join(work, "blocks.h5")
            subprocess.run(MOLECULE + ["blocks", dense, "--spin", "-o", ints], check=True)
        elif args.blocks and not args.basis:
            ints = os.path.join(ROOT, "test", "Integration", "Inputs", "water-sto3g-blocks.h5")
        elif args.blocks:
            dense, ints = ints, os.path.join(work, "blocks.h5")
            subprocess.run(MOLECULE + ["blocks", dense, "-o", ints], check=True)
        # examples/ccsd.tce with the molecule's orbital ranges (and blocks).
        source = os.path.join(work, "ccsd.tce")
        subprocess.run(MOLECULE + ["program", os.path.join(ROOT, "examples", "ccsd.tce"),
                                   "--integrals", ints, "-o", source] +
                       (["--blocks"] if args.blocks else []) + (["--spin"] if args.spin else []),
                       check=True)
        prog = tc.Program.from_file(source)
        o, v = prog.tensors["T1"].shape[1], prog.tensors["T1"].shape[0]
        print(f"{len(prog.inputs)} inputs, {o} occupied and {v} virtual spin orbitals"
              f"{', block-sparse' if args.blocks else ''}")

        plan = prog.plan(procs=args.np, mem=args.mem)
        algorithms = sorted({plan.chosen(c).algorithm for c in plan.contractions})
        print(f"plan on {args.np} processes: {len(plan.contractions)} contractions "
              f"({', '.join(algorithms) or 'block-sparse task pools'}), "
              f"{plan.predicted_comm_bytes / 1e6:.2f} MB sent per iteration and process")

        exe = prog.compile(procs=args.np, mem=args.mem)
        out = exe.run(np=args.np, inputs={t.name: ints for t in prog.inputs},
                      on_iteration=lambda it: print(
                          f"  iteration {it.iteration:3d}: E = {it.value:.12f}"
                          + (f", change {it.change:.1e}" if "change" in it else "")))
        energy = float(out["E"]) if not args.blocks else float(out["E"].sum())
        with h5py.File(ints, "r") as f:
            reference = float(f.attrs["ccsd_correlation_energy"])
        seconds = sum(i.seconds for i in out.iterations)
        print(f"CCSD correlation energy {energy:.10f} Eh, psi4 {reference:.10f} "
              f"(difference {energy - reference:.1e}); {len(out.iterations)} iterations in "
              f"{seconds:.3f} s; bytes as planned: {out.report.bytes_as_predicted}")
        return 0 if abs(energy - reference) < 1e-8 and out.report.bytes_as_predicted else 1


if __name__ == "__main__":
    sys.exit(main())
