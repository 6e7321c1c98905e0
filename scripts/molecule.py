#!/usr/bin/python3
"""A molecule's spin-orbital integrals for tc's coupled-cluster programs.

  molecule.py integrals --geometry water --basis sto-3g -o water.h5
      Runs psi4 (RHF, then its CCSD for the reference energy) and writes the
      integrals examples/ccsd.tce reads, twice: dense datasets in water.h5 and
      block-sparse groups by irreducible representation and spin in
      water-blocks.h5 (docs/BlockSparse.md). The energies psi4 computed and the
      range declarations of the molecule are attributes of both files.
      Needs psi4 (Debian: apt-get install psi4); nothing else in tc does.

  molecule.py program examples/ccsd.tce --integrals water.h5 [--blocks] -o prog.tce
      Rewrites a program's `range O` and `range V` declarations for the
      molecule of an integrals file; with --blocks the ranges are cut into
      segments by irrep and spin and every input and output is declared
      `symmetry 0` (reads the file only: no psi4 needed).

Spin orbitals are ordered occupied first, then virtual; within each, by spin
(alpha, beta), then irrep, then orbital energy, so that each (spin, irrep)
group is one segment. A segment's label is irrep + 4 * spin: the labels of a
non-zero block XOR to 0 (its irreps multiply to the totally symmetric one and
it has an even number of beta orbitals, which conserved spin implies).
The files hold, with O occupied and V virtual spin orbitals,
  foo[i,j], fov[i,a], fvv[a,b]      the Fock matrix's blocks
  eo[i], ev[a]                      orbital energies (the Fock diagonal; block-
                                    sparse: every block)
  Voooo, Vooov, Voovv, Vovov, Vovvv, Vvvvv
                                    the antisymmetrized integrals <pq||rs>,
                                    one dataset per block (p, q, r, s in O or V)
  attributes: scf_energy, ccsd_correlation_energy, ccsd_total_energy,
  mp2_correlation_energy, molecule, basis, ranges_dense, ranges_blocks.
"""
import argparse
import atexit
import os
import re
import shutil
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_blocks  # noqa: E402

GEOMETRIES = {
    # Water at a fixed geometry (bohr-free: angstrom), C2v.
    "water": """
O
H 1 1.1
H 1 1.1 2 104.0
symmetry c2v
""",
}

BLOCKS = ["oooo", "ooov", "oovv", "ovov", "ovvv", "vvvv"]


def import_psi4():
    try:
        import psi4  # noqa: F401
    except ImportError:
        # Debian installs psi4's module in the multiarch library directory.
        import sysconfig
        multiarch = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
        sys.path.append("/usr/lib/" + multiarch)
        try:
            import psi4  # noqa: F401
        except ImportError:
            sys.exit("molecule.py: error: psi4 is not installed (apt-get install psi4); "
                     "only `molecule.py integrals` needs it")
    import psi4
    return psi4


def spatial_orbitals(psi4, wfn):
    """(C in the AO basis, energies, irreps, occupied?) of every spatial
    orbital, from the symmetry-blocked RHF wavefunction."""
    aotoso = wfn.aotoso()
    cols, energies, irreps, occupied = [], [], [], []
    for h in range(wfn.nirrep()):
        n = wfn.nmopi()[h]
        if n == 0:
            continue
        c = np.asarray(aotoso.nph[h]) @ np.asarray(wfn.Ca().nph[h])
        e = np.asarray(wfn.epsilon_a().nph[h])
        for k in range(n):
            cols.append(c[:, k])
            energies.append(e[k])
            irreps.append(h)
            occupied.append(k < wfn.doccpi()[h])
    return np.array(cols).T, np.array(energies), np.array(irreps), np.array(occupied)


def spin_orbital_order(irreps, energies, occupied):
    """The spin orbitals (spatial orbital, spin) in tc's order, and the
    segments and labels of the occupied and virtual ranges."""
    out, ranges = [], []
    for occ in (True, False):
        order, segments, labels = [], [], []
        for spin in (0, 1):
            for h in sorted(set(irreps)):
                group = [p for p in np.argsort(energies, kind="stable")
                         if irreps[p] == h and occupied[p] == occ]
                if group:
                    order += [(p, spin) for p in group]
                    segments.append(len(group))
                    labels.append(int(h) + 4 * spin)
        out += order
        ranges.append((segments, labels))
    return out, ranges


def antisymmetrized(mo_eri, spin_orbitals):
    """<pq||rs> over the spin orbitals from the spatial chemists' (pr|qs)."""
    p = np.array([s[0] for s in spin_orbitals])
    spin = np.array([s[1] for s in spin_orbitals])
    same = (spin[:, None] == spin[None, :]).astype(float)
    chem = mo_eri[np.ix_(p, p, p, p)] * same[:, :, None, None] * same[None, None, :, :]
    phys = chem.transpose(0, 2, 1, 3)  # <pq|rs> = (pr|qs)
    return phys - phys.transpose(0, 1, 3, 2)


