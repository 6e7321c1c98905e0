#!/usr/bin/python3
"""Compiles and runs random binary contractions as a new user would, and says
which run, which are wrong and which tc refuses (issue 14's survey).

  random-contractions.py [--count N] [--seed S] [--procs 1,2,3,4] [--cycle] [--keep DIR]
                         [--forced-plans] [--cosma-out-of-core]

Each case draws labels in every role (in A, B and C: a batch label; in A and C
or B and C: a free label; in A and B: a summed label; in one input only: a
label summed in that operand), random orders, extents that rarely divide (1, 2,
3, 5, 7, 13, 17), a process count, either memory for everything (in core)
or a cap that forces out-of-core tiles, and an element type (f64 or f32). It
writes the contraction as tc IR, compiles it with tcc and runs it with
run-contraction.py against numpy einsum (1e-12 relative for f64, 1e-5 for
f32) with --check-bytes. Half the cases plan with latency 0 (the papers'
model, which spreads even small work over the processes), the others with
tcc's default, which runs small work whole on every process. The summary groups the failures by their
first error line, so the most common refusal comes first. With --cycle, case n
takes the n-th process count, memory and label role in turn (the role is
forced into the case), so a short run still covers every one of them; the
cases from the 12th on alternate f64 and f32 in blocks of 12 (12 covers every
role, process count and memory).
With --forced-plans, an operand may also be a scalar (no labels), and a
case under a memory cap takes a hand-written plan half the time: out of core
with a random method (inside, outside), algorithm (replication of A or B,
accumulation; rotation on 1 or 4 processes) and tile memory rule, or
COSMA with its sub-blocks on disk where it applies, the way a user pins what the planner
would not choose (inside replication of a
scalar crashed that way, and the planner's own choices never reached it). A
pinned plan tcc refuses as infeasible, naming the decisions, counts as
handled.
With --cosma-out-of-core, only contractions COSMA multiplies (free labels of
A and of B, a summed label, no batch label; one-input labels too), every one
under a memory cap, and every other case pinned to COSMA out of core
(docs/Derivations.md D56), the rest planned.
Needs tcc on PATH (or TCC=...), mpirun, Debian's numpy and h5py.
"""
import argparse, collections, os, random, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXTENTS = [1, 2, 3, 5, 7, 13, 17]


ROLES = ["abc", "ac", "bc", "ab", "a", "b"]
MEMORIES = ["64MB", "4096B", "16KB"]
ELEMENTS = ["f64", "f32"]
INFEASIBLE = "no plan satisfies the given decisions"


