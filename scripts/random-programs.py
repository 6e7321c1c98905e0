#!/usr/bin/python3
"""Random programs in tc's language, compiled by tcc and checked against numpy.

  random-programs.py --count 20 --seed 1 [--procs 1-3] [--blocks] [--charges] [--restricted]
                     [--pairs] [--loops] [--restart] [--keep DIR]

Each program has 2-3 index ranges of extents 2-7 (5 and 7 among them, which no
process count divides), 2-4 inputs of rank 0-4, 2-8 statements and 1-2
outputs, in f64 or f32, written the way users write them: sums of 1-3 terms of
1-3 factors with coefficients and signs, antisymmetrizers, `=` and `+=`, a
tensor built by several statements, `+=` terms that read their own target in
any position (alone, transposed, times another factor), the same input in
several statements with other index orders and summed indices, the same
product in several statements with other coefficients and signs, statements
that begin with the same term, intermediates of intermediates, outputs read by
later statements, some terms broadcast along target indices their factors
lack. Each is compiled once for every process count of --procs
with tc-check-rewrites on and antisymmetrizer copies sharing every product
that sums 2 or more terms (--min-summed-volume 2: the default 32 leaves the
small extents here alone) (in memory, and out of core with a cap of 2-16 KB
drawn per program when a plan fits it; every other program with latency 0,
the papers' model, the others with tcc's default, which runs small
statements whole on every process; two in four with --plan-sweeps 1, the
others planned with each result's readers in view) and run on every count by
scripts/run-program.py with --check-bytes: outputs within 1e-12 (1e-5 for f32)
of scripts/tce_numpy.py, every rank's bytes as predicted. The only refusal
accepted is the small cap's "no plan fits". Prints one line per program and a
summary; exits non-zero if any failed.

With --loops a run of 1 or more consecutive statements is repeated 2-3 times
(`iterate K { ... }`, half of those with a scalar target until it converges to
a tolerance every change meets), carrying what it updates (most runs start at
an update of an earlier tensor; some halve an input at their end, which the
loop then carries from the input); some loops that carry a tensor extrapolate
it by DIIS (`diis 2`, 3 iterations). Their outputs are compared within the
tolerance widened by how much the reference's DIIS steps can magnify rounding
(run-program.py --diis-rounding: a step's conditioning times its
coefficients' size; random loops converge nowhere, so their DIIS systems are
often nearly singular and tc's other summation order shows).

With --restart (implies --loops) every run of a program with a loop starts
from a checkpoint: the program first runs with `--checkpoint` on the same
process count (first, third, ... of --procs) or on the next one (second,
fourth, ...), then the checked run continues from what it left
(`--restart`, the state before the last iteration: carried tensors, DIIS
history, the scalar's last value) and must give what numpy gives; restarted
on the checkpoint's own count, its outputs must also equal an uninterrupted
run's bit for bit (run-program.py --restart-from).

In about 2 programs of 5, one statement's first term also takes a
denominator as a factor, `D0[...]` computed just before it (inside the loop if
the statement is) as `D0[...] = 1 / (...)`, the element-wise reciprocal of an
input or of the product of two, none of their indices summed (reciprocals of
exact products: a sum that cancels would be ill-conditioned on random inputs,
which orbital energies' denominators are not; run-program.py draws the inputs
a reciprocal reads away from zero, and no input declared with pairs, nor any
of a --restricted program, is one: their values are averages, which may be
near zero).

With --blocks every range is cut into 1-3 segments, half of them labelled
with distinct symmetry labels in 0-3 (irreps of a group of four, some absent),
and every input and output is block-sparse (`symmetry 0` or `1`, `blocks all`
or a random block list);
a program with a tensor that has no block (which tcc refuses) is drawn again.
With --charges (block-sparse) every range's segments also carry charges in
-1..1 (`charges [...]`, spin-like), and some tensors of rank 1 or more
declare a conserved charge, `charge Q signs [...]` with random signs, alone or
after `symmetry S`.
With --restricted (block-sparse, charged) every range is spin orbitals: its
first half of segments alpha (charge 1), the second the same lengths and
labels beta (charge -1), each segment's partner given by `flip [...]`, and
every input and output is declared `restricted` (blocks closed under the
flip: a conserved charge of 0, a symmetry of the labels, every block, or a
random block list with the flips of its blocks).
With --pairs (block-sparse) about half the inputs and outputs with two
indices of one range declare them `antisymmetric [x, y]` or `symmetric [x,
y]` (one or two disjoint pairs; a charge's signs equal on a pair, a block
list closed under the exchanges); an output whose statements do not keep its
pairs (tcc's error) is declared without them; an output's pairs are
antisymmetric and its statements' terms antisymmetrized in them (`P(x,y)`),
so that most keep them. Intermediates get the pairs tc's language infers.
"""
import argparse, os, random, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def segments(rng, extent):
    """1-3 segment lengths summing to extent."""
    cuts = sorted(rng.sample(range(1, extent), min(extent - 1, rng.randint(0, 2))))
    bounds = [0] + cuts + [extent]
    return [bounds[k + 1] - bounds[k] for k in range(len(bounds) - 1)]


