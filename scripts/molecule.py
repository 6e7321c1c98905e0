#!/usr/bin/python3
"""A molecule's spin-orbital integrals for tc's coupled-cluster programs.

  molecule.py integrals --geometry water --basis sto-3g -o water.h5
      Runs psi4 (RHF, then its CCSD for the reference energy) and writes the
      integrals examples/ccsd.tce reads, twice: dense datasets in water.h5 and
      block-sparse groups by irreducible representation and spin in
      water-blocks.h5 (docs/BlockSparse.md). The energies psi4 computed and the
      range declarations of the molecule are attributes of both files.
      Needs psi4 (Debian: apt-get install psi4); nothing else in tc does.

  molecule.py program examples/ccsd.tce --integrals water.h5 [--blocks [--spin [--restricted]] [--pairs]] -o prog.tce
      Rewrites a program's `range O` and `range V` declarations for the
      molecule of an integrals file; with --blocks the ranges are cut into
      segments by irrep and spin and every input and output is declared
      `symmetry 0` (reads the file only: no psi4 needed). With --spin the
      segments also carry their spin as a charge (alpha +1, beta -1) and
      every tensor of two or four indices conserves it: `charge 0 signs
      [+, -]` or `[+, +, -, -]` (spin(p) + spin(q) = spin(r) + spin(s) for
      <pq||rs>, and likewise for the amplitudes t_ij^ab as T2[a,b,i,j]).
      With --restricted each range also gives each segment's partner of the
      other spin (`flip [...]`) and every tensor with indices is declared
      `restricted`: it equals its blocks with every spin flipped (an RHF
      reference), so it stores, and computes, one block of each such pair.
      With --pairs the integrals and T2 are declared antisymmetric in their
      pairs of indices (<pq||rs> = -<qp||rs> = -<pq||sr>, t_ij^ab = -t_ji^ab
      = -t_ij^ba) and the Fock blocks foo, fvv symmetric, so each stores one
      block of each set the exchanges relate (docs/BlockSparse.md).

  molecule.py blocks water.h5 [--spin [--restricted]] [--pairs] -o water-spin-blocks.h5
      Writes the block-sparse groups of a dense integrals file, by irrep and
      spin, with --spin only the blocks that conserve spin (the blocks a
      program of `molecule.py program --blocks --spin` reads), with
      --restricted only one of each spin-flipped pair and the flip, with
      --pairs only one of each set the pair symmetries relate and the pairs.

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
        tc_blocks.write(blocks_path, name, t, dims, present_blocks(dims, label))
    with h5py.File(blocks_path, "a") as f:
        f.attrs.update(attrs)
    print("%s: %d occupied and %d virtual spin orbitals; SCF %.12f, CCSD correlation %.12f"
          % (dense_path, no, len(spin_orbitals) - no, scf, ccsd - scf))
    print(blocks_path + ": the same by irrep and spin")


def spin_charges(labels):
    """A segment's spin as a charge, from its label (irrep + 4 * spin): alpha
    +1, beta -1."""
    return [1 if label < 4 else -1 for label in labels]


def spin_flip(labels):
    """Each segment's partner when every spin flips: the segment of the same
    irrep and the other spin (label irrep + 4 * spin)."""
    return [labels.index(label ^ 4) for label in labels]


def spin_signs(rank):
    """A tensor's conserved spin: its first half of indices in, the second
    out (<pq||rs>, t_ij^ab as T[a,b,i,j], f_pq)."""
    return [1] * (rank // 2) + [-1] * (rank // 2)


def block_ranges(path):
    """{range name: (segments, labels)} of an integrals file's `ranges_blocks`."""
    with h5py.File(path, "r") as f:
        text = f.attrs["ranges_blocks"]
    text = text.decode() if isinstance(text, bytes) else text
    out = {}
    for m in re.finditer(r"range (\w+) = \d+ : segments \[([^\]]*)\] labels \[([^\]]*)\]", text):
        out[m.group(1)] = ([int(x) for x in m.group(2).split(",")],
                           [int(x) for x in m.group(3).split(",")])
    return out


def present_blocks(dims, labels, spin=False):
    """The blocks a tensor of segments `dims` and labels `labels` stores:
    every block of a vector (see block_sparse()), else those whose labels
    XOR to 0 and, with `spin`, that conserve spin."""
    if len(dims) == 1:
        return tc_blocks.all_blocks(dims)
    present = tc_blocks.symmetric(dims, 0, labels)
    if spin:
        present = tc_blocks.charged(present, [spin_charges(x) for x in labels],
                                    spin_signs(len(dims)))
    return present


def blocks(args):
    """The block-sparse file of a dense integrals file (by irrep and spin;
    with --spin only the blocks conserving it)."""
    ranges = block_ranges(args.integrals)
    segs = {"o": ranges["O"][0], "v": ranges["V"][0]}
    labs = {"o": ranges["O"][1], "v": ranges["V"][1]}
    if args.restricted and not args.spin:
        sys.exit("molecule.py: error: --restricted needs --spin")
    with h5py.File(args.integrals, "r") as f:
        attrs = dict(f.attrs)
        tensors = {name: f[name][...] for name in f if not isinstance(f[name], h5py.Group)}
    if os.path.exists(args.output):
        os.remove(args.output)
    for name, t in tensors.items():
        dims = [segs[ch] for ch in kinds(name)]
        label = [labs[ch] for ch in kinds(name)]
        flip = [spin_flip(x) for x in label] if args.restricted else None
        tc_blocks.write(args.output, name, t, dims, present_blocks(dims, label, args.spin),
                        flip=flip, pairs=PAIRS.get(name) if args.pairs else None)
    with h5py.File(args.output, "a") as f:
        f.attrs.update(attrs)