def draw(rng, must=None, scalars=False):
    """One contraction: (spec, labels of A, B, C, extents, accumulate); `must`
    is a role the first label takes; with `scalars` one input may have no
    labels."""
    while True:
        labels = {}
        for n in range(rng.randint(2, 5)):
            labels["ijklmnpq"[n]] = must if n == 0 and must else rng.choice(ROLES)
        a = [l for l, r in labels.items() if "a" in r]
        b = [l for l, r in labels.items() if "b" in r]
        c = [l for l, r in labels.items() if "c" in r]
        if (a and b) or (scalars and (a or b) and c):
            break
    for x in (a, b, c):
        rng.shuffle(x)
    ext = {l: rng.choice(EXTENTS) for l in labels}
    # Keep every tensor small enough for a quick run.
    for l in sorted(ext, key=lambda l: -ext[l]):
        while max(size(x, ext) for x in (a, b, c)) > 40000 and ext[l] > 1:
            ext[l] = max(1, ext[l] // 2)
    return a, b, c, ext, rng.random() < 0.5


def size(labels, ext):
    n = 1
    for l in labels:
        n *= ext[l]
    return n


def tensor(labels, ext, elem="f64"):
    return "tensor<" + "".join(f"{ext[l]}x" for l in labels) + elem + ">"


def cosma_applies(a, b, c):
    """COSMA multiplies matrices: a label in A and C only, one in B and C
    only, one summed in A and B, and no batch label (in all three)."""
    A, B, C = set(a), set(b), set(c)
    return bool((A & C) - B and (B & C) - A and (A & B) - C and not A & B & C)


def forced_plan(rng, procs, scalar=None, cosma=False):
    """A hand-written out-of-core plan's fields: method, algorithm, memory;
    or, where it applies, COSMA out of core, which runs rounds and takes
    neither (D56). A scalar input ("a" or "b") is the replicated one half the
    time."""
    algorithms = ["replication_a", "replication_b", "accumulation"]
    if cosma:
        algorithms.append("cosma")
    if procs in (1, 4):
        algorithms.append("rotation")
    algorithm = (f"replication_{scalar}" if scalar and rng.random() < 0.5
                 else rng.choice(algorithms))
    if algorithm == "cosma":
        return "in_core = false, algorithm = cosma"
    return (f"in_core = false, method = {rng.choice(['inside', 'outside'])}, "
            f"algorithm = {algorithm}, "
            f"memory = {rng.choice(['shared', 'per_array'])}")


def program(a, b, c, ext, acc, elem, plan=""):
    ta, tb, tc_ = tensor(a, ext, elem), tensor(b, ext, elem), tensor(c, ext, elem)
    ls = lambda x: ", ".join(x)
    args = f"%A: {ta}, %B: {tb}" + (f", %C: {tc_}" if acc else "")
    lhs = f"%C[{ls(c)}] +=" if acc else f"[{ls(c)}] ="
    attr = f" {{tc.plan = #tc.plan<{plan}>}}" if plan else ""
    return f"""module attributes {{tc.machine = #tc.machine<procs = 1, mem = "1GB", net_bw = "1GB/s", disk_bw = "100MB/s">}} {{
  func.func @contraction({args}) -> {tc_} {{
    %r = tc.contract {lhs} %A[{ls(a)}] * %B[{ls(b)}]{attr} : {ta}, {tb} -> {tc_}
    return %r : {tc_}
  }}
}}
"""


def first_error(text):
    """The line that says why, with file positions and names taken out so that
    failures of one kind group together."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    # The program's own message before the run's "exited with N".
    why = next((l for l in lines if "error:" in l), None) or \
        next((l for l in lines if l.startswith("FAIL")), None) or \
        (lines[-1] if lines else "(no output)")
    why = re.sub(r"^\S+:\d+:\d+: ", "", why)
    why = re.sub(r"^c\d+: rank \d+: ", "", why)  # the case's program and rank
    return re.sub(r"'[^']*'", "'_'", why)[:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", default="1,2,3,4")
    ap.add_argument("--keep", help="keep the programs and logs here")
    ap.add_argument("--cycle", action="store_true",
                    help="cycle process counts, memories and label roles over the cases")
    ap.add_argument("--forced-plans", action="store_true",
                    help="scalar operands, and hand-written out-of-core plans half the time")
    ap.add_argument("--cosma-out-of-core", action="store_true",
                    help="only contractions COSMA multiplies, under a memory cap, COSMA out "
                         "of core pinned half the time")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    procs = [int(p) for p in a.procs.split(",")]
    tcc = os.environ.get("TCC", "tcc")
    work = a.keep or tempfile.mkdtemp(prefix="tc-random-")
    os.makedirs(work, exist_ok=True)
    outcomes = collections.Counter()
    failures = collections.defaultdict(list)
    try:
        for n in range(a.count):
            A, B, C, ext, acc = draw(rng, ROLES[n % len(ROLES)] if a.cycle else None,
                                     a.forced_plans)
            while a.cosma_out_of_core and not cosma_applies(A, B, C):
                A, B, C, ext, acc = draw(rng)
            P = procs[n % len(procs)] if a.cycle else rng.choice(procs)
            # In core, or a cap of a few tiles' worth that forces out-of-core tiles.
            mem = MEMORIES[n % len(MEMORIES)] if a.cycle else rng.choice(MEMORIES)
            if a.cosma_out_of_core:
                mem = rng.choice(MEMORIES[1:])
            scalar = "a" if not A else "b" if not B else None
            plan = forced_plan(rng, P, scalar, cosma_applies(A, B, C)) if (
                a.forced_plans and mem != "64MB" and rng.random() < 0.5) else ""
            if a.cosma_out_of_core and n % 2 == 0:
                plan = "in_core = false, algorithm = cosma"
            elem = ELEMENTS[n // 12 % 2] if a.cycle else rng.choice(ELEMENTS)
            # Half the cases plan as the papers do (latency 0), the others
            # with tcc's default latency, which runs small work whole on every
            # process (docs/Derivations.md D58): both kinds of plan run.
            # (a stream of its own: a seed's other draws are as before).
            papers = ((n // 3) % 2 == 1 if a.cycle else
                      random.Random(f"{a.seed}:{n}:latency").random() < 0.5)
            spec = f"C[{','.join(C)}] {'+=' if acc else '='} A[{','.join(A)}] * B[{','.join(B)}]"
            case = (f"{spec} in {elem} with {','.join(f'{l}={e}' for l, e in ext.items())} "
                    f"on {P} at {mem}" + (" latency 0" if papers else "") +
                    (f" ({plan})" if plan else ""))
            src = os.path.join(work, f"c{n}.mlir")
            exe = os.path.join(work, f"c{n}")
            open(src, "w").write(program(A, B, C, ext, acc, elem, plan))
            r = subprocess.run([tcc, src, "-o", exe, "--procs", str(P), "--mem", mem] +
                               (["--latency", "0"] if papers else []),
                               capture_output=True, text=True)
            if r.returncode != 0 and plan and INFEASIBLE in r.stderr + r.stdout:
                # A pinned plan no tiling realizes: refused with the decisions named.
                outcomes["pinned plan refused as infeasible"] += 1
                print(f"{n + 1}/{a.count} infeasible: {case}", flush=True)
                continue
            if r.returncode != 0:
                outcomes["refused by tcc"] += 1
                failures["tcc: " + first_error(r.stderr + r.stdout)].append(case)
                print(f"{n + 1}/{a.count} refused: {case}", flush=True)
                continue
            scratch = os.path.join(work, f"s{n}")
            os.makedirs(scratch, exist_ok=True)
            r = subprocess.run([sys.executable, os.path.join(HERE, "run-contraction.py"), exe,
                                "--np", str(P), "--spec", spec,
                                "--extents", ",".join(f"{l}={e}" for l, e in ext.items()),
                                "--scratch", scratch, "--check-bytes", "--seed", str(n),
                                "--dtype", elem],
                               capture_output=True, text=True)
            shutil.rmtree(scratch, ignore_errors=True)
            if r.returncode == 0:
                outcomes["ok"] += 1
            else:
                outcomes["failed at run time"] += 1
                failures["run: " + first_error(r.stdout + r.stderr)].append(case)
            print(f"{n + 1}/{a.count} {'ok' if r.returncode == 0 else 'FAIL'}: {case}",
                  flush=True)
            if r.returncode != 0:  # what the run said, for a failure seen once
                for line in (r.stdout + r.stderr).strip().splitlines()[-8:]:
                    print(f"    | {line}", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("\n" + ", ".join(f"{k}: {v}" for k, v in outcomes.most_common()))
    for why, cases in sorted(failures.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(cases)} x {why}")
        for c in cases[:3]:
            print(f"    e.g. {c}")
    return 0 if outcomes["ok"] + outcomes["pinned plan refused as infeasible"] == a.count else 1


if __name__ == "__main__":
    sys.exit(main())