def draw_pairs(rng, idx, same_range):
    """One or two disjoint pairs of positions of `idx` whose indices share a
    range, each (first, second, antisymmetric), for about half the tensors
    that have such a pair."""
    candidates = [(x, y) for x in range(len(idx)) for y in range(x + 1, len(idx))
                  if same_range(idx[x], idx[y])]
    if not candidates or rng.random() < 0.5:
        return []
    rng.shuffle(candidates)
    out, used = [], set()
    for x, y in candidates[:rng.randint(1, 2)]:
        if x not in used and y not in used:
            used |= {x, y}
            out.append((x, y, rng.random() < 0.7))
    return out


def pair_clause(idx, pairs):
    """` antisymmetric [x, y] ...` and ` symmetric [...]` for `pairs`."""
    out = ""
    for anti, keyword in ((True, "antisymmetric"), (False, "symmetric")):
        named = [f"[{idx[x]}, {idx[y]}]" for x, y, a in pairs if a == anti]
        if named:
            out += f" {keyword} " + " ".join(named)
    return out


def presence(rng, idx, segs, charged=False, restricted=False, pairs=()):
    """A random block-sparse declaration of a tensor over `idx` (with
    `charged`, a third of those of rank 1 or more a conserved charge; with
    `restricted`, blocks closed under the spin flip, and `restricted`; with
    `pairs`, (first, second, antisymmetric) positions, blocks closed under
    their exchanges, and the pairs declared)."""
    counts = [len(segs[i]) for i in idx]
    restrict = (" restricted" if restricted and idx else "") + pair_clause(idx, pairs)
    if charged and idx and rng.random() < 0.35:
        signs = [rng.choice("+-") for _ in idx]
        for x, y, _ in pairs:  # a charge conserved by the exchange
            signs[y] = signs[x]
        symmetry = f"symmetry {rng.choice([0, 1])} " if rng.random() < 0.5 else ""
        total = 0 if restricted else rng.choice([0, 0, 1, -1])
        return f"{symmetry}charge {total} signs [{', '.join(signs)}]{restrict}"
    roll = rng.random()
    if roll < 0.15:
        return "blocks all" + restrict
    if roll < 0.3 and idx:
        every = [[]]
        for c in counts:
            every = [b + [x] for b in every for x in range(c)]
        chosen = rng.sample(every, rng.randint(1, len(every)))
        closed = {tuple(b) for b in chosen}
        while True:  # with each block's flip (the other half's segments) and exchanges
            more = set(closed)
            for b in closed:
                if restricted:
                    more.add(tuple((x + c // 2) % c for x, c in zip(b, counts)))
                for x, y, _ in pairs:
                    s = list(b)
                    s[x], s[y] = s[y], s[x]
                    more.add(tuple(s))
            if more == closed:
                break
            closed = more
        chosen = sorted(closed)
        return ("blocks [" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in chosen) + "]" +
                restrict)
    return f"symmetry {rng.choice([0, 0, 1]) if idx else 0}" + restrict


def program(rng, n, blocks=False, loops=False, charges=False, restricted=False, pairs=False,
            denominators=None):
    # Extents that 2, 3 and 4 processes rarely divide (5, 7) among the others.
    ranges = {"O": rng.choice([2, 3, 4, 5, 7]), "V": rng.choice([3, 4, 5, 6, 7])}
    if rng.random() < 0.5:
        ranges["X"] = rng.randint(2, 4)
    if restricted:  # alpha and beta halves
        ranges = {r: 2 * max(1, e // 2) for r, e in ranges.items()}
    names = {"O": ["i", "j", "k", "l"], "V": ["a", "b", "c", "d"], "X": ["p", "q", "r"]}
    indices = {i: r for r in ranges for i in names[r]}
    dtype = "f32" if rng.random() < 0.25 else "f64"
    lines = [f"program random{n};"]
    # (Dense programs draw no segments: a seed gives the programs it gave.)
    segs = {r: segments(rng, e) if blocks else [e] for r, e in ranges.items()}
    if restricted:  # the alpha half's segments, then the same for beta
        segs = {r: 2 * segments(rng, e // 2) if e > 2 else [1, 1] for r, e in ranges.items()}
    if blocks:
        for r, e in ranges.items():
            labels = ""
            half = len(segs[r]) // 2
            if restricted:  # beta's labels as alpha's: the labels' XOR is the flip's too
                alpha = rng.sample(range(4), half)
                labels = (f" labels [{', '.join(map(str, alpha + alpha))}]"
                          f" charges [{', '.join(['1'] * half + ['-1'] * half)}]"
                          f" flip [{', '.join(str((k + half) % (2 * half)) for k in range(2 * half))}]")
            else:
                if rng.random() < 0.5:
                    labels = f" labels [{', '.join(map(str, rng.sample(range(4), len(segs[r]))))}]"
                if charges:
                    labels += f" charges [{', '.join(str(rng.randint(-1, 1)) for _ in segs[r])}]"
            lines.append(f"range {r} = {e} : segments [{', '.join(map(str, segs[r]))}]{labels};")
    else:
        lines += [f"range {r} = {e};" for r, e in ranges.items()]
    lines += [f"index {', '.join(names[r])} : {r};" for r in ranges]
    index_segs = {i: segs[r] for r in ranges for i in names[r]}

    def declare(kind, ts):
        if not blocks:
            return [f"{kind} " + ", ".join(f"{t}[{','.join(tensors[t])}]" for t in ts) +
                    f" : {dtype};"]
        out = []
        for t in ts:
            drawn = (draw_pairs(rng, tensors[t], lambda x, y: indices[x] == indices[y])
                     if pairs else [])
            if kind == "output":  # antisymmetric, which P(x,y) on every term makes it
                drawn = [(x, y, True) for x, y, _ in drawn]
                output_pairs[t] = drawn
            elif drawn:
                paired.add(t)
            out.append(f"{kind} {t}[{','.join(tensors[t])}] : {dtype} "
                       f"{presence(rng, tensors[t], index_segs, charges, restricted, drawn)};")
        return out

    def shape(rank):
        out, used = [], set()
        for _ in range(rank):
            free = [i for i in indices if i not in used]
            x = rng.choice(free)
            used.add(x)
            out.append(x)
        return out

    tensors = {}  # name -> declared indices
    output_pairs = {}  # output -> its declared pairs (positions)
    paired = set()  # inputs declared with pairs
    inputs = [f"I{k}" for k in range(rng.randint(2, 4))]
    for t in inputs:
        tensors[t] = shape(rng.randint(1, 4))
    lines += declare("input", inputs)
    outputs = [f"R{k}" for k in range(rng.randint(1, 2))]
    for t in outputs:  # indices of an input's, so that some term covers them
        source = tensors[rng.choice(inputs)]
        tensors[t] = rng.sample(source, rng.randint(0, min(3, len(source))))
    lines += declare("output", outputs)
    readable = list(inputs)  # tensors a statement may read
    first_idx = {}  # a target's indices as its first statement names them

    def same_range_names(idx):
        # The declared indices' ranges, each position renamed to any index of
        # that range not used yet (statements may rename).
        out, used = [], set()
        for i in idx:
            pool = [x for x in names[indices[i]] if x not in used]
            x = rng.choice(pool)
            used.add(x)
            out.append(x)
        return out

    def term(target_idx):
        for _ in range(50):
            k = rng.choice([1, 2, 2, 3])
            factors = [(f, same_range_names(tensors[f])) for f in
                       (rng.choice(readable) for _ in range(k))]
            covered = {i for _, idx in factors for i in idx}
            # A term missing target indices is broadcast along them (a
            # quarter of those drawn: denominators built from vectors).
            if not set(target_idx) <= covered and rng.random() >= 0.25:
                continue
            perm = ""
            pairs = [(x, y) for x in target_idx for y in target_idx
                     if x < y and indices[x] == indices[y]]
            if pairs and rng.random() < 0.3:
                x, y = rng.choice(pairs)
                perm = f"P({x},{y}) "
            return perm + " * ".join(f"{f}[{','.join(idx)}]" for f, idx in factors)
        return None

    # Statements the way users write them (coupled-cluster residuals): a
    # tensor built by several statements (`=` then `+=`), `+=` terms that read
    # their own target in any position, the same product in several
    # statements with other coefficients and signs, statements that begin
    # with the same term, outputs read by later statements, intermediates of
    # intermediates.
    statements = rng.randint(2, 6)
    plan = [f"T{k}" for k in range(max(1, statements - len(outputs)))] + outputs
    plan += [rng.choice(plan) for _ in range(rng.randint(0, 2))]  # updates (+=)
    rng.shuffle(plan)
    # Every output is assigned at least once, the last statement an output's.
    plan = [t for t in plan if t not in outputs] + [t for t in plan if t in outputs]
    assigned, written = set(), []  # written: (target indices, term) so far
    statement_lines = []  # (line number, target, whether it starts its target with +=)

    def coefficient():
        return rng.choice(["", "", "0.5 * ", "3 * ", "2 * ", "0.25 * ", "1.5 * "])

    def reuse(idx):
        """An earlier term (a product without its coefficient) whose target had
        these indices."""
        pool = [t for i, t in written if i == idx]
        return rng.choice(pool) if pool and rng.random() < 0.4 else None

    for target in plan:
        if target not in tensors:
            tensors[target] = shape(rng.randint(1, 3))
        update = target in assigned
        # An update names the target's indices as it was first written, so that
        # earlier terms of the same shape fit it.
        idx = first_idx[target] if update and rng.random() < 0.7 else same_range_names(tensors[target])
        first_idx.setdefault(target, idx)
        if update and target not in readable:
            readable.append(target)  # `+=` reads the value before the statement
        terms = [t for t in (reuse(idx) or term(idx) for _ in range(rng.randint(1, 3))) if t]
        if update and rng.random() < 0.6:
            # The target itself, alone, transposed or times another factor.
            own = same_range_names(tensors[target]) if rng.random() < 0.3 else idx
            factor = f"{target}[{','.join(own)}]"
            if own != idx or rng.random() < 0.5:
                extra = rng.choice(readable)
                factor += f" * {extra}[{','.join(same_range_names(tensors[extra]))}]"
            if set(idx) <= set(own) | set(i for i in factor.split("[")[-1].rstrip("]").split(",")):
                terms.insert(rng.randint(0, len(terms)), factor)
        if not terms:
            continue
        for x, y, _ in output_pairs.get(target, []):
            # An antisymmetric output: every term antisymmetrized in the pair.
            p = f"P({idx[x]},{idx[y]}) "
            terms = [t if p in t else p + t for t in terms]
        op = "+=" if update or (target in outputs and rng.random() < 0.3) else "="
        body = coefficient() + terms[0] + "".join(
            rng.choice([" + ", " - "]) + coefficient() + t for t in terms[1:])
        statement_lines.append((len(lines), target, op == "+=" and target not in assigned,
                                target in assigned))
        lines.append(f"{target}[{','.join(idx)}] {op} {body};")
        written += [(idx, t) for t in terms if not t.startswith(target + "[")]
        assigned.add(target)
        if target not in readable and (target not in outputs or rng.random() < 0.5):
            readable.append(target)
    if not set(outputs) <= assigned:
        return None  # a statement drew no term: draw the program again
    if loops:
        wrap_in_loop(rng, lines, statement_lines, tensors, inputs)
    # Denominators of inputs whose values are as drawn: a pair's or a spin
    # flip's average may be near zero (an antisymmetric pair's diagonal is).
    plain = [] if restricted else [x for x in inputs if x not in paired]
    if denominators is not None and plain and denominators.random() < 0.4:
        add_denominator(denominators, lines, tensors, plain, indices)
    return "\n".join(lines) + "\n"


STATEMENT = re.compile(r"^(\w+)\[([a-z,]*)\] (\+?=) (.*);$")


def add_denominator(rng, lines, tensors, inputs, indices):
    """Before a random statement, `D0[sub] = 1 / (...)`: the element-wise
    reciprocal of one of `inputs` or of a product of two, each factor's indices
    among `sub` (a subset of that statement's target indices: nothing
    summed, so the reciprocal is of exact products, well-conditioned as
    orbital-energy denominators are); the statement's
    first term then takes `D0[sub]` as one more factor (an element-wise
    product, or broadcast). Lines are those of the finished program
    (loops included); nothing happens when no input fits."""
    candidates = [k for k, line in enumerate(lines) if (m := STATEMENT.match(line)) and m.group(2)]
    if not candidates:
        return
    for _ in range(20):
        k = rng.choice(candidates)
        m = STATEMENT.match(lines[k])
        target_idx = m.group(2).split(",")
        sub = rng.sample(target_idx, rng.randint(1, len(target_idx)))
        factors = []
        for _ in range(rng.randint(1, 2)):
            for x in rng.sample(inputs, len(inputs)):
                # The input's positions named by distinct indices of sub, range by range.
                free, named = list(sub), []
                for i in tensors[x]:
                    same = [j for j in free if indices[j] == indices[i]]
                    if not same:
                        break
                    named.append(rng.choice(same))
                    free.remove(named[-1])
                else:
                    factors.append(f"{x}[{','.join(named)}]")
                    break
        if factors:
            break
    else:
        return
    body = m.group(4)
    # The first term ends where the body's first top-level + or - does.
    cut = re.search(r" [+-] ", body)
    at = cut.start() if cut else len(body)
    ref = f"D0[{','.join(sub)}]"
    lines[k] = f"{m.group(1)}[{m.group(2)}] {m.group(3)} {body[:at]} * {ref}{body[at:]};"
    lines.insert(k, f"{ref} = 1 / ({' * '.join(factors)});")


def tensors_are_outputs(name):
    return name.startswith("R")  # outputs are R0, R1 (program() names them)


def wrap_in_loop(rng, lines, statement_lines, tensors, inputs):
    """Repeats a run of consecutive statements 2-3 times (`iterate K { }`).
    Most runs start at an update of a tensor assigned before (which the loop
    then carries); some also halve an input at their end (carried from the
    input: the next iteration and the statements after the loop read the
    halved value). Half the loops with a scalar among their targets stop when
    it converges to a tolerance every change meets (after the second
    iteration), the others run their count. A run never starts an output with
    `+=` (it needs a value before the loop)."""
    updates = [k for k, line in enumerate(statement_lines) if line[3]]
    for _ in range(20):
        if updates and rng.random() < 0.7:
            first = rng.choice(updates)
        else:
            first = rng.randrange(len(statement_lines))
        last = rng.randrange(first, len(statement_lines))
        run = statement_lines[first:last + 1]
        # A loop nothing reads after it (no output among its targets) is
        # dead code, which tcc removes: the run must leave a value.
        after = "\n".join(lines[run[-1][0] + 1:])
        live = any(tensors_are_outputs(line[1]) or f"{line[1]}[" in after for line in run)
        if live and not any(line[2] for line in run):
            break
    else:
        return
    count = rng.randint(2, 3)
    scalars = [line[1] for line in run if tensors[line[1]] == []]
    end = ["}"]
    halves = rng.random() < 0.3
    if halves:
        x = rng.choice(inputs)
        ref = f"{x}[{','.join(tensors[x])}]"
        end.insert(0, f"{ref} = 0.5 * {ref};")
    # A loop that carries a tensor (an update first, or an input halved)
    # extrapolates it by DIIS in some runs (from the third iteration on).
    diis = ""
    if (run[0][3] or halves) and rng.random() < 0.4:
        count, diis = 3, " diis 2"
    header = f"iterate {count}{diis} {{"
    if scalars and rng.random() < 0.5:
        header = f"iterate max {count} until {rng.choice(scalars)} converges to 1e300{diis} {{"
    lines[run[-1][0] + 1:run[-1][0] + 1] = end
    lines.insert(run[0][0], header)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", default="1-3")
    ap.add_argument("--blocks", action="store_true", help="block-sparse programs")
    ap.add_argument("--charges", action="store_true",
                    help="block-sparse programs whose segments carry charges (implies --blocks)")
    ap.add_argument("--restricted", action="store_true",
                    help="spin-restricted block-sparse programs (implies --charges)")
    ap.add_argument("--pairs", action="store_true",
                    help="inputs and outputs with pair symmetries (implies --blocks)")
    ap.add_argument("--loops", action="store_true",
                    help="a run of statements repeated in a loop (iterate)")
    ap.add_argument("--restart", action="store_true",
                    help="runs restart from a checkpoint of a run on another process count "
                         "(implies --loops)")
    ap.add_argument("--keep")
    a = ap.parse_args()
    a.charges |= a.restricted
    a.loops |= a.restart
    a.blocks |= a.charges or a.pairs
    lo, _, hi = a.procs.partition("-")
    counts = list(range(int(lo), int(hi or lo) + 1))
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        failed = run(a, counts, a.keep)
    else:  # the programs and executables go with their directory
        sys.path.insert(0, here)
        import tc_run
        failed = tc_run.in_work_dir("tc-random-programs-", lambda w: run(a, counts, w))
    print(f"{a.count} programs, {failed} failures")
    sys.exit(1 if failed else 0)


def run(a, counts, work):
    rng = random.Random(a.seed)
    tcc = os.environ.get("TCC", os.path.join(root, "build", "bin", "tcc"))
    failed = 0
    translate = os.path.join(os.path.dirname(tcc), "tc-translate")
    for n in range(a.count):
        path = os.path.join(work, f"p{n}.tce")
        for attempt in range(100):  # until every output is assigned and, block-sparse,
            # Denominators draw from a stream of their own: the other draws,
            # and so a seed's programs without one, are as before.
            denominators = random.Random(f"{a.seed}:{n}:{attempt}")
            text = program(rng, n, a.blocks, a.loops, a.charges,  # every tensor has a block
                           a.restricted, a.pairs, denominators)
            if text is None:
                continue
            open(path, "w").write(text)
            if not a.blocks:
                break
            r = subprocess.run([translate, "--import-tce", path], capture_output=True, text=True)
            if "but the terms assigning it here are not" in r.stderr:
                # The outputs' statements do not keep their pairs: without them.
                text = "\n".join(line if not line.startswith("output ") else
                                 re.sub(r" (anti)?symmetric( \[[^\]]*\])+", "", line)
                                 for line in text.split("\n"))
                open(path, "w").write(text)
                r = subprocess.run([translate, "--import-tce", path], capture_output=True,
                                   text=True)
            if "can be non-zero" not in r.stderr and "has no present block" not in r.stderr:
                break
        results = []
        # Every other program plans as the papers do (latency 0), spreading
        # even small statements over the processes; the others with tcc's
        # default latency, which runs small statements whole on every process
        # (docs/Derivations.md D58).
        latency = ["--latency", "0"] if n % 2 == 1 else []
        # Two programs in four are planned statement by statement in one
        # sweep, the others also with each result's readers in view (D59).
        latency += ["--plan-sweeps", "1"] if (n // 2) % 2 == 1 else []
        # In memory, and out of core with a cap drawn for this program.
        for mem in ["4MB", rng.choice(["2KB", "4KB", "8KB", "16KB"])]:
            exe = os.path.join(work, f"p{n}-{mem}")
            r = subprocess.run([tcc, path, "-o", exe, "--procs", a.procs, "--mem", mem,
                                "--net-bw", "1GB/s", "--disk-bw", "200MB/s",
                                "--check-rewrites", "true", "--min-summed-volume", "2"] + latency,
                               capture_output=True, text=True)
            if r.returncode != 0:
                # A memory too small for some statement is the planner's refusal.
                if mem != "4MB" and ("raise mem" in r.stderr or "fits in" in r.stderr or
                                     "no out-of-core schedule" in r.stderr):
                    results.append(f"{mem}: no plan")
                    continue
                print(text + r.stderr)
                results.append(f"{mem}: COMPILE FAILED")
                failed += 1
                continue
            for k, np in enumerate(counts):
                restart = []
                if a.restart and "iterate" in text:  # every other count from itself
                    restart = ["--restart-from", str(counts[(k + k % 2) % len(counts)])]
                r = subprocess.run([sys.executable, os.path.join(here, "run-program.py"), exe,
                                    "--tce", path, "--np", str(np), "--check-bytes",
                                    "--diis-rounding",
                                    "--seed", str(n)] + restart, capture_output=True, text=True)
                ok = r.returncode == 0 and r.stdout.rstrip().endswith("OK")
                if not ok:
                    print(text + r.stdout + r.stderr)
                    failed += 1
                results.append(f"{mem} np{np}: {'OK' if ok else 'FAIL'}")
        print(f"program {n} ({text.count(';') - 1} lines): " + ", ".join(results), flush=True)
    return failed


if __name__ == "__main__":
    main()