def integrals(args):
    args.output = os.path.abspath(args.output)
    # psi4 leaves files where it runs, also when it exits: a directory of its
    # own, removed after psi4's own exit handler (registered later, run first).
    work = tempfile.mkdtemp(prefix="tc-psi4-")
    atexit.register(shutil.rmtree, work, True)
    os.chdir(work)
    psi4 = import_psi4()
    psi4.core.set_output_file(os.devnull, False)
    psi4.set_memory("2 GB")
    psi4.geometry(GEOMETRIES.get(args.geometry, args.geometry))
    psi4.set_options({"basis": args.basis, "scf_type": "pk", "reference": "rhf",
                      "freeze_core": "false", "e_convergence": 1e-12,
                      "d_convergence": 1e-12, "r_convergence": 1e-12})
    scf, wfn = psi4.energy("scf", return_wfn=True)
    ccsd = psi4.energy("ccsd", ref_wfn=wfn)
    mp2 = psi4.variable("MP2 CORRELATION ENERGY")
    c, energies, irreps, occupied = spatial_orbitals(psi4, wfn)
    mints = psi4.core.MintsHelper(wfn.basisset())
    cm = psi4.core.Matrix.from_array(c)
    eri = np.asarray(mints.mo_eri(cm, cm, cm, cm))
    spin_orbitals, ((oseg, olab), (vseg, vlab)) = spin_orbital_order(irreps, energies, occupied)
    no = sum(oseg)
    eps = energies[[s[0] for s in spin_orbitals]]
    v = antisymmetrized(eri, spin_orbitals)
    fock = np.diag(eps)  # canonical RHF orbitals
    o, x = slice(0, no), slice(no, len(spin_orbitals))
    span = {"o": o, "v": x}
    tensors = {"foo": fock[o, o], "fov": fock[o, x], "fvv": fock[x, x],
               "eo": eps[o], "ev": eps[x]}
    for b in BLOCKS:
        tensors["V" + b] = v[tuple(span[ch] for ch in b)]
    segs = {"o": oseg, "v": vseg}
    labs = {"o": olab, "v": vlab}

    def ranges(blocks):
        if not blocks:
            return "range O = %d;\nrange V = %d;\n" % (no, len(spin_orbitals) - no)
        fmt = lambda s: "[" + ", ".join(map(str, s)) + "]"  # noqa: E731
        return "".join("range %s = %d : segments %s labels %s;\n" % (r, sum(segs[k]),
                                                                      fmt(segs[k]),
                                                                      fmt(labs[k]))
                       for r, k in (("O", "o"), ("V", "v")))

    attrs = {"scf_energy": scf, "ccsd_total_energy": ccsd,
             "ccsd_correlation_energy": ccsd - scf, "mp2_correlation_energy": mp2,
             "molecule": args.geometry, "basis": args.basis,
             "ranges_dense": ranges(False), "ranges_blocks": ranges(True)}
    dense_path = args.output
    blocks_path = re.sub(r"(\.h5)?$", "-blocks.h5", dense_path, count=1)
    for path in (dense_path, blocks_path):
        if os.path.exists(path):
            os.remove(path)
    with h5py.File(dense_path, "w") as f:
        for name, t in tensors.items():
            f[name] = t
        f.attrs.update(attrs)
    for name, t in tensors.items():
        dims = [segs[ch] for ch in kinds(name)]
        label = [labs[ch] for ch in kinds(name)]
        present = (tc_blocks.all_blocks(dims) if len(dims) == 1  # see block_sparse()
                   else tc_blocks.symmetric(dims, 0, label))
        tc_blocks.write(blocks_path, name, t, dims, present)
    with h5py.File(blocks_path, "a") as f:
        f.attrs.update(attrs)
    print("%s: %d occupied and %d virtual spin orbitals; SCF %.12f, CCSD correlation %.12f"
          % (dense_path, no, len(spin_orbitals) - no, scf, ccsd - scf))
    print(blocks_path + ": the same by irrep and spin")


def kinds(name):
    """The ranges ('o'/'v') of a tensor's dimensions, from its name."""
    return name[1:]


def block_sparse(declaration):
    """A declaration made block-sparse: orbital-energy vectors have every
    block (each element is totally symmetric, not its one label), other
    tensors those whose labels XOR to 0."""
    text = declaration.group(1)
    vectors = all(len([i for i in idx.split(",") if i.strip()]) == 1
                  for idx in re.findall(r"\[([^\]]*)\]", text))
    return text + (" : blocks all;" if vectors else " : symmetry 0;")


def program(args):
    text = open(args.tce).read()
    with h5py.File(args.integrals, "r") as f:
        ranges = f.attrs["ranges_blocks" if args.blocks else "ranges_dense"]
    ranges = ranges.decode() if isinstance(ranges, bytes) else ranges
    lines = ranges.strip().split("\n")
    for name, line in zip(("O", "V"), lines):
        text, n = re.subn(r"^range %s\b[^;]*;" % name, line.rstrip(), text, flags=re.M)
        if n != 1:
            sys.exit("molecule.py: error: %s declares range %s %d times, not once"
                     % (args.tce, name, n))
    if args.blocks:  # every input and output block-sparse by irrep and spin
        text = re.sub(r"^((?:input|output)\b[^;:]*);", block_sparse, text, flags=re.M)
    with open(args.output, "w") as out:
        out.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    i = sub.add_parser("integrals")
    i.add_argument("--geometry", default="water",
                   help="a name (%s) or a psi4 geometry string" % ", ".join(GEOMETRIES))
    i.add_argument("--basis", default="sto-3g")
    i.add_argument("-o", "--output", required=True)
    p = sub.add_parser("program")
    p.add_argument("tce")
    p.add_argument("--integrals", required=True)
    p.add_argument("--blocks", action="store_true")
    p.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    integrals(args) if args.command == "integrals" else program(args)


if __name__ == "__main__":
    main()