# The pair symmetries of the integrals and amplitudes, by tensor name: the
# dimensions exchanged and whether that changes the sign. <pq||rs> is
# antisymmetric in p, q and in r, s; Vovov's pairs mix ranges, so it has none.
PAIRS = {
    "foo": [(0, 1, False)], "fvv": [(0, 1, False)],
    "Voooo": [(0, 1, True), (2, 3, True)], "Vooov": [(0, 1, True)],
    "Voovv": [(0, 1, True), (2, 3, True)], "Vovvv": [(2, 3, True)],
    "Vvvvv": [(0, 1, True), (2, 3, True)], "T2": [(0, 1, True), (2, 3, True)],
}


def pair_declaration(ref):
    """` antisymmetric [a, b] [i, j]` (and ` symmetric [...]`) for a tensor
    reference `NAME[indices]` with PAIRS, else ""."""
    name, indices = ref[:ref.index("[")], [i.strip() for i in ref[ref.index("[") + 1:-1].split(",")]
    out = ""
    for anti, keyword in ((True, "antisymmetric"), (False, "symmetric")):
        named = ["[%s, %s]" % (indices[p], indices[q]) for p, q, a in PAIRS.get(name, []) if a == anti]
        if named:
            out += " %s %s" % (keyword, " ".join(named))
    return out


def kinds(name):
    """The ranges ('o'/'v') of a tensor's dimensions, from its name."""
    return name[1:]


def block_sparse(declaration, spin=False, restricted=False, pairs=False):
    """A declaration made block-sparse: orbital-energy vectors have every
    block (each element is totally symmetric, not its one label), other
    tensors those whose labels XOR to 0 and, with `spin`, those of two or
    four indices also those conserving spin; with `restricted`, every tensor
    with indices equal to its spin flip (a closed-shell reference); with
    `pairs`, the PAIRS symmetries."""
    text = declaration.group(1)
    ranks = {len([i for i in idx.split(",") if i.strip()])
             for idx in re.findall(r"\[([^\]]*)\]", text)}
    restrict = " restricted" if restricted and 0 not in ranks else ""
    if ranks == {1}:
        return text + " : blocks all%s;" % restrict
    keyword = text.split()[0]
    refs = re.findall(r"\w+\[[^\]]*\]", text)
    if not spin or 0 in ranks:
        if not pairs or 0 in ranks:
            return text + " : symmetry 0;"
        return "\n".join("%s %s : symmetry 0%s;" % (keyword, ref, pair_declaration(ref))
                         for ref in refs)
    # One declaration per tensor: its signs are as many as its indices.
    out = []
    for ref in refs:
        rank = len([i for i in ref[ref.index("[") + 1:-1].split(",") if i.strip()])
        if rank % 2:
            sys.exit("molecule.py: error: %s has %d indices: --spin conserves the spin of "
                     "tensors of an even number" % (ref, rank))
        signs = ", ".join("+" if s > 0 else "-" for s in spin_signs(rank))
        out.append("%s %s : symmetry 0 charge 0 signs [%s]%s%s;"
                   % (keyword, ref, signs, restrict, pair_declaration(ref) if pairs else ""))
    return "\n".join(out)


def program(args):
    text = open(args.tce).read()
    with h5py.File(args.integrals, "r") as f:
        ranges = f.attrs["ranges_blocks" if args.blocks else "ranges_dense"]
    ranges = ranges.decode() if isinstance(ranges, bytes) else ranges
    lines = ranges.strip().split("\n")
    if args.spin and not args.blocks:
        sys.exit("molecule.py: error: --spin needs --blocks")
    if args.restricted and not args.spin:
        sys.exit("molecule.py: error: --restricted needs --spin")
    if args.pairs and not args.blocks:
        sys.exit("molecule.py: error: --pairs needs --blocks")
    for name, line in zip(("O", "V"), lines):
        line = line.rstrip()
        if args.spin:  # each segment's spin, from its label, as a charge
            labels = [int(x) for x in re.search(r"labels \[([^\]]*)\]", line).group(1).split(",")]
            line = line[:-1] + " charges [%s];" % ", ".join(map(str, spin_charges(labels)))
            if args.restricted:  # and its partner of the other spin
                line = line[:-1] + " flip [%s];" % ", ".join(map(str, spin_flip(labels)))
        text, n = re.subn(r"^range %s\b[^;]*;" % name, line, text, flags=re.M)
        if n != 1:
            sys.exit("molecule.py: error: %s declares range %s %d times, not once"
                     % (args.tce, name, n))
    if args.blocks:  # every input and output block-sparse by irrep and spin
        text = re.sub(r"^((?:input|output)\b[^;:]*);",
                      lambda m: block_sparse(m, args.spin, args.restricted, args.pairs), text,
                      flags=re.M)
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
    p.add_argument("--spin", action="store_true")
    p.add_argument("--restricted", action="store_true",
                   help="with --spin: every tensor restricted (one of each spin-flipped pair)")
    p.add_argument("--pairs", action="store_true",
                   help="with --blocks: the integrals, T2 and Fock blocks with their pair "
                        "symmetries (one block of each related set stored)")
    p.add_argument("-o", "--output", required=True)
    b = sub.add_parser("blocks")
    b.add_argument("integrals")
    b.add_argument("--spin", action="store_true")
    b.add_argument("--restricted", action="store_true",
                   help="with --spin: store one block of each spin-flipped pair, and the flip")
    b.add_argument("--pairs", action="store_true",
                   help="store one block of each set the pair symmetries relate, and the pairs")
    b.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    {"integrals": integrals, "program": program, "blocks": blocks}[args.command](args)


if __name__ == "__main__":
    main()
